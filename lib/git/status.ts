/**
 * Working-tree status, shaped like `git status --porcelain -uall`.
 *
 * This is git.statusMatrix's walk (HEAD tree × working directory × index, same per-entry
 * logic) run through git.walk directly, for three reasons: untracked paths are checked with
 * the memoised IgnoreRules instead of isomorphic-git's per-path re-reading of every .gitignore;
 * ignored untracked directories are pruned (git.statusMatrix descends into them unless its
 * per-path check happens to reject the directory itself); and file-mode changes are reported
 * (statusMatrix compares blob ids only, native git also reports a changed executable bit).
 */
import git, { type WalkerEntry } from "isomorphic-git";
import { timeSlicer } from "../scheduling/time-slice";
import { IgnoreRules } from "./ignore";
import { hasUnmergedEntries } from "./index-scan";
import { compareStrings, gitArgs, repoPath, type GitRepo } from "./types";

export type StatusEntry = {
  path: string;
  /** X of porcelain XY: the index compared with HEAD ("?" for untracked). */
  index: " " | "M" | "A" | "D" | "?";
  /** Y of porcelain XY: the working tree compared with the index ("?" for untracked). */
  worktree: " " | "M" | "D" | "?";
};

export type FileStatus = "unmodified" | "modified" | "added" | "deleted" | "untracked" | "ignored" | "absent";

type Side = { oid: string; mode: number };

/** One path with a blob in at least one of HEAD, index, working tree. */
type Row = {
  path: string;
  head?: Side;
  stage?: Side;
  /** Present when the working tree has a file there; `oid` only when compared with the index. */
  work?: { oid?: string; mode: number; ignored: boolean };
};

type WalkOptions = {
  /** Limit to these workspace-relative paths (files or directories). */
  filepaths?: string[];
  /** Also return rows for files that are unchanged. */
  includeClean?: boolean;
  /** Skip hashing: only find untracked/ignored paths. */
  untrackedOnly?: boolean;
  /** Update the index's stat cache for files whose content turned out unchanged (default:
   * true like git status, false for a readOnly repo). */
  refresh?: boolean;
};

type WalkResult = { rows: Row[]; ignored: string[]; filemode: boolean };

const TRACKED_ORDER = 0;
const UNTRACKED_ORDER = 1;

async function walkStatus(repo: GitRepo, opts: WalkOptions = {}): Promise<WalkResult> {
  const args = gitArgs(repo);
  const rules = new IgnoreRules(repo);
  // git's default is true (native repos); isomorphic-git's init writes false.
  const filemode = (await git.getConfig({ ...args, path: "core.filemode" }).catch(() => undefined)) !== false;
  const bases = (opts.filepaths ?? []).map(repoPath);
  const ignored: string[] = [];
  // The page keeps rendering and taking input while a big tree is walked.
  const slicer = timeSlicer();
  // isomorphic-git's stat-cache refresh would write a stage-0 entry over a conflicted path.
  const refresh = (opts.refresh ?? !repo.readOnly) && !(await hasUnmergedEntries(repo.fs, `${repo.dir === "/" ? "" : repo.dir}/.git`));
  const rows = (await git.walk({
    ...args,
    trees: [git.TREE({ ref: "HEAD" }), git.WORKDIR({ refresh }), git.STAGE()],
    map: async (filepath: string, [head, work, stage]: (WalkerEntry | null)[]) => {
      await slicer.maybeYield();
      if (filepath === ".") return undefined;
      if (filepath === ".git" || filepath.endsWith("/.git")) return null;
      if (bases.length > 0 && !bases.some((b) => worthWalking(filepath, b))) return null;

      const [ht, wt, st] = await Promise.all([head?.type(), work?.type(), stage?.type()]);
      // Submodules (gitlinks) are not ours to report.
      if (ht === "commit" || st === "commit") return null;

      if (!head && !stage && work) {
        await rules.prepare(filepath);
        if (rules.test(filepath, wt === "tree")) {
          ignored.push(wt === "tree" ? filepath + "/" : filepath);
          return null; // nothing below an ignored directory can be re-included
        }
      }
      const hb = ht === "blob";
      const wb = wt === "blob";
      const sb = st === "blob";
      if (!hb && !wb && !sb) return undefined; // a directory: keep walking
      if (bases.length > 0 && !bases.some((b) => isSameOrInside(filepath, b))) return undefined;
      if (opts.untrackedOnly) return undefined;

      const row: Row = { path: filepath };
      if (hb) row.head = { oid: await head!.oid(), mode: await head!.mode() };
      if (sb) row.stage = { oid: await stage!.oid(), mode: await stage!.mode() };
      if (wb) {
        // Hash the working file only when there is an index entry to compare with; the
        // index's stat cache usually answers without reading the file.
        const oid = sb ? await work!.oid() : undefined;
        let isIgnoredFile = false;
        if (!sb) {
          await rules.prepare(filepath);
          isIgnoredFile = rules.test(filepath, false);
        }
        row.work = { mode: await work!.mode(), ignored: isIgnoredFile };
        if (oid !== undefined) row.work.oid = oid;
      }
      if (!opts.includeClean && toEntries(row, filemode).length === 0) return undefined;
      return row;
    },
  })) as Row[] | undefined;
  return { rows: rows ?? [], ignored, filemode };
}

function worthWalking(filepath: string, base: string): boolean {
  return base === "" || isSameOrInside(filepath, base) || isSameOrInside(base, filepath);
}

function isSameOrInside(rel: string, base: string): boolean {
  return base === "" || rel === base || rel.startsWith(base + "/");
}

/** Porcelain entries for one row; ignored untracked files yield none. */
function toEntries(row: Row, filemode: boolean): StatusEntry[] {
  const { path, head, stage, work } = row;
  const out: StatusEntry[] = [];
  if (!stage) {
    // Not in the index: deleted from it (if HEAD has it) and/or untracked.
    if (head) out.push({ path, index: "D", worktree: " " });
    if (work && !work.ignored) out.push({ path, index: "?", worktree: "?" });
    return out;
  }
  const index: StatusEntry["index"] = !head ? "A" : head.oid !== stage.oid || head.mode !== stage.mode ? "M" : " ";
  const worktree: StatusEntry["worktree"] = !work
    ? "D"
    : work.oid !== stage.oid || (filemode && work.mode !== stage.mode)
      ? "M"
      : " ";
  if (index !== " " || worktree !== " ") out.push({ path, index, worktree });
  return out;
}

function order(e: StatusEntry): number {
  return e.index === "?" ? UNTRACKED_ORDER : TRACKED_ORDER;
}

/**
 * Every changed path, like `git status --porcelain -uall`: tracked changes first, then
 * untracked files one by one, each group sorted by path; ignored files omitted. A path
 * deleted from the index but present on disk appears twice ("D " and "??"), as in git.
 */
export async function statusAll(repo: GitRepo, opts: { refresh?: boolean } = {}): Promise<StatusEntry[]> {
  // refresh defaults to !repo.readOnly: a reader tab must not rewrite .git/index.
  const { rows, filemode } = await walkStatus(repo, { refresh: opts.refresh });
  const entries = rows.flatMap((r) => toEntries(r, filemode));
  return entries.sort(compareStatusEntries);
}

/** statusAll's order: tracked changes first, then untracked, each by path. */
export function compareStatusEntries(a: StatusEntry, b: StatusEntry): number {
  return order(a) - order(b) || compareStrings(a.path, b.path);
}

/**
 * statusAll's entries at `paths` (files or directories, workspace-relative) and below them
 * only: the walk visits nothing else. Never rewrites .git/index (no stat-cache refresh), so a
 * caller can tell its own pass from someone else's change of the index.
 */
export async function statusOf(repo: GitRepo, paths: readonly string[]): Promise<StatusEntry[]> {
  if (paths.length === 0) return [];
  const { rows, filemode } = await walkStatus(repo, { filepaths: [...paths], refresh: false });
  return rows.flatMap((r) => toEntries(r, filemode)).sort(compareStatusEntries);
}

/** A single-word status for one file, for badges in the file tree and editor tabs. */
export async function fileStatus(repo: GitRepo, path: string): Promise<FileStatus> {
  const rel = repoPath(path);
  if (rel === "") return "absent";
  const { rows, ignored, filemode } = await walkStatus(repo, { filepaths: [rel], includeClean: true, refresh: false });
  const row = rows.find((r) => r.path === rel);
  if (!row) {
    if (ignored.some((p) => p === rel || p === rel + "/" || (p.endsWith("/") && rel.startsWith(p)))) return "ignored";
    return "absent";
  }
  const { head, stage, work } = row;
  if (!stage) {
    // Removed from the index but still on disk: git lists it as deleted and untracked.
    if (work && !work.ignored) return "untracked";
    return head ? "deleted" : "absent";
  }
  if (!work) return "deleted";
  if (!head) return "added";
  return toEntries(row, filemode).length === 0 ? "unmodified" : "modified";
}

/**
 * Untracked paths that the ignore rules exclude, like the "!!" lines of
 * `git status --porcelain --ignored`: a wholly ignored directory is one entry ending in "/".
 */
export async function ignoredPaths(repo: GitRepo): Promise<string[]> {
  const { ignored } = await walkStatus(repo, { untrackedOnly: true, refresh: false });
  return ignored.sort(compareStrings);
}
