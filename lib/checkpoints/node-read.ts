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

/**
 * The walk's listing for the same hosts: names and lstats with the sync calls (a 13,000-entry
 * walk is ~13,000 thread-pool round trips through `fs.promises`, ~0.5 s of a cold checkpoint,
 * against a few tens of milliseconds this way). A directory that cannot be listed comes back
 * undefined and the engine lists it the ordinary way.
 */
export function syncListDir(readdirSync: (path: string) => string[], lstatSync: (path: string) => IsoFsStat): ListDir {
  return async (absDir: string) => {
    let names: string[];
    try {
      names = readdirSync(absDir);
    } catch {
      return undefined;
    }
    const prefix = absDir.endsWith("/") ? absDir : absDir + "/";
    const stats = names.map((name) => {
      try {
        return lstatSync(prefix + name);
      } catch {
        return null;
      }
    });
    return { names, stats };
  };
}
