/** Helpers shared by the built-in tools: output cutting, diffs for previews, paths, reading. */
import { structuredPatch } from "diff";
import { looksBinary } from "../editor/file-kind";
import type { WorkspaceFs } from "../fs/workspace-fs";
import type { PreviewFile } from "./define";

/**
 * Keep the head and the tail of a long text, with a note in the middle saying how much was cut
 * (the end of a command's output — the error, the summary line — matters as much as its start).
 */
export function headTail(text: string, maxChars: number, what = "output"): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const keep = Math.max(0, maxChars - 120);
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  const cutHead = cutAtLine(text.slice(0, head), "end");
  const cutTail = cutAtLine(text.slice(text.length - tail), "start");
  const omitted = text.length - cutHead.length - cutTail.length;
  const omittedLines = countLines(text.slice(cutHead.length, text.length - cutTail.length));
  return {
    text: `${cutHead}\n[… ${omitted} characters (${omittedLines} lines) of ${what} omitted …]\n${cutTail}`,
    truncated: true,
  };
}

/** Keep only the head, with a note. */
export function headOnly(text: string, maxChars: number, note: string): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  return { text: cutAtLine(text.slice(0, maxChars), "end") + `\n[… ${note}]`, truncated: true };
}

/** Trim a cut piece back to a line boundary when one is reasonably close. */
function cutAtLine(piece: string, side: "start" | "end"): string {
  if (side === "end") {
    const i = piece.lastIndexOf("\n");
    return i > piece.length * 0.8 ? piece.slice(0, i) : piece;
  }
  const i = piece.indexOf("\n");
  return i !== -1 && i < piece.length * 0.2 ? piece.slice(i + 1) : piece;
}

export function countLines(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/** The preview entry of a change, with a unified diff computed from the two texts. */
export function previewFile(path: string, before: string | null, after: string | null): PreviewFile {
  const change: PreviewFile["change"] = before === null ? "create" : after === null ? "delete" : "modify";
  const patch = structuredPatch(
    before === null ? "/dev/null" : `a/${path}`,
    after === null ? "/dev/null" : `b/${path}`,
    before ?? "",
    after ?? "",
    undefined,
    undefined,
    { context: 3 },
  );
  let added = 0;
  let removed = 0;
  const lines: string[] = [`--- ${before === null ? "/dev/null" : "a/" + path}`, `+++ ${after === null ? "/dev/null" : "b/" + path}`];
  for (const h of patch.hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const l of h.lines) {
      if (l.startsWith("+")) added++;
      else if (l.startsWith("-")) removed++;
      lines.push(l);
    }
  }
  return { path, change, diff: lines.join("\n") + "\n", added, removed };
}

/**
 * A path from the model, made workspace-relative. Models write paths several ways: "src/a.ts",
 * "/src/a.ts" (the editor's style), "./src/a.ts", "/workspace/src/a.ts" (the shell's mount) or
 * the absolute path inside the workspace's fs. All mean the same file; anything else that
 * leaves the workspace is refused by WorkspaceFs.
 */
export function resolvePath(wsfs: WorkspaceFs, path: string): string {
  let p = path.trim();
  if (p.startsWith("/")) {
    const dir = wsfs.dir;
    if (dir !== "/" && (p === dir || p.startsWith(dir + "/"))) return wsfs.toRel(p);
    if (p === "/workspace" || p.startsWith("/workspace/")) p = p.slice("/workspace".length);
    p = p.replace(/^\/+/, "");
  }
  return wsfs.toRel(p);
}

/** Workspace-relative display path ("" shows as "."). */
export function shown(rel: string): string {
  return rel === "" ? "." : rel;
}

/** A human message for an error thrown by lib/fs (confinement, not found, read-only…). */
export function fsErrorMessage(err: unknown, path: string): string {
  const e = err as { code?: unknown; message?: unknown };
  switch (e?.code) {
    case "ENOENT":
    case "ENOTDIR":
      return `${path}: no such file or directory`;
    case "EISDIR":
      return `${path} is a directory, not a file`;
    case "EROFS":
      return `${path}: the workspace is read-only in this mode, nothing can be changed`;
    case "ESCAPE":
      return `${path}: the path leaves the workspace; use a path relative to the workspace root`;
    case "GITDIR":
      return `${path}: files inside .git/ cannot be changed by tools`;
    case "NUL":
    case "INVALID":
      return `${path}: not a valid workspace path`;
    case "QUOTA":
      return `${path}: browser storage is full; the file was not changed`;
  }
  return `${path}: ${typeof e?.message === "string" ? e.message : String(err)}`;
}

/** Read a text file, or say precisely why not. */
export type TextRead =
  | { ok: true; text: string; size: number }
  | { ok: false; reason: "missing" | "directory" | "binary" | "too-large" | "error"; message: string; size?: number };

export async function readTextFile(wsfs: WorkspaceFs, rel: string, maxBytes: number): Promise<TextRead> {
  let st;
  try {
    st = await wsfs.stat(rel);
  } catch (err) {
    return { ok: false, reason: "error", message: fsErrorMessage(err, rel) };
  }
  if (!st) return { ok: false, reason: "missing", message: `${shown(rel)} does not exist` };
  if (st.type === "dir") return { ok: false, reason: "directory", message: `${shown(rel)} is a directory; use list_files to see what it contains` };
  if (st.size > maxBytes) {
    return { ok: false, reason: "too-large", size: st.size, message: `${rel} is ${formatSize(st.size)}, over the ${formatSize(maxBytes)} limit for reading` };
  }
  let bytes: Uint8Array;
  try {
    bytes = await wsfs.readFile(rel);
  } catch (err) {
    return { ok: false, reason: "error", message: fsErrorMessage(err, rel) };
  }
  if (looksBinary(bytes)) {
    return { ok: false, reason: "binary", size: bytes.length, message: `${rel} is a binary file (${formatSize(bytes.length)}); only text files can be read or edited` };
  }
  return { ok: true, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), size: bytes.length };
}

export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** "\r\n" when most line breaks of `text` are CRLF. */
export function lineEnding(text: string): "\n" | "\r\n" {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  return crlf > lf ? "\r\n" : "\n";
}

export function plural(n: number, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}
