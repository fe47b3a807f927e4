/**
 * `git merge <commit>`: fast-forward when HEAD is behind (unless --no-ff), else a three-way
 * merge against the merge base that commits with two parents, or stops on conflicts with the
 * markers in the files, the index stages recorded and MERGE_HEAD / MERGE_MSG written so that
 * `git commit` concludes it; `--abort` goes back. `--squash` stages the result only.
 * With several merge bases (criss-cross history) the first one is used, where git would
 * merge the bases first.
 */
import git from "isomorphic-git";
import type { GitContext } from "../context";
import { diffTrees, fileDiffs, formatStatLines, formatSummaryLines } from "../diff";
import {
  clearOperation,
  conflictsTrailer,
  fullTree,
  mergeIntoWorkTree,
  operationHead,
  recordOperation,
  resetMergeToHead,
  unmerged,
  writeFlatTree,
  writeGitFile,
} from "../merge-state";
import { moveHead, switchTree, writeOrigHead } from "../tree";
import { fatal, formatGitDate, GitError, parseArgs } from "../util";
import { cleanupMessage } from "./commit";

export const name = "merge";
export const effect = "git merge changes files";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

const UNRESOLVED =
  "error: Merging is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict.\n";

/** What git calls the merged commit in messages: "branch 'x'", "remote-tracking branch 'o/x'", "tag 'v1'", "commit 'abc'". */
async function describe(ctx: GitContext, spec: string): Promise<string> {
  const refs: [string, string][] = [
    [`refs/heads/${spec}`, "branch"],
    [`refs/remotes/${spec}`, "remote-tracking branch"],
    [`refs/tags/${spec}`, "tag"],
  ];
  for (const [ref, kind] of refs) {
    const ok = await git.resolveRef({ ...ctx.repo.iso, ref, depth: 1 }).then(() => true, () => false);
    if (ok) return `${kind} '${spec}'`;
  }
  return `commit '${spec}'`;
}

/** git's default merge message; " into <branch>" is left out for main and master (merge.suppressDest). */
async function defaultMessage(ctx: GitContext, spec: string): Promise<string> {
  const branch = await ctx.repo.branch();
  const into = branch && branch !== "main" && branch !== "master" ? ` into ${branch}` : "";
  return `Merge ${await describe(ctx, spec)}${into}\n`;
}

async function stat(ctx: GitContext, from: string, to: string): Promise<string> {
  const changes = diffTrees(await ctx.repo.treeOf(from), await ctx.repo.treeOf(to));
  return formatStatLines(await fileDiffs(ctx, changes)) + formatSummaryLines(changes);
}

/** SQUASH_MSG: "Squashed commit of the following:" and each merged commit as `git log` shows it. */
async function squashMsg(ctx: GitContext, head: string, theirs: string): Promise<string> {
  let out = "Squashed commit of the following:\n";
  const commits = await git.log({ ...ctx.repo.iso, ref: theirs });
  const mine = new Set((await git.log({ ...ctx.repo.iso, ref: head })).map((c) => c.oid));
  for (const { oid, commit } of commits) {
    if (mine.has(oid)) continue;
    const body = commit.message.replace(/\n+$/, "").split("\n").map((l) => (l === "" ? "" : "    " + l)).join("\n");
    const date = formatGitDate(commit.author.timestamp, commit.author.timezoneOffset);
    out += `\ncommit ${oid}\nAuthor: ${commit.author.name} <${commit.author.email}>\nDate:   ${date}\n\n${body}\n`;
  }
  return out;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: [
      "--ff", "--no-ff", "--ff-only", "--squash", "--no-squash", "--commit", "--no-commit", "--abort", "--continue", "--quit",
      "-q", "--quiet", "-v", "--verbose", "--stat", "-n", "--no-stat", "--edit", "-e", "--no-edit", "--allow-unrelated-histories",
      "--progress", "--no-progress", "--log", "--no-log", "--signoff", "--no-signoff", "--no-verify",
    ],
    value: ["-m", "--message", "-s", "--strategy", "-X", "--strategy-option"],
    alias: { "--message": "-m", "--quiet": "-q", "--verbose": "-v", "--edit": "-e", "--strategy": "-s", "--strategy-option": "-X" },
    usage: "git merge [<options>] [<commit>...]\n   or: git merge --abort\n   or: git merge --continue",
  });
  const quiet = a.has("-q");
  if (a.has("--abort") || a.has("--quit")) {
    if (!(await operationHead(ctx, "merge"))) throw fatal(`There is no merge to ${a.has("--abort") ? "abort" : "quit"} (MERGE_HEAD missing).`);
    if (a.has("--abort")) await resetMergeToHead(ctx);
    await clearOperation(ctx);
    return 0;
  }
  if (a.has("--continue")) {
    if (!(await operationHead(ctx, "merge"))) throw fatal("There is no merge in progress (MERGE_HEAD missing).");
    const { run: commit } = await import("./commit");
    return commit(ctx, []);
  }
  const strategy = a.get("-s");
  if (strategy !== undefined && strategy !== "ort" && strategy !== "recursive") throw fatal(`merge strategy '${strategy}' is not supported in this shell (only ort)`);
  if (a.all("-X").length > 0) throw fatal("merge strategy options (-X) are not supported in this shell");
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (specs.length === 0) throw fatal("No remote for the current branch.");
  if (specs.length > 1) throw fatal("octopus merges (more than one commit) are not supported in this shell");
  if ((await unmerged(ctx)).size > 0) throw new GitError(UNRESOLVED, 128);
  if (await operationHead(ctx, "merge")) {
    throw new GitError("fatal: You have not concluded your merge (MERGE_HEAD exists).\nPlease, commit your changes before you merge.\n", 128);
  }
  const spec = specs[0]!;
  const theirs = await ctx.repo.tryResolveCommit(spec);
  if (theirs === null) throw new GitError(`merge: ${spec} - not something we can merge\n`, 1);
  const head = await ctx.repo.headOid();
  const squash = a.has("--squash");
  const noFf = a.has("--no-ff");
  if (a.has("--ff-only") && noFf) throw fatal("options '--ff-only' and '--no-ff' cannot be used together");
  if (squash && noFf) throw fatal("options '--squash' and '--no-ff.' cannot be used together");
  if (squash && a.has("--commit")) throw fatal("options '--squash' and '--commit.' cannot be used together");
  const say = (s: string) => {
    if (!quiet) ctx.io.out(s);
  };
  const showStat = !a.has("-n") && !a.has("--no-stat");

  if (head === null) {
    // Merging into an unborn branch is checking the commit out on it.
    await switchTree(ctx, theirs, { verb: "merge" });
    await moveHead(ctx, theirs);
    return 0;
  }
  // git records where HEAD was before it looks any further (even when nothing then changes).
  await writeOrigHead(ctx, head);
  const bases = await git.findMergeBase({ ...ctx.repo.iso, oids: [head, theirs] });
  if (bases.includes(theirs)) {
    say("Already up to date.\n");
    return 0;
  }
  const canFf = bases.includes(head);
  if (a.has("--ff-only") && !canFf) throw fatal("Not possible to fast-forward, aborting.");

  if (canFf && !noFf) {
    await switchTree(ctx, theirs, { verb: "merge" });
    say(`Updating ${ctx.repo.abbrev(head)}..${ctx.repo.abbrev(theirs)}\nFast-forward\n`);
    if (squash) {
      // The commit's tree is staged; HEAD stays.
      await writeGitFile(ctx, "SQUASH_MSG", await squashMsg(ctx, head, theirs));
      say("Squash commit -- not updating HEAD\n");
    } else await moveHead(ctx, theirs);
    if (showStat) say(await stat(ctx, head, theirs));
    return 0;
  }

  if (bases.length === 0 && !a.has("--allow-unrelated-histories")) throw fatal("refusing to merge unrelated histories");
  const baseOid: string | null = bases[0] ?? null;
  const names = { ours: "HEAD", theirs: spec };
  const [base, ours, theirTree] = await Promise.all([fullTree(ctx, baseOid), fullTree(ctx, head), fullTree(ctx, theirs)]);
  const result = await mergeIntoWorkTree(ctx, { base, ours, theirs: theirTree }, names, "merge");
  // git's warnings go to stderr between these lines; here all stay in one stream, in order.
  const messages = result.messages;
  // -q quiets the progress and the summary, not what the merge found.
  if (messages.length > 0) ctx.io.out(messages.join("\n") + "\n");
  const userMsg = a.all("-m");
  const message = userMsg.length > 0 ? cleanupMessage(userMsg.join("\n\n")) : await defaultMessage(ctx, spec);
  const conflicted = result.conflicts.map((c) => c.path);

  if (squash) {
    await writeGitFile(ctx, "SQUASH_MSG", await squashMsg(ctx, head, theirs));
    if (conflicted.length > 0) {
      await writeGitFile(ctx, "MERGE_MSG", conflictsTrailer(conflicted));
      ctx.io.out("Squash commit -- not updating HEAD\nAutomatic merge failed; fix conflicts and then commit the result.\n");
      return 1;
    }
    say("Automatic merge went well; stopped before committing as requested\nSquash commit -- not updating HEAD\n");
    return 0;
  }
  if (conflicted.length > 0 || a.has("--no-commit")) {
    await recordOperation(ctx, "merge", theirs, message + conflictsTrailer(conflicted), { noFf });
    if (conflicted.length > 0) ctx.io.out("Automatic merge failed; fix conflicts and then commit the result.\n");
    else say("Automatic merge went well; stopped before committing as requested\n");
    return conflicted.length > 0 ? 1 : 0;
  }
  const tree = await writeFlatTree(ctx, result.clean);
  const author = await ctx.repo.identity("author");
  const committer = await ctx.repo.identity("committer");
  const oid = await git.writeCommit({ ...ctx.repo.iso, commit: { tree, parent: [head, theirs], author, committer, message } });
  await moveHead(ctx, oid);
  say("Merge made by the 'ort' strategy.\n");
  if (showStat) say(await stat(ctx, head, oid));
  return 0;
}
