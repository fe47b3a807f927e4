import type { WorkspaceFs } from "../fs/workspace-fs";
import { looksBinary, LARGE_FILE_BYTES } from "../editor/file-kind";

export interface FindOptions {
  regex?: boolean;
  caseSensitive?: boolean;
  wholeWord?: boolean;
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
  truncated: boolean;
}

const PREVIEW_MAX = 200;

export function buildMatcher(query: string, opts: FindOptions): RegExp {
  const source = opts.regex ? query : query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const bounded = opts.wholeWord ? `\\b(?:${source})\\b` : source;
  try {
    return new RegExp(bounded, opts.caseSensitive ? "g" : "gi");
  } catch (error) {
    throw new Error(`Invalid regular expression: ${(error as Error).message}`);
  }
}

/** Search every text file of the workspace (binary and >5 MB files are skipped), line by line. */
export async function findInFiles(wsfs: WorkspaceFs, query: string, opts: FindOptions = {}): Promise<FindResult> {
  const max = opts.maxResults ?? 2000;
  const result: FindResult = { matches: [], filesSearched: 0, truncated: false };
  if (!query) return result;
  const matcher = buildMatcher(query, opts);
  const files = await wsfs.listFiles("");
  for (const path of files) {
    if (opts.signal?.aborted) break;
    if (opts.skip?.(path)) continue;
    const stat = await wsfs.stat(path);
    if (!stat || stat.type !== "file" || stat.size > LARGE_FILE_BYTES) continue;
    const bytes = await wsfs.readFile(path);
    if (looksBinary(bytes)) continue;
    result.filesSearched++;
    const lines = new TextDecoder().decode(bytes).split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      matcher.lastIndex = 0;
      const m = matcher.exec(line);
      if (!m) continue;
      if (result.matches.length >= max) {
        result.truncated = true;
        return result;
      }
      const start = Math.max(0, m.index - 60);
      result.matches.push({
        path,
        line: i + 1,
        column: m.index + 1,
        length: Math.max(1, m[0].length),
        preview: (start > 0 ? "…" : "") + line.slice(start, start + PREVIEW_MAX),
      });
    }
  }
  return result;
}
