/** Local branches: list, create, switch. */
import git from "isomorphic-git";
import { codedError } from "../fs/types";
import { changedPaths } from "./tree-changes";
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
 * Check out another branch, carrying uncommitted changes along as git does: a file you changed
 * (staged or not) stays as it is when both branches have the same version of it. Refuses,
 * changing nothing, when a changed file differs between the branches (code "DIRTY", git's
 * "would be overwritten" list) or an untracked file stands where the target has a file (code
 * "CONFLICT"). Records the rewritten paths in `repo.journal` (origin "git") when given.
 *
 * Not isomorphic-git's `checkout`: with local changes it rewrites the whole index from the
 * target, which drops a staged new file from both the index and the work tree. Here only the
 * paths that differ between the two commits are written (files first, HEAD last, so a switch
 * cut short leaves those paths looking modified, never lost).
 */
export async function switchBranch(repo: GitRepo, name: string): Promise<void> {
  assertWritableRepo(repo, "switch branches");
  const args = gitArgs(repo);
  const current = await currentBranch(repo);
  if (current === name) return;
  const target = await branchCommit(repo, name);
  if (target === null) throw codedError("NOT_FOUND", `There is no branch named "${name}"`);
  const before = await headCommit(repo);

  const between = await changedPaths(repo, before, target);
  const changed = new Map(between.map((c) => [c.path, c]));
  const rows = await git.statusMatrix(args);
  // [path, head, workdir, stage]: 1 1 1 is clean; 0 2 0 untracked.
  const local = rows.filter(([, h, w, st]) => !(h === 1 && w === 1 && st === 1) && !(h === 0 && st === 0));
  const overwritten = local.map(([p]) => p).filter((p) => changed.has(p) || [...changed.keys()].some((c) => c.startsWith(p + "/")));
  if (overwritten.length > 0) {
    const shown = overwritten.slice(0, 5).join(", ") + (overwritten.length > 5 ? `, and ${overwritten.length - 5} more` : "");
    throw codedError(
      "DIRTY",
      `Cannot switch to "${name}": your changes to ${shown} would be overwritten (the branches differ there). Commit or stash them first.`,
    );
  }
  const untracked = rows.filter(([, h, w, st]) => h === 0 && st === 0 && w === 2).map(([p]) => p);
  // As native git: in the way even with the same content (it cannot tell it is not yours).
  const inTheWay = untracked.filter((u) => changed.get(u)?.deleted === false || between.some((x) => !x.deleted && x.path.startsWith(u + "/")));
  if (inTheWay.length > 0) {
    throw codedError("CONFLICT", `Cannot switch to "${name}": untracked files would be overwritten (${inTheWay.join(", ")}). Move or delete them first.`);
  }

  for (const c of between) {
    const abs = `${repo.dir}/${c.path}`;
    if (c.deleted) {
      await repo.fs.promises.unlink(abs).catch((err: unknown) => (hasCode(err, "ENOENT") ? undefined : Promise.reject(err)));
      await git.remove({ ...args, filepath: c.path });
      await removeEmptyParents(repo, c.path);
      continue;
    }
    await mkdirs(repo, c.path);
    const { blob } = await git.readBlob({ ...args, oid: target, filepath: c.path });
    await repo.fs.promises.unlink(abs).catch(() => undefined);
    if (c.mode === "120000") await repo.fs.promises.symlink!(new TextDecoder().decode(blob), abs);
    else await repo.fs.promises.writeFile(abs, blob, c.mode === "100755" ? { mode: 0o755 } : undefined);
    await git.updateIndex({ ...args, filepath: c.path, oid: c.oid, mode: parseInt(c.mode!, 8), add: true });
  }
  await git.writeRef({ ...args, ref: "HEAD", value: `refs/heads/${name}`, symbolic: true, force: true });
  if (repo.journal) for (const c of between) repo.journal.record({ kind: c.deleted ? "delete" : "write", path: c.path, origin: "git" });
}

async function mkdirs(repo: GitRepo, path: string): Promise<void> {
  const parts = path.split("/").slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const dir = `${repo.dir}/${parts.slice(0, i).join("/")}`;
    await repo.fs.promises.mkdir(dir).catch((err: unknown) => (hasCode(err, "EEXIST") ? undefined : Promise.reject(err)));
  }
}

async function removeEmptyParents(repo: GitRepo, path: string): Promise<void> {
  const parts = path.split("/").slice(0, -1);
  for (let i = parts.length; i > 0; i--) {
    const dir = `${repo.dir}/${parts.slice(0, i).join("/")}`;
    const left = await repo.fs.promises.readdir(dir).catch(() => null);
    if (!left || left.length > 0) return;
    await repo.fs.promises.rmdir(dir).catch(() => undefined);
  }
}


