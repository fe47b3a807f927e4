/** `git switch`: switch branches (or detach HEAD). */
import { branchOid, checkSwitchable, createBranchRef, doSwitch } from "../branch-ops";
import type { GitContext } from "../context";
import { operationInProgress } from "../merge-state";
import { readState as readRebase } from "../rebase-state";
import { setHead } from "../tree";
import { fatal, GitError, parseArgs } from "../util";

export const name = "switch";
export const effect = "git switch changes files";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-d", "--detach", "-f", "--force", "--discard-changes", "-q", "--quiet", "--no-track", "-t", "--track", "--guess", "--no-guess"],
    value: ["-c", "--create", "-C", "--force-create", "--orphan"],
    alias: { "--detach": "-d", "--force": "-f", "--discard-changes": "-f", "--quiet": "-q", "--create": "-c", "--force-create": "-C", "--track": "-t" },
    usage: "git switch [<options>] [<branch>]",
  });
  const pos = [...a.positionals, ...(a.afterDashDash ?? [])];
  const force = a.has("-f");
  // git switch (unlike checkout) will not leave a merge, cherry-pick, revert or rebase behind.
  const pending = (await operationInProgress(ctx))?.op ?? ((await readRebase(ctx)) ? "rebase" : null);
  if (pending) {
    const verb = { merge: "merging", "cherry-pick": "cherry-picking", revert: "reverting", rebase: "rebasing" }[pending];
    throw new GitError(`fatal: cannot switch branch while ${verb}\nConsider "git ${pending} --quit" or "git worktree add".\n`, 128);
  }
  const quiet = a.has("-q");
  const create = a.get("-c") ?? a.get("-C");
  if (a.get("--orphan") !== undefined) throw fatal("--orphan is not supported in this shell");
  if (create !== undefined) {
    const current = await ctx.repo.branch();
    if (a.get("-C") !== undefined && current === create) throw fatal(`cannot force update the branch '${create}' used by worktree at '${ctx.work.toplevel}'`);
    const start = pos[0];
    if ((await ctx.repo.headOid()) === null && start === undefined) {
      await setHead(ctx, { branch: create });
      if (!quiet) ctx.io.err(`Switched to a new branch '${create}'\n`);
      return 0;
    }
    const startOid = start === undefined ? await ctx.repo.headOid() : await ctx.repo.resolveCommit(start);
    if (startOid !== (await ctx.repo.headOid()) && !force) await checkSwitchable(ctx, startOid!);
    await createBranchRef(ctx, create, start, a.get("-C") !== undefined);
    await doSwitch(ctx, { branch: create }, { force, verb: "checkout", created: true, quiet });
    return 0;
  }
  if (pos.length === 0) throw fatal("missing branch or commit argument");
  const name = pos[0]!;
  if (name === "-") throw fatal("switching to the previous branch ('-') is not supported in this shell");
  if (a.has("-d")) {
    await doSwitch(ctx, { detach: await ctx.repo.resolveCommit(name) }, { force, verb: "checkout", quiet });
    return 0;
  }
  if (!(await branchOid(ctx, name))) {
    const oid = await ctx.repo.tryResolveCommit(name);
    if (oid) throw new GitError(`fatal: a branch is expected, got commit '${name}'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.\n`, 128);
    throw fatal(`invalid reference: ${name}`);
  }
  await doSwitch(ctx, { branch: name }, { force, verb: "checkout", quiet });
  return 0;
}
