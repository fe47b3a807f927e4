/**
 * `git pull [--ff-only | --rebase | --no-rebase] [<remote> [<branch>]]`: fetch the upstream, then
 * fast-forward to it; when the histories have diverged, merge it (the default here, as with
 * `pull.rebase=false`) or rebase onto it (`--rebase`), through the merge and rebase commands.
 */
import { getUpstream, remoteUrl } from "../../../git/remote-config";
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
  if (a.has("--no-ff")) throw fatal("pull --no-ff is not supported here; pull, then git merge --no-ff the upstream");
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
    if (e.code === "NEEDS_MERGE") return reconcile(ctx, current, a.has("-r"), a.has("-q"));
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

/** Diverged: the fetch is done, so merge the upstream into the branch or replay the branch onto it. */
async function reconcile(ctx: GitContext, branch: string, rebase: boolean, quiet: boolean): Promise<number> {
  ctx.work.invalidate();
  const upstream = await getUpstream(ctx.repo.asGitRepo, branch);
  if (!upstream) throw fatal("There is no tracking information for the current branch.");
  if (rebase) {
    const { run: rebaseRun } = await import("./rebase");
    return rebaseRun(ctx, quiet ? ["-q", upstream.short] : [upstream.short]);
  }
  const url = (await remoteUrl(ctx.repo.asGitRepo, upstream.remote)) ?? upstream.remote;
  const { run: mergeRun } = await import("./merge");
  const name = upstream.merge.replace(/^refs\/heads\//, "");
  return mergeRun(ctx, [...(quiet ? ["-q"] : []), "-m", `Merge branch '${name}' of ${url}`, upstream.short]);
}
