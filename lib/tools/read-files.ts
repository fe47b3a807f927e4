import { z } from "zod";
import { defineTool, errorResult, type ToolResult } from "./define";
import { looksBinary } from "../editor/file-kind";
import { readLineRange } from "../search/text-lines";
import { formatSize, fsErrorMessage, plural, readTextFile, resolvePath } from "./util";

/** Largest file whose lines can be read by range (its bytes are held while the range is cut out). */
export const RANGE_READ_MAX_BYTES = 128 * 1024 * 1024;

const description = `Read one or more text files of the workspace.

- Paths are relative to the workspace root (e.g. "src/index.ts").
- Each line is prefixed with its 1-based line number and a tab; the numbers are NOT part of the file.
- Give start_line / end_line (1-based, inclusive) to read part of a long file. Without a range, at most 2000 lines are returned; the output says when a file was cut, and how to read the rest.
- Read several related files in one call rather than one call per file.
- Large text files (over 5 MB) are read by line range too: only the lines asked for (or the first 2000) are returned. Binary files are refused.`;

const inputSchema = z.object({
  files: z
    .array(
      z.object({
        path: z.string().min(1).describe("Workspace-relative path of the file"),
        start_line: z.number().int().min(1).optional().describe("First line to read (1-based)"),
        end_line: z.number().int().min(1).optional().describe("Last line to read (1-based, inclusive)"),
      }),
    )
    .min(1)
    .max(50)
    .describe("The files to read"),
});

export type ReadFilesInput = z.infer<typeof inputSchema>;

export const readFilesTool = defineTool<ReadFilesInput>({
  name: "read_files",
  description,
  inputSchema,
  effects: ["read"],
  approval: "read",
  async execute(input, ctx): Promise<ToolResult> {
    const { limits } = ctx;
    const parts: string[] = [];
    const files: { path: string; lines?: [number, number]; error?: string; truncated?: boolean }[] = [];
    let total = 0;
    let errors = 0;
    const fail = (path: string, msg: string) => {
      errors++;
      parts.push(`<file path=${JSON.stringify(path)} error>\n${msg}\n</file>`);
      files.push({ path, error: msg });
    };
    for (const spec of input.files) {
      if (ctx.signal.aborted) break;
      let rel: string;
      try {
        rel = resolvePath(ctx.wsfs, spec.path);
      } catch (err) {
        fail(spec.path, `${spec.path}: ${(err as Error).message}`);
        continue;
      }
      const start = spec.start_line ?? 1;
      if (spec.end_line !== undefined && spec.end_line < start) {
        fail(rel, `${rel}: end_line (${spec.end_line}) is before start_line (${start})`);
        continue;
      }
      const wantedEnd = spec.end_line ?? start + limits.readMaxLines - 1;
      // Every numbered line costs at least 3 characters of the budget: decode no more than fit.
      const decodeEnd = Math.min(wantedEnd, start + Math.ceil(limits.readMaxCharsPerFile / 3));
      const source = await readLines(ctx.wsfs, rel, limits.readMaxFileBytes, start, decodeEnd, limits.readMaxCharsPerFile);
      if (!source.ok) {
        fail(rel, source.message);
        continue;
      }
      const { lineCount, line: lineAt, large } = source;
      if (lineCount > 0 && start > lineCount) {
        fail(rel, `${rel} has ${plural(lineCount, "line")}; start_line ${start} is past its end`);
        continue;
      }
      const explicitEnd = spec.end_line !== undefined;
      let end = Math.min(lineCount, wantedEnd);
      const budget = Math.min(limits.readMaxCharsPerFile, limits.readMaxCharsTotal - total);
      const width = String(Math.max(end, 1)).length;
      const out: string[] = [];
      let used = 0;
      let cutByChars = false;
      for (let n = start; n <= end; n++) {
        let text = lineAt(n);
        // One giant line (minified code) is cut rather than sent whole.
        const room = budget - used - width - 2;
        if (text.length > room && out.length === 0) text = text.slice(0, Math.max(0, room - 80)) + ` [… line ${n} cut: ${text.length} characters]`;
        const line = `${String(n).padStart(width)}\t${text}`;
        if (used + line.length + 1 > budget && out.length > 0) {
          end = n - 1;
          cutByChars = true;
          break;
        }
        out.push(line);
        used += line.length + 1;
      }
      total += used;
      const cut = end < lineCount && (!explicitEnd || cutByChars);
      let body = out.join("\n");
      if (lineCount === 0) body = "(empty file)";
      const range = lineCount === 0 ? "" : ` lines="${start}-${end}" total_lines="${lineCount}"${large ? ` size="${formatSize(large)}"` : ""}`;
      if (cut) body += `\n[… ${rel} continues: lines ${end + 1}-${lineCount} not shown. Read them with start_line=${end + 1}.]`;
      parts.push(`<file path=${JSON.stringify(rel)}${range}>\n${body}\n</file>`);
      files.push({ path: rel, lines: lineCount === 0 ? undefined : [start, end], truncated: cut || undefined });
      if (total >= limits.readMaxCharsTotal) {
        const rest = input.files.length - files.length;
        if (rest > 0) parts.push(`[Output limit reached: ${plural(rest, "more file")} not read. Read them in another call.]`);
        break;
      }
    }
    const okCount = files.filter((f) => !f.error).length;
    const summary =
      errors === 0 ? `Read ${okCount === 1 ? files[0]!.path : plural(okCount, "file")}` : `Read ${plural(okCount, "file")}, ${plural(errors, "error")}`;
    if (okCount === 0 && errors > 0) return errorResult(parts.join("\n"), summary, { files });
    return { output: parts.join("\n"), summary, data: { files } };
  },
});

type LineSource =
  | { ok: true; lineCount: number; line: (n: number) => string; large?: number }
  | { ok: false; message: string };

/**
 * The lines of a text file. A file up to `maxBytes` is decoded whole; a larger one (up to
 * RANGE_READ_MAX_BYTES) has only lines `first`…`last` decoded from its bytes, each cut at
 * `maxLineChars`, so what reaches the model is bounded by the range, not by the file.
 */
async function readLines(wsfs: Parameters<typeof readTextFile>[0], rel: string, maxBytes: number, first: number, last: number, maxLineChars: number): Promise<LineSource> {
  const read = await readTextFile(wsfs, rel, maxBytes);
  if (read.ok) {
    const lines = read.text.split(/\r?\n/);
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    return { ok: true, lineCount: read.text === "" ? 0 : lines.length, line: (n) => lines[n - 1] ?? "" };
  }
  if (read.reason !== "too-large") return { ok: false, message: read.message };
  const size = read.size ?? 0;
  if (size > RANGE_READ_MAX_BYTES) {
    return { ok: false, message: `${rel} is ${formatSize(size)}, over the ${formatSize(RANGE_READ_MAX_BYTES)} limit even for reading by range; inspect it with run_commands (head, sed -n)` };
  }
  let bytes: Uint8Array;
  try {
    bytes = await wsfs.readFile(rel);
  } catch (err) {
    return { ok: false, message: fsErrorMessage(err, rel) };
  }
  if (looksBinary(bytes)) return { ok: false, message: `${rel} is a binary file (${formatSize(bytes.length)}); only text files can be read` };
  // 4 bytes per character at most: a line cut at this many bytes still fills maxLineChars.
  const range = readLineRange(bytes, first, last, maxLineChars * 4);
  return {
    ok: true,
    lineCount: range.totalLines,
    large: bytes.length,
    line: (n) => {
      const l = range.lines[n - first];
      return l ? l.text + (l.cut ? " [… cut]" : "") : "";
    },
  };
}
