/**
 * Applying one commit's change onto HEAD, shared by cherry-pick (the commit against its
 * parent) and revert (the parent against the commit): a three-way merge of HEAD with the
 * commit's side, committed at once when clean, or stopped with CHERRY_PICK_HEAD / REVERT_HEAD
 * and MERGE_MSG so that `--continue` (or `git commit`) concludes it and `--abort` goes back.
 */
import git from "isomorphic-git";
import type { GitContext } from "./context";
import { diffTrees, fileDiffs, formatSummaryLines, statSummary } from "./diff";
import {
  clearOperation,
  conflictsTrailer,
  fullTree,
  mergeIntoWorkTree,
  operationHead,
  operationInProgress,
  recordOperation,
  resetMergeToHead,
  unmerged,
  writeFlatTree,
  writeGitFile,
} from "./merge-state";
import { moveHead } from "./tree";
import { formatGitDate, GitError, parseArgs } from "./util";

export type PickKind = "cherry-pick" | "revert";

const WORD: Record<PickKind, { failed: string; gerund: string }> = {
  "cherry-pick": { failed: "cherry-pick failed", gerund: "Cherry-picking" },
  revert: { failed: "revert failed", gerund: "Reverting" },
};

const failure = (kind: PickKind, msg: string) => new GitError(`${msg}fatal: ${WORD[kind].failed}\n`, 128);

/** `[main abc1234] subject`, the author and date lines, and the change summary, as git's sequencer prints them. */
async function summary(ctx: GitContext, oid: string, parent: string, author: { name: string; email: string; timestamp: number; timezoneOffset: number }): Promise<string> {
  const committer = await ctx.repo.identity("committer");
  const branch = await ctx.repo.branch();
  let out = `[${branch ?? "detached HEAD"} ${oid.slice(0, 7)}] ${await ctx.repo.commitSubject(oid)}\n`;
  if (author.name !== committer.name || author.email !== committer.email) out += ` Author: ${author.name} <${author.email}>\n`;
  out += ` Date: ${formatGitDate(author.timestamp, author.timezoneOffset)}\n`;
  const changes = diffTrees(await ctx.repo.treeOf(parent), await ctx.repo.treeOf(oid));
  const diffs = await fileDiffs(ctx, changes);
  if (diffs.length > 0) out += statSummary(diffs.length, diffs.reduce((n, d) => n + d.added, 0), diffs.reduce((n, d) => n + d.deleted, 0)) + "\n";
  return out + formatSummaryLines(changes);
}

export async function runPick(ctx: GitContext, kind: PickKind, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["--continue", "--abort", "--skip", "--quit", "-n", "--no-commit", "--no-edit", "-e", "--edit", "-x", "-s", "--signoff", "--ff", "--allow-empty"],
    value: ["-m", "--mainline"],
    alias: { "--no-commit": "-n", "--edit": "-e", "--signoff": "-s", "--mainline": "-m" },
    usage: `git ${kind} [<options>] <commit>\n   or: git ${kind} (--continue | --skip | --abort | --quit)`,
  });
  const pending = await operationHead(ctx, kind);
  if (a.has("--continue") || a.has("--abort") || a.has("--skip") || a.has("--quit")) {
    if (!pending) throw failure(kind, "error: no cherry-pick or revert in progress\n");
    if (a.has("--continue")) {
      const { run: commit } = await import("./commands/commit");
      return commit(ctx, []);
    }
    if (!a.has("--quit")) {
      // Back to HEAD as it was before: the pick never moved it.
      await ctx.repo.fs.promises.writeFile(`${ctx.repo.gitdir}/ORIG_HEAD`, ((await ctx.repo.headOid()) ?? "") + "\n");
      await resetMergeToHead(ctx);
    }
    await clearOperation(ctx);
    return 0;
  }
  if (a.get("-m") !== undefined) throw failure(kind, "error: picking a merge commit (-m) is not supported in this shell\n");
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (specs.length === 0) throw new GitError(`usage: git ${kind} [<options>] <commit>\n`, 129);
  if (specs.length > 1) throw failure(kind, `error: ${kind} of more than one commit is not supported in this shell\n`);
  if ((await unmerged(ctx)).size > 0) {
    throw failure(kind, `error: ${WORD[kind].gerund} is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\n`);
  }
  const inProgress = await operationInProgress(ctx);
  if (inProgress && inProgress.op !== "merge") throw failure(kind, `error: ${inProgress.op} is already in progress\nhint: try "git ${inProgress.op} (--continue | --abort | --quit)"\n`);
  if (inProgress) throw failure(kind, "error: You have not concluded your merge (MERGE_HEAD exists).\nhint: Please, commit your changes before you merge.\n");
  const spec = specs[0]!;
  const oid = await ctx.repo.tryResolveCommit(spec);
  if (oid === null) throw new GitError(`fatal: bad revision '${spec}'\n`, 128);
  const head = await ctx.repo.headOid();
  if (head === null) throw failure(kind, "error: your current branch appears to be broken\n");
  const { commit } = await git.readCommit({ ...ctx.repo.iso, oid });
  if (commit.parent.length > 1) throw failure(kind, `error: commit ${oid} is a merge but no -m option was given.\n`);
  const parent = commit.parent[0] ?? null;
  const subject = commit.message.split("\n")[0] ?? "";
  const label = `${oid.slice(0, 7)} (${subject})`;
  const [commitTree, parentTree, ours] = await Promise.all([fullTree(ctx, oid), fullTree(ctx, parent), fullTree(ctx, head)]);
  const trees = kind === "cherry-pick" ? { base: parentTree, ours, theirs: commitTree } : { base: commitTree, ours, theirs: parentTree };
  const names = { ours: "HEAD", theirs: kind === "cherry-pick" ? label : `parent of ${label}` };
  const result = await mergeIntoWorkTree(ctx, trees, names, kind);
  // git's warnings go to stderr between these lines; here all stay in one stream, in order.
  const messages = result.messages;
  if (messages.length > 0) ctx.io.out(messages.join("\n") + "\n");
  const message =
    kind === "cherry-pick" ? commit.message : `Revert "${subject}"\n\nThis reverts commit ${oid}.\n`;
  const conflicted = result.conflicts.map((c) => c.path);
  const noCommit = a.has("-n");
  if (conflicted.length > 0) {
    if (noCommit) await writeGitFile(ctx, "MERGE_MSG", message + conflictsTrailer(conflicted));
    else await recordOperation(ctx, kind, oid, message + conflictsTrailer(conflicted));
    let hint = `error: could not ${kind === "cherry-pick" ? "apply" : "revert"} ${oid.slice(0, 7)}... ${subject}\n`;
    hint += noCommit
      ? "hint: after resolving the conflicts, mark the corrected paths\nhint: with 'git add <paths>' or 'git rm <paths>'\n"
      : `hint: After resolving the conflicts, mark them with\nhint: "git add/rm <pathspec>", then run\nhint: "git ${kind} --continue".\nhint: You can instead skip this commit with "git ${kind} --skip".\nhint: To abort and get back to the state before "git ${kind}",\nhint: run "git ${kind} --abort".\n`;
    ctx.io.err(hint);
    return 1;
  }
  if (noCommit) {
    // The message waits in MERGE_MSG for the commit the user makes.
    await writeGitFile(ctx, "MERGE_MSG", message);
    return 0;
  }
  const tree = await writeFlatTree(ctx, result.clean);
  const committer = await ctx.repo.identity("committer");
  const author = kind === "cherry-pick" ? commit.author : await ctx.repo.identity("author");
  const created = await git.writeCommit({ ...ctx.repo.iso, commit: { tree, parent: [head], author, committer, message } });
  await moveHead(ctx, created);
  ctx.io.out(await summary(ctx, created, head, author));
  return 0;
}
