/**
 * One file searched line by line with a linear-time pattern, from its bytes: the editor's find
 * in files and the agent's search_codebase share it. Large text files are searched too (one
 * line decoded at a time); binary files are skipped.
 */
import { looksBinary } from "../editor/file-kind";
import type { SearchPattern } from "./pattern";
import { forEachLine } from "./text-lines";

/** Files up to this size are searched; larger ones are skipped and counted. */
export const SEARCH_MAX_FILE_BYTES = 128 * 1024 * 1024;
/** Above this size a file is searched alone, never in a parallel batch (bounded memory). */
export const SEARCH_LARGE_FILE_BYTES = 5 * 1024 * 1024;

const wholeText = new TextDecoder("utf-8");

export type LineHit = {
  /** 1-based line. */
  line: number;
  /** 0-based UTF-16 index of the match in the line, and its length. */
  index: number;
  length: number;
  /** A window of the line around the match (at most `previewChars` characters, "…" where cut). */
  preview: string;
};

export function searchBytes(
  bytes: Uint8Array,
  pattern: SearchPattern,
  opts: { maxHits: number; previewChars?: number; signal?: AbortSignal },
): { binary: boolean; hits: LineHit[] } {
  if (looksBinary(bytes)) return { binary: true, hits: [] };
  // Most files of a search hold no match: one native pass over the whole text says so.
  if (pattern.mayOccurIn && bytes.length <= SEARCH_LARGE_FILE_BYTES && !pattern.mayOccurIn(wholeText.decode(bytes))) return { binary: false, hits: [] };
  const previewChars = opts.previewChars ?? 200;
  const hits: LineHit[] = [];
  let lastHitLine = 0;
  forEachLine(bytes, (line, text, offset) => {
    if (line === lastHitLine) return; // a later window of a line that already matched
    if (line % 4096 === 0 && opts.signal?.aborted) return false;
    const m = pattern.exec(text);
    if (!m) return;
    lastHitLine = line;
    const from = text.length > previewChars ? Math.max(0, m.index - 60) : 0;
    let preview = text.slice(from, from + previewChars);
    if (from > 0 || offset > 0) preview = "…" + preview;
    if (from + previewChars < text.length) preview += "…";
    hits.push({ line, index: offset + m.index, length: m.length, preview });
    if (hits.length >= opts.maxHits) return false;
  });
  return { binary: false, hits };
}
