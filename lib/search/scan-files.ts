/**
 * Many files searched for one pattern, read in parallel and reported in path order as they are
 * done: the editor's find in files streams from it, the agent's search_codebase collects from it.
 *
 * Reads go out in groups: the workspace's IndexedDB store sends the reads that are waiting
 * together in one readonly transaction, so a group of small files costs about one round trip
 * instead of one each. A group holds at most GROUP_BYTES; a file over SEARCH_LARGE_FILE_BYTES is
 * read alone, so at most one large file is in memory at a time.
 */
import type { WorkspaceFs } from "../fs/workspace-fs";
import type { SearchPattern } from "./pattern";
import { SEARCH_LARGE_FILE_BYTES, SEARCH_MAX_FILE_BYTES, searchBytes, type LineHit } from "./search-file";

/**
 * Files stat'ed at once, and at most read at once; a read group also stops at GROUP_BYTES. The
 * first group is small, so that the first results show at once; then they grow (fewer, larger
 * transactions: on a 10k-file repository 256 a group took a third less time than 32).
 */
const FIRST_GROUP = 32;
const GROUP = 256;
const GROUP_BYTES = 8 * 1024 * 1024;

export type FileHits = { path: string; hits: LineHit[] };

export type ScanOptions = {
  /** Most hits kept per file (the caller's room left, plus one to tell "cut" from "full"). */
  maxHitsPerFile: () => number;
  previewChars?: number;
  signal?: AbortSignal;
  /**
   * Each searched text file, in path order, with its hits (possibly none). Returning false stops
   * the scan after this file.
   */
  onFile: (file: FileHits) => boolean | void;
  /** After each group of files: how far the scan is. */
  onGroup?: (progress: ScanProgress) => void;
};

export type ScanProgress = {
  /** Text files searched so far. */
  searched: number;
  /** Text files over SEARCH_MAX_FILE_BYTES, skipped. */
  tooLarge: number;
  /** Paths looked at so far, out of `total` given so far (all of them once the scan ends). */
  done: number;
  total: number;
};

/**
 * Search the files `paths` names — an array, or an async source such as a walk still under way
 * (the search starts on the first files found) — in the order given.
 */
export async function scanFiles(
  wsfs: WorkspaceFs,
  paths: Iterable<string> | AsyncIterable<string>,
  pattern: SearchPattern,
  opts: ScanOptions,
): Promise<ScanProgress> {
  const progress: ScanProgress = { searched: 0, tooLarge: 0, done: 0, total: 0 };
  let size = FIRST_GROUP;
  let pending: string[] = [];
  for await (const path of paths) {
    if (opts.signal?.aborted) return progress;
    pending.push(path);
    progress.total++;
    if (pending.length < size) continue;
    const go = await scanGroup(wsfs, pending, pattern, opts, progress);
    opts.onGroup?.(progress);
    if (!go) return progress;
    pending = [];
    size = Math.min(GROUP, size * 2);
  }
  if (pending.length && !opts.signal?.aborted) {
    await scanGroup(wsfs, pending, pattern, opts, progress);
    opts.onGroup?.(progress);
  }
  return progress;
}

/** One group: stat'ed together, read in runs (small files together, a large one alone). False: stop. */
async function scanGroup(wsfs: WorkspaceFs, slice: string[], pattern: SearchPattern, opts: ScanOptions, progress: ScanProgress): Promise<boolean> {
  const read = (path: string) => wsfs.readFile(path).catch(() => null); // gone since its stat: skipped
  const stats = await Promise.all(slice.map((p) => wsfs.stat(p).catch(() => null)));
  const searchable = (k: number) => stats[k]?.type === "file" && stats[k]!.size <= SEARCH_MAX_FILE_BYTES;
  let k = 0;
  while (k < slice.length) {
    if (opts.signal?.aborted) return false;
    const run: number[] = [];
    let bytes = 0;
    for (; k < slice.length; k++) {
      const size = stats[k]?.size ?? 0;
      if (searchable(k) && size > SEARCH_LARGE_FILE_BYTES) {
        if (run.length === 0) run.push(k++);
        break;
      }
      if (run.length > 0 && searchable(k) && bytes + size > GROUP_BYTES) break;
      if (searchable(k)) bytes += size;
      run.push(k);
    }
    const contents = await Promise.all(run.map((j) => (searchable(j) ? read(slice[j]!) : null)));
    for (let r = 0; r < run.length; r++) {
      const j = run[r]!;
      progress.done++;
      if (stats[j]?.type === "file" && !searchable(j)) progress.tooLarge++;
      const bytes = contents[r];
      if (!bytes || opts.signal?.aborted) continue;
      const { binary, hits } = searchBytes(bytes, pattern, { maxHits: opts.maxHitsPerFile(), previewChars: opts.previewChars, signal: opts.signal });
      if (binary) continue;
      progress.searched++;
      if (opts.onFile({ path: slice[j]!, hits }) === false) return false;
    }
  }
  return true;
}
