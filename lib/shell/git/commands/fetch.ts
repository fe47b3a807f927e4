/** `git fetch [<remote>] [--all] [--tags] [--prune]`: remote branches into refs/remotes/<remote>/. */
import { listRemotes } from "../../../git/remote-config";
import { fetchRemote } from "../../../git/remote-transfer";
import type { GitContext } from "../context";
import { fetchReport, transportOf } from "../transfer-report";
import { fatal, parseArgs } from "../util";

export const name = "fetch";
export const effect = "git fetch changes the repository";

/** Every form updates refs and objects (--dry-run is not offered). */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["--all", "-t", "--tags", "-p", "--prune", "-q", "--quiet", "-v", "--verbose", "--unshallow"],
    value: ["--depth", "--deepen"],
    alias: { "--tags": "-t", "--prune": "-p", "--quiet": "-q", "--verbose": "-v" },
    usage: "git fetch [<options>] [<repository> [<refspec>...]]\n   or: git fetch --all [<options>]",
  });
  const depth = a.get("--depth");
  const deepen = a.get("--deepen");
  for (const n of [depth, deepen]) if (n !== undefined && !/^[1-9]\d*$/.test(n)) throw fatal(`depth ${n} is not a positive number`);
  if (a.has("--unshallow") && !(await ctx.repo.fs.promises.stat(`${ctx.repo.gitdir}/shallow`).then(() => true, () => false)))
    throw fatal("--unshallow on a complete repository does not make sense");
  const [remoteArg, ref, ...rest] = a.positionals;
  if (rest.length > 0) throw fatal("only one refspec can be fetched at a time here");
  const remotes = a.has("--all") ? (await listRemotes(ctx.repo.asGitRepo)).map((r) => r.name) : [remoteArg ?? (await defaultRemote(ctx))];
  const transport = transportOf(ctx, "fetch");
  for (const remote of remotes) {
    if (!(await ctx.repo.configValue(`remote.${remote}.url`))) throw fatal(`'${remote}' does not appear to be a git repository`);
    const result = await fetchRemote({ ...ctx.repo.asGitRepo, journal: ctx.work.journal }, transport, {
      remote,
      ref: ref?.replace(/^refs\/heads\//, ""),
      tags: a.has("-t"),
      prune: a.has("-p"),
      depth: depth ? Number(depth) : undefined,
      deepen: deepen ? Number(deepen) : undefined,
      unshallow: a.has("--unshallow"),
    });
    if (!a.has("-q")) ctx.io.err(fetchReport(result.url, result.updates));
  }
  return 0;
}

/** The current branch's remote, else origin (as git picks it). */
export async function defaultRemote(ctx: GitContext): Promise<string> {
  const branch = await ctx.repo.branch();
  return (branch && (await ctx.repo.configValue(`branch.${branch}.remote`))) || "origin";
}
