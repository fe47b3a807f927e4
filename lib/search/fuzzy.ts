/**
 * Quick-open matching: every query character must appear in order in the path.
 * Scores favour matches in the file name, consecutive runs and word starts, like VS Code's Ctrl+P.
 */
export interface FuzzyMatch {
  path: string;
  score: number;
  /** Indices into `path` that matched, for highlighting. */
  positions: number[];
}

export function fuzzyMatch(query: string, path: string): FuzzyMatch | undefined {
  const q = query.replace(/\s+/g, "").toLowerCase();
  if (!q) return { path, score: 0, positions: [] };
  const lower = path.toLowerCase();
  const nameStart = path.lastIndexOf("/") + 1;
  const positions: number[] = [];
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const ch of q) {
    // Prefer the occurrence inside the file name when the rest can still match.
    let index = lower.indexOf(ch, Math.max(from, positions.length === 0 ? nameStart : from));
    if (index === -1 || !canFinish(lower, q.slice(positions.length + 1), index + 1)) index = lower.indexOf(ch, from);
    if (index === -1) return undefined;
    const atWordStart = index === 0 || "/._-".includes(path[index - 1]) || (path[index] !== lower[index] && path[index - 1] === lower[index - 1]);
    score += 1;
    if (index === previous + 1) score += 5;
    if (atWordStart) score += 3;
    if (index >= nameStart) score += 2;
    positions.push(index);
    previous = index;
    from = index + 1;
  }
  // A name that is the query (or starts with it) is what the user meant: sum → sum.ts before summary.md.
  const name = lower.slice(nameStart);
  const stem = name.replace(/\.[^.]*$/, "");
  if (stem === q || name === q) score += 6;
  else if (name.startsWith(q)) score += 3;
  score -= path.length * 0.01;
  return { path, score, positions };
}

function canFinish(lower: string, rest: string, from: number): boolean {
  let i = from;
  for (const ch of rest) {
    i = lower.indexOf(ch, i);
    if (i === -1) return false;
    i++;
  }
  return true;
}

export function fuzzyFilter(query: string, paths: string[], limit = 50): FuzzyMatch[] {
  const out: FuzzyMatch[] = [];
  for (const p of paths) {
    const m = fuzzyMatch(query, p);
    if (m) out.push(m);
  }
  out.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  return out.slice(0, limit);
}
