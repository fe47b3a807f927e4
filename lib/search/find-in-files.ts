import type { WorkspaceFs } from "../fs/workspace-fs";
import { compilePattern, type PatternOptions } from "./pattern";
import { SEARCH_MAX_FILE_BYTES, searchBytes } from "./search-file";

export interface FindOptions extends PatternOptions {
  /** Stop after this many matching lines (the UI says the list was cut). */
  maxResults?: number;
  /** Paths to skip, e.g. ignored files; the caller decides. */
  skip?: (path: string) => boolean;
  signal?: AbortSignal;
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
}

/**
 * Search every text file of the workspace line by line (binary files are skipped). The pattern
 * runs on a linear-time engine, so no query can hang the page; an unsupported or invalid one
 * throws a PatternError whose message says what to write instead.
 */
export async function findInFiles(wsfs: WorkspaceFs, query: string, opts: FindOptions = {}): Promise<FindResult> {
  const max = opts.maxResults ?? 2000;
  const result: FindResult = { matches: [], filesSearched: 0, filesTooLarge: 0, truncated: false };
  if (!query) return result;
  const pattern = compilePattern(query, opts);
  const files = await wsfs.listFiles("");
  for (const path of files) {
    if (opts.signal?.aborted) break;
    if (opts.skip?.(path)) continue;
    const stat = await wsfs.stat(path);
    if (!stat || stat.type !== "file") continue;
    if (stat.size > SEARCH_MAX_FILE_BYTES) {
      result.filesTooLarge++;
      continue;
    }
    const bytes = await wsfs.readFile(path);
    // One more than the room left tells "cut" from "exactly full".
    const { binary, hits } = searchBytes(bytes, pattern, { maxHits: max - result.matches.length + 1, signal: opts.signal });
    if (binary) continue;
    result.filesSearched++;
    for (const h of hits) {
      if (result.matches.length >= max) {
        result.truncated = true;
        return result;
      }
      result.matches.push({ path, line: h.line, column: h.index + 1, length: Math.max(1, h.length), preview: h.preview });
    }
  }
  return result;
}
