/**
 * `git status --porcelain -b -z` read into what a Source Control view shows: the branch and how
 * it stands against its upstream, then staged changes, changes, untracked files and conflicts.
 * The porcelain format is git's contract for tools (VS Code's git extension reads the same),
 * so the view shows exactly what `git status` in the terminal says, conflicts included.
 */

/** One letter of git's short status: M modified, A added, D deleted, R renamed, C copied, T type change, U unmerged. */
export type ChangeLetter = "M" | "A" | "D" | "R" | "C" | "T" | "U";

export type Change = { path: string; letter: ChangeLetter; from?: string };

/** An unmerged path and git's two-letter code for it (UU both modified, AA both added, DU deleted by us…). */
export type Conflict = { path: string; code: string };

export type BranchLine = {
  /** Branch name; undefined on a detached HEAD. */
  branch?: string;
  noCommits: boolean;
  upstream?: string;
  ahead: number;
  behind: number;
  /** The upstream is configured but its ref is gone (deleted on the server and pruned). */
  gone: boolean;
};

export type StatusSnapshot = BranchLine & {
  staged: Change[];
  unstaged: Change[];
  untracked: string[];
  conflicts: Conflict[];
};

const CONFLICT_CODES = new Set(["DD", "AU", "UD", "UA", "DU", "AA", "UU"]);

export function parseBranchLine(line: string): BranchLine {
  const out: BranchLine = { noCommits: false, ahead: 0, behind: 0, gone: false };
  const body = line.replace(/^## /, "");
  if (body.startsWith("No commits yet on ")) return { ...out, branch: body.slice("No commits yet on ".length), noCommits: true };
  if (body.startsWith("HEAD (no branch)")) return out;
  const m = /^(.*?)(?:\.\.\.(\S+))?(?: \[(.*)\])?$/.exec(body);
  if (!m) return { ...out, branch: body };
  out.branch = m[1]!;
  if (m[2]) out.upstream = m[2];
  for (const part of (m[3] ?? "").split(",").map((s) => s.trim())) {
    const n = /^(ahead|behind) (\d+)$/.exec(part);
    if (n) out[n[1] as "ahead" | "behind"] = Number(n[2]);
    else if (part === "gone") out.gone = true;
  }
  return out;
}

/** Parse `git status --porcelain -b -z` (v1). Ignored entries (`!!`) are dropped. */
export function parseStatusZ(text: string): StatusSnapshot {
  const tokens = text.split("\0");
  const snap: StatusSnapshot = { noCommits: false, ahead: 0, behind: 0, gone: false, staged: [], unstaged: [], untracked: [], conflicts: [] };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === "") continue;
    if (t.startsWith("## ")) {
      Object.assign(snap, parseBranchLine(t));
      continue;
    }
    const x = t[0]!;
    const y = t[1]!;
    const path = t.slice(3);
    if (x === "?" && y === "?") {
      snap.untracked.push(path);
      continue;
    }
    if (x === "!") continue;
    if (CONFLICT_CODES.has(x + y)) {
      snap.conflicts.push({ path, code: x + y });
      continue;
    }
    let from: string | undefined;
    if (x === "R" || x === "C") from = tokens[++i];
    if (x !== " ") snap.staged.push({ path, letter: x as ChangeLetter, ...(from !== undefined ? { from } : {}) });
    if (y !== " ") snap.unstaged.push({ path, letter: y as ChangeLetter });
  }
  return snap;
}
