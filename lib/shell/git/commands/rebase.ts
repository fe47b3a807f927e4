/**
 * `git rebase <upstream>` (non-interactive): the branch's commits that upstream lacks are
 * replayed one by one onto upstream (each a cherry-pick keeping its author and message), then
 * the branch is moved there. A conflict stops the replay with the state in .git/rebase-merge
 * (git's own file names, so native git sees the same rebase) for `--continue`, `--skip` or
 * `--abort`. Commits whose change upstream already has, or that become empty, are dropped, as
 * git drops them. Not here: --onto, -i, --autosquash, rebasing merges.
 */
import git, { type CommitObject } from "isomorphic-git";
import type { GitContext } from "../context";
import { diffTrees } from "../diff";
import { conflictsTrailer, fullTree, mergeIntoWorkTree, resetMergeToHead, unmerged, writeFlatTree, writeGitFile } from "../merge-state";
import { readState, removeState, REBASE_DIR as DIR, stateDir, writeState, type RebaseState as State } from "../rebase-state";
import { applyTree, moveHead, setHead, switchTree, writeOrigHead } from "../tree";
import { fatal, GitError, parseArgs } from "../util";

export const name = "rebase";
export const effect = "git rebase rewrites history";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

/** Which paths a commit changes, and to what: equal for two commits making the same change. */
async function changeKey(ctx: GitContext, oid: string): Promise<string> {
  const { commit } = await git.readCommit({ ...ctx.repo.iso, oid });
  const changes = diffTrees(await fullTree(ctx, commit.parent[0] ?? null), await fullTree(ctx, oid), undefined, false);
  return changes.map((c) => `${c.path}:${c.old?.oid ?? "-"}:${c.new?.oid ?? "-"}`).join("\n");
}

/** The commits of `head` that `upstream` lacks, oldest first, merges and already-applied changes left out. */
async function commitsToReplay(ctx: GitContext, head: string, upstream: string): Promise<string[]> {
  const upstreamLog = await git.log({ ...ctx.repo.iso, ref: upstream });
  const inUpstream = new Set(upstreamLog.map((c) => c.oid));
  const mine = (await git.log({ ...ctx.repo.iso, ref: head })).filter((c) => !inUpstream.has(c.oid) && c.commit.parent.length <= 1);
  const theirs = new Set<string>();
  const headSet = new Set((await git.log({ ...ctx.repo.iso, ref: head })).map((c) => c.oid));
  for (const c of upstreamLog) if (!headSet.has(c.oid) && c.commit.parent.length <= 1) theirs.add(await changeKey(ctx, c.oid));
  const out: string[] = [];
  for (const c of mine.reverse()) if (theirs.size === 0 || !theirs.has(await changeKey(ctx, c.oid))) out.push(c.oid);
  return out;
}

/** Replay the todo list from where it stands; on a conflict, stop with the state saved. */
async function replay(ctx: GitContext, s: State): Promise<number> {
  while (s.todo.length > 0) {
    const line = s.todo[0]!;
    const oid = line.split(" ")[1]!;
    const { commit } = await git.readCommit({ ...ctx.repo.iso, oid });
    const head = (await ctx.repo.headOid())!;
    const [base, ours, theirs] = await Promise.all([fullTree(ctx, commit.parent[0] ?? null), fullTree(ctx, head), fullTree(ctx, oid)]);
    const result = await mergeIntoWorkTree(ctx, { base, ours, theirs }, { ours: "HEAD", theirs: `${oid.slice(0, 7)} (${commit.message.split("\n")[0]})` }, "cherry-pick");
    s.todo.shift();
    s.done.push(line);
    const messages = result.messages;
    if (messages.length > 0) ctx.io.out(messages.join("\n") + "\n");
    const subject = commit.message.split("\n")[0] ?? "";
    if (result.conflicts.length > 0) {
      await writeState(ctx, s);
      await ctx.repo.fs.promises.writeFile(`${stateDir(ctx)}/stopped-sha`, oid + "\n");
      await ctx.repo.fs.promises.writeFile(`${stateDir(ctx)}/message`, commit.message);
      await writeGitFile(ctx, "REBASE_HEAD", oid + "\n");
      await writeGitFile(ctx, "MERGE_MSG", commit.message + conflictsTrailer(result.conflicts.map((c) => c.path)));
      ctx.io.err(
        `error: could not apply ${oid.slice(0, 7)}... ${subject}\nhint: Resolve all conflicts manually, mark them as resolved with\nhint: "git add/rm <conflicted_files>", then run "git rebase --continue".\nhint: You can instead skip this commit: run "git rebase --skip".\nhint: To abort and get back to the state before "git rebase", run "git rebase --abort".\nCould not apply ${oid.slice(0, 7)}... ${subject}\n`,
      );
      return 1;
    }
    const tree = await writeFlatTree(ctx, result.clean);
    const headTree = (await git.readCommit({ ...ctx.repo.iso, oid: head })).commit.tree;
    // A commit whose change upstream already has becomes empty: git drops it.
    if (tree === headTree) continue;
    await commitOnto(ctx, head, tree, commit);
  }
  await finish(ctx, s);
  return 0;
}

async function commitOnto(ctx: GitContext, head: string, tree: string, from: Pick<CommitObject, "author" | "message">): Promise<void> {
  const committer = await ctx.repo.identity("committer");
  const oid = await git.writeCommit({ ...ctx.repo.iso, commit: { tree, parent: [head], author: from.author, committer, message: from.message } });
  await moveHead(ctx, oid);
}

/** Move the branch to where the replay ended and check it out again. */
async function finish(ctx: GitContext, s: State): Promise<void> {
  const head = (await ctx.repo.headOid())!;
  if (s.headName.startsWith("refs/heads/")) {
    await git.writeRef({ ...ctx.repo.iso, ref: s.headName, value: head, force: true });
    await setHead(ctx, { branch: s.headName.slice("refs/heads/".length) });
  }
  await removeState(ctx);
  ctx.io.err(`Successfully rebased and updated ${s.headName}.\n`);
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["--continue", "--skip", "--abort", "--quit", "-q", "--quiet", "-v", "--verbose", "--no-stat", "-n", "--stat", "--merge", "-m", "--no-autostash", "--reapply-cherry-picks", "--no-reapply-cherry-picks", "-i", "--interactive", "--autosquash", "--no-autosquash"],
    value: ["--onto", "-x", "--exec", "-s", "--strategy", "-X", "--strategy-option"],
    alias: { "--quiet": "-q", "--verbose": "-v", "--interactive": "-i", "--merge": "-m", "--exec": "-x", "--strategy": "-s", "--strategy-option": "-X" },
    usage: "git rebase [<options>] [<upstream>]\n   or: git rebase --continue | --abort | --skip | --quit",
  });
  const state = await readState(ctx);
  if (a.has("--continue") || a.has("--skip") || a.has("--abort") || a.has("--quit")) {
    if (!state) throw fatal("No rebase in progress?");
    if (a.has("--quit")) {
      await removeState(ctx);
      return 0;
    }
    if (a.has("--abort")) {
      await resetMergeToHead(ctx);
      await applyTree(ctx, state.origHead);
      if (state.headName.startsWith("refs/heads/")) {
        await git.writeRef({ ...ctx.repo.iso, ref: state.headName, value: state.origHead, force: true });
        await setHead(ctx, { branch: state.headName.slice("refs/heads/".length) });
      } else await setHead(ctx, { oid: state.origHead });
      await removeState(ctx);
      return 0;
    }
    if (a.has("--skip")) {
      const head = (await ctx.repo.headOid())!;
      await resetMergeToHead(ctx);
      await applyTree(ctx, head);
      await ctx.repo.fs.promises.unlink(`${ctx.repo.gitdir}/REBASE_HEAD`).catch(() => undefined);
      return replay(ctx, state);
    }
    // --continue: commit what the user resolved (unless they committed it already), then go on.
    if ((await unmerged(ctx)).size > 0) throw new GitError("error: you must edit all merge conflicts and then\nmark them as resolved using git add\n", 1);
    const stopped = await ctx.repo.fs.promises.readFile(`${stateDir(ctx)}/stopped-sha`, "utf8").then((t) => String(t).trim(), () => null);
    const head = (await ctx.repo.headOid())!;
    const indexTree = await writeFlatTree(ctx, await ctx.work.index());
    const headTree = (await git.readCommit({ ...ctx.repo.iso, oid: head })).commit.tree;
    if (stopped && indexTree !== headTree) {
      const { commit } = await git.readCommit({ ...ctx.repo.iso, oid: stopped });
      await commitOnto(ctx, head, indexTree, commit);
      ctx.work.invalidate();
    }
    await ctx.repo.fs.promises.unlink(`${stateDir(ctx)}/stopped-sha`).catch(() => undefined);
    await ctx.repo.fs.promises.unlink(`${ctx.repo.gitdir}/REBASE_HEAD`).catch(() => undefined);
    return replay(ctx, state);
  }
  if (state) {
    throw new GitError(
      `fatal: It seems that there is already a ${DIR} directory, and\nI wonder if you are in the middle of another rebase.  If that is the\ncase, please try\n\tgit rebase (--continue | --abort | --skip)\nIf that is not the case, please\n\trm -fr ".git/${DIR}"\nand run me again.  I am stopping in case you still have something\nvaluable there.\n`,
      128,
    );
  }
  for (const unsupported of ["--onto", "-x", "-i", "--autosquash"]) {
    if (a.has(unsupported) || a.get(unsupported) !== undefined) throw fatal(`rebase ${unsupported} is not supported in this shell`);
  }
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (specs.length === 0) throw fatal("give the upstream to rebase onto: git rebase <upstream> (this shell does not read the branch's upstream for it)");
  if (specs.length > 1) throw fatal("git rebase <upstream> <branch> is not supported in this shell; switch to the branch first");
  const upstream = await ctx.repo.tryResolveCommit(specs[0]!);
  if (upstream === null) throw new GitError(`fatal: invalid upstream '${specs[0]}'\n`, 128);
  const head = await ctx.repo.headOid();
  if (head === null) throw fatal("your current branch appears to be broken");
  const status = await ctx.work.status();
  const unstaged = status.some((e) => e.index !== "?" && e.worktree !== " ");
  const staged = status.some((e) => e.index !== "?" && e.index !== " ");
  if (unstaged || staged) {
    const first = unstaged ? "error: cannot rebase: You have unstaged changes.\n" : "error: cannot rebase: Your index contains uncommitted changes.\n";
    const also = unstaged && staged ? "error: additionally, your index contains uncommitted changes.\n" : "";
    throw new GitError(`${first}${also}error: Please commit or stash them.\n`, 1);
  }
  const branch = await ctx.repo.branch();
  const headName = branch ? `refs/heads/${branch}` : "detached HEAD";
  const bases = await git.findMergeBase({ ...ctx.repo.iso, oids: [head, upstream] });
  if (bases.includes(upstream)) {
    // Upstream is already under HEAD.
    ctx.io.out(`Current branch ${branch ?? "HEAD"} is up to date.\n`);
    return 0;
  }
  await writeOrigHead(ctx, head);
  const todo = (await commitsToReplay(ctx, head, upstream)).map(async (oid) => `pick ${oid} ${await ctx.repo.commitSubject(oid)}`);
  const lines = await Promise.all(todo);
  await switchTree(ctx, upstream, { verb: "rebase" });
  await setHead(ctx, { oid: upstream });
  const s: State = { headName, onto: upstream, origHead: head, todo: lines, done: [], end: lines.length };
  return replay(ctx, s);
}
