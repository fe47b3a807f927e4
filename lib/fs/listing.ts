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
type SyncLister = (absDir: string) => DirListing | undefined;

const listers = new WeakMap<object, SyncLister>();

export function setSyncLister(fs: IsoFs, lister: SyncLister): void {
  listers.set(fs, lister);
}

/** `outer` reads through to `inner`: it can answer listings the same way. */
export function passListing(inner: IsoFs, outer: IsoFs): void {
  const lister = listers.get(inner);
  if (lister) listers.set(outer, lister);
}

/** The one-call listing for `fs`, or undefined when its storage has none. The function's
 * own undefined means "ask the ordinary way". */
export function listDirOf(fs: IsoFs): ((absDir: string) => Promise<DirListing | undefined>) | undefined {
  const lister = listers.get(fs);
  if (!lister) return undefined;
  return async (absDir) => {
    const dir = absDir.length > 1 ? absDir.replace(/\/+$/, "") : absDir;
    // Through the fs first: lightning-fs loads its tree if it went idle (and waits for anything
    // reloading it), and a revoked fs refuses. The tree is then read in the same step, before
    // any timer could unload it; writes meanwhile are whole operations on that same tree.
    const st = await fs.promises.lstat(dir).catch(() => null);
    if (!st?.isDirectory()) return undefined;
    return lister(dir);
  };
}
