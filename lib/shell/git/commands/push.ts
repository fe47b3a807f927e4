/** `git push [-u] [--force | --force-with-lease] [--tags] [--delete] [<remote> [<branch>[:<remote-branch>]]]`. */
import { pushToRemote, type PushOptions } from "../../../git/remote-transfer";
import type { GitContext } from "../context";
import { pushReport, rejectionReport, transportOf } from "../transfer-report";
import { fatal, GitError, parseArgs } from "../util";
import { defaultRemote } from "./fetch";

export const name = "push";
export const effect = "git push changes a remote";

/** Every form changes the remote (or, with -u, the configuration); --dry-run is not offered. */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-u", "--set-upstream", "-f", "--force", "--force-with-lease", "--tags", "-d", "--delete", "-q", "--quiet", "-v", "--verbose"],
    alias: { "--set-upstream": "-u", "--force": "-f", "--delete": "-d", "--quiet": "-q", "--verbose": "-v" },
    usage: "git push [<options>] [<repository> [<refspec>...]]",
  });
  const [remoteArg, spec, ...rest] = a.positionals;
  if (rest.length > 0) throw fatal("only one refspec can be pushed at a time here");
  const remote = remoteArg ?? (await defaultRemote(ctx));
  if (!(await ctx.repo.configValue(`remote.${remote}.url`))) throw new GitError(`fatal: '${remote}' does not appear to be a git repository\nfatal: Could not read from remote repository.\n`, 128);
  const opts: PushOptions = { remote, force: a.has("-f"), forceWithLease: a.has("--force-with-lease"), setUpstream: a.has("-u"), tags: a.has("--tags") };
  if (spec) {
    const [local, theirs] = spec.replace(/^\+/, "").split(":", 2) as [string, string | undefined];
    if (spec.startsWith("+")) opts.force = true;
    if (a.has("-d") || local === "") {
      opts.delete = true;
      opts.branch = (theirs ?? local).replace(/^refs\/heads\//, "");
      opts.remoteBranch = opts.branch;
    } else {
      opts.branch = local === "HEAD" ? ((await ctx.repo.branch()) ?? undefined) : local.replace(/^refs\/heads\//, "");
      if (theirs) opts.remoteBranch = theirs;
    }
  } else if (a.has("-d")) throw fatal("--delete doesn't make sense without any refs");
  if (!opts.tags && !opts.branch && !(await ctx.repo.branch()))
    throw fatal("You are not currently on a branch.\nTo push the history leading to the current (detached HEAD)\nstate now, use\n\n    git push origin HEAD:<name-of-remote-branch>\n");
  const url = (await ctx.repo.configValue(`remote.${remote}.pushurl`)) ?? (await ctx.repo.configValue(`remote.${remote}.url`))!;
  let result;
  try {
    result = await pushToRemote(ctx.repo.asGitRepo, transportOf(ctx, "push"), opts);
  } catch (error) {
    const e = error as { code?: string; message: string; reason?: string };
    if (e.code === "REJECTED") {
      ctx.io.err(rejectionReport(url, e));
      return 1;
    }
    throw error;
  }
  if (!a.has("-q")) ctx.io.err(pushReport(result.url, result.updates));
  if (result.upstreamSet) ctx.io.out(`branch '${result.upstreamSet.branch}' set up to track '${result.upstreamSet.upstream}'.\n`);
  return 0;
}
