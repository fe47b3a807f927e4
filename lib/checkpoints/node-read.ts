/**
 * Accelerators for workspaces on node's fs (`ws.readMany`, `ws.listDir`), for hosts
 * that run the engine in Node (tests, the bench, a desktop shell).
 *
 * `fs.promises.readFile` costs four thread-pool round trips per file (open, fstat, read,
 * close) plus the promise machinery: on a 10,000-file tree that was ~1 s, nine tenths of a
 * cold checkpoint's hashing phase, where `readFileSync` reads the same files in ~0.1 s.
 * A batch (the engine asks for ≤256 files) blocks the event loop for a few milliseconds, and
 * files over SYNC_MAX_BYTES are left to the async path so one big file never stalls it.
 *
 * It takes the sync function instead of importing node:fs so lib/ stays loadable in a page.
 * Entries it cannot vouch for (an error, a size other than lstat's) come back undefined and
 * the engine reads them through `ws.fs` as usual: correctness never depends on this.
 */
import type { IsoFsStat } from "../fs/types";
import type { ListDir, ReadMany } from "./engine";

const SYNC_MAX_BYTES = 1 << 20;

export function syncReadMany(readFileSync: (path: string) => Uint8Array): ReadMany {
  return async (paths: string[], stats: IsoFsStat[]) =>
    paths.map((p, i) => {
      const st = stats[i];
      if (!st || !st.isFile() || st.size > SYNC_MAX_BYTES) return undefined;
      try {
        const data = readFileSync(p);
        return data.length === st.size ? data : undefined;
      } catch {
        return undefined;
      }
    });
}

type DirentLike = { name: string; isDirectory(): boolean };
type ReaddirSync = (path: string, options: { withFileTypes: true }) => (DirentLike | string)[];

/** What the walk needs to know of a subdirectory (it only asks `isDirectory`). */
const DIRECTORY: IsoFsStat = {
  mode: 0o40000,
  size: 0,
  mtimeMs: 0,
  isFile: () => false,
  isDirectory: () => true,
  isSymbolicLink: () => false,
};

/**
 * The walk's listing for the same hosts: names and lstats with the sync calls (a 13,000-entry
 * walk is ~13,000 thread-pool round trips through `fs.promises`, ~0.5 s of a cold checkpoint,
 * against a few tens of milliseconds this way). The listing carries each entry's type, so a
 * subdirectory needs no lstat (a quarter of the calls on a real repository's shape); files and
 * symlinks are lstat'ed for their size, mtime and inode. A directory that cannot be listed
 * comes back undefined and the engine lists it the ordinary way.
 */
export function syncListDir(readdirSync: ReaddirSync, lstatSync: (path: string) => IsoFsStat): ListDir {
  return async (absDir: string) => {
    let entries: (DirentLike | string)[];
    try {
      entries = readdirSync(absDir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    const prefix = absDir.endsWith("/") ? absDir : absDir + "/";
    const names = entries.map((e) => (typeof e === "string" ? e : String(e.name)));
    const stats = entries.map((e, i) => {
      if (typeof e !== "string" && e.isDirectory()) return DIRECTORY;
      try {
        return lstatSync(prefix + names[i]);
      } catch {
        return null;
      }
    });
    return { names, stats };
  };
}
