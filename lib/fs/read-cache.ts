/**
 * A byte-bounded LRU of file contents, keyed on workspace-relative path.
 *
 * IndexedDB reads cost ~1 ms each while lightning-fs stats are in memory, so "stat, then reuse
 * the bytes if the stat still matches" turns repeated reads (git status, search, the editor
 * reopening tabs) into memory lookups. Writes through WorkspaceFs invalidate eagerly; the stat
 * check catches writers that bypass it (isomorphic-git checkout, another tab, a shell).
 */
import type { IsoFsStat } from "./types";
import { RACY_MARGIN_MS } from "./racy-margin";

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

export type StatKey = { mtimeMs: number; size: number; ino?: number };

type Entry = StatKey & { data: Uint8Array; cachedAt: number };

export class ReadCache {
  readonly maxBytes: number;
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(maxBytes = DEFAULT_CACHE_BYTES) {
    this.maxBytes = Math.max(0, maxBytes);
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  /** Cached bytes for `path` if `stat` still describes them, else undefined. The caller gets
   * its own copy: handing out the cached array would let one consumer corrupt another's view. */
  get(path: string, stat: IsoFsStat | StatKey): Uint8Array | undefined {
    const entry = this.entries.get(path);
    if (!entry) return undefined;
    if (!sameStat(entry, stat) || stat.mtimeMs + RACY_MARGIN_MS > entry.cachedAt) {
      this.delete(path);
      return undefined;
    }
    // Refresh recency: Map iteration order is insertion order, so re-inserting moves it last.
    this.entries.delete(path);
    this.entries.set(path, entry);
    return entry.data.slice();
  }

  set(path: string, stat: IsoFsStat | StatKey, data: Uint8Array, cachedAt = Date.now()): void {
    this.delete(path);
    // A file bigger than a quarter of the budget would evict most of the cache for one entry.
    if (data.byteLength > this.maxBytes / 4) return;
    const entry: Entry = { mtimeMs: stat.mtimeMs, size: stat.size, data: data.slice(), cachedAt };
    if (typeof stat.ino === "number") entry.ino = stat.ino;
    this.entries.set(path, entry);
    this.bytes += data.byteLength;
    for (const [key, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= old.data.byteLength;
    }
  }

  delete(path: string): void {
    const entry = this.entries.get(path);
    if (!entry) return;
    this.entries.delete(path);
    this.bytes -= entry.data.byteLength;
  }

  /** Drop `prefix` and everything under it (a removed or renamed directory). "" clears all. */
  deletePrefix(prefix: string): void {
    if (prefix === "") {
      this.clear();
      return;
    }
    for (const key of [...this.entries.keys()]) {
      if (key === prefix || key.startsWith(prefix + "/")) this.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

function sameStat(a: StatKey, b: StatKey): boolean {
  if (a.mtimeMs !== b.mtimeMs || a.size !== b.size) return false;
  // Inode numbers catch "replaced by another file of the same size in the same tick".
  if (typeof a.ino === "number" && typeof b.ino === "number" && a.ino !== b.ino) return false;
  return true;
}
