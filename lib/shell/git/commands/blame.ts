/** `git blame`: the commit that last changed each line of a file. */
import { diffArrays } from "diff";
import git from "isomorphic-git";
import type { GitContext } from "../context";
import { decodeText, fatal, formatIsoDate, GitError, parseArgs, splitLines } from "../util";
import { writesOutputFile } from "./forms";

export const name = "blame";
export const effect = "git blame --output writes a file";

/** Reads; only `--output=<file>` would write. */
export function writes(args: readonly string[]): boolean {
  return writesOutputFile(args);
}


/** For each line of `a`, the index of the same line in `b` (LCS), or -1. */
function mapLines(a: string[], b: string[]): number[] {
  const out = new Array<number>(a.length).fill(-1);
  let ia = 0;
  let ib = 0;
  for (const p of diffArrays(b, a)) {
    const n = p.count ?? p.value.length;
    if (p.added) ia += n;
    else if (p.removed) ib += n;
    else {
      for (let k = 0; k < n; k++) out[ia + k] = ib + k;
      ia += n;
      ib += n;
    }
  }
  return out;
}

function parseRange(spec: string, total: number): [number, number] {
  const m = /^(\d+)?(?:,(\+?)(\d+))?$/.exec(spec);
  if (!m) throw fatal(`invalid -L argument '${spec}'`);
  const start = Math.max(1, Number(m[1] ?? 1));
  let end = total;
  if (m[3] !== undefined) end = m[2] ? start + Number(m[3]) - 1 : Number(m[3]);
  return [start, Math.min(total, end)];
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-s", "-e", "--show-email", "-l", "-t", "-f", "--show-name", "-n", "--show-number", "-p", "--porcelain", "-c", "--root"],
    value: ["-L"],
    alias: { "--show-email": "-e", "--show-name": "-f", "--show-number": "-n", "--porcelain": "-p" },
    usage: "git blame [<options>] [<rev-opts>] [<rev>] [--] <file>",
  });
  const pos = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (pos.length === 0) throw new GitError("usage: git blame [<options>] [<rev-opts>] [<rev>] [--] <file>\n", 129);
  const rev = pos.length >= 2 ? pos[0]! : null;
  const file = pos.length >= 2 ? pos[1]! : pos[0]!;
  const rel = ctx.work.repoPath(file);
  const start = rev === null ? await ctx.repo.headOid() : await ctx.repo.resolveCommit(rev);
  if (start === null) throw fatal(`no such path '${file}' in HEAD`);

  // The version being blamed: the work tree (uncommitted lines blamed on nobody) or <rev>'s.
  let text: string;
  if (rev === null) {
    const bytes = await ctx.work.read(rel);
    if (bytes === null) throw fatal(`no such path '${file}' in HEAD`);
    if (!(await ctx.repo.treeOf(start)).has(rel) && !(await ctx.work.index()).has(rel)) throw fatal(`no such path '${file}' in HEAD`);
    text = decodeText(bytes);
  } else {
    const e = (await ctx.repo.treeOf(start)).get(rel);
    if (!e) throw fatal(`no such path ${rel} in ${rev}`);
    text = decodeText(await ctx.repo.readBlob(e.oid));
  }
  const lines = splitLines(text);
  const blame: ({ oid: string; origLine: number } | null)[] = lines.map(() => null);

  // Map the blamed lines onto the starting commit's version, then walk first parents handing
  // unchanged lines down; a line stops at the commit whose parent lacks it.
  let current: { oid: string; lines: string[]; idx: number[] } | null;
  {
    const headEntry = (await ctx.repo.treeOf(start)).get(rel);
    const headLines = headEntry ? splitLines(decodeText(await ctx.repo.readBlob(headEntry.oid))) : [];
    const map = mapLines(lines, headLines);
    const idx: number[] = [];
    map.forEach((m, i) => {
      if (m !== -1) idx[m] = i;
    });
    current = { oid: start, lines: headLines, idx };
  }
  while (current) {
    const cur: { oid: string; lines: string[]; idx: number[] } = current;
    const { commit } = await git.readCommit({ ...ctx.repo.iso, oid: cur.oid });
    const parent = commit.parent[0];
    let parentLines: string[] = [];
    let parentHas = false;
    if (parent) {
      const pe = (await ctx.repo.treeOf(parent)).get(rel);
      if (pe) {
        parentHas = true;
        parentLines = splitLines(decodeText(await ctx.repo.readBlob(pe.oid)));
      }
    }
    const map = parentHas ? mapLines(cur.lines, parentLines) : cur.lines.map(() => -1);
    const nextIdx: number[] = [];
    let pending = false;
    cur.lines.forEach((_, j) => {
      const out = cur.idx[j];
      if (out === undefined) return;
      const m = map[j];
      if (m === undefined || m === -1 || !parent) blame[out] = { oid: cur.oid, origLine: j };
      else {
        nextIdx[m] = out;
        pending = true;
      }
    });
    current = pending && parent ? { oid: parent, lines: parentLines, idx: nextIdx } : null;
  }

  // Format like git's default output.
  const commits = new Map<string, { author: string; email: string; ts: number; tz: number; boundary: boolean }>();
  for (const b of blame) {
    if (!b || commits.has(b.oid)) continue;
    const { commit } = await git.readCommit({ ...ctx.repo.iso, oid: b.oid });
    commits.set(b.oid, { author: commit.author.name, email: commit.author.email, ts: commit.author.timestamp, tz: commit.author.timezoneOffset, boundary: commit.parent.length === 0 });
  }
  const now = Math.floor(Date.now() / 1000);
  const who = (b: (typeof blame)[number]) => (b ? commits.get(b.oid)! : { author: "Not Committed Yet", email: "not.committed.yet", ts: now, tz: 0, boundary: false });
  const authorText = (b: (typeof blame)[number]) => (a.has("-e") ? `<${who(b).email}>` : who(b).author);
  const authorWidth = Math.max(...blame.map((b) => authorText(b).length), 0);
  const numWidth = String(lines.length).length;
  const range = a.get("-L") ? parseRange(a.get("-L")!, lines.length) : [1, lines.length];
  if (a.has("-p")) {
    for (let i = range[0]! - 1; i < range[1]!; i++) {
      const b = blame[i];
      const w = who(b);
      ctx.io.out(
        `${b ? b.oid : "0".repeat(40)} ${(b?.origLine ?? i) + 1} ${i + 1}\nauthor ${w.author}\nauthor-mail <${w.email}>\nauthor-time ${w.ts}\nauthor-tz ${formatIsoDate(w.ts, w.tz).slice(-5)}\nfilename ${rel}\n\t${lines[i]}\n`,
      );
    }
    return 0;
  }
  for (let i = range[0]! - 1; i < range[1]!; i++) {
    const b = blame[i];
    const w = who(b);
    const id = b ? (w.boundary && !a.has("--root") ? "^" + b.oid.slice(0, 7) : b.oid.slice(0, 8)) : "00000000";
    const idText = a.has("-l") ? (b ? (w.boundary ? "^" : "") + b.oid : "0".repeat(40)) : id;
    const date = a.has("-t") ? `${w.ts} ${formatIsoDate(w.ts, w.tz).slice(-5)}` : formatIsoDate(w.ts, w.tz);
    const fname = a.has("-f") ? ` ${rel}` : "";
    const orig = a.has("-n") ? ` ${String((b?.origLine ?? i) + 1)}` : "";
    if (a.has("-s")) ctx.io.out(`${idText}${fname}${orig} ${String(i + 1).padStart(numWidth)}) ${lines[i]}\n`);
    else ctx.io.out(`${idText}${fname}${orig} (${authorText(b).padEnd(authorWidth)} ${date} ${String(i + 1).padStart(numWidth)}) ${lines[i]}\n`);
  }
  return 0;
}
