/** `git status`: the work tree against the index and HEAD (long, short, porcelain). */
import { branchTracking } from "../../../git/remote-ahead-behind";
import type { GitContext } from "../context";
import { longStatus, shortStatus, statusData } from "../status-report";
import { GitError, parseArgs } from "../util";
import { writesOutputFile } from "./forms";

export const name = "status";
export const effect = "git status --output writes a file";

/** Reads; only `--output=<file>` would write. */
export function writes(args: readonly string[]): boolean {
  return writesOutputFile(args);
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-s", "--short", "-b", "--branch", "--long", "-z", "--no-renames", "-v"],
    optional: ["-u", "--untracked-files", "--porcelain"],
    value: ["--ignored"],
    alias: { "--short": "-s", "--branch": "-b", "--untracked-files": "-u" },
    usage: "git status [<options>] [--] [<pathspec>...]",
  });
  const porcelainValue = a.get("--porcelain");
  if (porcelainValue !== undefined && porcelainValue !== "" && porcelainValue !== "v1") {
    throw new GitError(`fatal: unsupported porcelain version '${porcelainValue}'\n`, 128);
  }
  const u = a.get("-u");
  const untracked = u === undefined ? "normal" : u === "" || u === "all" ? "all" : u === "no" ? "no" : "normal";
  const data = await statusData(ctx, { untracked });
  if (data.branch && data.head) data.tracking = await branchTracking(ctx.repo.asGitRepo, data.branch);
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (specs.length > 0) {
    const match = ctx.work.pathspec(specs);
    data.staged = data.staged.filter((l) => match(l.path) || (l.from !== undefined && match(l.from)));
    data.unstaged = data.unstaged.filter((l) => match(l.path));
    data.untracked = data.untracked.filter((p) => match(p.replace(/\/$/, "")) || specs.some((s) => ctx.work.repoPath(s).startsWith(p)));
  }
  // -z: NUL-terminated and unquoted, and the porcelain format unless another short one is asked for.
  const nul = a.has("-z");
  const porcelain = a.has("--porcelain") || (nul && !a.has("-s"));
  if (porcelain || a.has("-s")) {
    ctx.io.out(shortStatus(ctx, data, { porcelain, branch: a.has("-b"), nul }));
  } else {
    ctx.io.out(await longStatus(ctx, data));
  }
  return 0;
}
