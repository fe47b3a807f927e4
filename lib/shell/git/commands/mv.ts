/** `git mv`: move or rename a tracked file. */
import git from "isomorphic-git";
import type { GitContext } from "../context";
import { pathKind } from "../tree";
import { fatal, GitError, parseArgs } from "../util";

export const name = "mv";
export const effect = "git mv moves files";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-f", "--force", "-k", "-n", "--dry-run", "-v", "--verbose"],
    alias: { "--force": "-f", "--dry-run": "-n", "--verbose": "-v" },
    usage: "git mv [<options>] <source>... <destination>",
  });
  const all = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (all.length < 2) throw new GitError("usage: git mv [<options>] <source>... <destination>\n", 129);
  const dstArg = all[all.length - 1]!;
  const srcs = all.slice(0, -1);
  const dstRel = ctx.work.repoPath(dstArg);
  const dstKind = await pathKind(ctx, dstRel);
  const intoDir = srcs.length > 1 || dstKind === "dir";
  if (srcs.length > 1 && dstKind !== "dir") throw fatal(`destination '${dstArg}' is not a directory`);
  const index = await ctx.work.index();
  const moves: { from: string; to: string; files: string[] }[] = [];
  for (const s of srcs) {
    const from = ctx.work.repoPath(s);
    const base = from.slice(from.lastIndexOf("/") + 1);
    const to = intoDir ? (dstRel === "" ? base : `${dstRel}/${base}`) : dstRel;
    const where = `source=${s}, destination=${intoDir ? ctx.work.display(to) : dstArg}`;
    const kind = await pathKind(ctx, from);
    if (kind === null) {
      if (a.has("-k")) continue;
      throw fatal(`bad source, ${where}`);
    }
    const files = kind === "dir" ? [...index.keys()].filter((k) => k.startsWith(from + "/")) : index.has(from) ? [from] : [];
    if (files.length === 0) {
      if (a.has("-k")) continue;
      throw fatal(kind === "dir" ? `source directory is empty, ${where}` : `not under version control, ${where}`);
    }
    if (to === from || to.startsWith(from + "/")) throw fatal(`can not move directory into itself, ${where}`);
    const toKind = await pathKind(ctx, to);
    if (toKind !== null && (!a.has("-f") || toKind === "dir")) {
      if (a.has("-k")) continue;
      throw fatal(`destination exists, ${where}`);
    }
    moves.push({ from, to, files });
  }
  for (const m of moves) {
    if (a.has("-n") || a.has("-v")) ctx.io.out(`Renaming ${m.from} to ${m.to}\n`);
    if (a.has("-n")) continue;
    if (await pathKind(ctx, m.to)) await ctx.work.wsfs.remove(m.to, { origin: "git" });
    await ctx.work.wsfs.rename(m.from, m.to, { origin: "git" });
    for (const f of m.files) {
      await git.remove({ ...ctx.repo.iso, filepath: f });
      await git.add({ ...ctx.repo.iso, filepath: m.to + f.slice(m.from.length), force: true });
    }
  }
  ctx.work.invalidate();
  return 0;
}
