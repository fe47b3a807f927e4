/**
 * The worktree stamp: a durable note, in `.git/tabula/worktree-stamp`, of how the working tree
 * may differ from the checkpoint engine's last persisted snapshot (its cache file). It lets
 * the first checkpoint after a page load look only at the paths written since, instead of a
 * stat walk of the whole tree, without ever trusting a snapshot that a write made stale.
 *
 * The stamp reads `{ cache, root, paths }`: "the working tree is the snapshot persisted as
 * cache file `cache` (root tree `root`), except possibly at `paths` (each meaning: this path and
 * everything below it)". `{ dirty: true }`, a missing or unreadable file: nothing is known.
 *
 * How it stays true: every mutation of the working tree goes through `withWorktreeStamp(fs)`,
 * the fs object every writer of a workspace shares (WorkspaceFs, isomorphic-git, restore,
 * import, runtimes all get `wsfs.fs`). Before a mutation touches a path the stamp does not
 * list yet, the path is added to the file (flushed on lightning-fs) and only then is the
 * mutation run — so a crash or a reload can never find a write the stamp does not name. Paths
 * already listed cost nothing. Past MAX_PATHS the stamp says `dirty` (a walk follows a
 * reload). The engine replaces the stamp only after it persisted a new snapshot, and only if
 * no mutation started since its scan began (`stampClean`).
 *
 * Not covered (they would need `journal.markUnknown()` in-session and leave a wrong stamp):
 * writes through another fs object over the same storage that bypasses this wrapper — e.g.
 * a second LightningFS instance on the same IndexedDB that is not a workspace's, or tools
 * outside the app changing the files (node:fs directly). Tabs are coordinated (one writer);
 * a stamp changed behind this instance (another tab, the repository put back) is noticed by
 * its stat key before the next mutation and read again.
 */
import { codedError, type IsoFs, type IsoFsPromises, type IsoFsStat } from "./types";
import { passListing } from "./listing";

export const WORKTREE_STAMP_FILE = ".git/tabula/worktree-stamp";
/** Beyond this many listed paths a reload walks anyway; listing more would cost more than it saves. */
export const MAX_STAMP_PATHS = 2_000;
/** In-memory log of mutated paths kept for the engine's in-session scans. */
const LOG_CAPACITY = 20_000;

export type StampKnown = { cache: string; root: string; paths: Set<string> };

type StampFile = { v: 1; cache: string; root: string; paths: string[] } | { v: 1; dirty: true };

/** What the engine reads at the start of a scan: pass it back to stampClean. */
export type StampView = {
  /** The stamp's claim, if it makes one (a copy). */
  known: { cache: string; root: string; paths: string[] } | null;
  mutations: number;
  inflight: number;
  /** Log position: `touchedSince(seq)` answers from here. */
  seq: number;
  /** How often the file was found changed behind this instance (another fs object wrote it:
   * its writes are in no log here, so a scan must walk). */
  foreign: number;
};

const STAMP = Symbol.for("tabula.worktreeStamp");
/** The marker in WorkspaceFs's temp-file names (scans skip such names too). */
const TRANSIENT = ".tabula-tmp-";

export function worktreeStampOf(fs: IsoFs): WorktreeStamp | undefined {
  return (fs as { [STAMP]?: WorktreeStamp })[STAMP];
}

function isLightning(fs: IsoFs): boolean {
  return typeof fs.promises.flush === "function";
}

export class WorktreeStamp {
  readonly file: string;
  private known: StampKnown | null = null;
  /** Whether the file is known to say `dirty` (or be absent): nothing more to write. */
  private fileDirty = false;
  private loaded = false;
  /** Stat key of the file as last read or written by this instance. */
  private fileKey = "";
  private lock: Promise<unknown> = Promise.resolve();
  private mutationCount = 0;
  private inflightCount = 0;
  private readonly log: { seq: number; paths: string[] }[] = [];
  private logSeq = 0;
  private logFrom = 0;
  private foreignCount = 0;

  constructor(
    /** The raw fs (the stamp's own writes must not go through the wrapper). */
    readonly fs: IsoFs,
    /** Absolute workspace root. */
    readonly dir: string,
  ) {
    this.file = joinAbs(dir, WORKTREE_STAMP_FILE);
  }

  get mutations(): number {
    return this.mutationCount;
  }

  /** Mutations begun and not yet ended. */
  get inflight(): number {
    return this.inflightCount;
  }

  /** Workspace-relative path of `abs`, or null when it is outside the working tree (or in .git). */
  relOf(abs: string): string | null {
    const root = this.dir === "/" ? "" : this.dir;
    if (abs !== root && !abs.startsWith(root + "/")) return null;
    const rel = abs.slice(root.length + 1).replace(/\/+$/, "");
    if (rel === "") return null;
    const first = rel.split("/", 1)[0]!;
    if (first.toLowerCase() === ".git") return null;
    return rel;
  }

  /**
   * Run `op`, a mutation of the working-tree paths `rels`, after the stamp names them.
   * `rels` empty: the mutation cannot change a tree git would record (mkdir/rmdir of an
   * ordinary directory), but it is still counted so stampClean knows something ran.
   */
  async mutate<T>(rels: string[], op: () => Promise<T>): Promise<T> {
    await this.serialized(async () => {
      this.mutationCount++;
      this.inflightCount++;
      try {
        await this.coverNow(rels);
      } catch (err) {
        this.inflightCount--;
        throw err;
      }
    });
    try {
      return await op();
    } finally {
      this.inflightCount--;
    }
  }

  /** Name `rels` in the stamp ahead of many mutations (a restore), in one write. */
  async cover(rels: string[]): Promise<void> {
    await this.serialized(() => this.coverNow(rels));
  }

  /** Paths mutated after log position `seq`; undefined when the log no longer reaches back. */
  touchedSince(seq: number): Set<string> | undefined {
    if (seq < this.logFrom || seq > this.logSeq) return undefined;
    const out = new Set<string>();
    for (const e of this.log) if (e.seq > seq) for (const p of e.paths) out.add(p);
    return out;
  }

  /** The stamp's claim (read from the file if this instance has not yet), and the counters. */
  async view(): Promise<StampView> {
    return this.serialized(async () => {
      await this.ensureLoaded();
      await this.checkFileUnchanged();
      const k = this.known;
      return {
        known: k ? { cache: k.cache, root: k.root, paths: [...k.paths] } : null,
        mutations: this.mutationCount,
        inflight: this.inflightCount,
        seq: this.logSeq,
        foreign: this.foreignCount,
      };
    });
  }

  /**
   * The engine persisted a snapshot (`cache`, `root`) of the working tree as it was when its
   * scan began (`since`). Every mutation that started after that has its paths in the log,
   * so the new stamp lists them. Refused (false, the stamp unchanged) when a mutation was
   * already running at `since` (its effect may or may not be in the snapshot) or the log
   * no longer reaches back.
   */
  async stampClean(since: StampView, cache: string, root: string): Promise<boolean> {
    return this.serialized(async () => {
      if (since.inflight !== 0) return false;
      const paths = this.touchedSince(since.seq);
      if (!paths || paths.size > MAX_STAMP_PATHS) return false;
      this.known = null;
      this.fileDirty = false;
      await this.write({ v: 1, cache, root, paths: [...paths] });
      this.known = { cache, root, paths };
      return true;
    });
  }

  // ---- internals --------------------------------------------------------------------------

  private async serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.lock.catch(() => undefined).then(task);
    this.lock = run.catch(() => undefined);
    return run;
  }

  private async coverNow(rels: string[]): Promise<void> {
    if (rels.length > 0) this.appendLog(rels);
    await this.ensureLoaded();
    await this.checkFileUnchanged();
    const k = this.known;
    if (!k) {
      if (!this.fileDirty) await this.markDirty();
      return;
    }
    const fresh = rels.filter((r) => !covered(k.paths, r));
    if (fresh.length === 0) return;
    if (k.paths.size + fresh.length > MAX_STAMP_PATHS) {
      await this.markDirty();
      return;
    }
    const next = new Set(k.paths);
    for (const r of fresh) next.add(r);
    try {
      await this.write({ v: 1, cache: k.cache, root: k.root, paths: [...next] });
      this.known = { cache: k.cache, root: k.root, paths: next };
    } catch (err) {
      // The file may or may not hold the new list: it must not be trusted either way.
      this.known = null;
      this.fileDirty = false;
      throw err;
    }
  }

  private async markDirty(): Promise<void> {
    this.known = null;
    this.fileDirty = false;
    await this.write({ v: 1, dirty: true });
    this.fileDirty = true;
  }

  private appendLog(rels: string[]): void {
    this.log.push({ seq: ++this.logSeq, paths: rels });
    if (this.log.length > LOG_CAPACITY) this.logFrom = this.log.shift()!.seq;
  }

  private async ensureLoaded(): Promise<void> {
    if (this.loaded) return;
    await this.load();
    this.loaded = true;
  }

  /** Another tab or a put-back repository replaced the file: read it again before relying on memory. */
  private async checkFileUnchanged(): Promise<void> {
    const key = statKey(await this.lstat());
    if (key === this.fileKey) return;
    this.foreignCount++;
    await this.load();
  }

  private async load(): Promise<void> {
    const st = await this.lstat();
    this.fileKey = statKey(st);
    this.known = null;
    this.fileDirty = st === null;
    if (!st) return;
    try {
      const raw = await this.fs.promises.readFile(this.file);
      const data = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw)) as StampFile;
      if (data.v !== 1) return;
      if ("dirty" in data) {
        this.fileDirty = true;
        return;
      }
      if (typeof data.cache === "string" && typeof data.root === "string" && Array.isArray(data.paths) && data.paths.every((p) => typeof p === "string")) {
        this.known = { cache: data.cache, root: data.root, paths: new Set(data.paths) };
      }
    } catch {
      // unreadable: claims nothing (and the next mutation writes `dirty` over it)
    }
  }

  private async write(data: StampFile): Promise<void> {
    const p = this.fs.promises;
    const text = JSON.stringify(data);
    await mkdirp(this.fs, this.file.slice(0, this.file.lastIndexOf("/")));
    if (isLightning(this.fs)) {
      // lightning-fs puts a file's bytes into IndexedDB at once (an existing file keeps its
      // inode) and saves its file tree later; IndexedDB commits in order, so the stamp's bytes
      // are stored before those of the mutation that follows. A new stamp file exists only
      // once the tree is saved: flush then (once per workspace).
      const existed = (await this.lstat()) !== null;
      await p.writeFile(this.file, text);
      if (!existed) await p.flush!();
    } else {
      const tmp = `${this.file}.tmp-${Math.random().toString(36).slice(2, 10)}`;
      try {
        await p.writeFile(tmp, text);
        await p.rename(tmp, this.file);
      } catch (err) {
        await p.unlink(tmp).catch(() => undefined);
        throw err;
      }
    }
    this.fileKey = statKey(await this.lstat());
  }

  private async lstat(): Promise<IsoFsStat | null> {
    try {
      return await this.fs.promises.lstat(this.file);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }
}

/** `rel` is `p` or below some listed `p`. */
export function covered(paths: Set<string>, rel: string): boolean {
  if (paths.has(rel)) return true;
  for (let i = rel.indexOf("/"); i !== -1; i = rel.indexOf("/", i + 1)) if (paths.has(rel.slice(0, i))) return true;
  return false;
}

/**
 * `fs` with every mutation of the working tree under `dir` announced to a WorktreeStamp
 * first. The result is what every writer of the workspace must use (the stamp is found on it
 * with worktreeStampOf). Reads pass straight through.
 */
export function withWorktreeStamp(fs: IsoFs, dir: string): IsoFs {
  if (worktreeStampOf(fs)) return fs;
  const root = dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
  // One wrapper (one stamp) per fs object and workspace: two would each trust their own memory.
  let byDir = wrapped.get(fs);
  if (!byDir) wrapped.set(fs, (byDir = new Map()));
  const known = byDir.get(root);
  if (known) return known;
  const made = wrap(fs, root);
  byDir.set(root, made);
  return made;
}

const wrapped = new WeakMap<IsoFs, Map<string, IsoFs>>();

function wrap(fs: IsoFs, dir: string): IsoFs {
  const stamp = new WorktreeStamp(fs, dir);
  const raw = fs.promises;
  /** The worktree paths a call touches, or null when it touches none (outside `dir`, in .git). */
  const one = (abs: string): string[] | null => {
    const rel = stamp.relOf(abs);
    if (rel === null) return null;
    // WorkspaceFs's save temp files: no scan records them (their rename names the target), and
    // listing each one's random name would cost a stamp write per save.
    return rel.slice(rel.lastIndexOf("/") + 1).includes(TRANSIENT) ? [] : [rel];
  };
  /** mkdir/rmdir change no tree git records (git has no empty directories), except when they
   * make or unmake a nested repository: then its parent is what changed. */
  const dirOp = (abs: string): string[] | null => {
    const rel = stamp.relOf(abs);
    if (rel === null) return null;
    // anything in a nested `.git` (git's test for a repository looks at HEAD, objects/, refs/)
    const parts = rel.split("/");
    const gi = parts.findIndex((part, i) => i > 0 && part.toLowerCase() === ".git");
    return gi > 0 ? [parts.slice(0, gi).join("/")] : [];
  };
  const guarded =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>, paths: (...args: A) => string[] | null) =>
    (...args: A): Promise<R> => {
      const rels = paths(...args);
      return rels === null ? call(...args) : stamp.mutate(rels, () => call(...args));
    };
  // Only the calls IsoFs names: node's rm, cp, appendFile, open, … would be writes the stamp
  // never sees (isomorphic-git falls back to unlink/rmdir without `rm`).
  const promises: IsoFsPromises = {
    readFile: (path, options) => raw.readFile(path, options),
    readdir: ((path: string, options?: unknown) => (raw.readdir as (p: string, o?: unknown) => Promise<string[]>)(path, options)) as IsoFsPromises["readdir"],
    stat: (path) => raw.stat(path),
    lstat: (path) => raw.lstat(path),
    writeFile: guarded((path: string, data: Uint8Array | string, options?: unknown) => raw.writeFile(path, data, options), (path: string) => one(path)),
    unlink: guarded((path: string) => raw.unlink(path), (path: string) => one(path)),
    mkdir: guarded((path: string, options?: unknown) => raw.mkdir(path, options), (path: string) => dirOp(path)),
    // a recursive rmdir (node) removes files too
    rmdir: guarded(
      (path: string, options?: unknown) => raw.rmdir(path, options),
      (path: string, options?: unknown) => ((options as { recursive?: boolean } | undefined)?.recursive ? one(path) : dirOp(path)),
    ),
    rename: guarded(
      (from: string, to: string) => raw.rename(from, to),
      (from: string, to: string) => {
        const a = one(from);
        const b = one(to);
        return a === null && b === null ? null : [...(a ?? []), ...(b ?? [])];
      },
    ),
  };
  if (raw.readlink) promises.readlink = (path, options) => raw.readlink!(path, options);
  if (raw.symlink) promises.symlink = guarded((target: string, path: string) => raw.symlink!(target, path), (_target: string, path: string) => one(path));
  if (raw.chmod) promises.chmod = guarded((path: string, mode: number) => raw.chmod!(path, mode), (path: string) => one(path));
  if (raw.writeFiles) {
    promises.writeFiles = guarded(
      (files: readonly { path: string; data: Uint8Array }[]) => raw.writeFiles!(files),
      (files: readonly { path: string; data: Uint8Array }[]) => {
        const each = files.map((f) => one(f.path));
        return each.every((r) => r === null) ? null : each.flatMap((r) => r ?? []);
      },
    );
  }
  if (raw.flush) promises.flush = () => raw.flush!();
  const out = { promises } as IsoFs & { [STAMP]: WorktreeStamp };
  Object.defineProperty(out, STAMP, { value: stamp, enumerable: false });
  passListing(fs, out);
  return out;
}

function statKey(st: IsoFsStat | null): string {
  return st ? `${st.size}:${st.mtimeMs}:${st.ino ?? ""}` : "";
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "NotFoundError";
}

function joinAbs(dir: string, rel: string): string {
  return dir === "/" ? "/" + rel : dir + "/" + rel;
}

async function mkdirp(fs: IsoFs, abs: string): Promise<void> {
  try {
    const st = await fs.promises.lstat(abs);
    if (st.isDirectory()) return;
    throw codedError("ENOTDIR", `${abs} is not a directory`);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  const parent = abs.slice(0, abs.lastIndexOf("/")) || "/";
  if (parent !== abs) await mkdirp(fs, parent);
  try {
    await fs.promises.mkdir(abs);
  } catch (err) {
    if ((err as { code?: unknown }).code !== "EEXIST") throw err;
  }
}
