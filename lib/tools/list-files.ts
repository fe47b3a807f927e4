import { z } from "zod";
import { IgnoreRules } from "../git/ignore";
import { defineTool, errorResult, type ToolResult } from "./define";
import { fsErrorMessage, plural, resolvePath, shown } from "./util";

const description = `List the files and directories of the workspace as an indented tree.

- path: a directory relative to the workspace root ("" or "." for the root, the default).
- recursive (default true): descend into subdirectories; false lists one level.
- Files ignored by .gitignore (node_modules/, build output, …) and .git/ are left out; the output says how many entries were skipped.
- Directories end with "/". Long listings are cut (max_entries, default 500) with a note: list a subdirectory to see more.`;

const inputSchema = z.object({
  path: z.string().optional().describe("Directory to list, relative to the workspace root (default: the root)"),
  recursive: z.boolean().optional().describe("List subdirectories too (default true)"),
  max_entries: z.number().int().min(1).max(5000).optional().describe("Maximum entries to list (default 500)"),
});

export type ListFilesInput = z.infer<typeof inputSchema>;

export const listFilesTool = defineTool<ListFilesInput>({
  name: "list_files",
  description,
  inputSchema,
  effects: ["read"],
  approval: "read",
  async execute(input, ctx): Promise<ToolResult> {
    let root: string;
    try {
      root = resolvePath(ctx.wsfs, input.path ?? "");
    } catch (err) {
      return errorResult(fsErrorMessage(err, input.path ?? ""));
    }
    const st = await ctx.wsfs.stat(root).catch(() => null);
    if (!st) return errorResult(`${shown(root)} does not exist`);
    if (st.type !== "dir") return errorResult(`${root} is a file, not a directory; use read_files to read it`);
    const max = input.max_entries ?? ctx.limits.listMaxEntries;
    const recursive = input.recursive ?? true;
    const rules = new IgnoreRules(ctx.repo);
    const lines: string[] = [];
    let listed = 0;
    let ignored = 0;
    let cut = false;

    const walk = async (dir: string, depth: number): Promise<void> => {
      if (cut || ctx.signal.aborted) return;
      await rules.prepare(dir === "" ? "x" : dir + "/x");
      let entries;
      try {
        entries = await ctx.wsfs.readdir(dir);
      } catch (err) {
        lines.push(`${"  ".repeat(depth)}[cannot list: ${fsErrorMessage(err, shown(dir))}]`);
        return;
      }
      for (const e of entries) {
        if (cut) return;
        const rel = dir === "" ? e.name : `${dir}/${e.name}`;
        if (e.name.toLowerCase() === ".git") continue;
        if (rules.test(rel, e.type === "dir")) {
          ignored++;
          continue;
        }
        if (listed >= max) {
          cut = true;
          return;
        }
        listed++;
        lines.push(`${"  ".repeat(depth)}${e.name}${e.type === "dir" ? "/" : e.type === "symlink" ? " ->" : ""}`);
        if (e.type === "dir" && recursive) await walk(rel, depth + 1);
      }
    };
    await walk(root, 0);

    const header = `${shown(root)}/`;
    const notes: string[] = [];
    if (lines.length === 0) notes.push("(empty)");
    if (cut) notes.push(`[Listing cut at ${max} entries. List a subdirectory, or pass a larger max_entries, to see more.]`);
    if (ignored > 0) notes.push(`[${plural(ignored, "entry", "entries")} ignored by .gitignore not shown.]`);
    const output = [header, ...lines.map((l) => "  " + l), ...notes].join("\n");
    return {
      output,
      summary: `Listed ${plural(listed, "entry", "entries")} in ${shown(root)}${cut ? " (cut)" : ""}`,
      data: { path: root, entries: listed, ignored, truncated: cut },
    };
  },
});
