/** Native git and porcelain parsing for parity tests. */
import { execFileSync } from "node:child_process";
import type { StatusEntry } from "../../lib/git/status";

export const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "Native Tester",
  GIT_AUTHOR_EMAIL: "native@example.com",
  GIT_COMMITTER_NAME: "Native Tester",
  GIT_COMMITTER_EMAIL: "native@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  HOME: "/nonexistent",
};

export function nativeGit(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "core.quotePath=false", ...args], {
    cwd: dir,
    env: GIT_ENV,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** `git status --porcelain -z -uall` as StatusEntry[], in git's order. */
export function nativeStatus(dir: string): StatusEntry[] {
  // GIT_OPTIONAL_LOCKS=0: the oracle must not rewrite .git/index (its stat refresh) under the code it checks.
  const out = execFileSync("git", ["-c", "core.quotePath=false", "status", "--porcelain", "-z", "-uall"], {
    cwd: dir,
    env: { ...GIT_ENV, GIT_OPTIONAL_LOCKS: "0" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const fields = out.split("\0").filter((f) => f !== "");
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const x = f[0]!;
    const y = f[1]!;
    if (x === "R" || x === "C") throw new Error("the scenario must not produce renames: " + f);
    entries.push({ path: f.slice(3), index: x as StatusEntry["index"], worktree: y as StatusEntry["worktree"] });
  }
  return entries;
}

/** `git check-ignore --no-index` verdicts for paths (true = ignored). */
export function nativeCheckIgnore(dir: string, paths: string[]): Set<string> {
  let out = "";
  try {
    out = execFileSync("git", ["check-ignore", "--no-index", "-z", "--stdin"], {
      cwd: dir,
      env: GIT_ENV,
      encoding: "utf8",
      input: paths.join("\0") + "\0",
    });
  } catch (err) {
    // Exit status 1 means "none of them is ignored".
    if ((err as { status?: number }).status !== 1) throw err;
  }
  return new Set(out.split("\0").filter((p) => p !== ""));
}

/** Porcelain v1 `-z` records as [XY, path] (no renames in these scenarios). */
function porcelain(out: string): [string, string][] {
  return out
    .split("\0")
    .filter((f) => f !== "")
    .map((f) => [f.slice(0, 2), f.slice(3)]);
}

/**
 * The one word lib/git's fileStatus should give `p`, read off native git: its status lines for
 * that path (ignored files included), else whether git tracks it.
 */
export function nativeFileStatus(dir: string, p: string): "unmodified" | "modified" | "added" | "deleted" | "untracked" | "ignored" | "absent" {
  // An ignored directory is reported once ("!! build/"), even for a pathspec inside it.
  const codes = porcelain(nativeGit(dir, "status", "--porcelain", "-z", "-uall", "--ignored=matching", "--", p))
    .filter(([, path]) => path === p || (path.endsWith("/") && p.startsWith(path)))
    .map(([xy]) => xy);
  // Removed from the index but still on disk, git prints "D " and "??": the file is untracked.
  if (codes.includes("??")) return "untracked";
  if (codes.includes("!!")) return "ignored";
  const [xy] = codes;
  if (xy === undefined) return nativeGit(dir, "ls-files", "-z", "--", p) === "" ? "absent" : "unmodified";
  if (xy.includes("D")) return "deleted";
  if (xy[0] === "A") return "added";
  return "modified";
}

/**
 * The "!!" lines of `git status --porcelain --ignored=matching`: a directory an ignore pattern
 * matches once, with "/"; other ignored files one by one. (Plain `--ignored` also folds a folder
 * that merely holds only ignored files, e.g. "logs/": lib/git does not.)
 */
export function nativeIgnored(dir: string): string[] {
  return porcelain(nativeGit(dir, "status", "--porcelain", "-z", "--ignored=matching"))
    .filter(([xy]) => xy === "!!")
    .map(([, path]) => path)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
