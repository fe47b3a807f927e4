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
  const out = nativeGit(dir, "status", "--porcelain", "-z", "-uall");
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
