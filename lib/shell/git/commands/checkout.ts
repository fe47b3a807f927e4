/** `git checkout`: switch branches, or restore paths from the index or a commit. */
import git from "isomorphic-git";
import { branchOid, carriedChanges, checkSwitchable, createBranchRef, doSwitch } from "../branch-ops";
import type { GitContext } from "../context";
import { restorePaths, setHead } from "../tree";
import { fatal, GitError, parseArgs } from "../util";

export const name = "checkout";
export const effect = "git checkout changes files";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-f", "--force", "-q", "--quiet", "--detach", "--no-track", "-t", "--track", "--ours", "--theirs", "-m", "--merge"],
    value: ["-b", "-B", "--orphan"],
    alias: { "--force": "-f", "--quiet": "-q", "--track": "-t" },
    usage: "git checkout [<options>] <branch>\n   or: git checkout [<options>] [<branch>] -- <file>...",
  });
  const pos = a.positionals;
  const force = a.has("-f");
  const quiet = a.has("-q");
  const newBranch = a.get("-b") ?? a.get("-B");
  if (a.get("--orphan") !== undefined) throw fatal("--orphan is not supported in this shell");

  if (a.afterDashDash !== null) {
    if (newBranch !== undefined) throw fatal("Cannot update paths and switch to branch at the same time.");
    const paths = a.afterDashDash;
    if (pos.length > 1) throw fatal("only one reference expected");
    if (paths.length === 0) {
      if (pos.length === 0) throw fatal("you must specify path(s) to restore");
      return run(ctx, pos);
    }
    // git prints "Updated N paths" only for the form without "--".
    return checkoutPaths(ctx, pos[0], paths, true);
  }
  if (newBranch !== undefined) {
    const start = pos[0];
    if ((await ctx.repo.headOid()) === null && start === undefined) {
      await setHead(ctx, { branch: newBranch });
      if (!quiet) ctx.io.err(`Switched to a new branch '${newBranch}'\n`);
      return 0;
    }
    const startOid = start === undefined ? await ctx.repo.headOid() : await ctx.repo.resolveCommit(start);
    if (startOid !== (await ctx.repo.headOid()) && !force) await checkSwitchable(ctx, startOid!);
    await createBranchRef(ctx, newBranch, start, a.get("-B") !== undefined);
    await doSwitch(ctx, { branch: newBranch }, { force, verb: "checkout", created: true, quiet });
    return 0;
  }
  if (pos.length === 0) {
    // "git checkout" alone: report local changes, like git.
    ctx.io.out(await carriedChanges(ctx));
    return 0;
  }
  const name = pos[0]!;
  if (name === "-") throw fatal("checking out the previous branch ('-') is not supported in this shell");
  if (pos.length === 1 && (await branchOid(ctx, name))) {
    await doSwitch(ctx, { branch: name }, { force, verb: "checkout", quiet });
    return 0;
  }
  const oid = pos.length === 1 ? await ctx.repo.tryResolveCommit(name) : null;
  if (oid) {
    await doSwitch(ctx, { detach: oid }, { force, verb: "checkout", quiet });
    return 0;
  }
  // Not a revision: paths (from the index, or from a leading revision).
  const rev = (await ctx.repo.tryResolveCommit(name)) ? name : undefined;
  const paths = rev ? pos.slice(1) : pos;
  try {
    return await checkoutPaths(ctx, rev, paths, quiet);
  } catch (err) {
    if (err instanceof GitError && /did not match/.test(err.message) && pos.length === 1) {
      throw new GitError(`error: pathspec '${name}' did not match any file(s) known to git\n`, 1);
    }
    throw err;
  }
}

async function checkoutPaths(ctx: GitContext, rev: string | undefined, paths: string[], quiet: boolean): Promise<number> {
  if (rev === undefined) {
    const n = await restorePaths(ctx, paths, { staged: false, worktree: true, source: undefined });
    if (!quiet) ctx.io.err(`Updated ${n} path${n === 1 ? "" : "s"} from the index\n`);
    return 0;
  }
  const oid = await ctx.repo.resolveCommit(rev);
  // git checkout <rev> -- <paths> updates the index too, and never deletes.
  const tree = await ctx.repo.treeOf(oid);
  for (const s of paths) {
    const m = ctx.work.pathspec([s]);
    if (![...tree.keys()].some((k) => m(k))) throw new GitError(`error: pathspec '${s}' did not match any file(s) known to git\n`, 1);
  }
  const match = ctx.work.pathspec(paths);
  let n = 0;
  for (const [p, e] of tree) {
    if (!match(p)) continue;
    await ctx.work.write(p, e);
    await git.resetIndex({ ...ctx.repo.iso, filepath: p, ref: oid });
    n++;
  }
  ctx.work.invalidate();
  if (!quiet) ctx.io.err(`Updated ${n} path${n === 1 ? "" : "s"} from ${oid.slice(0, 7)}\n`);
  return 0;
}
