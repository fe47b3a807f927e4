import { z } from "zod";
import { looksBinary } from "../editor/file-kind";
import { IgnoreRules } from "../git/ignore";
import { buildMatcher } from "../search/find-in-files";
import { defineTool, errorResult, type ToolResult } from "./define";
import { fsErrorMessage, plural, resolvePath, shown } from "./util";

const description = `Search the text files of the workspace with a regular expression (JavaScript syntax), line by line.

- query: the regex, e.g. "function\\s+greet" or "TODO|FIXME". Escape regex characters to search literally.
- Case-insensitive unless the query contains an uppercase letter (or case_sensitive is set).
- path: limit the search to a directory or file; include: a glob on the path such as "*.ts" or "src/**/*.tsx".
- Files ignored by .gitignore, binary files and files over 5 MB are skipped.
- Results are "path:line: text", grouped by file, at most max_results lines (default 200); the output says when it was cut: narrow the query or the path then.`;

const inputSchema = z.object({
  query: z.string().min(1).describe("Regular expression to search for"),
  path: z.string().optional().describe("Directory or file to search in (default: the whole workspace)"),
  include: z.string().optional().describe('Glob the file path must match, e.g. "*.ts" or "src/**/*.css"'),
  case_sensitive: z.boolean().optional().describe("Force case-sensitive (true) or insensitive (false) matching"),
  max_results: z.number().int().min(1).max(2000).optional().describe("Maximum matching lines (default 200)"),
});

export type SearchCodebaseInput = z.infer<typeof inputSchema>;

const MAX_FILE_BYTES = 5 * 1024 * 1024;
const PREVIEW = 200;
const CONCURRENCY = 16;

export const searchCodebaseTool = defineTool<SearchCodebaseInput>({
  name: "search_codebase",
  description,
  inputSchema,
  effects: ["read"],
  approval: "read",
  async execute(input, ctx): Promise<ToolResult> {
    const caseSensitive = input.case_sensitive ?? /[A-Z]/.test(input.query.replace(/\\./g, ""));
    let matcher: RegExp;
    try {
      // lib/search's matcher (the editor's find-in-files uses the same one).
      matcher = buildMatcher(input.query, { regex: true, caseSensitive });
    } catch (err) {
      return errorResult(`${(err as Error).message}. Fix the pattern (JavaScript regex syntax) or escape special characters to search literally.`);
    }
    let root: string;
    try {
      root = resolvePath(ctx.wsfs, input.path ?? "");
    } catch (err) {
      return errorResult(fsErrorMessage(err, input.path ?? ""));
    }
    const st = await ctx.wsfs.stat(root).catch(() => null);
    if (!st) return errorResult(`${shown(root)} does not exist`);
    const include = input.include ? globToRegExp(input.include) : null;
    const max = input.max_results ?? ctx.limits.searchMaxResults;
    const rules = new IgnoreRules(ctx.repo);

    // Candidate files; ignored directories are skipped without descending into them.
    const files: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      if (ctx.signal.aborted) return;
      await rules.prepare(dir === "" ? "x" : dir + "/x");
      const entries = await ctx.wsfs.readdir(dir).catch(() => []);
      const subdirs: string[] = [];
      for (const e of entries) {
        if (e.name.toLowerCase() === ".git") continue;
        const rel = dir === "" ? e.name : `${dir}/${e.name}`;
        if (rules.test(rel, e.type === "dir")) continue;
        if (e.type === "dir") subdirs.push(rel);
        else if (e.type === "file" && (!include || include.test(rel) || include.test(rel.slice(rel.lastIndexOf("/") + 1)))) files.push(rel);
      }
      await Promise.all(subdirs.map(walk));
    };
    if (st.type === "dir") await walk(root);
    else files.push(root);
    files.sort();

    // Search in parallel batches (IndexedDB pipelines requests), report in path order.
    const perFile = new Map<string, { line: number; text: string }[]>();
    let searched = 0;
    let total = 0;
    let cut = false;
    for (let i = 0; i < files.length && !cut && !ctx.signal.aborted; i += CONCURRENCY) {
      const batch = files.slice(i, i + CONCURRENCY);
      const results = await Promise.all(
        batch.map(async (path) => {
          const s = await ctx.wsfs.stat(path).catch(() => null);
          if (!s || s.type !== "file" || s.size > MAX_FILE_BYTES) return null;
          const bytes = await ctx.wsfs.readFile(path).catch(() => null);
          if (!bytes || looksBinary(bytes)) return null;
          const re = new RegExp(matcher.source, matcher.flags);
          const lines = new TextDecoder().decode(bytes).split(/\r?\n/);
          const hits: { line: number; text: string }[] = [];
          for (let n = 0; n < lines.length; n++) {
            re.lastIndex = 0;
            const m = re.exec(lines[n]!);
            if (!m) continue;
            const line = lines[n]!;
            const start = line.length > PREVIEW ? Math.max(0, m.index - 60) : 0;
            let text = line.slice(start, start + PREVIEW);
            if (start > 0) text = "…" + text;
            if (start + PREVIEW < line.length) text += "…";
            hits.push({ line: n + 1, text });
            if (hits.length > max) break;
          }
          return { path, hits };
        }),
      );
      for (const r of results) {
        if (!r) continue;
        searched++;
        if (r.hits.length === 0) continue;
        const room = max - total;
        if (r.hits.length > room) {
          if (room > 0) perFile.set(r.path, r.hits.slice(0, room));
          total = max;
          cut = true;
          break;
        }
        perFile.set(r.path, r.hits);
        total += r.hits.length;
      }
    }

    const out: string[] = [];
    for (const [path, hits] of perFile) {
      out.push(path);
      for (const h of hits) out.push(`  ${h.line}: ${h.text}`);
    }
    if (total === 0) {
      out.push(`No matches for /${input.query}/${caseSensitive ? "" : "i"} in ${plural(searched, "file")}${root ? ` under ${root}` : ""}.`);
    } else {
      out.push(`${plural(total, "match", "matches")} in ${plural(perFile.size, "file")} (${searched} searched).`);
    }
    if (cut) out.push(`[Results cut at ${max} matches: narrow the query, the path or the include glob to see the rest.]`);
    return {
      output: out.join("\n"),
      summary: total === 0 ? `No matches for ${input.query}` : `${plural(total, "match", "matches")} in ${plural(perFile.size, "file")}${cut ? " (cut)" : ""}`,
      data: { matches: total, files: perFile.size, searched, truncated: cut },
    };
  },
});

/** A path glob: "*" and "?" stay inside a segment, "**" crosses directories, {a,b} alternates. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        i++;
        if (glob[i + 1] === "/") {
          i++;
          re += "(?:.*/)?";
        } else re += ".*";
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (c === "{") {
      const end = glob.indexOf("}", i);
      if (end === -1) re += "\\{";
      else {
        re += "(?:" + glob.slice(i + 1, end).split(",").map(escapeRe).join("|") + ")";
        i = end;
      }
    } else re += escapeRe(c);
  }
  return new RegExp("^" + re + "$");
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
