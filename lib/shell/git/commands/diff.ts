/** `git diff`: work tree, index and commits against each other (patch, stat, names). */
import git from "isomorphic-git";
import { EMPTY_TREE, type GitContext, type TreeMap } from "../context";
import { diffTrees, fileDiff, formatNameOnly, formatNameStatus, formatNumstat, formatShortStat, formatStatLines, patchText } from "../diff";
import { fatal, parseArgs } from "../util";
import { writesOutputFile } from "./forms";

export const name = "diff";
export const effect = "git diff --output writes a file";

/** Reads; only `--output=<file>` would write. */
export function writes(args: readonly string[]): boolean {
  return writesOutputFile(args);
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: [
      "--cached", "--staged", "--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--exit-code", "--quiet",
      "-p", "--patch", "-s", "--no-patch", "--no-renames", "-M", "--no-color", "--color", "-R", "--raw", "--no-ext-diff", "-w", "--ignore-all-space",
    ],
    value: ["-U", "--unified", "--diff-filter"],
    alias: { "--staged": "--cached", "--unified": "-U", "--patch": "-p", "--no-patch": "-s" },
    revisionStyle: true,
    usage: "git diff [<options>] [<commit>] [--] [<path>...]",
  });
  // Positionals: revisions first, then (without "--") paths that must exist.
  const revs: string[] = [];
  let paths: string[] = [...(a.afterDashDash ?? [])];
  const pos = a.positionals;
  let i = 0;
  for (; i < pos.length; i++) {
    const p = pos[i]!;
    const range = /^(.*?)(\.\.\.?)(.*)$/.exec(p);
    if (range && (await ctx.repo.tryResolveCommit(range[1] || "HEAD")) && (await ctx.repo.tryResolveCommit(range[3] || "HEAD"))) {
      revs.push(p);
      continue;
    }
    if (await ctx.repo.tryResolveCommit(p)) {
      revs.push(p);
      continue;
    }
    break;
  }
  const rest = pos.slice(i);
  if (rest.length > 0) {
    if (a.afterDashDash !== null) throw fatal(`bad revision '${rest[0]}'`);
    for (const r of rest) {
      const rel = ctx.work.repoPath(r);
      const known = [...(await ctx.work.index()).keys()].some((k) => k === rel || k.startsWith(rel + "/"));
      const onDisk = await ctx.repo.fs.promises.lstat(ctx.work.abs(rel)).then(
        () => true,
        () => false,
      );
      if (!known && !onDisk) {
        throw fatal(
          `ambiguous argument '${r}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`,
        );
      }
    }
    paths = [...rest, ...paths];
  }

  let left: TreeMap;
  let right: TreeMap;
  const cached = a.has("--cached");
  const treeOrEmpty = async (oid: string | null) => ctx.repo.treeOf(oid ?? EMPTY_TREE);
  if (revs.length === 0) {
    if (cached) {
      left = await treeOrEmpty(await ctx.repo.headOid());
      right = await ctx.work.index();
    } else {
      left = await ctx.work.index();
      right = await ctx.work.tree();
    }
  } else if (revs.length === 1) {
    const r = revs[0]!;
    const range = /^(.*?)(\.\.\.?)(.*)$/.exec(r);
    if (range) {
      let l = await ctx.repo.resolveCommit(range[1] || "HEAD");
      const rr = await ctx.repo.resolveCommit(range[3] || "HEAD");
      if (range[2] === "...") {
        const bases = (await git.findMergeBase({ ...ctx.repo.iso, oids: [l, rr] })) as string[];
        if (bases[0]) l = bases[0];
      }
      left = await ctx.repo.treeOf(l);
      right = await ctx.repo.treeOf(rr);
    } else {
      left = await ctx.repo.treeOf(await ctx.repo.resolveCommit(r));
      // `git diff <commit>`: the commit against the tracked files as they are on disk.
      right = cached ? await ctx.work.index() : await ctx.work.tree();
    }
  } else if (revs.length === 2) {
    if (cached) throw fatal("--cached and two commits are incompatible");
    left = await ctx.repo.treeOf(await ctx.repo.resolveCommit(revs[0]!));
    right = await ctx.repo.treeOf(await ctx.repo.resolveCommit(revs[1]!));
  } else {
    throw fatal("combined diffs of more than two commits are not supported in this shell");
  }
  if (a.has("-R")) [left, right] = [right, left];

  const filter = paths.length > 0 ? ctx.work.pathspec(paths) : undefined;
  let changes = diffTrees(left, right, filter, !a.has("--no-renames"));
  const df = a.get("--diff-filter");
  if (df) {
    const include = df.replace(/[a-z]/g, "");
    const exclude = df.replace(/[A-Z]/g, "").toUpperCase();
    changes = changes.filter((c) => (include === "" || include.includes(c.status)) && !exclude.includes(c.status));
  }
  const quiet = a.has("--quiet");
  if (!quiet && changes.length > 0) {
    const context = a.get("-U") !== undefined ? Number(a.get("-U")) : 3;
    const wantsStatLike = a.has("--stat") || a.has("--numstat") || a.has("--shortstat");
    const diffs = [];
    for (const c of changes) diffs.push(await fileDiff(ctx, c, context));
    const patch = !a.has("-s") && (a.has("-p") || !(wantsStatLike || a.has("--name-only") || a.has("--name-status")));
    let out = "";
    if (a.has("--numstat")) out += formatNumstat(diffs);
    if (a.has("--stat")) out += formatStatLines(diffs);
    else if (a.has("--shortstat")) out += formatShortStat(diffs);
    if (a.has("--name-only")) out += formatNameOnly(changes);
    if (a.has("--name-status")) out += formatNameStatus(changes);
    if (patch) {
      if (wantsStatLike) out += "\n";
      for (const d of diffs) out += patchText(ctx, d);
    }
    ctx.io.out(out);
  }
  return (a.has("--exit-code") || quiet) && changes.length > 0 ? 1 : 0;
}
