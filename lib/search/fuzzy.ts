/**
 * Fuzzy matching for quick open and the command palette: every query character must appear in order
 * in the text (a subsequence), and among all the ways it can, the best-scoring alignment wins.
 *
 * Greedy matching (take the first occurrence of each character) scores a path by an accident of where
 * a letter happens to come first; here a small dynamic programme over (query char × text position)
 * finds the alignment that a person means: characters at the start of a path segment or a word
 * (`src/math/sum.ts` for `smts`), camelCase humps (`QuickOpen` for `qo`), runs of consecutive characters
 * (`printer-estree` for `printer-est`), and characters inside the file name rather than its folders.
 * The weights follow fzf's: a match is worth 16, a gap costs 3 to open and 1 per extra character, and a
 * run of consecutive matches keeps the bonus of the boundary it started on.
 */
export interface FuzzyMatch {
  path: string;
  score: number;
  /** Indices into `path` that matched, for highlighting. */
  positions: number[];
}

const MATCH = 16;
const GAP_START = 3;
const GAP_EXTEND = 1;
/** After `/`: the start of a path segment. */
const BONUS_SEGMENT = 10;
/** After `-`, `_`, `.` or a space: the start of a word. */
const BONUS_WORD = 8;
/** A capital after a lower-case letter, or a digit after a letter. */
const BONUS_CAMEL = 7;
/** The least a consecutive character earns, even in the middle of a word. */
const BONUS_CONSECUTIVE = 4;
/** Per character matched inside the file name (after the last `/`). */
const BONUS_BASENAME = 3;
/** The first query character's bonus counts this many times: where a match starts matters most. */
const FIRST_CHAR_WEIGHT = 2;
/** Longest text the full programme runs on; longer texts (rare for paths) are cut to their tail. */
const MAX_TEXT = 512;

const SEPARATORS = "/\\-_. :";

function isSeparator(ch: string): boolean {
  return SEPARATORS.includes(ch);
}

/** A query character matches itself case-insensitively; a query separator matches any separator. */
function charMatches(q: string, lowerText: string, j: number): boolean {
  const t = lowerText[j];
  return q === t || (isSeparator(q) && q !== "/" && isSeparator(t));
}

function kind(code: number): "lower" | "upper" | "digit" | "other" {
  if (code >= 97 && code <= 122) return "lower";
  if (code >= 65 && code <= 90) return "upper";
  if (code >= 48 && code <= 57) return "digit";
  return "other";
}

function boundaryBonus(text: string, j: number): number {
  if (j === 0) return BONUS_SEGMENT;
  const prev = text[j - 1];
  if (prev === "/" || prev === "\\") return BONUS_SEGMENT;
  if (isSeparator(prev)) return BONUS_WORD;
  const before = kind(text.charCodeAt(j - 1));
  const here = kind(text.charCodeAt(j));
  if (before === "lower" && here === "upper") return BONUS_CAMEL;
  if (here === "digit" && (before === "lower" || before === "upper")) return BONUS_CAMEL;
  return 0;
}

/** Normalise a query: whitespace is ignored, case is not significant. */
export function normaliseQuery(query: string): string {
  return query.replace(/\s+/g, "").toLowerCase();
}

/**
 * Where each query character can be matched at all: `earliest[i]` by matching greedily from the left,
 * `latest[i]` from the right. Every alignment lies between them, so the programme visits only that
 * band. Undefined when `q` is not a subsequence of `lower` (the cheap rejection of most paths).
 */
function band(q: string, lower: string): { earliest: Int32Array; latest: Int32Array } | undefined {
  const m = q.length;
  const earliest = new Int32Array(m);
  const latest = new Int32Array(m);
  let j = 0;
  for (let i = 0; i < m; i++) {
    while (j < lower.length && !charMatches(q[i], lower, j)) j++;
    if (j === lower.length) return undefined;
    earliest[i] = j++;
  }
  j = lower.length - 1;
  for (let i = m - 1; i >= 0; i--) {
    while (!charMatches(q[i], lower, j)) j--;
    latest[i] = j--;
  }
  return { earliest, latest };
}

const NONE = -1e9;

/**
 * The programme's tables, reused from call to call (quick open scores every path of the workspace
 * per keystroke; allocating three tables per path would dominate the time).
 * best[i*n+j]: the best score of q[0..i] with q[i] matched exactly at j.
 * runBonus[i*n+j]: the bonus a consecutive run through (i, j) carries on.
 * from[i*n+j]: where q[i-1] was matched on that best alignment (for the positions).
 */
let tables = { bonus: new Int32Array(256), best: new Float64Array(4096), runBonus: new Int32Array(4096), from: new Int32Array(4096) };
function scratch(m: number, n: number) {
  if (tables.bonus.length < n) tables.bonus = new Int32Array(n * 2);
  if (tables.best.length < m * n) {
    const size = m * n * 2;
    tables = { bonus: tables.bonus, best: new Float64Array(size), runBonus: new Int32Array(size), from: new Int32Array(size) };
  }
  return tables;
}

export function fuzzyMatch(query: string, path: string): FuzzyMatch | undefined {
  const q = normaliseQuery(query);
  if (!q) return { path, score: 0, positions: [] };
  const offset = Math.max(0, path.length - MAX_TEXT);
  const text = offset ? path.slice(offset) : path;
  const lower = text.toLowerCase();
  if (q.length > text.length) return undefined;
  const range = band(q, lower);
  if (!range) return undefined;
  const { earliest, latest } = range;

  const m = q.length;
  const n = text.length;
  const nameStart = text.lastIndexOf("/") + 1;
  const typed = query.replace(/\s+/g, "");
  const { bonus, best, runBonus, from } = scratch(m, n);
  for (let j = earliest[0]; j < n; j++) bonus[j] = boundaryBonus(text, j);
  best.fill(NONE, 0, m * n);
  from.fill(-1, 0, m * n);

  for (let i = 0; i < m; i++) {
    // The best score of q[0..i-1] ending before j-1, with the gap to j already charged.
    let gapBest = NONE;
    let gapFrom = -1;
    // Start where the previous character could first match, so the gap maximum sees all of its row.
    const last = latest[i];
    for (let j = i === 0 ? earliest[0] : earliest[i - 1] + 1; j <= last; j++) {
      if (i > 0 && j >= 2) {
        const k = j - 2; // a candidate for q[i-1] that leaves a gap of one before j
        const opened = best[(i - 1) * n + k] - GAP_START;
        const extended = gapBest - GAP_EXTEND;
        if (opened >= extended) {
          gapBest = opened;
          gapFrom = k;
        } else gapBest = extended;
      }
      if (j < earliest[i] || !charMatches(q[i], lower, j)) continue;
      const basename = j >= nameStart ? BONUS_BASENAME : 0;
      const caseBonus = text[j] === typed[i] ? 1 : 0;
      const cell = i * n + j;
      if (i === 0) {
        best[cell] = MATCH + bonus[j] * FIRST_CHAR_WEIGHT + basename + caseBonus;
        runBonus[cell] = bonus[j];
        continue;
      }
      let score = NONE;
      const diag = (i - 1) * n + j - 1;
      if (j >= 1 && best[diag] > NONE) {
        const carried = Math.max(runBonus[diag], bonus[j], BONUS_CONSECUTIVE);
        score = best[diag] + MATCH + carried + basename + caseBonus;
        runBonus[cell] = carried;
        from[cell] = j - 1;
      }
      if (gapBest > NONE) {
        const viaGap = gapBest + MATCH + bonus[j] + basename + caseBonus;
        if (viaGap > score) {
          score = viaGap;
          runBonus[cell] = bonus[j];
          from[cell] = gapFrom;
        }
      }
      best[cell] = score;
    }
  }

  let end = -1;
  let top = NONE;
  for (let j = earliest[m - 1]; j <= latest[m - 1]; j++) {
    const s = best[(m - 1) * n + j];
    if (s > top) {
      top = s;
      end = j;
    }
  }
  if (end < 0 || top <= NONE) return undefined;
  const positions = new Array<number>(m);
  for (let i = m - 1, j = end; i >= 0; i--) {
    positions[i] = j + offset;
    j = from[i * n + j];
  }

  // A file name that is the query (or starts with it) is what the user meant: sum → sum.ts before summary.md.
  const name = lower.slice(nameStart);
  const stem = name.replace(/\.[^.]*$/, "");
  let score = top;
  if (stem === q || name === q) score += 2 * MATCH;
  else if (name.startsWith(q)) score += MATCH;
  // Among equals, the shorter path (fewer unmatched characters) first.
  score -= (n - m) * 0.05;
  return { path, score, positions };
}

export function fuzzyFilter(query: string, paths: readonly string[], limit = 50): FuzzyMatch[] {
  const out: FuzzyMatch[] = [];
  for (const p of paths) {
    const m = fuzzyMatch(query, p);
    if (m) out.push(m);
  }
  out.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  return out.slice(0, limit);
}
