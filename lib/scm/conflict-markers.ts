/**
 * The conflict markers git writes into a file it could not merge, read as blocks a merge editor
 * can offer per conflict: keep the current side (HEAD), the incoming one, or both (current
 * first, as VS Code and `git merge-file --union` do). Understands git's default marker size (7)
 * with LF or CRLF lines and the diff3 / zdiff3 form (`|||||||` base section).
 */

export type ConflictBlock = {
  /** 0-based line of the `<<<<<<<` marker. */
  line: number;
  currentLabel: string;
  incomingLabel: string;
  current: string;
  /** The merge base's lines (diff3 style only). */
  base?: string;
  incoming: string;
  /** The block as it stands in the file, markers included. */
  raw: string;
};

export type ConflictChoice = "current" | "incoming" | "both" | "none";

type Part = { text: string } | ConflictBlock;

const START = /^<{7}(?: (.*?))?\r?\n?$/;
const BASE = /^\|{7}(?: .*)?\r?\n?$/;
const MID = /^={7}\r?\n?$/;
const END = /^>{7}(?: (.*?))?\r?\n?$/;

/** Split `text` into plain text and conflict blocks; a marker without its end is plain text. */
export function parseConflicts(text: string): Part[] {
  const lines = text.split(/(?<=\n)/);
  const parts: Part[] = [];
  let plain = "";
  let i = 0;
  while (i < lines.length) {
    const start = START.exec(lines[i]!);
    const block = start ? readBlock(lines, i, start[1] ?? "") : undefined;
    if (!block) {
      plain += lines[i]!;
      i++;
      continue;
    }
    if (plain) parts.push({ text: plain });
    plain = "";
    parts.push(block.block);
    i = block.next;
  }
  if (plain) parts.push({ text: plain });
  return parts;
}

function readBlock(lines: string[], at: number, currentLabel: string): { block: ConflictBlock; next: number } | undefined {
  let section: "current" | "base" | "incoming" = "current";
  const acc = { current: "", base: "", incoming: "" };
  let sawBase = false;
  for (let j = at + 1; j < lines.length; j++) {
    const l = lines[j]!;
    if (START.test(l)) return undefined; // nested or stray marker: not a block git wrote
    if (section === "current" && BASE.test(l)) {
      section = "base";
      sawBase = true;
      continue;
    }
    if (section !== "incoming" && MID.test(l)) {
      section = "incoming";
      continue;
    }
    const end = section === "incoming" ? END.exec(l) : null;
    if (end) {
      const raw = lines.slice(at, j + 1).join("");
      const block: ConflictBlock = { line: at, currentLabel, incomingLabel: end[1] ?? "", current: acc.current, incoming: acc.incoming, raw };
      if (sawBase) block.base = acc.base;
      return { block, next: j + 1 };
    }
    acc[section] += l;
  }
  return undefined;
}

export function conflictBlocks(text: string): ConflictBlock[] {
  return parseConflicts(text).filter(isBlock);
}

export function isBlock(p: Part): p is ConflictBlock {
  return "incoming" in p;
}

function chosen(b: ConflictBlock, choice: ConflictChoice): string {
  if (choice === "current") return b.current;
  if (choice === "incoming") return b.incoming;
  if (choice === "both") return b.current + b.incoming;
  return "";
}

/** The text with conflict number `index` (0-based, in file order) replaced by the chosen side. */
export function resolveConflict(text: string, index: number, choice: ConflictChoice): string {
  let n = 0;
  let found = false;
  const out = parseConflicts(text).map((p) => {
    if (!isBlock(p)) return p.text;
    if (n++ !== index) return p.raw;
    found = true;
    return chosen(p, choice);
  });
  if (!found) throw new RangeError(`There is no conflict number ${index + 1} in this file.`);
  return out.join("");
}

/** Every conflict resolved the same way. */
export function resolveAll(text: string, choice: ConflictChoice): string {
  return parseConflicts(text)
    .map((p) => (isBlock(p) ? chosen(p, choice) : p.text))
    .join("");
}
