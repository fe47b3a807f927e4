/**
 * The shape of one git subcommand, after isomorphic-git's src/commands/*.js: one stateless
 * command per file, everything it works on passed in.
 *
 * A command is a module exporting `name`, `effect`, `writes(args)` and `run(ctx, args)`; the
 * registry (./index.ts) lists the modules. `writes` is the one place that says which forms
 * of the command change something: the shell refuses those in read-only (Plan) mode before
 * `run` starts, and the Plan-mode command guard (lib/modes/git-rule.ts) asks the same function
 * before the command line runs at all. The read-only fs a read-only shell hands to `run` stays
 * underneath as the real guarantee.
 */
import type { GitContext } from "../context";

export interface GitCommand {
  /** The subcommand as typed: "rev-parse". */
  readonly name: string;
  /** What a writing form does, as the Plan guard tells the model ("git add changes the index"). */
  readonly effect: string;
  /**
   * True when `git <name> <args>` could change the repository, the work tree or any other file.
   * Pure: it sees only the arguments (after the subcommand name), never the repository, so the
   * guard can ask it before anything runs. When unsure, say true.
   */
  writes(args: readonly string[]): boolean;
  /** Run the command; the result is the exit code. Output goes through `ctx`; failures throw GitError. */
  run(ctx: GitContext, args: string[]): Promise<number>;
}
