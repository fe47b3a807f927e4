/** `git blame`: the commit that last changed each line of a file. */
import { diffArrays } from "diff";
import type { GitContext } from "../context";
import { decodeText, fatal, formatIsoDate, GitError, parseArgs, splitLines } from "../util";
import { writesOutputFile } from "./forms";
import { shallowCommits } from "../log-format";

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
    bool: ["-s", "-e", "--show-email", "-l", "-t", "-f", "--show-name", "-n", "--show-number", "-p", "--porcelain", "--line-porcelain", "-c", "--root"],
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
    if (ctx.repo.isHidden(rel) || (!(await ctx.repo.objects.entryAt(start, rel)) && !(await ctx.work.index()).has(rel))) throw fatal(`no such path '${file}' in HEAD`);
    text = decodeText(bytes);
  } else {
    const e = ctx.repo.isHidden(rel) ? undefined : await ctx.repo.objects.entryAt(start, rel);
    if (!e) throw fatal(`no such path ${rel} in ${rev}`);
    text = decodeText(await ctx.repo.objects.readBlob(e.oid));
  }
  const lines = splitLines(text);
  const blame: ({ oid: string; origLine: number } | null)[] = lines.map(() => null);
  // Only the lines shown are followed down the history (-L), and the walk stops once each has
  // found its commit: a range near the top of a file with a long history ends early.
  const range = a.get("-L") ? parseRange(a.get("-L")!, lines.length) : [1, lines.length];
  const wanted = (i: number) => i >= range[0]! - 1 && i < range[1]!;
  const objects = ctx.repo.objects;

  // Map the blamed lines onto the starting commit's version, then walk first parents handing
  // unchanged lines down; a line stops at the commit whose parent lacks it. A commit that did
  // not touch the file (same blob as its parent) hands every line down without a diff.
  let current: { oid: string; blob: string | undefined; lines: string[]; idx: number[] } | null;
  {
    const headEntry = await objects.entryAt(start, rel);
    const headLines = headEntry ? splitLines(decodeText(await objects.readBlob(headEntry.oid))) : [];
    const map = mapLines(lines, headLines);
    const idx: number[] = [];
    map.forEach((m, i) => {
      if (m !== -1 && wanted(i)) idx[m] = i;
    });
    current = idx.length ? { oid: start, blob: headEntry?.oid, lines: headLines, idx } : null;
  }
  const shallow = await shallowCommits(ctx);
  while (current) {
    const cur: { oid: string; blob: string | undefined; lines: string[]; idx: number[] } = current;
    const { commit } = await objects.readCommit(cur.oid);
    const parent = shallow.has(cur.oid) ? undefined : commit.parent[0];
    const pe = parent ? await objects.entryAt(parent, rel) : undefined;
    if (parent && pe && pe.oid === cur.blob) {
      current = { oid: parent, blob: cur.blob, lines: cur.lines, idx: cur.idx };
      continue;
    }
    const parentLines = pe ? splitLines(decodeText(await objects.readBlob(pe.oid))) : [];
    const map = pe ? mapLines(cur.lines, parentLines) : cur.lines.map(() => -1);
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
    current = pending && parent ? { oid: parent, blob: pe?.oid, lines: parentLines, idx: nextIdx } : null;
  }

  // Format like git's default output.
  type Who = { author: string; email: string; ts: number; tz: number; committer: string; cemail: string; cts: number; ctz: number; summary: string; boundary: boolean; previous?: string };
  const commits = new Map<string, Who>();
  for (const b of blame) {
    if (!b || commits.has(b.oid)) continue;
    const { commit } = await objects.readCommit(b.oid);
    const parent = shallow.has(b.oid) ? undefined : commit.parent[0];
    const previous = parent && (await objects.entryAt(parent, rel).catch(() => undefined)) ? parent : undefined;
    commits.set(b.oid, {
      author: commit.author.name,
      email: commit.author.email,
      ts: commit.author.timestamp,
      tz: commit.author.timezoneOffset,
      committer: commit.committer.name,
      cemail: commit.committer.email,
      cts: commit.committer.timestamp,
      ctz: commit.committer.timezoneOffset,
      summary: commit.message.split("\n")[0] ?? "",
      boundary: !parent,
      previous,
    });
  }
  const now = Math.floor(Date.now() / 1000);
  const nobody: Who = { author: "Not Committed Yet", email: "not.committed.yet", ts: now, tz: 0, committer: "Not Committed Yet", cemail: "not.committed.yet", cts: now, ctz: 0, summary: "Version of " + rel + " from " + rel, boundary: false };
  const who = (b: (typeof blame)[number]) => (b ? commits.get(b.oid)! : nobody);
  const authorText = (b: (typeof blame)[number]) => (a.has("-e") ? `<${who(b).email}>` : who(b).author);
  // Widths as git sets them: from the lines shown.
  const shown = blame.slice(range[0]! - 1, range[1]!);
  const authorWidth = Math.max(...shown.map((b) => authorText(b).length), 0);
  const numWidth = String(range[1]!).length;
  if (a.has("-p") || a.has("--line-porcelain")) {
    // git's porcelain: one group per run of lines from the same commit, the commit's details
    // the first time it appears (every line with --line-porcelain), then each line tab-indented.
    const repeat = a.has("--line-porcelain");
    const told = new Set<string>();
    const details = (id: string, w: Who) => {
      let t = `author ${w.author}\nauthor-mail <${w.email}>\nauthor-time ${w.ts}\nauthor-tz ${formatIsoDate(w.ts, w.tz).slice(-5)}\n`;
      t += `committer ${w.committer}\ncommitter-mail <${w.cemail}>\ncommitter-time ${w.cts}\ncommitter-tz ${formatIsoDate(w.cts, w.ctz).slice(-5)}\nsummary ${w.summary}\n`;
      if (w.boundary) t += "boundary\n";
      if (w.previous) t += `previous ${w.previous} ${rel}\n`;
      told.add(id);
      return t + `filename ${rel}\n`;
    };
    let i = range[0]! - 1;
    while (i < range[1]!) {
      const b = blame[i];
      const id = b ? b.oid : "0".repeat(40);
      let n = 1;
      while (i + n < range[1]! && (blame[i + n]?.oid ?? null) === (b?.oid ?? null) && (blame[i + n]?.origLine ?? i + n) === (b?.origLine ?? i) + n) n++;
      for (let k = 0; k < n; k++) {
        const orig = (b?.origLine ?? i) + 1 + k;
        let out = k === 0 ? `${id} ${orig} ${i + 1} ${n}\n` : `${id} ${orig} ${i + 1 + k}\n`;
        if ((k === 0 && !told.has(id)) || repeat) out += details(id, who(b));
        ctx.io.out(`${out}\t${lines[i + k]}\n`);
      }
      i += n;
    }
    return 0;
  }
  for (let i = range[0]! - 1; i < range[1]!; i++) {
    const b = blame[i];
    const w = who(b);
    const n = ctx.repo.abbrevLen;
    const id = b ? (w.boundary && !a.has("--root") ? "^" + b.oid.slice(0, n) : b.oid.slice(0, n + 1)) : "0".repeat(n + 1);
    // -l keeps the column 40 wide: a boundary commit shows "^" and 39 hex digits, as git does.
    const idText = a.has("-l") ? (b ? (w.boundary && !a.has("--root") ? "^" + b.oid.slice(0, 39) : b.oid) : "0".repeat(40)) : id;
    const date = a.has("-t") ? `${w.ts} ${formatIsoDate(w.ts, w.tz).slice(-5)}` : formatIsoDate(w.ts, w.tz);
    const fname = a.has("-f") ? ` ${rel}` : "";
    const orig = a.has("-n") ? ` ${String((b?.origLine ?? i) + 1)}` : "";
    if (a.has("-s")) ctx.io.out(`${idText}${fname}${orig} ${String(i + 1).padStart(numWidth)}) ${lines[i]}\n`);
    else ctx.io.out(`${idText}${fname}${orig} (${authorText(b).padEnd(authorWidth)} ${date} ${String(i + 1).padStart(numWidth)}) ${lines[i]}\n`);
  }
  return 0;
}
