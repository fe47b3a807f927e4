/**
 * "A directory's names with every entry's stat" in one call, for file systems that hold their
 * tree in memory and can answer it at once (lightning-fs: CountingInodeBackend.listDirSync). A
 * walk otherwise asks one readdir plus one lstat per entry. The checkpoint engine takes it as
 * `ws.listDir`.
 *
 * The answer is found through the wrappers the app puts around a file system (revocable,
 * worktree stamp), which pass reads straight through; each call goes through the outermost
 * one's lstat first, so a revoked fs refuses it like any other call.
 */
import type { IsoFs, IsoFsStat } from "./types";

export type DirListing = { names: string[]; stats: (IsoFsStat | null)[] };
/** Answers from memory, or undefined when it cannot now (e.g. the tree is not loaded). */
type SyncLister = (absDir: string) => DirListing | undefined;

const listers = new WeakMap<object, SyncLister>();

export function setSyncLister(fs: IsoFs, lister: SyncLister): void {
  listers.set(fs, lister);
}

/** `outer` reads through to `inner`: it can answer listings the same way, while `allowed()`
 * (a wrapper that can be cut off says whether it still lets reads through). */
export function passListing(inner: IsoFs, outer: IsoFs, allowed?: () => boolean): void {
  const lister = listers.get(inner);
  if (lister) listers.set(outer, allowed ? (dir) => (allowed() ? lister(dir) : undefined) : lister);
}

/** The one-call listing for `fs`, or undefined when its storage has none. The function's
 * own undefined means "ask the ordinary way". */
export function listDirOf(fs: IsoFs): ((absDir: string) => Promise<DirListing | undefined>) | undefined {
  const lister = listers.get(fs);
  if (!lister) return undefined;
  return async (absDir) => {
    const dir = absDir.length > 1 ? absDir.replace(/\/+$/, "") : absDir;
    const now = lister(dir);
    if (now) return now;
    // Not loaded (lightning-fs unloads its tree after a moment without calls), or not a
    // directory: through the fs, which loads the tree (waiting for anything reloading it) and
    // refuses if revoked; then from memory in the same step, before any timer could unload it.
    const st = await fs.promises.lstat(dir).catch(() => null);
    if (!st?.isDirectory()) return undefined;
    return lister(dir);
  };
}
