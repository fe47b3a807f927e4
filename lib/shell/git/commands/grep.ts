/** `git grep`: search tracked files (work tree, index or a commit). */
import type { GitContext } from "../context";
import { breToJs, cquote, decodeText, fatal, isBinary, parseArgs, splitLines } from "../util";
import { writesOutputFile } from "./forms";

export const name = "grep";
export const effect = "git grep --output writes a file";

/** Reads; only `--output=<file>` would write. */
export function writes(args: readonly string[]): boolean {
  return writesOutputFile(args);
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: [
      "-n", "--line-number", "-i", "--ignore-case", "-l", "--files-with-matches", "-L", "--files-without-match", "-c", "--count",
      "-w", "--word-regexp", "-v", "--invert-match", "-E", "--extended-regexp", "-F", "--fixed-strings", "-G", "--basic-regexp",
      "-P", "--perl-regexp", "-h", "-H", "-q", "--quiet", "--cached", "-I", "--untracked", "--no-index", "--full-name", "-o",
      "--only-matching", "--column",
    ],
    value: ["-e", "-A", "-B", "-C", "--max-depth"],
    alias: {
      "--line-number": "-n", "--ignore-case": "-i", "--files-with-matches": "-l", "--files-without-match": "-L", "--count": "-c",
      "--word-regexp": "-w", "--invert-match": "-v", "--extended-regexp": "-E", "--fixed-strings": "-F", "--basic-regexp": "-G",
      "--perl-regexp": "-P", "--quiet": "-q", "--only-matching": "-o",
    },
    usage: "git grep [<options>] [-e] <pattern> [<rev>...] [[--] <path>...]",
  });
  const pos = [...a.positionals];
  const patterns = a.all("-e");
  if (patterns.length === 0) {
    if (pos.length === 0) throw fatal("no pattern given");
    patterns.push(pos.shift()!);
  }
  let revOid: string | null = null;
  let revName = "";
  const onDisk = async (p: string) =>
    ctx.repo.fs.promises.lstat(ctx.work.abs(ctx.work.repoPath(p))).then(
      () => true,
      () => false,
    );
  if (pos.length > 0 && (await ctx.repo.tryResolveCommit(pos[0]!)) && (a.afterDashDash !== null || !(await onDisk(pos[0]!)))) {
    revName = pos.shift()!;
    revOid = await ctx.repo.resolveCommit(revName);
  }
  const paths = [...pos, ...(a.afterDashDash ?? [])];
  const flags = a.has("-i") ? "i" : "";
  const sources = patterns.map((p) => {
    let src = a.has("-F") ? p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : a.has("-E") || a.has("-P") ? p : breToJs(p);
    if (a.has("-w")) src = `(?<![A-Za-z0-9_])(?:${src})(?![A-Za-z0-9_])`;
    return src;
  });
  let re: RegExp;
  try {
    re = new RegExp(sources.map((s) => `(?:${s})`).join("|"), flags);
  } catch (err) {
    throw fatal(`command line, '${patterns[0]}': ${(err as Error).message}`);
  }
  const underCwd = (p: string) => ctx.work.cwdRel === "" || p.startsWith(ctx.work.cwdRel + "/");
  const match = paths.length > 0 ? ctx.work.pathspec(paths) : underCwd;
  const files: { path: string; load: () => Promise<Uint8Array | null> }[] = [];
  if (revOid) {
    for (const [p, e] of await ctx.repo.treeOf(revOid)) if (match(p)) files.push({ path: p, load: () => ctx.repo.readBlob(e.oid) });
  } else if (a.has("--cached")) {
    for (const [p, e] of await ctx.work.index()) if (match(p)) files.push({ path: p, load: () => ctx.repo.readBlob(e.oid) });
  } else {
    for (const p of (await ctx.work.index()).keys()) if (match(p)) files.push({ path: p, load: () => ctx.work.read(p) });
    if (a.has("--untracked")) {
      for (const e of await ctx.work.status()) if (e.index === "?" && match(e.path)) files.push({ path: e.path, load: () => ctx.work.read(e.path) });
    }
  }
  files.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  let found = false;
  const invert = a.has("-v");
  const ctxA = Number(a.get("-A") ?? a.get("-C") ?? 0);
  const ctxB = Number(a.get("-B") ?? a.get("-C") ?? 0);
  const revLabel = revOid ? `${revName}:` : "";
  for (const f of files) {
    const bytes = await f.load();
    if (bytes === null) continue;
    const name = revLabel + (a.has("--full-name") ? f.path : ctx.work.display(f.path));
    const shownName = a.has("-h") ? "" : name;
    if (isBinary(bytes)) {
      if (a.has("-I")) continue;
      if (re.test(decodeText(bytes)) !== invert) {
        found = true;
        if (a.has("-q")) return 0;
        if (a.has("-l")) ctx.io.out(cquote(name) + "\n");
        else if (!a.has("-L") && !a.has("-c")) ctx.io.out(`Binary file ${cquote(name)} matches\n`);
      }
      continue;
    }
    const lines = splitLines(decodeText(bytes));
    const hits: number[] = [];
    lines.forEach((l, i) => {
      if (re.test(l) !== invert) hits.push(i);
    });
    if (a.has("-L")) {
      if (hits.length === 0) {
        found = true;
        ctx.io.out(cquote(name) + "\n");
      }
      continue;
    }
    if (hits.length === 0) continue;
    found = true;
    if (a.has("-q")) return 0;
    if (a.has("-l")) {
      ctx.io.out(cquote(name) + "\n");
      continue;
    }
    if (a.has("-c")) {
      ctx.io.out(`${shownName ? cquote(shownName) + ":" : ""}${hits.length}\n`);
      continue;
    }
    const show = new Set<number>();
    for (const h of hits) for (let k = Math.max(0, h - ctxB); k <= Math.min(lines.length - 1, h + ctxA); k++) show.add(k);
    const hitSet = new Set(hits);
    let last = -2;
    for (const k of [...show].sort((x, y) => x - y)) {
      if ((ctxA || ctxB) && last !== -2 && k !== last + 1) ctx.io.out("--\n");
      last = k;
      const sep = hitSet.has(k) ? ":" : "-";
      const head = shownName ? cquote(shownName) + sep : "";
      const num = a.has("-n") ? `${k + 1}${sep}` : "";
      if (a.has("-o") && hitSet.has(k) && !invert) {
        for (const m of lines[k]!.matchAll(new RegExp(re.source, flags + "g"))) ctx.io.out(`${head}${num}${m[0]}\n`);
      } else ctx.io.out(`${head}${num}${lines[k]}\n`);
    }
  }
  return found ? 0 : 1;
}
