/**
 * Three-way merge of one text file, line by line, as git's xdiff merge does it: each side's
 * changes against the base are found with a Myers diff; changes of one side only are taken;
 * changes of both sides that overlap or touch (no unchanged base line between them) conflict
 * unless they are identical; a conflict is then split where both sides agree, and conflicts
 * close together are joined again (git's default "zealous" level). Conflicts are written with git's
 * markers: `<<<<<<< <ours>`, `=======`, `>>>>>>> <theirs>`.
 */
import { diffArrays } from "diff";

/** A change one side made: base lines [start, end) replaced by `lines`. */
type Hunk = { start: number; end: number; lines: string[]; side: 0 | 1 };

export type FileMergeResult = { clean: boolean; text: string; conflicts: number };

/** Lines with their line ends kept, so the merged text is byte-faithful. */
export function splitKeepingEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function hunks(base: string[], side: string[], tag: 0 | 1): Hunk[] {
  const out: Hunk[] = [];
  let ib = 0;
  let cur: Hunk | null = null;
  for (const part of diffArrays(base, side)) {
    const n = part.count ?? part.value.length;
    if (part.added || part.removed) {
      cur ??= { start: ib, end: ib, lines: [], side: tag };
      if (part.removed) {
        ib += n;
        cur.end = ib;
      } else cur.lines.push(...part.value);
    } else {
      if (cur) out.push(cur);
      cur = null;
      ib += n;
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** base[start, end) as one side has it after its hunks inside that range. */
function sideText(base: string[], start: number, end: number, own: Hunk[]): string[] {
  const out: string[] = [];
  let i = start;
  for (const h of own) {
    out.push(...base.slice(i, h.start), ...h.lines);
    i = h.end;
  }
  out.push(...base.slice(i, end));
  return out;
}

const sameLines = (a: string[], b: string[]) => a.length === b.length && a.every((l, i) => l === b[i]);

/** The side of a conflict, ending in a newline so the next marker starts a line (as git does). */
function conflictSide(lines: string[]): string {
  const text = lines.join("");
  return text !== "" && !text.endsWith("\n") ? text + "\n" : text;
}

type Segment = { ok: string[] } | { ours: string[]; theirs: string[] };

/**
 * A conflict split where the two sides agree (git's "zealous" refinement): the sides are
 * diffed against each other and only their differing runs stay conflicts.
 */
function refine(ours: string[], theirs: string[]): Segment[] {
  const out: Segment[] = [];
  let pending: { ours: string[]; theirs: string[] } | null = null;
  for (const part of diffArrays(ours, theirs)) {
    if (part.removed || part.added) {
      pending ??= { ours: [], theirs: [] };
      (part.removed ? pending.ours : pending.theirs).push(...part.value);
    } else {
      if (pending) out.push(pending);
      pending = null;
      out.push({ ok: part.value });
    }
  }
  if (pending) out.push(pending);
  return out;
}

const hasAlnum = (lines: string[]) => lines.some((l) => /[A-Za-z0-9]/.test(l));

/**
 * Two conflicts with at most three common lines between them read better as one (git's
 * xdl_simplify_non_conflicts); with `alnum`, also when the lines between have no letter or digit.
 */
function simplify(segments: Segment[], alnum: boolean): Segment[] {
  const out: Segment[] = [];
  for (const seg of segments) {
    const prev = out[out.length - 1];
    const gap = out[out.length - 2];
    if (!("ok" in seg) && prev && "ok" in prev && gap && !("ok" in gap) && (prev.ok.length <= 3 || (alnum && !hasAlnum(prev.ok)))) {
      out.length -= 2;
      out.push({ ours: [...gap.ours, ...prev.ok, ...seg.ours], theirs: [...gap.theirs, ...prev.ok, ...seg.theirs] });
      continue;
    }
    if ("ok" in seg && prev && "ok" in prev) prev.ok.push(...seg.ok);
    else out.push("ok" in seg ? { ok: [...seg.ok] } : seg);
  }
  return out;
}

/**
 * `alnum`: also join conflicts separated only by lines without letters or digits, as
 * `git merge-file` does (git merge itself does not).
 */
export function mergeText(base: string, ours: string, theirs: string, names: { ours: string; theirs: string }, opts: { alnum?: boolean } = {}): FileMergeResult {
  const b = splitKeepingEnds(base);
  const o = splitKeepingEnds(ours);
  const t = splitKeepingEnds(theirs);
  const all = [...hunks(b, o, 0), ...hunks(b, t, 1)].sort((x, y) => x.start - y.start || x.end - y.end);
  const segments: Segment[] = [];
  let at = 0;
  let i = 0;
  while (i < all.length) {
    // A group: hunks that overlap or touch (no unchanged base line between them), chained.
    // Two hunks of one side never touch (the diff would have joined them).
    const group: Hunk[] = [all[i]!];
    const start = all[i]!.start;
    let end = all[i]!.end;
    i++;
    while (i < all.length && all[i]!.start <= end) {
      group.push(all[i]!);
      end = Math.max(end, all[i]!.end);
      i++;
    }
    segments.push({ ok: b.slice(at, start) });
    at = end;
    const mine = group.filter((h) => h.side === 0);
    const yours = group.filter((h) => h.side === 1);
    const oursText = sideText(b, start, end, mine);
    const theirsText = sideText(b, start, end, yours);
    if (mine.length === 0 || yours.length === 0 || sameLines(oursText, theirsText)) segments.push({ ok: mine.length === 0 ? theirsText : oursText });
    else segments.push(...refine(oursText, theirsText));
  }
  segments.push({ ok: b.slice(at) });
  let text = "";
  let conflicts = 0;
  for (const seg of simplify(segments, opts.alnum ?? false)) {
    if ("ok" in seg) {
      text += seg.ok.join("");
      continue;
    }
    conflicts++;
    text += `<<<<<<< ${names.ours}\n${conflictSide(seg.ours)}=======\n${conflictSide(seg.theirs)}>>>>>>> ${names.theirs}\n`;
  }
  return { clean: conflicts === 0, text, conflicts };
}

/** git's binary test: a NUL byte in the first 8000 bytes. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}
