/**
 * The shell's `git` command (a just-bash custom command over isomorphic-git).
 *
 * It reads and writes `.git` through the raw fs (the only writer of `.git` in the shell);
 * work-tree changes it makes go through WorkspaceFs with origin "git". In read-only (Plan)
 * mode a form whose command says it writes (commands/<name>.ts `writes(args)`) is refused before
 * it runs, and the fs every command gets there refuses every write anyway.
 */
import type { Command, ExecResult, ResolvedCommandContext } from "just-bash";
import { toWorkspacePath } from "../paths";
import { formWrites, GIT_SUBCOMMANDS, gitCommand } from "./commands";
import { GitContext, type GitEnvOptions } from "./context";
import { GitError } from "./util";

export { GIT_SUBCOMMANDS };

const USAGE = `usage: git [-C <path>] [-c <name>=<value>] [--no-pager] <command> [<args>]

These are the git commands available in this shell:
   init, status, add, rm, mv, restore, reset, commit, log, show, diff, branch,
   switch, checkout, stash, tag, rev-parse, ls-files, blame, grep, config, cat-file,
   remote, fetch, pull, push, clone (over http(s), through the app's git proxy)
`;

export function createGitCommand(jb: Pick<typeof import("just-bash"), "defineCommand">, opts: GitEnvOptions): Command {
  return jb.defineCommand("git", async (args: string[], ctx: ResolvedCommandContext) => runGit(opts, args, ctx.cwd, ctx.env, decodeStdin(ctx.stdin)));
}

function decodeStdin(stdin: unknown): string {
  const s = typeof stdin === "string" ? stdin : String(stdin ?? "");
  // just-bash hands stdin over as a latin1-shaped byte string.
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i) & 0xff;
  return new TextDecoder().decode(bytes);
}

/** Run one git command line (argv without "git") in shell directory `cwd`. */
export async function runGit(opts: GitEnvOptions, argv: string[], cwd: string, env: Map<string, string>, stdin = ""): Promise<ExecResult> {
  let args = [...argv];
  let cwdPath = cwd;
  // Global options.
  while (args.length > 0 && args[0]!.startsWith("-")) {
    const g = args[0]!;
    if (g === "--no-pager" || g === "-P" || g === "--paginate" || g === "-p" || g === "--no-optional-locks" || g === "--literal-pathspecs") args = args.slice(1);
    else if (g === "-C" && args.length > 1) {
      cwdPath = args[1]!.startsWith("/") ? args[1]! : cwdPath.replace(/\/$/, "") + "/" + args[1]!;
      args = args.slice(2);
    } else if (g === "-c" && args.length > 1) args = args.slice(2);
    else if (g === "--version") return { stdout: "git version 2.39.0 (isomorphic-git)\n", stderr: "", exitCode: 0 };
    else if (g === "--help" || g === "-h") return { stdout: USAGE, stderr: "", exitCode: 0 };
    else return { stdout: "", stderr: `unknown option: ${g}\n${USAGE}`, exitCode: 129 };
  }
  const sub = args[0];
  if (sub === undefined || sub === "help") return { stdout: USAGE, stderr: "", exitCode: sub === undefined ? 1 : 0 };
  if (sub === "version") return { stdout: "git version 2.39.0 (isomorphic-git)\n", stderr: "", exitCode: 0 };
  const command = gitCommand(sub);
  if (!command) {
    const remote = sub === "submodule";
    const msg = remote
      ? `git: '${sub}' is not available in this shell (the browser workspace has no network remotes)\n`
      : `git: '${sub}' is not a git command. See 'git --help'.\n`;
    return { stdout: "", stderr: msg, exitCode: 1 };
  }
  const cwdRel = toWorkspacePath(opts.mountPoint, cwdPath, cwd);
  if (cwdRel === null) return { stdout: "", stderr: "fatal: not a git repository (or any of the parent directories): .git\n", exitCode: 128 };
  const ctx = new GitContext(opts, cwdRel, env);
  ctx.io.stdin = stdin;
  let exitCode: number;
  opts.onRawChange?.();
  try {
    if (opts.readOnly && formWrites(command, args.slice(1))) ctx.assertWritable(formLabel(args));
    // init and clone make a repository; every other command needs one.
    if (sub !== "init" && sub !== "clone") {
      await ctx.repo.requireRepo();
      await ctx.repo.prepareAbbrev();
    }
    exitCode = await command.run(ctx, args.slice(1));
  } catch (err) {
    exitCode = reportError(ctx, err);
  } finally {
    opts.onRawChange?.();
  }
  const { stdout, bytes } = ctx.io.stdoutResult();
  const result: ExecResult = { stdout, stderr: ctx.io.stderr, exitCode };
  if (bytes) {
    result.stdoutKind = "bytes";
    result.stdoutEncoding = "binary";
  }
  return result;
}

/** The refused form as the error names it: `git branch -d x`, cut short when long. */
function formLabel(args: string[]): string {
  const text = ["git", ...args].join(" ");
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}

function reportError(ctx: GitContext, err: unknown): number {
  if (err instanceof GitError) {
    ctx.io.err(err.message.endsWith("\n") ? err.message : err.message + "\n");
    return err.exitCode;
  }
  const e = err as { code?: string; message?: string };
  if (e?.code === "EROFS") {
    ctx.io.err("fatal: the workspace is read-only (Plan mode)\n");
    return 128;
  }
  ctx.io.err(`fatal: ${(e?.message ?? String(err)).replace(/\n+$/, "")}\n`);
  return 128;
}
