import type { WorkspaceFs } from "../fs/workspace-fs";
import { compilePattern, type PatternOptions } from "./pattern";
import { timeSlicer } from "../scheduling/time-slice";
import { scanFiles } from "./scan-files";

export interface FindOptions extends PatternOptions {
  /** Stop after this many matching lines (the UI says the list was cut). */
  maxResults?: number;
  /** Paths to skip, e.g. ignored files; the caller decides. */
  skip?: (path: string) => boolean;
  /** Folders not to walk into at all (an ignored node_modules); the caller decides. */
  skipDir?: (path: string) => boolean;
  signal?: AbortSignal;
  /**
   * The results so far, as they are found (in the explorer's order), after each group of files read: a
   * long search shows its first results at once (the caller decides how often to redraw). The
   * object passed is the one being filled: copy what you keep.
   */
  onProgress?: (partial: FindResult) => void;
}

export interface FindMatch {
  path: string;
  /** 1-based line and column, as Monaco counts them. */
  line: number;
  column: number;
  length: number;
  preview: string;
}

export interface FindResult {
  matches: FindMatch[];
  filesSearched: number;
  /** Text files over SEARCH_MAX_FILE_BYTES, not searched. */
  filesTooLarge: number;
  truncated: boolean;
  /** Files found to search so far, and how many of them have been looked at. */
  filesTotal: number;
  filesDone: number;
  /** Every file to search has been found (filesTotal is final). */
  listed: boolean;
}

/**
 * Search every text file of the workspace line by line, in the explorer's order (binary files
 * are skipped). The pattern runs on a linear-time engine, so no query can hang the page; an
 * unsupported or invalid one throws a PatternError whose message says what to write instead.
 */
export async function findInFiles(wsfs: WorkspaceFs, query: string, opts: FindOptions = {}): Promise<FindResult> {
  const max = opts.maxResults ?? 2000;
  const result: FindResult = { matches: [], filesSearched: 0, filesTooLarge: 0, truncated: false, filesTotal: 0, filesDone: 0, listed: false };
  if (!query) return result;
  const pattern = compilePattern(query, opts);
  const progress = await scanFiles(wsfs, walkSearchable(wsfs, opts, () => (result.listed = true)), pattern, {
    // One more than the room left tells "cut" from "exactly full".
    maxHitsPerFile: () => max - result.matches.length + 1,
    signal: opts.signal,
    onFile: ({ path, hits }) => {
      for (const h of hits) {
        if (result.matches.length >= max) {
          result.truncated = true;
          return false;
        }
        result.matches.push({ path, line: h.line, column: h.index + 1, length: Math.max(1, h.length), preview: h.preview });
      }
    },
    onGroup: (progress) => {
      Object.assign(result, { filesSearched: progress.searched, filesTooLarge: progress.tooLarge, filesDone: progress.done, filesTotal: progress.total });
      if (!opts.signal?.aborted) opts.onProgress?.(result);
    },
  });
  Object.assign(result, { filesSearched: progress.searched, filesTooLarge: progress.tooLarge, filesDone: progress.done, filesTotal: progress.total });
  return result;
}

/**
 * The files to search in the explorer's order (folders first, then files, by name), found as the
 * walk goes so that the search starts on the first ones; `.git` and the folders the caller skips
 * are never entered. The page gets a turn every few milliseconds of walking.
 */
async function* walkSearchable(wsfs: WorkspaceFs, opts: FindOptions, onEnd: () => void): AsyncGenerator<string> {
  const slicer = timeSlicer();
  async function* walk(dir: string): AsyncGenerator<string> {
    if (opts.signal?.aborted) return;
    await slicer.maybeYield();
    const entries = await wsfs.readdir(dir).catch(() => []);
    for (const e of entries) {
      if (e.name.toLowerCase() === ".git") continue;
      const path = dir === "" ? e.name : `${dir}/${e.name}`;
      if (e.type === "dir") {
        if (!opts.skipDir?.(path)) yield* walk(path);
      } else if (!opts.skip?.(path)) yield path; // a file, or a link the scan stats
    }
  }
  yield* walk("");
  if (!opts.signal?.aborted) onEnd();
}
