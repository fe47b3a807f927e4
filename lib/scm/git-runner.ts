/**
 * A GitRunner over the shell's git (lib/shell/git): the Source Control view runs the same
 * implementation the terminal and the agent do, at the workspace root, with the app's
 * transport for remotes. It goes through the shell's git directly (no shell parsing of the
 * command line), so a path or a commit message reaches git exactly as given.
 */
import { runGit } from "../shell/git";
import type { GitEnvOptions } from "../shell/git/context";
import type { GitRunner } from "./source-control";

export function shellGitRunner(opts: GitEnvOptions, env: Record<string, string> = {}): GitRunner {
  return async (argv, stdin) => {
    const r = await runGit(opts, argv, opts.mountPoint, new Map(Object.entries(env)), stdin);
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  };
}
