/** `git pull [--ff-only] [<remote> [<branch>]]`: fetch the upstream, then fast-forward to it. */
import { pullFromRemote } from "../../../git/remote-transfer";
import type { GitContext } from "../context";
import { diffTrees, fileDiffs, formatStatLines, formatSummaryLines } from "../diff";
import { fetchReport, transportOf } from "../transfer-report";
import { fatal, GitError, parseArgs } from "../util";

export const name = "pull";
export const effect = "git pull changes files";

export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["--ff-only", "--ff", "--no-rebase", "-r", "--rebase", "--no-ff", "-q", "--quiet", "--stat", "-n", "--no-stat"],
    alias: { "--rebase": "-r", "--quiet": "-q" },
    usage: "git pull [<options>] [<repository> [<refspec>...]]",
  });
  if (a.has("-r")) throw fatal("pull --rebase is not supported here yet; use git pull --ff-only, or pull without --rebase");
  if (a.has("--no-ff")) throw fatal("pull --no-ff would make a merge commit, which is not supported here yet");
  const [remote, branch, ...rest] = a.positionals;
  if (rest.length > 0) throw fatal("only one branch can be pulled at a time here");
  const current = await ctx.repo.branch();
  if (!current) throw fatal("You are not currently on a branch.");
  if (branch && branch !== current) throw fatal(`pulling '${branch}' into '${current}' would need a merge, which is not supported here yet`);
  let result;
  try {
    result = await pullFromRemote({ ...ctx.repo.asGitRepo, journal: ctx.work.journal }, transportOf(ctx, "pull"), { remote, ffOnly: a.has("--ff-only") });
  } catch (error) {
    const e = error as { code?: string; message: string };
    if (e.code === "NOT_FAST_FORWARD") throw new GitError("hint: Diverging branches can't be fast-forwarded.\nfatal: Not possible to fast-forward, aborting.\n", 128);
    if (e.code === "NEEDS_MERGE" || e.code === "DIRTY" || e.code === "CONFLICT" || e.code === "NO_UPSTREAM") throw new GitError(`${e.code === "NEEDS_MERGE" ? "fatal: " : "error: "}${e.message}\n`, e.code === "NO_UPSTREAM" ? 1 : 128);
    throw error;
  }
  ctx.work.invalidate();
  const quiet = a.has("-q");
  if (!quiet) ctx.io.err(fetchReport(result.fetch.url, result.fetch.updates));
  if (result.outcome === "up-to-date") {
    if (!quiet) ctx.io.out("Already up to date.\n");
    return 0;
  }
  if (quiet) return 0;
  ctx.io.out(`Updating ${ctx.repo.abbrev(result.from ?? "")}..${ctx.repo.abbrev(result.to ?? "")}\nFast-forward\n`);
  if (!a.has("-n") && !a.has("--no-stat")) {
    const changes = diffTrees(await ctx.repo.treeOf(result.from), await ctx.repo.treeOf(result.to), undefined, false);
    ctx.io.out(formatStatLines(await fileDiffs(ctx, changes)) + formatSummaryLines(changes));
  }
  return 0;
}
