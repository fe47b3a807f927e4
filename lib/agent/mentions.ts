/**
 * @-mentions in a prompt: `@src/greet.ts`, `@src/` (a folder), `@"docs/my notes.md"` (a path
 * with spaces), `@selection` (the editor's selection), `@diff` (the working tree's changes),
 * `@problems` (the errors and warnings of the Problems list), `@#greet` (a symbol: its declaration,
 * found by the TypeScript service when the prompt is sent).
 *
 * The prompt's text is the one source of truth: the composer's chips and the context the model
 * reads are both what `parseMentions` finds in it, so deleting the text drops the chip, and a
 * mention typed or pasted by hand works like a picked one. A token that names nothing known is
 * left as plain text (an e-mail address, a decorator, `@param`).
 */
import { fuzzyMatch } from "../search/fuzzy";

export type MentionRef = { kind: "file"; path: string } | { kind: "folder"; path: string } | { kind: "symbol"; name: string } | { kind: "selection" } | { kind: "diff" } | { kind: "problems" };

/** A declaration the TypeScript service knows (for the popup and for what a symbol mention sends). */
export type SymbolEntry = { name: string; kind: string; path: string; startLine: number; endLine: number; container?: string };

/** `greet`, `Greeter.hello`: an identifier, optionally one member deep. */
const SYMBOL_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?$/;

type SpecialKind = "selection" | "diff" | "problems";
const isSpecial = (raw: string): raw is SpecialKind => raw === "selection" || raw === "diff" || raw === "problems";

/** The special mentions, by the word typed after `@`. */
export const SPECIAL_MENTIONS: readonly { name: SpecialKind; description: string }[] = [
  { name: "selection", description: "the text selected in the editor" },
  { name: "diff", description: "the working tree's changes (git diff HEAD, untracked files listed)" },
  { name: "problems", description: "the errors and warnings in the Problems list" },
];

/** What a path is, as the caller knows it (the file tree, or a stat): undefined when unknown. */
export type PathLookup = (path: string) => "file" | "folder" | undefined;

export type MentionSpan = { ref: MentionRef; start: number; end: number };

/** A `@` starts a mention only at the start of the text or after a space or an opening bracket (not in `me@host`). */
const MENTION_START = /(^|[\s([{])@/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/** One key per mentioned thing (the same file twice is one chip, one context item). */
export function mentionKey(ref: MentionRef): string {
  return ref.kind === "file" || ref.kind === "folder" ? `${ref.kind}:${ref.path}` : ref.kind === "symbol" ? `symbol:${ref.name}` : ref.kind;
}

/** How a mention is written in a prompt: `@src/a.ts`, `@src/`, `@"a b.ts"`, `@selection`. */
export function mentionText(ref: MentionRef): string {
  if (ref.kind === "selection" || ref.kind === "diff" || ref.kind === "problems") return `@${ref.kind}`;
  if (ref.kind === "symbol") return `@#${ref.name}`;
  const p = ref.kind === "folder" ? `${ref.path}/` : ref.path;
  return /[\s"]/.test(p) ? `@"${p.replace(/"/g, "")}"` : `@${p}`;
}

/** A workspace-relative path as typed: no leading "./" or "/", no trailing "/". */
export function normaliseMentionPath(raw: string): string {
  return raw.replace(/^(\.\/|\/)+/, "").replace(/\/+$/, "");
}

/** Every mention in `text` that names something known, in order (each thing once). */
export function parseMentions(text: string, lookup: PathLookup): MentionSpan[] {
  const out: MentionSpan[] = [];
  const seen = new Set<string>();
  for (const token of mentionTokens(text)) {
    const ref = refFor(token.candidates, lookup);
    if (!ref) continue;
    const key = mentionKey(ref);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ref, start: token.start, end: token.start + token.length });
  }
  return out;
}

/**
 * The raw tokens after each `@`, with the spellings worth looking up (as typed, then without
 * trailing punctuation: "see @src/a.ts." means src/a.ts). For callers whose lookup is async:
 * look the candidates up first, then `parseMentions` with the answers.
 */
export function mentionTokens(text: string): { start: number; length: number; candidates: string[] }[] {
  const out: { start: number; length: number; candidates: string[] }[] = [];
  for (const m of text.matchAll(MENTION_START)) {
    const at = m.index! + m[1]!.length;
    const rest = text.slice(at + 1);
    if (rest.startsWith('"')) {
      const close = rest.indexOf('"', 1);
      if (close <= 1) continue;
      out.push({ start: at, length: close + 2, candidates: [rest.slice(1, close)] });
      continue;
    }
    const word = /^\S+/.exec(rest)?.[0];
    if (!word) continue;
    const candidates = [word];
    const trimmed = word.replace(TRAILING_PUNCTUATION, "");
    if (trimmed && trimmed !== word) candidates.push(trimmed);
    out.push({ start: at, length: word.length + 1, candidates });
  }
  return out;
}

function refFor(candidates: string[], lookup: PathLookup): MentionRef | undefined {
  for (const raw of candidates) {
    if (isSpecial(raw)) return { kind: raw };
    if (raw.startsWith("#")) {
      if (SYMBOL_NAME.test(raw.slice(1))) return { kind: "symbol", name: raw.slice(1) };
      continue;
    }
    const path = normaliseMentionPath(raw);
    if (!path) continue;
    const kind = lookup(path);
    if (kind) return { kind, path };
  }
  return undefined;
}

/** The prompt without one mention (the chip's ×), leaving one space where there were two. */
export function removeMention(text: string, span: Pick<MentionSpan, "start" | "end">): string {
  const before = text.slice(0, span.start);
  let after = text.slice(span.end);
  if ((before === "" || /\s$/.test(before)) && after.startsWith(" ")) after = after.slice(1);
  return before + after;
}

/** The mention being typed at the caret: `@` and what follows it up to the caret, with no space in between. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | undefined {
  const head = text.slice(0, caret);
  const at = head.lastIndexOf("@");
  if (at === -1) return undefined;
  if (at > 0 && !/[\s([{]/.test(head[at - 1]!)) return undefined;
  const query = head.slice(at + 1);
  if (/\s/.test(query) || query.includes('"')) return undefined;
  return { start: at, query };
}

/** Replace the typed `@query` (from `start` to the caret) by the picked mention and a space. */
export function insertMention(text: string, start: number, caret: number, ref: MentionRef): { text: string; caret: number } {
  const written = mentionText(ref) + " ";
  const after = text.slice(caret).replace(/^\S*/, "").replace(/^ /, "");
  return { text: text.slice(0, start) + written + after, caret: start + written.length };
}

export type MentionCandidate = { ref: MentionRef; label: string; description?: string; positions: number[] };

/**
 * The popup's list for a query: the special mentions whose name starts with it, then files and
 * folders ranked by quick open's fuzzy match (folders written with a trailing "/").
 */
export function rankMentionCandidates(query: string, entries: readonly { path: string; kind: "file" | "folder" }[], limit = 12, symbols?: readonly SymbolEntry[]): MentionCandidate[] {
  if (query.startsWith("#")) return rankSymbols(query.slice(1), symbols ?? [], limit);
  const q = query.toLowerCase();
  const specials: MentionCandidate[] = SPECIAL_MENTIONS.filter((s) => s.name.startsWith(q)).map((s) => ({ ref: { kind: s.name }, label: s.name, description: s.description, positions: [...q].map((_, i) => i) }));
  const ranked: { c: MentionCandidate; score: number }[] = [];
  for (const e of entries) {
    const label = e.kind === "folder" ? `${e.path}/` : e.path;
    const m = fuzzyMatch(query, label);
    if (!m) continue;
    ranked.push({ c: { ref: { kind: e.kind, path: e.path } as MentionRef, label, positions: m.positions }, score: m.score });
  }
  ranked.sort((a, b) => b.score - a.score || a.c.label.localeCompare(b.c.label));
  return [...specials, ...ranked.map((r) => r.c)].slice(0, limit);
}

/** `@#` and a name: the declarations the TypeScript service knows, fuzzy-ranked by name (one candidate per name). */
function rankSymbols(query: string, symbols: readonly SymbolEntry[], limit: number): MentionCandidate[] {
  const best = new Map<string, { c: MentionCandidate; score: number }>();
  for (const s of symbols) {
    const m = query ? fuzzyMatch(query, s.name) : { score: 0, positions: [] };
    if (!m) continue;
    const prev = best.get(s.name);
    if (prev && prev.score >= m.score) continue;
    best.set(s.name, { c: { ref: { kind: "symbol", name: s.name }, label: `#${s.name}`, description: `${s.kind} · ${s.path}:${s.startLine}`, positions: m.positions.map((p) => p + 1) }, score: m.score });
  }
  return [...best.values()]
    .sort((a, b) => b.score - a.score || a.c.label.localeCompare(b.c.label))
    .slice(0, limit)
    .map((r) => r.c);
}

/** Files and folders of a tree (the file tree's nodes), for the popup and the composer's lookup. */
export function mentionEntries(nodes: readonly { path: string; type: string; children?: readonly unknown[] }[], hidden?: (path: string) => boolean): { path: string; kind: "file" | "folder" }[] {
  const out: { path: string; kind: "file" | "folder" }[] = [];
  const walk = (list: readonly { path: string; type: string; children?: readonly unknown[] }[]) => {
    for (const n of list) {
      if (hidden?.(n.path)) continue;
      if (n.type === "dir") {
        out.push({ path: n.path, kind: "folder" });
        walk((n.children ?? []) as typeof list);
      } else out.push({ path: n.path, kind: "file" });
    }
  };
  walk(nodes);
  return out;
}
