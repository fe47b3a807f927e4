/** Local branches: list, create, switch. */
import git from "isomorphic-git";
import { codedError } from "../fs/types";
import { statusAll } from "./status";
import { assertWritableRepo, compareStrings, gitArgs, hasCode, type GitRepo } from "./types";

export type BranchInfo = { name: string; current: boolean };

/** The checked-out branch, or undefined when HEAD is detached (as isomorphic-git does). */
export async function currentBranch(repo: GitRepo): Promise<string | undefined> {
  const name = await git.currentBranch({ ...gitArgs(repo), fullname: false });
  return name ?? undefined;
}

/**
 * Local branches sorted by name. On an unborn branch (a new repository before its first
 * commit) the current branch is listed too, although git has no ref for it yet, so the UI
 * can show which branch the first commit will land on.
 */
export async function listBranches(repo: GitRepo): Promise<BranchInfo[]> {
  const [names, current] = await Promise.all([git.listBranches(gitArgs(repo)), currentBranch(repo)]);
  const all = new Set(names);
  if (current !== undefined) all.add(current);
  return [...all].sort(compareStrings).map((name) => ({ name, current: name === current }));
}

async function headCommit(repo: GitRepo): Promise<string | null> {
  try {
    return await git.resolveRef({ ...gitArgs(repo), ref: "HEAD" });
  } catch (err) {
    if (hasCode(err, "NotFoundError")) return null;
    throw err;
  }
}

async function branchCommit(repo: GitRepo, name: string): Promise<string | null> {
  try {
    return await git.resolveRef({ ...gitArgs(repo), ref: `refs/heads/${name}` });
  } catch (err) {
    if (hasCode(err, "NotFoundError")) return null;
    throw err;
  }
}

/**
 * Create a branch at HEAD (and optionally make it current; the working tree is untouched,
 * as with `git switch -c`). Errors: "EXISTS", "INVALID_NAME", "NO_COMMITS" (without checkout
 * there is nothing to point a new branch at before the first commit).
 */
export async function createBranch(repo: GitRepo, name: string, { checkout = false }: { checkout?: boolean } = {}): Promise<void> {
  assertWritableRepo(repo, "create a branch");
  if (!checkout && (await headCommit(repo)) === null) {
    throw codedError("NO_COMMITS", `Cannot create branch "${name}": there are no commits yet`);
  }
  try {
    await git.branch({ ...gitArgs(repo), ref: name, checkout });
  } catch (err) {
    if (hasCode(err, "AlreadyExistsError")) throw codedError("EXISTS", `A branch named "${name}" already exists`, err);
    if (hasCode(err, "InvalidRefNameError")) throw codedError("INVALID_NAME", `"${name}" is not a valid branch name`, err);
    throw err;
  }
}

/**
 * Check out another branch. Refuses (code "DIRTY") while any tracked file has uncommitted
 * changes, staged or not — simpler than git's "only if the switch would touch them" and never
 * loses work — and (code "CONFLICT") when an untracked file is in the way of a file of the
 * target branch. Records the changed paths in `repo.journal` (origin "git") when given.
 */
export async function switchBranch(repo: GitRepo, name: string): Promise<void> {
  assertWritableRepo(repo, "switch branches");
  const args = gitArgs(repo);
  const current = await currentBranch(repo);
  if (current === name) return;
  const target = await branchCommit(repo, name);
  if (target === null) throw codedError("NOT_FOUND", `There is no branch named "${name}"`);

  const dirty = (await statusAll(repo)).filter((e) => e.index !== "?");
  if (dirty.length > 0) {
    const shown = dirty.slice(0, 5).map((e) => e.path).join(", ") + (dirty.length > 5 ? `, and ${dirty.length - 5} more` : "");
    throw codedError(
      "DIRTY",
      `Cannot switch to "${name}": ${dirty.length} file(s) have uncommitted changes (${shown}). Commit or discard them first.`,
    );
  }

  const before = await headCommit(repo);
  try {
    await git.checkout({ ...args, ref: name });
  } catch (err) {
    if (hasCode(err, "CheckoutConflictError")) {
      const files = ((err as { data?: { filepaths?: string[] } }).data?.filepaths ?? []).join(", ");
      throw codedError("CONFLICT", `Cannot switch to "${name}": untracked files would be overwritten (${files}). Move or delete them first.`, err);
    }
    throw err;
  }
  if (repo.journal) await recordTreeChanges(repo, before, target);
}

/** Journal events for the files that differ between two commits (what checkout rewrote). */
async function recordTreeChanges(repo: GitRepo, from: string | null, to: string): Promise<void> {
  const journal = repo.journal!;
  const args = gitArgs(repo);
  const trees = [git.TREE({ ref: from ?? "4b825dc642cb6eb9a060e54bf8d69288fbee4904" }), git.TREE({ ref: to })];
  const changes = (await git.walk({
    ...args,
    trees,
    map: async (filepath, [a, b]) => {
      if (filepath === ".") return undefined;
      const [ta, tb] = await Promise.all([a?.type(), b?.type()]);
      if (ta === "tree" || tb === "tree") {
        // Same subtree id: nothing inside changed, skip it.
        if (ta === tb && (await a!.oid()) === (await b!.oid())) return null;
        return undefined;
      }
      const oa = ta === "blob" ? await a!.oid() : undefined;
      const ob = tb === "blob" ? await b!.oid() : undefined;
      const ma = ta === "blob" ? await a!.mode() : undefined;
      const mb = tb === "blob" ? await b!.mode() : undefined;
      if (oa === ob && ma === mb) return undefined;
      return { path: filepath, deleted: ob === undefined };
    },
  })) as { path: string; deleted: boolean }[] | undefined;
  for (const c of changes ?? []) {
    journal.record({ kind: c.deleted ? "delete" : "write", path: c.path, origin: "git" });
  }
}
