/**
 * How many terminal cells text takes, as xterm.js counts them with its Unicode 11 width tables
 * (@xterm/addon-unicode11, which the terminal view activates): East Asian Wide and Fullwidth
 * characters and emoji take two cells, combining marks and format characters none, the rest
 * one. The cursor moves by grapheme (Intl.Segmenter): "é" written e + U+0301, a flag or a ZWJ
 * family is one step, and its width is the sum of its code points' widths, as xterm draws it.
 */

/** East Asian Wide (W) and Fullwidth (F) ranges that are not emoji (those come from \p{Emoji_Presentation}). */
// prettier-ignore
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], [0x2329, 0x232a], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff],
  [0xa000, 0xa4cf], [0xa960, 0xa97f], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f],
  [0xff00, 0xff60], [0xffe0, 0xffe6], [0x16fe0, 0x16fe4], [0x17000, 0x18aff], [0x1b000, 0x1b2ff], [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf], [0x1f18e, 0x1f18e], [0x1f191, 0x1f19a], [0x1f200, 0x1f202], [0x1f210, 0x1f23b], [0x1f240, 0x1f248],
  [0x1f250, 0x1f251], [0x1f260, 0x1f265], [0x20000, 0x2fffd], [0x30000, 0x3fffd],
];

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff]$/u;
const EMOJI_WIDE = /^\p{Emoji_Presentation}$/u;

/** Cells taken by one code point. */
export function codePointWidth(cp: number): number {
  if (cp === 0) return 0;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x300) return 1; // Latin: the common case, and U+00AD (soft hyphen) shows as one cell
  const ch = String.fromCodePoint(cp);
  if (ZERO_WIDTH.test(ch)) return 0;
  // Regional indicators are one cell each (a flag, two of them, takes two).
  if (cp >= 0x1f1e6 && cp <= 0x1f1ff) return 1;
  if (EMOJI_WIDE.test(ch)) return 2;
  for (const [lo, hi] of WIDE) {
    if (cp < lo) break;
    if (cp <= hi) return 2;
  }
  return 1;
}

/** Cells taken by a string (the sum over its code points). */
export function stringWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += codePointWidth(ch.codePointAt(0)!);
  return w;
}

export type Grapheme = { index: number; text: string; width: number };

const segmenter = typeof Intl !== "undefined" && "Segmenter" in Intl ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;

/** The grapheme clusters of `s` with their UTF-16 start index and width. */
export function graphemes(s: string): Grapheme[] {
  const out: Grapheme[] = [];
  if (segmenter) {
    for (const seg of segmenter.segment(s)) out.push({ index: seg.index, text: seg.segment, width: stringWidth(seg.segment) });
    return out;
  }
  // Without Intl.Segmenter: code points, with combining marks kept on their base.
  let i = 0;
  for (const ch of s) {
    const w = codePointWidth(ch.codePointAt(0)!);
    const last = out[out.length - 1];
    if (w === 0 && last) {
      last.text += ch;
    } else out.push({ index: i, text: ch, width: w });
    i += ch.length;
  }
  return out;
}

/** Visible width of terminal output: escape sequences (colours) take no cells. */
export function visibleWidth(s: string): number {
  return stringWidth(s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]/g, ""));
}
