import { z } from "zod";
import { defineTool, errorResult, type ToolContext, type ToolPlan, type ToolResult } from "./define";
import { countLines, fsErrorMessage, lineEnding, plural, previewFile, readTextFile, resolvePath, shown } from "./util";

const description = `View, create and edit text files of the workspace. Paths are relative to the workspace root.

Commands:
- "view": show a file with line numbers (optionally view_range [start, end], 1-based; end -1 = to the end), or list a directory.
- "create": write file_text to path, creating the file and its parent directories (an existing file is replaced entirely).
- "str_replace": replace the exact text old_str with new_str. old_str must match the file EXACTLY (whitespace and indentation included) and occur exactly ONCE: include enough surrounding lines to make it unique. Do not include the line numbers shown by view/read_files.
- "insert": insert new_str after line insert_line (0 inserts at the top of the file).

When an edit cannot be applied, the result says exactly why (file missing, text not found, found several times, …) and nothing is written. Prefer str_replace for changes to existing files; use create for new files.`;

const inputSchema = z
  .object({
    command: z.enum(["view", "create", "str_replace", "insert"]).describe("The operation"),
    path: z.string().min(1).describe("Workspace-relative file path"),
    file_text: z.string().optional().describe("create: the whole content of the file"),
    old_str: z.string().optional().describe("str_replace: the exact text to replace (must occur exactly once)"),
    new_str: z.string().optional().describe("str_replace: the replacement; insert: the text to insert"),
    insert_line: z.number().int().min(0).optional().describe("insert: the line after which new_str goes (0 = top)"),
    view_range: z.array(z.number().int()).length(2).optional().describe("view: [start_line, end_line], end -1 = end of file"),
  })
  .superRefine((v, ctx) => {
    const need = (field: string, when: string) => ctx.addIssue({ code: "custom", path: [field], message: `${field} is required for command "${when}"` });
    if (v.command === "create" && v.file_text === undefined) need("file_text", "create");
    if (v.command === "str_replace") {
      if (v.old_str === undefined) need("old_str", "str_replace");
      if (v.new_str === undefined) need("new_str", "str_replace");
    }
    if (v.command === "insert") {
      if (v.new_str === undefined) need("new_str", "insert");
      if (v.insert_line === undefined) need("insert_line", "insert");
    }
  });

export type EditorInput = z.infer<typeof inputSchema>;

type EditState = { rel: string; before: string | null; after: string };

const MAX_EDIT_BYTES = 5 * 1024 * 1024;

export const editorTool = defineTool<EditorInput, EditState>({
  name: "editor",
  description,
  inputSchema,
  effects: ["read", "file-write"],
  effectsFor: (input) => (input.command === "view" ? ["read"] : ["file-write"]),
  approval: (input) => (input.command === "view" ? "read" : "edit"),

  plan: planEdit,

  async execute(input, ctx, plan): Promise<ToolResult> {
    if (input.command === "view") return view(input, ctx);
    let state = plan?.state;
    if (!state) {
      const planned = await planEdit(input, ctx);
      if ("output" in planned) return planned;
      state = planned.state;
    }
    // The user may have edited the file while the approval was pending: never overwrite that.
    const now = await currentText(ctx, state.rel);
    if (now !== state.before) {
      return errorResult(
        `${state.rel} changed after this edit was proposed (someone else edited it), so the edit was not applied. Read the file again and redo the edit against its current content.`,
      );
    }
    try {
      await ctx.wsfs.writeFile(state.rel, state.after, { origin: ctx.origin });
    } catch (err) {
      return errorResult(`Could not write ${fsErrorMessage(err, state.rel)}`);
    }
    const p = previewFile(state.rel, state.before, state.after);
    const verb = state.before === null ? "Created" : input.command === "create" ? "Rewrote" : "Edited";
    const summary = `${verb} ${state.rel} (+${p.added} −${p.removed})`;
    let output = `${verb} ${state.rel}: +${p.added} −${p.removed} lines, now ${plural(countLines(state.after), "line")}.`;
    if (input.command !== "create") output += `\n${contextSnippet(state.after, input)}`;
    return { output, summary, data: { path: state.rel, change: p.change, diff: p.diff, added: p.added, removed: p.removed } };
  },
});

async function planEdit(input: EditorInput, ctx: ToolContext): Promise<ToolPlan<EditState> | ToolResult> {
  if (input.command === "view") return { preview: { kind: "text", text: `View ${input.path}` }, state: { rel: input.path, before: null, after: "" } };
  let rel: string;
  try {
    rel = resolvePath(ctx.wsfs, input.path);
  } catch (err) {
    return errorResult(fsErrorMessage(err, input.path));
  }
  if (rel === "") return errorResult(`"${input.path}" is the workspace root, not a file`);
  if (ctx.readOnly) return errorResult(`Cannot ${input.command} ${rel}: the workspace is read-only in ${ctx.mode} mode`);
  const after = await computeEdit(input, rel, ctx);
  if ("output" in after) return after;
  return { preview: { kind: "diff", files: [previewFile(rel, after.before, after.after)] }, state: after };
}

async function currentText(ctx: ToolContext, rel: string): Promise<string | null> {
  const r = await readTextFile(ctx.wsfs, rel, MAX_EDIT_BYTES);
  return r.ok ? r.text : null;
}

async function computeEdit(input: EditorInput, rel: string, ctx: ToolContext): Promise<EditState | ToolResult> {
  const read = await readTextFile(ctx.wsfs, rel, MAX_EDIT_BYTES);
  if (input.command === "create") {
    if (!read.ok && read.reason !== "missing") {
      if (read.reason === "directory") return errorResult(`Cannot create ${rel}: a directory with that name exists`);
      if (read.reason === "binary" || read.reason === "too-large") return errorResult(`Cannot replace ${rel}: ${read.message}`);
      return errorResult(read.message);
    }
    const before = read.ok ? read.text : null;
    if (before === input.file_text) return errorResult(`${rel} already has exactly this content; nothing to change`);
    return { rel, before, after: input.file_text! };
  }

  if (!read.ok) {
    if (read.reason === "missing") {
      return errorResult(`File ${rel} does not exist, so the ${input.command} was not applied. Check the path (list_files), or use command "create" to make a new file.`);
    }
    return errorResult(`Cannot edit ${rel}: ${read.message}`);
  }
  const text = read.text;
  const eol = lineEnding(text);
  const adapt = (s: string) => (eol === "\r\n" ? s.replace(/\r?\n/g, "\r\n") : s);

  if (input.command === "str_replace") {
    const oldRaw = input.old_str!;
    if (oldRaw === "") return errorResult(`old_str is empty. To add text use command "insert" (or "create" to rewrite the file).`);
    if (oldRaw === input.new_str) return errorResult(`old_str and new_str are identical, so nothing would change in ${rel}.`);
    const oldStr = adapt(oldRaw);
    const newStr = adapt(input.new_str!);
    const at = occurrences(text, oldStr);
    if (at.length === 0) return errorResult(notFoundMessage(rel, text, oldStr));
    if (at.length > 1) {
      const lines = at.map((i) => lineOf(text, i));
      return errorResult(
        `old_str occurs ${at.length} times in ${rel} (starting at lines ${lines.join(", ")}), so the edit was not applied. Include more surrounding lines in old_str so that it matches exactly one place.`,
      );
    }
    const i = at[0]!;
    return { rel, before: text, after: text.slice(0, i) + newStr + text.slice(i + oldStr.length) };
  }

  // insert
  const lines = splitKeepEnds(text);
  const n = input.insert_line!;
  if (n > lines.length) {
    return errorResult(`insert_line ${n} is past the end of ${rel}, which has ${plural(lines.length, "line")}. Use a value from 0 to ${lines.length}.`);
  }
  let insert = adapt(input.new_str!);
  if (insert !== "" && !insert.endsWith("\n")) insert += eol;
  // Appending after a last line without a newline: give that line its newline first.
  if (n === lines.length && n > 0 && !lines[n - 1]!.endsWith("\n")) lines[n - 1] += eol;
  const after = lines.slice(0, n).join("") + insert + lines.slice(n).join("");
  if (after === text) return errorResult(`new_str is empty: nothing would change in ${rel}.`);
  return { rel, before: text, after };
}

function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

function splitKeepEnds(text: string): string[] {
  if (text === "") return [];
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Explain a failed match, pointing at a near miss when whitespace is the only difference. */
function notFoundMessage(rel: string, text: string, oldStr: string): string {
  const base = `old_str was not found in ${rel}, so the edit was not applied. It must match the file exactly, including whitespace, indentation and line breaks (and without line-number prefixes).`;
  if (/^\s*\d+\t/.test(oldStr) || /^\s*\d+\s*\|/.test(oldStr)) {
    return base + ` Your old_str seems to start with a line number copied from view/read_files output: remove those prefixes.`;
  }
  const norm = (s: string) => s.replace(/[ \t]+/g, " ").replace(/ ?\r?\n ?/g, "\n").trim();
  const wanted = norm(oldStr);
  const fileLines = text.split(/\r?\n/);
  const firstWanted = wanted.split("\n")[0] ?? "";
  const span = Math.max(1, oldStr.split(/\r?\n/).length);
  if (firstWanted) {
    for (let i = 0; i < fileLines.length; i++) {
      if (norm(fileLines[i]!) !== firstWanted && !norm(fileLines[i]!).includes(firstWanted)) continue;
      const candidate = fileLines.slice(i, i + span).join("\n");
      if (norm(candidate) === wanted || norm(candidate).includes(wanted)) {
        return (
          base +
          ` A passage that differs only in whitespace/indentation starts at line ${i + 1}:\n` +
          fileLines
            .slice(i, i + Math.min(span, 12))
            .map((l, k) => `${i + 1 + k}\t${l}`)
            .join("\n") +
          `\nCopy it exactly into old_str.`
        );
      }
    }
    const hit = fileLines.findIndex((l) => norm(l).includes(firstWanted));
    if (hit !== -1 && span > 1) {
      return base + ` Its first line appears at line ${hit + 1}, but the following lines differ: view the file around line ${hit + 1} and copy the current text.`;
    }
  }
  return base + ` View the file to see its current content.`;
}

/** The edited region with a little context, so the model sees the result without a re-read. */
function contextSnippet(after: string, input: EditorInput): string {
  const raw = input.command === "insert" ? input.new_str! : input.new_str ?? "";
  let inserted = raw;
  let idx = inserted ? after.indexOf(inserted) : -1;
  if (idx === -1 && raw) {
    inserted = raw.replace(/\r?\n/g, "\r\n"); // the file uses CRLF
    idx = after.indexOf(inserted);
  }
  if (idx === -1) return "";
  const lines = after.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const first = lineOf(after, idx);
  const last = first + Math.max(0, inserted.split(/\r?\n/).length - 1);
  const from = Math.max(1, first - 3);
  const to = Math.min(lines.length, last + 3);
  if (to - from > 40) return "";
  const width = String(to).length;
  return `Lines ${from}-${to} now read:\n` + lines.slice(from - 1, to).map((l, k) => `${String(from + k).padStart(width)}\t${l}`).join("\n");
}

async function view(input: EditorInput, ctx: ToolContext): Promise<ToolResult> {
  let rel: string;
  try {
    rel = resolvePath(ctx.wsfs, input.path);
  } catch (err) {
    return errorResult(fsErrorMessage(err, input.path));
  }
  const st = await ctx.wsfs.stat(rel).catch(() => null);
  if (!st) return errorResult(`${shown(rel)} does not exist. Use list_files to see which files exist.`);
  if (st.type === "dir") {
    const entries = await ctx.wsfs.readdir(rel);
    const lines = entries.filter((e) => e.name !== ".git").map((e) => `  ${e.name}${e.type === "dir" ? "/" : ""}`);
    return { output: `${shown(rel)}/\n${lines.join("\n") || "  (empty)"}`, summary: `Listed ${shown(rel)}` };
  }
  const read = await readTextFile(ctx.wsfs, rel, ctx.limits.readMaxFileBytes);
  if (!read.ok) return errorResult(read.message);
  const lines = read.text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const total = read.text === "" ? 0 : lines.length;
  let [start, end] = input.view_range ?? [1, -1];
  if (start < 1) start = 1;
  if (end === -1 || end > total) end = total;
  if (total > 0 && start > total) return errorResult(`${rel} has ${plural(total, "line")}; view_range starts past its end`);
  if (end < start && total > 0) return errorResult(`view_range [${start}, ${end}] is empty`);
  let cut = false;
  if (!input.view_range && end - start + 1 > ctx.limits.readMaxLines) {
    end = start + ctx.limits.readMaxLines - 1;
    cut = true;
  }
  const width = String(Math.max(end, 1)).length;
  let body = lines
    .slice(start - 1, end)
    .map((l, k) => `${String(start + k).padStart(width)}\t${l}`)
    .join("\n");
  if (body.length > ctx.limits.readMaxCharsPerFile) {
    body = body.slice(0, ctx.limits.readMaxCharsPerFile);
    cut = true;
  }
  if (total === 0) body = "(empty file)";
  if (cut) body += `\n[… cut; use view_range to see lines after ${end}]`;
  return { output: body, summary: `Viewed ${rel}`, data: { path: rel } };
}
