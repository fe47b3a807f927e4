/**
 * Lines of a UTF-8 file read straight from its bytes, without decoding the whole file into one
 * string (and without the array of every line that `split` would build): a search or a ranged
 * read of a 200 MB log holds the bytes plus one line at a time.
 *
 * A line ends at "\n"; a "\r" before it is dropped (CRLF files read like LF ones).
 */

const NL = 10;
const CR = 13;

/** Longest piece of a single line decoded at once; longer lines are searched in windows. */
export const LINE_WINDOW_BYTES = 1024 * 1024;
/** Overlap of two windows of one long line: a match up to this long is never cut in two. */
export const LINE_WINDOW_OVERLAP_BYTES = 4096;

const decoder = new TextDecoder("utf-8");

/** Number of lines, as an editor counts them ("a\nb" and "a\nb\n" have 2; "" has 0). */
export function countLinesInBytes(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let n = 0;
  for (let i = bytes.indexOf(NL); i !== -1; i = bytes.indexOf(NL, i + 1)) n++;
  return bytes[bytes.length - 1] === NL ? n : n + 1;
}

/** End of the line that starts at `start` (index of its "\n", or the length), and the next start. */
function lineEnd(bytes: Uint8Array, start: number): { end: number; next: number } {
  const nl = bytes.indexOf(NL, start);
  if (nl === -1) return { end: bytes.length, next: bytes.length };
  return { end: nl > start && bytes[nl - 1] === CR ? nl - 1 : nl, next: nl + 1 };
}

/**
 * Lines `first`…`last` (1-based, inclusive; clipped to the file) decoded one by one. Lines longer
 * than `maxLineBytes` are cut at a character boundary and flagged, so one giant line cannot
 * flood the caller.
 */
export function readLineRange(
  bytes: Uint8Array,
  first: number,
  last: number,
  maxLineBytes = LINE_WINDOW_BYTES,
): { lines: { text: string; cut: boolean }[]; totalLines: number } {
  const totalLines = countLinesInBytes(bytes);
  const lines: { text: string; cut: boolean }[] = [];
  let start = 0;
  for (let n = 1; n <= Math.min(last, totalLines); n++) {
    const { end, next } = lineEnd(bytes, start);
    if (n >= first) {
      const cut = end - start > maxLineBytes;
      const stop = cut ? charBoundary(bytes, start + maxLineBytes) : end;
      lines.push({ text: decoder.decode(bytes.subarray(start, stop)), cut });
    }
    start = next;
  }
  return { lines, totalLines };
}

/**
 * Call `visit` with each line (1-based number, text) until it returns false. A line longer than
 * LINE_WINDOW_BYTES is handed over as overlapping windows of it, each with the UTF-16 offset of
 * its first character in the whole line, so a column stays exact.
 */
export function forEachLine(bytes: Uint8Array, visit: (line: number, text: string, offset: number) => boolean | void): void {
  let start = 0;
  let n = 0;
  while (start < bytes.length) {
    n++;
    const { end, next } = lineEnd(bytes, start);
    if (end - start <= LINE_WINDOW_BYTES) {
      if (visit(n, decoder.decode(bytes.subarray(start, end)), 0) === false) return;
    } else {
      let from = start;
      let offset = 0;
      for (;;) {
        const to = from + LINE_WINDOW_BYTES >= end ? end : charBoundary(bytes, from + LINE_WINDOW_BYTES);
        const text = decoder.decode(bytes.subarray(from, to));
        if (visit(n, text, offset) === false) return;
        if (to >= end) break;
        const nextFrom = charBoundary(bytes, to - LINE_WINDOW_OVERLAP_BYTES);
        offset += text.length - decoder.decode(bytes.subarray(nextFrom, to)).length;
        from = nextFrom;
      }
    }
    start = next;
  }
}

/** The nearest index at or before `i` that starts a UTF-8 character. */
function charBoundary(bytes: Uint8Array, i: number): number {
  let j = Math.min(i, bytes.length);
  while (j > 0 && j < bytes.length && (bytes[j]! & 0xc0) === 0x80) j--;
  return j;
}
