import { fuzzyMatch, type FuzzyMatch } from "./fuzzy";

/**
 * What Ctrl+P ranks: the fuzzy score of each path, nudged by how recently the file was opened, with
 * files no one opens in a text editor (images, fonts, archives) after the sources they resemble.
 */

/** A quick-open query: the file part, and where to go in it (`src/a.ts:12` or `src/a.ts:12:5`). */
export interface QuickOpenQuery {
  file: string;
  line?: number;
  column?: number;
}

export function parseQuickOpenQuery(raw: string): QuickOpenQuery {
  const trimmed = raw.trim();
  // `path:line`, `path:line:col`, and the `path(line,col)` some compilers print.
  const m = /^(.*?)(?::(\d+)(?::(\d+))?|\((\d+)(?:,\s*(\d+))?\)):?$/.exec(trimmed);
  if (!m || !m[1]) return { file: trimmed };
  const line = Number(m[2] ?? m[4]);
  const column = m[3] ?? m[5];
  if (!(line >= 1)) return { file: m[1] };
  return { file: m[1], line, ...(column && Number(column) >= 1 ? { column: Number(column) } : {}) };
}

/** Binary formats Monaco cannot show as text: ranked after a text file of the same score. */
const NOT_TEXT = /\.(png|jpe?g|gif|webp|avif|bmp|ico|icns|tiff?|psd|mp[34]|mov|webm|wav|ogg|flac|woff2?|ttf|otf|eot|zip|gz|tgz|bz2|xz|7z|rar|jar|pdf|exe|dll|so|dylib|wasm|bin|dat)$/i;
const NOT_TEXT_PENALTY = 40;
/** The most recently opened file earns this much, the next a little less, down to nothing. */
const RECENT_BOOST = 12;

export interface QuickOpenEntry extends FuzzyMatch {
  recent: boolean;
}

/**
 * Rank `files` for `query`. An empty query lists the recently opened files first (most recent first),
 * then the rest in path order; a query ranks by fuzzy score, recency and text-ness.
 */
export function rankQuickOpen(query: string, files: readonly string[], recent: readonly string[], limit = 50): QuickOpenEntry[] {
  const present = new Set(files);
  const recentRank = new Map<string, number>();
  for (const p of recent) if (present.has(p) && !recentRank.has(p)) recentRank.set(p, recentRank.size);
  const { file } = parseQuickOpenQuery(query);

  if (!file.trim()) {
    const first = [...recentRank.keys()].map((path) => ({ path, score: 0, positions: [], recent: true }));
    const rest = files
      .filter((path) => !recentRank.has(path))
      .sort((a, b) => a.localeCompare(b))
      .slice(0, Math.max(0, limit - first.length))
      .map((path) => ({ path, score: 0, positions: [], recent: false }));
    return [...first, ...rest].slice(0, limit);
  }

  const out: QuickOpenEntry[] = [];
  for (const path of files) {
    const m = fuzzyMatch(file, path);
    if (!m) continue;
    const rank = recentRank.get(path);
    let score = m.score;
    if (rank !== undefined) score += RECENT_BOOST * Math.max(0, 1 - rank / 10);
    if (NOT_TEXT.test(path)) score -= NOT_TEXT_PENALTY;
    out.push({ ...m, score, recent: rank !== undefined });
  }
  out.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  return out.slice(0, limit);
}
