/**
 * The repository handle every lib/git function takes first. It is a plain object (no class, no
 * globals) so the UI, the agent and tests can build one over any IsoFs.
 */
import type { FsClient } from "isomorphic-git";
import type { ChangeJournal } from "../fs/journal";
import { normalizeRelPath } from "../fs/paths";
import { codedError, type IsoFs } from "../fs/types";

export type GitRepo = {
  fs: IsoFs;
  /** Absolute working-tree directory inside `fs`; the git dir is `<dir>/.git`. */
  dir: string;
  /** isomorphic-git's object/index cache; share one across calls to avoid re-parsing packs
   * and the index. */
  cache?: object;
  /** When given, operations that rewrite the working tree (switchBranch) record what they
   * changed, with origin "git", so editors and the file tree can refresh. */
  journal?: ChangeJournal;
  /** A read-only (reader) tab: status does not refresh .git/index, and every operation that
   * writes the repository or the working tree fails with EROFS. */
  readOnly?: boolean;
};

/** Workspace-relative form of a path argument ("/a/./b" → "a/b"); refuses escapes. */
export function repoPath(path: string): string {
  return normalizeRelPath(path);
}

export function assertWritableRepo(repo: GitRepo, action: string): void {
  if (repo.readOnly) {
    throw codedError("EROFS", `Cannot ${action}: this workspace is open read-only (another tab is editing it)`);
  }
}

/** The arguments isomorphic-git wants for a repo. */
export function gitArgs(repo: GitRepo): { fs: FsClient; dir: string; cache?: object } {
  return { fs: completeFs(repo.fs) as unknown as FsClient, dir: repo.dir, cache: repo.cache };
}

const completed = new WeakMap<IsoFs, IsoFs>();

/**
 * isomorphic-git binds `readlink` and `symlink` up front and throws on an fs without them,
 * although its own typings mark them optional. Give such an fs stand-ins that fail only if a
 * symlink is actually met (memoised: isomorphic-git keys some state on the fs object).
 */
function completeFs(fs: IsoFs): IsoFs {
  const p = fs.promises;
  if (typeof p.readlink === "function" && typeof p.symlink === "function") return fs;
  let done = completed.get(fs);
  if (!done) {
    const unsupported = async () => {
      throw codedError("ENOTSUP", "This file system does not support symbolic links");
    };
    const promises = Object.create(p) as IsoFs["promises"];
    for (const key of Object.keys(p) as (keyof IsoFs["promises"])[]) {
      const v = p[key];
      if (typeof v === "function") (promises as unknown as Record<string, unknown>)[key] = v.bind(p);
    }
    promises.readlink = p.readlink?.bind(p) ?? unsupported;
    promises.symlink = p.symlink?.bind(p) ?? unsupported;
    done = { promises };
    completed.set(fs, done);
  }
  return done;
}

export function gitdirOf(repo: GitRepo): string {
  return joinPath(repo.dir, ".git");
}

export function joinPath(dir: string, rel: string): string {
  if (rel === "" || rel === ".") return dir;
  return dir.endsWith("/") ? dir + rel : dir + "/" + rel;
}

/** isomorphic-git marks its errors with `code` (e.g. "NotFoundError"). */
export function hasCode(err: unknown, code: string): boolean {
  return (err as { code?: unknown } | null)?.code === code;
}

/** Code-unit order: the order git uses for ASCII and BMP names, and stable everywhere. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
