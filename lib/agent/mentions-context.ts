/**
 * What a prompt's @-mentions put in front of the model: each mention resolved to a context item
 * (a file's text, a folder's listing, the editor's selection, the working tree's diff), cut to a
 * size cap the user sees on the chip, and rendered as one block attached to the user message.
 *
 * Resolution never throws: a mention that cannot be read becomes an item with `error` set, which
 * the chip shows in red and the model reads as a one-line note (so it does not go looking for a
 * file that is not there).
 */
import { looksBinary } from "../git/binary";
import { formatBytes } from "../editor/file-kind";
import type { WorkspaceFs } from "../fs/workspace-fs";
import { mentionTokens, normaliseMentionPath, parseMentions, type MentionRef, type SymbolEntry } from "./mentions";

/** One mentioned thing, as attached to the user message (persisted with it; shown as a chip). */
export type ContextItem = {
  kind: MentionRef["kind"];
  /** The chip's text: "src/greet.ts", "src/", "selection", "diff". */
  label: string;
  /** Where it came from, for the model: a path, "src/a.ts:3-9", "git diff HEAD". */
  source: string;
  /** What the model reads (already cut to the cap). */
  text: string;
  /** Size of the whole thing in bytes (UTF-8), before any cap. */
  size: number;
  /** Bytes of it included in `text`. */
  sent: number;
  /** Only part of it was included. */
  truncated?: boolean;
  /** Why it was cut or left out, in a sentence (the chip's tooltip; the model reads it too). */
  note?: string;
  /** Nothing could be included (missing, binary, hidden, nothing selected…). */
  error?: boolean;
};

export type MentionCaps = {
  /** Bytes of one file (and of the selection). */
  fileBytes: number;
  /** Entries of a folder's listing. */
  folderEntries: number;
  /** Bytes of the diff. */
  diffBytes: number;
  /** Bytes of all items of one message together. */
  totalBytes: number;
};

export const DEFAULT_MENTION_CAPS: MentionCaps = { fileBytes: 32 * 1024, folderEntries: 300, diffBytes: 64 * 1024, totalBytes: 128 * 1024 };

export type EditorSelection = { path: string; startLine: number; endLine: number; text: string };

/** Where mentions are read from. Files through the agent's view of the workspace (hidden paths stay hidden). */
export interface MentionSources {
  wsfs: WorkspaceFs;
  /** The editor's current selection (none when nothing is selected or no editor is open). */
  selection?(): Promise<EditorSelection | undefined>;
  /** The working tree's changes as text (git status and git diff HEAD). */
  diff?(): Promise<string>;
  /** The Problems list as text, one `path:line:col severity: message` per line ("No problems." when empty). */
  problems?(): Promise<string>;
  /** The declarations named `name` (the TypeScript service's), for `@#name`. */
  symbols?(name: string): Promise<SymbolEntry[]>;
}

/** Declarations of one name sent for a symbol mention (an overloaded or merged name has several). */
const SYMBOL_DECLARATIONS = 3;

const enc = new TextEncoder();
const dec = new TextDecoder();

/** `text` cut to at most `maxBytes` of UTF-8, at a character boundary, preferably at a line end. */
export function cutToBytes(text: string, maxBytes: number): { text: string; bytes: number; size: number; truncated: boolean } {
  const bytes = enc.encode(text);
  if (bytes.length <= maxBytes) return { text, bytes: bytes.length, size: bytes.length, truncated: false };
  let end = Math.max(0, maxBytes);
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // never split a character
  const lastLine = bytes.lastIndexOf(0x0a, end - 1);
  if (lastLine > end / 2) end = lastLine + 1;
  return { text: dec.decode(bytes.subarray(0, end)), bytes: end, size: bytes.length, truncated: true };
}

function failed(ref: MentionRef, label: string, source: string, note: string, size = 0): ContextItem {
  return { kind: ref.kind, label, source, text: "", size, sent: 0, error: true, note };
}

function capped(ref: MentionRef, label: string, source: string, text: string, maxBytes: number, what: string): ContextItem {
  const cut = cutToBytes(text, maxBytes);
  const item: ContextItem = { kind: ref.kind, label, source, text: cut.text, size: cut.size, sent: cut.bytes };
  if (cut.truncated) {
    item.truncated = true;
    item.note = `Cut at ${formatBytes(cut.bytes)} of ${formatBytes(cut.size)}: only the first part of ${what} is sent.`;
  }
  return item;
}

/** One mention, read now. */
export async function resolveMention(ref: MentionRef, sources: MentionSources, caps: MentionCaps = DEFAULT_MENTION_CAPS): Promise<ContextItem> {
  switch (ref.kind) {
    case "file":
      return resolveFile(ref, sources.wsfs, caps);
    case "folder":
      return resolveFolder(ref, sources.wsfs, caps);
    case "selection": {
      const sel = await sources.selection?.().catch(() => undefined);
      if (!sel || !sel.text) return failed(ref, "selection", "selection", "Nothing is selected in the editor.");
      const where = sel.startLine === sel.endLine ? `${sel.path}:${sel.startLine}` : `${sel.path}:${sel.startLine}-${sel.endLine}`;
      return capped(ref, "selection", where, sel.text, caps.fileBytes, "the selection");
    }
    case "diff": {
      if (!sources.diff) return failed(ref, "diff", "git diff HEAD", "No git diff is available here.");
      let text: string;
      try {
        text = await sources.diff();
      } catch (err) {
        return failed(ref, "diff", "git diff HEAD", `git diff failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!text.trim()) return { kind: "diff", label: "diff", source: "git diff HEAD", text: "(no changes: the working tree matches HEAD)", size: 0, sent: 0, note: "No changes: the working tree matches HEAD." };
      return capped(ref, "diff", "git diff HEAD", text, caps.diffBytes, "the diff");
    }
    case "symbol":
      return resolveSymbol(ref, sources, caps);
    case "problems": {
      if (!sources.problems) return failed(ref, "problems", "Problems", "No Problems list is available here.");
      const text = await sources.problems();
      if (text === "No problems.") return { kind: "problems", label: "problems", source: "Problems", text, size: 0, sent: 0, note: "No problems in the workspace's TS/JS files." };
      return capped(ref, "problems", "Problems", text, caps.diffBytes, "the problems list");
    }
  }
}

async function resolveFile(ref: Extract<MentionRef, { kind: "file" }>, wsfs: WorkspaceFs, caps: MentionCaps): Promise<ContextItem> {
  const { path } = ref;
  let bytes: Uint8Array;
  try {
    bytes = await wsfs.readFile(path);
  } catch (err) {
    const code = (err as { code?: string }).code;
    return failed(ref, path, path, code === "EACCES" ? `Hidden from the agent: ${(err as Error).message}` : code === "ENOENT" ? "No such file." : `Could not read it: ${(err as Error).message}`);
  }
  if (looksBinary(bytes)) return failed(ref, path, path, `A binary file (${formatBytes(bytes.length)}): not sent.`, bytes.length);
  return capped(ref, path, path, dec.decode(bytes), caps.fileBytes, "the file");
}

async function resolveSymbol(ref: Extract<MentionRef, { kind: "symbol" }>, sources: MentionSources, caps: MentionCaps): Promise<ContextItem> {
  const label = `#${ref.name}`;
  if (!sources.symbols) return failed(ref, label, label, "No TypeScript service here to find symbols.");
  const found = (await sources.symbols(ref.name).catch(() => [] as SymbolEntry[])).filter((s) => s.name === ref.name);
  if (found.length === 0) return failed(ref, label, label, `No declaration named ${ref.name} in the workspace's TS/JS files.`);
  const parts: string[] = [];
  const where: string[] = [];
  for (const s of found.slice(0, SYMBOL_DECLARATIONS)) {
    let text: string;
    try {
      text = dec.decode(await sources.wsfs.readFile(s.path));
    } catch {
      continue; // hidden from the agent (not sent, not named), or gone since the service read it
    }
    const lines = text.split("\n").slice(s.startLine - 1, s.endLine);
    const at = `${s.path}:${s.startLine}-${s.endLine}`;
    where.push(at);
    parts.push(`// ${s.kind} ${s.name} (${at})\n${lines.join("\n")}`);
  }
  if (parts.length === 0) return failed(ref, label, label, `The declarations of ${ref.name} are hidden from the agent.`);
  const item = capped(ref, label, where.join(", "), parts.join("\n\n"), caps.fileBytes, "the declaration");
  if (found.length > SYMBOL_DECLARATIONS) item.note = [item.note, `${found.length - SYMBOL_DECLARATIONS} more declarations of ${ref.name} left out.`].filter(Boolean).join(" ");
  return item;
}

async function resolveFolder(ref: Extract<MentionRef, { kind: "folder" }>, wsfs: WorkspaceFs, caps: MentionCaps): Promise<ContextItem> {
  const label = `${ref.path}/`;
  const lines: string[] = [];
  let more = false;
  // Stops at the cap: a folder like node_modules must not cost a read per file it holds.
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await wsfs.readdir(dir);
    entries.sort((a, b) => ((a.type === "dir") !== (b.type === "dir") ? (a.type === "dir" ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name === ".git") continue;
      if (lines.length >= caps.folderEntries) {
        more = true;
        return;
      }
      lines.push(`${"  ".repeat(depth)}${e.name}${e.type === "dir" ? "/" : ""}`);
      if (e.type === "dir") await walk(`${dir}/${e.name}`, depth + 1);
    }
  };
  try {
    await walk(ref.path, 0);
  } catch (err) {
    const code = (err as { code?: string }).code;
    return failed(ref, label, label, code === "EACCES" ? `Hidden from the agent: ${(err as Error).message}` : code === "ENOENT" ? "No such folder." : `Could not list it: ${(err as Error).message}`);
  }
  const text = lines.join("\n") || "(empty folder)";
  const bytes = enc.encode(text).length;
  const item: ContextItem = { kind: "folder", label, source: label, text, size: bytes, sent: bytes };
  if (more) {
    item.truncated = true;
    item.note = `Listing cut at ${lines.length} entries: the folder holds more.`;
  }
  return item;
}

/**
 * The items of one message kept within `totalBytes` together: each keeps what fits of what is
 * left, in the order mentioned; the ones past the cap are cut or left out and say so.
 */
export function applyTotalCap(items: readonly ContextItem[], totalBytes: number): ContextItem[] {
  let left = totalBytes;
  return items.map((item) => {
    if (item.sent <= left) {
      left -= item.sent;
      return item;
    }
    if (left <= 0) return { ...item, text: "", sent: 0, truncated: item.size > 0, error: true, note: `Left out: the message's mentions are capped at ${formatBytes(totalBytes)} together.` };
    const cut = cutToBytes(item.text, left);
    left -= cut.bytes;
    return { ...item, text: cut.text, sent: cut.bytes, truncated: true, note: `Cut at ${formatBytes(cut.bytes)} of ${formatBytes(item.size)}: the message's mentions are capped at ${formatBytes(totalBytes)} together.` };
  });
}

/** Every mention in `prompt` (paths checked against the workspace), resolved and capped. */
export async function resolveMentionsIn(prompt: string, sources: MentionSources, caps: MentionCaps = DEFAULT_MENTION_CAPS): Promise<ContextItem[]> {
  const known = new Map<string, "file" | "folder" | undefined>();
  for (const t of mentionTokens(prompt)) {
    for (const raw of t.candidates) {
      const path = normaliseMentionPath(raw);
      if (!path || known.has(path) || raw === "selection" || raw === "diff" || raw === "problems" || raw.startsWith("#")) continue;
      const st = await sources.wsfs.stat(path).catch(() => null);
      known.set(path, st?.type === "file" ? "file" : st?.type === "dir" ? "folder" : undefined);
    }
  }
  const spans = parseMentions(prompt, (p) => known.get(p));
  const items: ContextItem[] = [];
  for (const s of spans) items.push(await resolveMention(s.ref, sources, caps));
  return applyTotalCap(items, caps.totalBytes);
}

function attr(v: string): string {
  return JSON.stringify(v);
}

/** The block the model reads after the prompt: one element per item, notes included. */
export function contextBlock(items: readonly ContextItem[]): string {
  if (items.length === 0) return "";
  const parts = items.map((i) => {
    const tag = i.kind; // <file>, <folder>, <symbol>, <selection>, <diff>, <problems>
    const note = i.note ? ` note=${attr(i.note)}` : "";
    return `<${tag} source=${attr(i.source)}${note}>\n${i.text}${i.text.endsWith("\n") || !i.text ? "" : "\n"}</${tag}>`;
  });
  return `<context>\nThe user mentioned these in the message above (as they are now in the workspace):\n${parts.join("\n")}\n</context>`;
}

/** The chip's short text and its tooltip. */
export function describeContextItem(item: ContextItem): { text: string; title: string } {
  if (item.error) return { text: item.label, title: item.note ?? "Not included" };
  const size = item.truncated ? `${formatBytes(item.sent)} of ${formatBytes(item.size)}` : formatBytes(item.sent);
  const lines = [`${item.source} · ${size} sent to the model`];
  if (item.note) lines.push(item.note);
  return { text: `${item.label} · ${size}`, title: lines.join("\n") };
}
