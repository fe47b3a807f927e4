/**
 * Comparing two TreeMaps (HEAD, index, work tree, any commit) and printing the result the way
 * git does: unified patches with git's headers and hunk function context, --stat,
 * --numstat, --name-only and --name-status. Exact renames are detected (diff.renames=true).
 */
import { structuredPatch } from "diff";
import type { GitContext, TreeEntry, TreeMap } from "./context";
import { ZERO_OID } from "./context";
import { cquote, decodeText, isBinary, plural } from "./util";

export type ChangeStatus = "A" | "D" | "M" | "R" | "T";

export type Change = {
  status: ChangeStatus;
  /** Destination path (source path for deletions). */
  path: string;
  /** Source path (same as `path` except for renames). */
  oldPath: string;
  old?: TreeEntry;
  new?: TreeEntry;
};

export type FileDiff = {
  change: Change;
  binary: boolean;
  added: number;
  deleted: number;
  oldSize: number;
  newSize: number;
  /** Hunk text (header lines and body), empty when there is no textual change. */
  hunks: string;
};

export const EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";

const typeOf = (mode: number) => mode & 0o170000;

/** Differences from `a` to `b`, sorted by path, with exact renames paired. */
export function diffTrees(a: TreeMap, b: TreeMap, filter?: (p: string) => boolean, renames = true): Change[] {
  const out: Change[] = [];
  const paths = new Set<string>([...a.keys(), ...b.keys()]);
  for (const path of paths) {
    if (filter && !filter(path)) continue;
    const x = a.get(path);
    const y = b.get(path);
    if (x && y) {
      if (x.oid === y.oid && x.mode === y.mode) continue;
      if (typeOf(x.mode) !== typeOf(y.mode)) {
        out.push({ status: "D", path, oldPath: path, old: x });
        out.push({ status: "A", path, oldPath: path, new: y });
      } else out.push({ status: "M", path, oldPath: path, old: x, new: y });
    } else if (x) out.push({ status: "D", path, oldPath: path, old: x });
    else if (y) out.push({ status: "A", path, oldPath: path, new: y });
  }
  let result = out;
  if (renames) {
    const deletedByOid = new Map<string, Change[]>();
    for (const c of out) {
      if (c.status === "D" && c.old && c.old.oid !== EMPTY_BLOB) {
        const l = deletedByOid.get(c.old.oid) ?? [];
        l.push(c);
        deletedByOid.set(c.old.oid, l);
      }
    }
    const used = new Set<Change>();
    const renamed: Change[] = [];
    for (const c of out) {
      if (c.status !== "A" || !c.new) continue;
      const candidates = (deletedByOid.get(c.new.oid) ?? []).filter((d) => !used.has(d));
      if (candidates.length === 0) continue;
      // Prefer a source with the same file name, as git's basename heuristic does.
      const base = c.path.slice(c.path.lastIndexOf("/") + 1);
      const src = candidates.find((d) => d.path.slice(d.path.lastIndexOf("/") + 1) === base) ?? candidates[0]!;
      used.add(src);
      used.add(c);
      renamed.push({ status: "R", path: c.path, oldPath: src.path, old: src.old, new: c.new });
    }
    result = out.filter((c) => !used.has(c)).concat(renamed);
  }
  return result.sort((p, q) => (p.path < q.path ? -1 : p.path > q.path ? 1 : p.status === "D" ? -1 : 1));
}

async function blobOf(ctx: GitContext, e: TreeEntry | undefined): Promise<Uint8Array> {
  if (!e) return new Uint8Array(0);
  if (e.mode === 0o160000) return new TextEncoder().encode(`Subproject commit ${e.oid}\n`);
  return ctx.repo.readBlob(e.oid);
}

/** xdiff's default funcname rule: a line starting with a letter, "_" or "$" (cut to 80 bytes). */
function funcLine(line: string): string | null {
  if (!/^[A-Za-z_$]/.test(line)) return null;
  let s = line;
  const bytes = new TextEncoder().encode(s);
  if (bytes.length > 80) s = new TextDecoder().decode(bytes.slice(0, 80)).replace(/\uFFFD$/, "");
  return s.replace(/\s+$/, "");
}

function rangeText(start: number, count: number): string {
  return `${count === 0 ? start - 1 : start}${count === 1 ? "" : "," + count}`;
}

export async function fileDiff(ctx: GitContext, change: Change, context = 3): Promise<FileDiff> {
  const [a, b] = await Promise.all([blobOf(ctx, change.old), blobOf(ctx, change.new)]);
  const base = { change, oldSize: a.length, newSize: b.length };
  if ((change.old && change.new && change.old.oid === change.new.oid) || (a.length === 0 && b.length === 0)) {
    return { ...base, binary: false, added: 0, deleted: 0, hunks: "" };
  }
  if (isBinary(a) || isBinary(b)) return { ...base, binary: true, added: 0, deleted: 0, hunks: "" };
  const oldText = decodeText(a);
  const newText = decodeText(b);
  const patch = structuredPatch("a", "b", oldText, newText, "", "", { context });
  const oldLines = oldText.split("\n");
  let added = 0;
  let deleted = 0;
  let text = "";
  let func: string | null = null;
  let limit = -1;
  for (const h of patch.hunks) {
    // xdiff searches the old file backwards from the line before the hunk down to the
    // previous hunk's start; when nothing matches the previous function line is kept.
    const s1 = h.oldStart - 1;
    for (let l = s1 - 1; l > limit && l >= 0; l--) {
      const f = funcLine(oldLines[l] ?? "");
      if (f !== null) {
        func = f;
        break;
      }
    }
    limit = s1 - 1;
    text += `@@ -${rangeText(h.oldStart, h.oldLines)} +${rangeText(h.newStart, h.newLines)} @@${func ? " " + func : ""}\n`;
    for (const line of h.lines) {
      if (line[0] === "+") added++;
      else if (line[0] === "-") deleted++;
      text += line + "\n";
    }
  }
  return { ...base, binary: false, added, deleted, hunks: text };
}

const modeStr = (m: number) => m.toString(8).padStart(6, "0");

/** The full patch of one change, headers included. */
export function patchText(ctx: GitContext, d: FileDiff, opts: { srcPrefix?: string; dstPrefix?: string; abbrev?: number } = {}): string {
  void ctx;
  const { change } = d;
  const sp = opts.srcPrefix ?? "a/";
  const dp = opts.dstPrefix ?? "b/";
  const n = opts.abbrev ?? 7;
  const aName = cquote(sp + change.oldPath);
  const bName = cquote(dp + change.path);
  let out = `diff --git ${aName} ${bName}\n`;
  const oldOid = change.old?.oid ?? ZERO_OID;
  const newOid = change.new?.oid ?? ZERO_OID;
  let indexLine = `index ${oldOid.slice(0, n)}..${newOid.slice(0, n)}`;
  if (change.status === "A") {
    out += `new file mode ${modeStr(change.new!.mode)}\n`;
  } else if (change.status === "D") {
    out += `deleted file mode ${modeStr(change.old!.mode)}\n`;
  } else {
    if (change.old!.mode !== change.new!.mode) out += `old mode ${modeStr(change.old!.mode)}\nnew mode ${modeStr(change.new!.mode)}\n`;
    else if (change.status !== "R") indexLine += ` ${modeStr(change.new!.mode)}`;
    if (change.status === "R") {
      out += `similarity index 100%\nrename from ${cquote(change.oldPath)}\nrename to ${cquote(change.path)}\n`;
      if (oldOid === newOid) return out;
      if (change.old!.mode === change.new!.mode) indexLine += ` ${modeStr(change.new!.mode)}`;
    }
    if (oldOid === newOid) return out; // mode change only
  }
  out += indexLine + "\n";
  if (d.binary) {
    const left = change.status === "A" ? "/dev/null" : aName;
    const right = change.status === "D" ? "/dev/null" : bName;
    return out + `Binary files ${left} and ${right} differ\n`;
  }
  if (d.hunks === "") return out;
  out += `--- ${change.status === "A" ? "/dev/null" : aName}\n`;
  out += `+++ ${change.status === "D" ? "/dev/null" : bName}\n`;
  return out + d.hunks;
}

export async function formatPatch(ctx: GitContext, changes: Change[], opts: { context?: number } = {}): Promise<string> {
  let out = "";
  for (const c of changes) out += patchText(ctx, await fileDiff(ctx, c, opts.context ?? 3));
  return out;
}

const decimalWidth = (n: number) => String(n).length;

function scaleLinear(it: number, width: number, maxChange: number): number {
  if (!it) return 0;
  return 1 + Math.floor((it * (width - 1)) / maxChange);
}

function statName(c: Change): string {
  if (c.status !== "R") return cquote(c.path);
  return pprintRename(c.oldPath, c.path);
}

/** git's pprint_rename: the common directory prefix/suffix folded into "{old => new}". */
export function pprintRename(a: string, b: string): string {
  if (cquote(a) !== a || cquote(b) !== b) return `${cquote(a)} => ${cquote(b)}`;
  let pfx = 0;
  for (let i = 0; i < a.length && i < b.length && a[i] === b[i]; i++) if (a[i] === "/") pfx = i + 1;
  let sfx = 0;
  const adj = pfx ? 1 : 0;
  let oi = a.length;
  let ni = b.length;
  const at = (s: string, i: number) => (i >= s.length ? "\\0" : s[i]);
  while (pfx - adj <= oi && pfx - adj <= ni && oi >= 0 && ni >= 0 && at(a, oi) === at(b, ni)) {
    if (a[oi] === "/") sfx = a.length - oi;
    oi--;
    ni--;
  }
  const aMid = a.slice(pfx, Math.max(pfx, a.length - sfx));
  const bMid = b.slice(pfx, Math.max(pfx, b.length - sfx));
  if (pfx + sfx === 0) return `${aMid} => ${bMid}`;
  return `${a.slice(0, pfx)}{${aMid} => ${bMid}}${a.slice(a.length - sfx)}`;
}

/** `--stat` block (file lines and the summary line), git's width rules at 80 columns. */
export function formatStatLines(diffs: FileDiff[], width = 80): string {
  if (diffs.length === 0) return "";
  let maxLen = 0;
  let maxChange = 0;
  let numberWidth = 0;
  let binWidth = 0;
  const names = diffs.map((d) => statName(d.change));
  diffs.forEach((d, i) => {
    maxLen = Math.max(maxLen, names[i]!.length);
    if (d.binary) {
      const w = 14 + decimalWidth(d.oldSize) + decimalWidth(d.newSize);
      binWidth = Math.max(binWidth, w);
      numberWidth = 3;
      return;
    }
    maxChange = Math.max(maxChange, d.added + d.deleted);
  });
  numberWidth = Math.max(decimalWidth(maxChange), numberWidth);
  if (width < 16 + 6 + numberWidth) width = 16 + 6 + numberWidth;
  let graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4;
  let nameWidth = maxLen;
  if (nameWidth + numberWidth + 6 + graphWidth > width) {
    if (graphWidth > Math.floor((width * 3) / 8) - numberWidth - 6) {
      graphWidth = Math.floor((width * 3) / 8) - numberWidth - 6;
      if (graphWidth < 6) graphWidth = 6;
    }
    if (nameWidth > width - numberWidth - 6 - graphWidth) nameWidth = width - numberWidth - 6 - graphWidth;
    else graphWidth = width - numberWidth - 6 - nameWidth;
  }
  let out = "";
  let adds = 0;
  let dels = 0;
  diffs.forEach((d, i) => {
    let name = names[i]!;
    let prefix = "";
    let len = nameWidth;
    if (nameWidth < name.length) {
      prefix = "...";
      len -= 3;
      if (len < 0) len = 0;
      name = name.slice(name.length - len);
      const slash = name.indexOf("/");
      if (slash !== -1) name = name.slice(slash);
    }
    const padding = Math.max(0, len - name.length);
    out += ` ${prefix}${name}${" ".repeat(padding)} |`;
    if (d.binary) {
      out += ` ${"Bin".padStart(numberWidth)}`;
      if (d.oldSize === 0 && d.newSize === 0) out += "\n";
      else out += ` ${d.oldSize} -> ${d.newSize} bytes\n`;
      return;
    }
    adds += d.added;
    dels += d.deleted;
    let add = d.added;
    let del = d.deleted;
    if (graphWidth <= maxChange) {
      let total = scaleLinear(add + del, graphWidth, maxChange);
      if (total < 2 && add && del) total = 2;
      if (add < del) {
        add = scaleLinear(add, graphWidth, maxChange);
        del = total - add;
      } else {
        del = scaleLinear(del, graphWidth, maxChange);
        add = total - del;
      }
    }
    const total = d.added + d.deleted;
    out += ` ${String(total).padStart(numberWidth)}${total ? " " : ""}${"+".repeat(add)}${"-".repeat(del)}\n`;
  });
  return out + statSummary(diffs.length, adds, dels) + "\n";
}

export function statSummary(files: number, insertions: number, deletions: number): string {
  if (files === 0) return " 0 files changed";
  let s = ` ${files} ${plural(files, "file", "files")} changed`;
  if (insertions || deletions === 0) s += `, ${insertions} ${plural(insertions, "insertion(+)", "insertions(+)")}`;
  if (deletions || insertions === 0) s += `, ${deletions} ${plural(deletions, "deletion(-)", "deletions(-)")}`;
  return s;
}

/** --shortstat */
export function formatShortStat(diffs: FileDiff[]): string {
  if (diffs.length === 0) return "";
  const adds = diffs.reduce((n, d) => n + d.added, 0);
  const dels = diffs.reduce((n, d) => n + d.deleted, 0);
  return statSummary(diffs.length, adds, dels) + "\n";
}

export function formatNumstat(diffs: FileDiff[]): string {
  return diffs
    .map((d) => {
      const name = d.change.status === "R" ? pprintRename(d.change.oldPath, d.change.path) : cquote(d.change.path);
      return d.binary ? `-\t-\t${name}\n` : `${d.added}\t${d.deleted}\t${name}\n`;
    })
    .join("");
}

export function formatNameStatus(changes: Change[]): string {
  return changes
    .map((c) => (c.status === "R" ? `R100\t${cquote(c.oldPath)}\t${cquote(c.path)}\n` : `${c.status}\t${cquote(c.path)}\n`))
    .join("");
}

export function formatNameOnly(changes: Change[]): string {
  return changes.map((c) => cquote(c.path) + "\n").join("");
}

/** "create mode 100644 x" / "delete mode …" / "rename a => b (100%)" / "mode change" lines
 * (commit summaries, --summary). */
export function formatSummaryLines(changes: Change[]): string {
  let out = "";
  for (const c of changes) {
    if (c.status === "A") out += ` create mode ${modeStr(c.new!.mode)} ${cquote(c.path)}\n`;
    else if (c.status === "D") out += ` delete mode ${modeStr(c.old!.mode)} ${cquote(c.path)}\n`;
    else if (c.status === "R") out += ` rename ${statName(c)} (100%)\n`;
    else if (c.old && c.new && c.old.mode !== c.new.mode) out += ` mode change ${modeStr(c.old.mode)} => ${modeStr(c.new.mode)} ${cquote(c.path)}\n`;
  }
  return out;
}

export async function fileDiffs(ctx: GitContext, changes: Change[]): Promise<FileDiff[]> {
  const out: FileDiff[] = [];
  for (const c of changes) out.push(await fileDiff(ctx, c));
  return out;
}
