/**
 * The Source Control view's history: commits as `git log` lists them (newest first, all
 * branches or one), each with the lanes of a commit graph — which column its dot is in and
 * which lines pass through, join or leave that row — as VS Code's and GitHub Desktop's graphs
 * draw them. Pure: the records come from the terminal's git (source-control.ts).
 */

export type HistoryCommit = { oid: string; parents: string[]; author: string; time: number; subject: string; refs: string[] };

export type GraphRow = HistoryCommit & {
  /** Column of this commit's dot. */
  column: number;
  /** The lanes entering the row from above (an oid each lane waits for, or null for a free column). */
  before: (string | null)[];
  /** The lanes leaving the row downwards. */
  after: (string | null)[];
};

/** The `--format` the records are read with: fields split by NUL, records by RS (0x1e). */
export const HISTORY_FORMAT = "%H%x00%P%x00%an%x00%at%x00%D%x00%s%x1e";

export function parseHistory(text: string): HistoryCommit[] {
  return text
    .split("\x1e")
    .map((r) => r.replace(/^\n/, ""))
    .filter((r) => r.length > 0)
    .map((r) => {
      const [oid = "", parents = "", author = "", time = "0", refs = "", subject = ""] = r.split("\0");
      return { oid, parents: parents ? parents.split(" ") : [], author, time: Number(time), subject, refs: refs ? refs.split(", ").filter(Boolean) : [] };
    });
}

/** Lay the commits out in lanes (the order is kept: `git log`'s, children before parents). */
export function layoutGraph(commits: HistoryCommit[]): GraphRow[] {
  let lanes: (string | null)[] = [];
  const rows: GraphRow[] = [];
  for (const c of commits) {
    const before = [...lanes];
    let column = lanes.indexOf(c.oid);
    if (column === -1) {
      column = lanes.indexOf(null);
      if (column === -1) column = lanes.length;
    }
    const next = [...lanes];
    // Every lane that waited for this commit ends here (branches merging into it).
    for (let i = 0; i < next.length; i++) if (next[i] === c.oid) next[i] = null;
    next[column] = c.parents[0] ?? null;
    for (const p of c.parents.slice(1)) {
      if (next.includes(p)) continue;
      const free = next.indexOf(null);
      if (free === -1) next.push(p);
      else next[free] = p;
    }
    while (next.length > 0 && next[next.length - 1] === null) next.pop();
    rows.push({ ...c, column, before: column >= before.length ? [...before, ...Array(column + 1 - before.length).fill(null)] : before, after: next });
    lanes = next;
  }
  return rows;
}
