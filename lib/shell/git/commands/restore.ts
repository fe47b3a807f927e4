/** `git restore`: restore work-tree files or index entries from a source. */
import type { GitContext } from "../context";
import { restorePaths } from "../tree";
import { fatal, parseArgs } from "../util";

export const name = "restore";
export const effect = "git restore changes files";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-S", "--staged", "-W", "--worktree", "-q", "--quiet", "--ours", "--theirs", "--overlay", "--no-overlay"],
    value: ["-s", "--source"],
    alias: { "--staged": "-S", "--worktree": "-W", "--source": "-s", "--quiet": "-q" },
    usage: "git restore [<options>] [--source=<branch>] <file>...",
  });
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (specs.length === 0) throw fatal("you must specify path(s) to restore");
  const staged = a.has("-S");
  const worktree = a.has("-W") || !staged;
  const sourceSpec = a.get("-s");
  const source = sourceSpec !== undefined ? await ctx.repo.resolveCommit(sourceSpec) : staged ? await ctx.repo.headOid() : undefined;
  await restorePaths(ctx, specs, { staged, worktree, source });
  return 0;
}
