/**
 * Branch refs, and switching HEAD (with its work tree) to a branch or a commit: shared by
 * branch, switch and checkout.
 */
import git from "isomorphic-git";
import type { GitContext } from "./context";
import { diffTrees } from "./diff";
import { assertResolved } from "./merge-state";
import { setHead, switchTree } from "./tree";
import { fatal, GitError } from "./util";

const VALID_REF = /^(?!\/|.*(?:\/\.|\.\.|@\{|\/\/|\.lock$|\.$|\/$))[^\x00-\x20~^:?*[\\\x7f]+$/;

export function validBranchName(name: string): boolean {
  return name !== "" && name !== "HEAD" && !name.startsWith("-") && !name.startsWith(".") && VALID_REF.test(name);
}

export async function branchOid(ctx: GitContext, name: string): Promise<string | null> {
  try {
    return await git.resolveRef({ ...ctx.repo.iso, ref: `refs/heads/${name}` });
  } catch {
    return null;
  }
}

export async function createBranchRef(ctx: GitContext, name: string, start: string | undefined, force: boolean): Promise<string> {
  if (!validBranchName(name)) throw fatal(`'${name}' is not a valid branch name`);
  const oid = start === undefined ? await ctx.repo.headOid() : await ctx.repo.resolveCommit(start);
  if (oid === null) throw fatal(`not a valid object name: '${(await ctx.repo.branch()) ?? "HEAD"}'`);
  const existing = await branchOid(ctx, name);
  if (existing && !force) throw fatal(`a branch named '${name}' already exists`);
  if (existing && force && (await ctx.repo.branch()) === name) throw fatal(`cannot force update the branch '${name}' used by worktree at '${ctx.work.toplevel}'`);
  await git.writeRef({ ...ctx.repo.iso, ref: `refs/heads/${name}`, value: oid, force: true });
  return oid;
}

export async function carriedChanges(ctx: GitContext): Promise<string> {
  ctx.work.invalidate();
  return (await ctx.work.status())
    .filter((e) => e.index !== "?" && (e.index !== " " || e.worktree !== " "))
    .map((e) => `${e.worktree !== " " ? e.worktree : e.index}\t${ctx.work.display(e.path)}\n`)
    .join("");
}

export async function doSwitch(
  ctx: GitContext,
  target: { branch: string } | { detach: string },
  opts: { force: boolean; verb: string; created?: boolean; quiet?: boolean },
): Promise<void> {
  if (!opts.force) await assertResolved(ctx, "error: you need to resolve your current index first\n");
  const current = await ctx.repo.branch();
  const head = await ctx.repo.headOid();
  const say = (s: string) => {
    if (!opts.quiet) ctx.io.err(s);
  };
  if ("branch" in target) {
    const oid = await branchOid(ctx, target.branch);
    if (current === target.branch && !opts.created) {
      say(`Already on '${target.branch}'\n`);
      return;
    }
    if (oid === null) {
      // New branch on an unborn HEAD.
      await setHead(ctx, { branch: target.branch });
      say(`Switched to a new branch '${target.branch}'\n`);
      return;
    }
    if (oid !== head) await switchTree(ctx, oid, { force: opts.force, verb: opts.verb });
    await setHead(ctx, { branch: target.branch });
    if (!opts.quiet) ctx.io.out(await carriedChanges(ctx));
    say(opts.created ? `Switched to a new branch '${target.branch}'\n` : `Switched to branch '${target.branch}'\n`);
    return;
  }
  const oid = target.detach;
  if (oid !== head) await switchTree(ctx, oid, { force: opts.force, verb: opts.verb });
  await setHead(ctx, { oid });
  if (opts.quiet) return;
  ctx.io.out(await carriedChanges(ctx));
  if (current) {
    ctx.io.err(
      `Note: switching to '${oid.slice(0, 7)}'.\n\nYou are in 'detached HEAD' state. You can look around, make experimental\nchanges and commit them, and you can discard any commits you make in this\nstate without impacting any branches by switching back to a branch.\n\nIf you want to create a new branch to retain commits you create, you may\ndo so (now or later) by using -c with the switch command. Example:\n\n  git switch -c <new-branch-name>\n\nOr undo this operation with:\n\n  git switch -\n\nTurn off this advice by setting config variable advice.detachedHead to false\n\n`,
    );
  } else if (head) {
    ctx.io.err(`Previous HEAD position was ${head.slice(0, 7)} ${await ctx.repo.commitSubject(head)}\n`);
  }
  ctx.io.err(`HEAD is now at ${oid.slice(0, 7)} ${await ctx.repo.commitSubject(oid)}\n`);
}

/** Refuse before creating a branch when switching to its start point would lose local edits. */
export async function checkSwitchable(ctx: GitContext, oid: string): Promise<void> {
  const head = await ctx.repo.headOid();
  const between = new Set(diffTrees(await ctx.repo.treeOf(head), await ctx.repo.treeOf(oid), undefined, false).map((c) => c.path));
  const dirty = (await ctx.work.status()).filter((e) => e.index !== "?" && (e.index !== " " || e.worktree !== " ") && between.has(e.path));
  if (dirty.length > 0) {
    throw new GitError(
      `error: Your local changes to the following files would be overwritten by checkout:\n${dirty.map((e) => `\t${ctx.work.display(e.path)}\n`).join("")}Please commit your changes or stash them before you switch branches.\nAborting\n`,
      1,
    );
  }
}
