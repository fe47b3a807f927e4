/** `git commit`: record the index as a new commit. */
import git from "isomorphic-git";
import { EMPTY_TREE, type GitContext } from "../context";
import { diffTrees, fileDiffs, formatSummaryLines, statSummary } from "../diff";
import { clearOperation, mergeMessage, operationInProgress, squashMessage, unmerged } from "../merge-state";
import { longStatus, statusData } from "../status-report";
import { fatal, formatGitDate, GitError, parseArgs } from "../util";

export const name = "commit";
export const effect = "git commit records a commit";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

/** git's "whitespace" cleanup: trailing spaces, leading/trailing and repeated blank lines. */
export function cleanupMessage(msg: string, stripComments = false): string {
  const lines = msg.split("\n").map((l) => l.replace(/\s+$/, ""));
  const kept = stripComments ? lines.filter((l) => !l.startsWith("#")) : lines;
  const out: string[] = [];
  for (const l of kept) {
    if (l === "" && (out.length === 0 || out[out.length - 1] === "")) continue;
    out.push(l);
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out.length === 0 ? "" : out.join("\n") + "\n";
}

function parseAuthor(s: string): { name: string; email: string } {
  const m = /^\s*(.*?)\s*<([^>]*)>\s*$/.exec(s);
  if (!m) throw fatal(`--author '${s}' is not 'Name <email>' and matches no existing author`);
  return { name: m[1]!, email: m[2]! };
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-a", "--all", "--allow-empty", "--allow-empty-message", "--amend", "-q", "--quiet", "--no-verify", "-n", "-v", "--verbose", "--no-edit", "-s", "--signoff", "--dry-run"],
    value: ["-m", "--message", "-F", "--file", "--author", "--date", "-C", "--reuse-message"],
    alias: { "--all": "-a", "--message": "-m", "--quiet": "-q", "--file": "-F", "--no-verify": "-n", "--verbose": "-v", "--signoff": "-s", "--reuse-message": "-C" },
    usage: "git commit [-a] [--amend] [-m <msg>] [--allow-empty] [--] [<pathspec>...]",
  });
  const head = await ctx.repo.headOid();
  if (a.has("--amend") && head === null) throw fatal("You have nothing to amend.");
  // A merge, cherry-pick or revert that stopped: this commit concludes it.
  const pending = await operationInProgress(ctx);
  if (pending?.op === "merge" && a.has("--amend")) throw fatal("You are in the middle of a merge -- cannot amend.");
  if (a.positionals.length > 0 || (a.afterDashDash?.length ?? 0) > 0) {
    // git commit <paths>: the work tree state of those paths is staged first.
    const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
    const match = ctx.work.pathspec(specs);
    const known = [...(await ctx.work.index()).keys()].some((k) => match(k));
    if (!known) throw new GitError(`error: pathspec '${specs[0]}' did not match any file(s) known to git\n`, 1);
    for (const e of (await ctx.work.status()).filter((s) => s.index !== "?" && match(s.path))) {
      if (e.worktree === "D") await git.remove({ ...ctx.repo.iso, filepath: e.path });
      else if (e.worktree === "M") await git.add({ ...ctx.repo.iso, filepath: e.path });
    }
    ctx.work.invalidate();
  }
  if (a.has("-a")) {
    const conflicted = await unmerged(ctx);
    for (const e of await ctx.work.status()) {
      if (e.index === "?" || conflicted.has(e.path)) continue;
      if (e.worktree === "D") await git.remove({ ...ctx.repo.iso, filepath: e.path });
      else if (e.worktree === "M") await git.add({ ...ctx.repo.iso, filepath: e.path });
    }
    // -a also marks every conflict resolved, with whatever the file holds now (or its absence).
    for (const p of conflicted.keys()) {
      if ((await ctx.work.read(p)) === null) await git.remove({ ...ctx.repo.iso, filepath: p });
      else await git.add({ ...ctx.repo.iso, filepath: p });
    }
    ctx.work.invalidate();
  }
  const stillUnmerged = await unmerged(ctx);
  if (stillUnmerged.size > 0) {
    // git lists the paths after the error (its stdout is flushed last); here they follow it on stderr.
    const paths = [...stillUnmerged.keys()].map((p) => `U\t${ctx.work.display(p)}\n`).join("");
    throw new GitError(
      `error: Committing is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict.\n${paths}`,
      128,
    );
  }

  let message: string | null = null;
  const msgs = a.all("-m");
  if (msgs.length > 0) message = msgs.join("\n\n");
  else if (a.get("-F") !== undefined) {
    const f = a.get("-F")!;
    if (f === "-") message = ctx.io.stdin;
    else {
      const bytes = await ctx.work.read(ctx.work.repoPath(f));
      if (bytes === null) throw fatal(`could not read log file '${f}': No such file or directory`);
      message = new TextDecoder().decode(bytes);
    }
  } else if (a.get("-C") !== undefined) {
    const { commit } = await git.readCommit({ ...ctx.repo.iso, oid: await ctx.repo.resolveCommit(a.get("-C")!) });
    message = commit.message;
  } else if (a.has("--amend") && head) {
    const { commit } = await git.readCommit({ ...ctx.repo.iso, oid: head });
    message = commit.message;
  } else if (pending) {
    // This shell has no editor: the prepared message is taken as the editor would have shown it.
    message = await mergeMessage(ctx);
  } else {
    message = await squashMessage(ctx);
  }
  // The prepared message is what git's editor would open on, and the editor's cleanup strips its
  // "#" lines; with --no-edit git takes it as it is, comments included.
  const fromStateFile = msgs.length === 0 && a.get("-F") === undefined && a.get("-C") === undefined && !a.has("--amend") && message !== null && !a.has("--no-edit");

  // Anything to commit?
  const index = await ctx.work.index();
  const parentOid = a.has("--amend") && head ? ((await git.readCommit({ ...ctx.repo.iso, oid: head })).commit.parent[0] ?? null) : head;
  const changes = diffTrees(await ctx.repo.treeOf(parentOid ?? EMPTY_TREE), index);
  const headChanges = a.has("--amend") ? changes : diffTrees(await ctx.repo.treeOf(head ?? EMPTY_TREE), index);
  // A merge commit is made even when its tree is HEAD's.
  if (headChanges.length === 0 && !a.has("--allow-empty") && !a.has("--amend") && pending?.op !== "merge") {
    ctx.io.out(await longStatus(ctx, await statusData(ctx)));
    return 1;
  }
  if (message === null) {
    throw new GitError("error: no commit message given: use -m <msg> (this shell has no editor)\nAborting commit due to empty commit message.\n", 1);
  }
  message = cleanupMessage(message, a.has("-F") || a.has("-C") || fromStateFile);
  if (message === "" && !a.has("--allow-empty-message")) throw new GitError("Aborting commit due to empty commit message.\n", 1);
  if (a.has("-s")) {
    const who = await ctx.repo.identity("committer");
    message = message.replace(/\n?$/, "\n") + `\nSigned-off-by: ${who.name} <${who.email}>\n`;
  }

  const author = await ctx.repo.identity("author");
  const committer = await ctx.repo.identity("committer");
  if (a.get("--author")) Object.assign(author, parseAuthor(a.get("--author")!));
  // --amend and -C reuse the old commit's author (name, email and date), as git does.
  // A cherry-pick keeps the picked commit's author, as git does.
  const reused =
    a.has("--amend") && head ? head : a.get("-C") !== undefined ? await ctx.repo.resolveCommit(a.get("-C")!) : pending?.op === "cherry-pick" ? pending.oid : null;
  if (reused && !a.get("--author")) {
    const { commit } = await git.readCommit({ ...ctx.repo.iso, oid: reused });
    Object.assign(author, { ...commit.author });
  }
  if (a.has("--dry-run")) {
    ctx.io.out(await longStatus(ctx, await statusData(ctx)));
    return 0;
  }
  const parent = pending?.op === "merge" && head ? [head, pending.oid] : undefined;
  const oid = await git.commit({ ...ctx.repo.iso, message, author, committer, amend: a.has("--amend"), parent });
  await clearOperation(ctx);
  ctx.work.invalidate();
  if (a.has("-q")) return 0;
  const branch = await ctx.repo.branch();
  const root = parentOid === null ? " (root-commit)" : "";
  const where = branch ? `${branch}${root}` : `detached HEAD${root}`;
  let out = `[${where} ${ctx.repo.abbrev(oid)}] ${message.split("\n")[0]}\n`;
  if (author.name !== committer.name || author.email !== committer.email) out += ` Author: ${author.name} <${author.email}>\n`;
  if (reused) out += ` Date: ${formatGitDate(author.timestamp, author.timezoneOffset)}\n`;
  // git prints no summary for a merge commit.
  if (parent) {
    ctx.io.out(out);
    return 0;
  }
  const diffs = await fileDiffs(ctx, changes);
  const ins = diffs.reduce((n, d) => n + d.added, 0);
  const del = diffs.reduce((n, d) => n + d.deleted, 0);
  if (diffs.length > 0) out += statSummary(diffs.length, ins, del) + "\n";
  out += formatSummaryLines(changes);
  ctx.io.out(out);
  return 0;
}
