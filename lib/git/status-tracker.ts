/**
 * Git status kept current from the working-tree paths that changed, instead of a walk of the
 * whole tree for every question (seconds of reads on a 10,000-file repository, after a save
 * of one file, or for `git status` in the terminal).
 *
 * Which paths changed: every mutation of a workspace goes through its worktree stamp
 * (lib/fs/worktree-stamp.ts), which logs the paths — the editor, the shell, programs run in
 * the tab, isomorphic-git's checkouts alike. A pass walks only the paths logged since the last
 * pass (`statusOf`) and replaces what the last answer said at and below them. Without a stamp
 * (an fs that is not a workspace's), the caller's `changed` paths are used, and without those a
 * pass walks everything.
 *
 * A pass is a full walk whenever something may have changed status elsewhere: no earlier
 * answer; the stamp's log no longer reaches back, or another fs object wrote the stamp (another
 * tab); a mutation was still running when the last pass began; a `.gitignore` changed; or the
 * repository's basis moved — HEAD (its name or its commit), the index (its stat, and its
 * checksum while it is young: a `git add` can leave size and time alike), `.git/config` or
 * `.git/info/exclude`. The basis
 * is read before and after an incremental pass, which never writes the index itself: a change
 * made by someone else while it ran throws its answer away and walks everything.
 */
import git from "isomorphic-git";
import { RACY_MARGIN_MS } from "../fs/racy-margin";
import type { IsoFs } from "../fs/types";
import { worktreeStampOf } from "../fs/worktree-stamp";
import { compareStatusEntries, statusAll, statusOf, type StatusEntry } from "./status";
import { gitArgs, repoPath } from "./types";

export type StatusPass = {
  entries: StatusEntry[];
  /** The whole tree was walked (not only the changed paths). */
  full: boolean;
  /** The paths walked, when not the whole tree. */
  paths?: string[];
};

export type StatusUpdateOptions = {
  /** Working-tree paths known to have changed since the last pass (added to the stamp's). */
  changed?: readonly string[];
  /** A reader tab: a full walk does not refresh .git/index's stat cache. */
  readOnly?: boolean;
};

export class StatusTracker {
  private entries: StatusEntry[] | undefined;
  private basis: Basis | undefined;
  /** The stamp's log position the entries reflect (undefined: unknown, walk next time). */
  private seenSeq: number | undefined;
  private seenForeign = -1;
  private queue: Promise<unknown> = Promise.resolve();
  /** isomorphic-git's cache (the parsed index, pack objects), used by incremental passes only
   * while the basis is unchanged: its own staleness check is by stat alone, which two writes
   * of the index in one millisecond defeat. A full walk starts a new one. */
  private gitCache: object = {};

  constructor(
    readonly fs: IsoFs,
    readonly dir: string,
  ) {}

  /** The next pass walks everything. */
  invalidate(): void {
    this.entries = undefined;
    this.basis = undefined;
    this.seenSeq = undefined;
  }

  /** Status now (one pass at a time; the answer is the caller's to keep, not to change). */
  update(opts: StatusUpdateOptions = {}): Promise<StatusPass> {
    const run = this.queue.catch(() => undefined).then(() => this.pass(opts));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async pass(opts: StatusUpdateOptions): Promise<StatusPass> {
    const stamp = worktreeStampOf(this.fs);
    const view = stamp ? await stamp.view() : undefined;
    // Advance past the log only when no mutation was running as the pass began: one still
    // running may change its path after this pass has looked at it.
    const nextSeq = view && view.inflight === 0 ? view.seq : this.seenSeq;
    let paths: string[] | undefined;
    if (this.entries !== undefined) {
      if (stamp && view) {
        const touched = this.seenSeq !== undefined && view.foreign === this.seenForeign ? stamp.touchedSince(this.seenSeq) : undefined;
        if (touched) paths = narrowest([...touched, ...(opts.changed ?? [])]);
      } else if (opts.changed) paths = narrowest(opts.changed);
    }
    if (paths !== undefined && !paths.some(isIgnoreFile)) {
      const before = await this.basisNow();
      if (await this.sameBasis(this.basis, before)) {
        if (paths.length === 0) {
          this.seenSeq = nextSeq;
          return { entries: this.entries!.slice(), full: false, paths };
        }
        const fresh = await statusOf({ fs: this.fs, dir: this.dir, cache: this.gitCache }, paths);
        if (await this.sameBasis(this.basis, await this.basisNow())) {
          const kept = this.entries!.filter((e) => !paths!.some((p) => isSameOrInside(e.path, p)));
          this.entries = [...kept, ...fresh].sort(compareStatusEntries);
          this.seenSeq = nextSeq;
          return { entries: this.entries.slice(), full: false, paths };
        }
      }
    }
    this.invalidate();
    this.gitCache = {};
    markLatest("tabula:status-walk-start");
    const entries = await statusAll({ fs: this.fs, dir: this.dir, cache: this.gitCache, readOnly: opts.readOnly }).finally(() => markLatest("tabula:status-walk-end"));
    // Read after the walk: the walk's own refresh of the index's stat cache is part of it.
    this.basis = await this.basisNow();
    this.entries = entries;
    this.seenSeq = nextSeq;
    this.seenForeign = view?.foreign ?? -1;
    return { entries: entries.slice(), full: true };
  }

  /** What status depends on besides the working tree. */
  private async basisNow(): Promise<Basis> {
    const args = gitArgs({ fs: this.fs, dir: this.dir });
    const head = await git.resolveRef({ ...args, ref: "HEAD", depth: 1 }).catch(() => "");
    const commit = await git.resolveRef({ ...args, ref: "HEAD" }).catch(() => "");
    const at = Date.now();
    const statOf = async (rel: string) => await this.fs.promises.lstat(`${this.gitdir}/${rel}`).catch(() => null);
    const key = (st: Awaited<ReturnType<typeof statOf>>) => (st ? `${st.size}:${st.mtimeMs}:${st.ino ?? ""}` : "-");
    const index = await statOf("index");
    const basis: Basis = { refs: [head, commit, key(await statOf("config")), key(await statOf("info/exclude"))].join(" "), index: key(index) };
    // An index young enough that a second write could leave its size and time alike (git's
    // racy rule) is known by its checksum too; reading 1 MB costs tens of milliseconds.
    if (index && index.mtimeMs + RACY_MARGIN_MS >= at) basis.checksum = await this.indexChecksum();
    return basis;
  }

  private async sameBasis(known: Basis | undefined, now: Basis): Promise<boolean> {
    if (!known || known.refs !== now.refs || known.index !== now.index) return false;
    if (known.checksum === undefined) return true;
    return known.checksum === (now.checksum ?? (await this.indexChecksum()));
  }

  private async indexChecksum(): Promise<string> {
    const bytes = (await this.fs.promises.readFile(`${this.gitdir}/index`).catch(() => null)) as Uint8Array | null;
    return bytes ? `${bytes.length}:${hex(bytes.subarray(Math.max(0, bytes.length - 20)))}` : "-";
  }

  private get gitdir(): string {
    return `${this.dir === "/" ? "" : this.dir}/.git`;
  }
}

type Basis = { refs: string; index: string; checksum?: string };

/** A performance mark of the latest walk of the whole tree (benchmarks and tests read it). */
function markLatest(name: string): void {
  if (typeof performance?.mark !== "function") return;
  performance.clearMarks(name);
  performance.mark(name);
}

const trackers = new WeakMap<IsoFs, Map<string, StatusTracker>>();

/**
 * The one tracker for a workspace's fs object and directory: the workbench's colours and the
 * terminal's `git status` share it (and each other's walks).
 */
export function statusTrackerFor(fs: IsoFs, dir: string): StatusTracker {
  let byDir = trackers.get(fs);
  if (!byDir) trackers.set(fs, (byDir = new Map()));
  let tracker = byDir.get(dir);
  if (!tracker) byDir.set(dir, (tracker = new StatusTracker(fs, dir)));
  return tracker;
}

/** Workspace-relative paths, without those inside another one given (its walk covers them). */
function narrowest(changed: readonly string[]): string[] {
  const paths = [...new Set(changed.map((p) => repoPath(p)))].sort();
  const out: string[] = [];
  for (const p of paths) if (!out.some((o) => isSameOrInside(p, o))) out.push(p);
  return out;
}

function isSameOrInside(rel: string, base: string): boolean {
  return base === "" || rel === base || rel.startsWith(base + "/");
}

function isIgnoreFile(rel: string): boolean {
  return rel === ".gitignore" || rel.endsWith("/.gitignore") || rel === ".git" || rel.startsWith(".git/");
}

function hex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}
