/** Staging, committing and history. */
import git from "isomorphic-git";
import { statusAll } from "./status";
import { assertWritableRepo, gitArgs, hasCode, joinPath, repoPath, type GitRepo } from "./types";
import { codedError } from "../fs/types";

export const DEFAULT_AUTHOR = { name: "Tabula User", email: "user@tabula.local" } as const;

export type Author = { name: string; email: string };

export type LogEntry = {
  oid: string;
  /** The full message without its trailing newline(s). */
  message: string;
  author: { name: string; email: string; timestamp: number };
  parents: string[];
};

async function existsInWorktree(repo: GitRepo, rel: string): Promise<boolean> {
  try {
    await repo.fs.promises.lstat(joinPath(repo.dir, rel));
    return true;
  } catch {
    return false;
  }
}

/**
 * `git add` for existing paths and `git rm --cached` for vanished ones, so staging a deleted
 * file (or directory) records the deletion instead of failing.
 */
export async function stage(repo: GitRepo, paths: string[]): Promise<void> {
  assertWritableRepo(repo, "stage changes");
  const args = gitArgs(repo);
  const toAdd: string[] = [];
  const toRemove: string[] = [];
  for (const p of paths.map(repoPath)) {
    if (p === "") {
      await stageAll(repo);
      continue;
    }
    ((await existsInWorktree(repo, p)) ? toAdd : toRemove).push(p);
  }
  if (toAdd.length > 0) await git.add({ ...args, filepath: toAdd });
  for (const filepath of toRemove) await git.remove({ ...args, filepath });
}

/** `git add -A`: stage every change, including deletions, honouring the ignore rules. */
export async function stageAll(repo: GitRepo): Promise<void> {
  assertWritableRepo(repo, "stage changes");
  const args = gitArgs(repo);
  const entries = await statusAll(repo);
  const toAdd = new Set<string>();
  const toRemove = new Set<string>();
  for (const e of entries) {
    if (e.worktree === "D") toRemove.add(e.path);
    else if (e.worktree === "M" || e.worktree === "?") toAdd.add(e.path);
  }
  // force: statusAll has already left ignored files out, and skipping isomorphic-git's own
  // per-file ignore check saves re-reading every .gitignore for each file.
  if (toAdd.size > 0) await git.add({ ...args, filepath: [...toAdd], force: true });
  if (toRemove.size > 0) await git.remove({ ...args, filepath: [...toRemove] });
}

/** The configured user, else the default; an explicit author wins over both. */
async function resolveAuthor(repo: GitRepo, author?: Author): Promise<Author> {
  if (author) return author;
  const args = gitArgs(repo);
  const [name, email] = await Promise.all([
    git.getConfig({ ...args, path: "user.name" }).catch(() => undefined),
    git.getConfig({ ...args, path: "user.email" }).catch(() => undefined),
  ]);
  return {
    name: typeof name === "string" && name !== "" ? name : DEFAULT_AUTHOR.name,
    email: typeof email === "string" && email !== "" ? email : DEFAULT_AUTHOR.email,
  };
}

/**
 * Commit the index. Like git, refuses (code "NOTHING_TO_COMMIT") when nothing is staged,
 * unless `allowEmpty`; refuses an empty message (code "EMPTY_MESSAGE").
 */
export async function commit(
  repo: GitRepo,
  { message, author, allowEmpty = false }: { message: string; author?: Author; allowEmpty?: boolean },
): Promise<string> {
  assertWritableRepo(repo, "commit");
  if (typeof message !== "string" || message.trim() === "") {
    throw codedError("EMPTY_MESSAGE", "A commit message is required");
  }
  const who = await resolveAuthor(repo, author);
  try {
    return await git.commit({ ...gitArgs(repo), message, author: who, committer: who, disallowEmpty: !allowEmpty });
  } catch (err) {
    if (hasCode(err, "EmptyCommitError")) {
      throw codedError("NOTHING_TO_COMMIT", "Nothing to commit: stage some changes first", err);
    }
    throw err;
  }
}

/** Newest first. An unborn branch (no commits yet) has an empty log. */
export async function log(repo: GitRepo, { depth, ref = "HEAD" }: { depth?: number; ref?: string } = {}): Promise<LogEntry[]> {
  let commits;
  try {
    commits = await git.log({ ...gitArgs(repo), ref, depth });
  } catch (err) {
    if (ref === "HEAD" && hasCode(err, "NotFoundError")) return [];
    throw err;
  }
  return commits.map(({ oid, commit: c }) => ({
    oid,
    message: c.message.replace(/\n+$/, ""),
    author: { name: c.author.name, email: c.author.email, timestamp: c.author.timestamp },
    parents: [...c.parent],
  }));
}
