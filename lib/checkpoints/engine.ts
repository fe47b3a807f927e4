/**
 * The per-workspace engine: the stat cache + tree cache (an in-memory mirror of the working
 * tree as git would see it, dir-tree.ts), when and how a scan brings it up to date (scan.ts),
 * its persistence, and the generation stamp that says whether its caches can be trusted.
 *
 * Finding changes, cheapest first:
 * 1. journal: `ws.journal.dirtySince(seq)` names the changed paths; only those are looked at.
 *    Used only while this in-memory state was built in this session against that very
 *    journal instance (a journal's seq restarts with every page load).
 * 2. walk: readdir + lstat of every non-ignored directory, re-hashing only files whose
 *    (size, mtime, ino, mode) changed or whose cache entry is racy (mtime not older than the
 *    moment the entry was recorded, minus a margin for coarse file-system clocks).
 * Changed files are read and hashed after the walk, in batches when `ws.readMany` is given.
 * Unchanged directories keep their tree oid, so only the trees on the way to a change are
 * rebuilt and written.
 */
import type { ChangeJournal } from "../fs/journal";
import type { IsoFs, IsoFsStat } from "../fs/types";
import { worktreeStampOf, type StampView } from "../fs/worktree-stamp";
import { buildTree, collectLarge, DirNode, type FileRec, markDirty, removeAt } from "./dir-tree";
import { workingTreeRules, type Rules } from "./ignore";
import { ObjectStore, type ObjectWriter } from "./objects";
import { RefStore } from "./refs";
import { IO_LIMIT, type ListDir, type ReadMany, Scanner, type ScanCtx, type ScanStats } from "./scan";
import { atomicWrite, baseName, CheckpointError, fromUtf8, joinAbs, joinRel, lstatOrNull, Mutex, parentRel, perfNow, readOrNull, Semaphore, writeAfterEarlierFiles } from "./util";

export { DirNode, type FileRec, type LargeRec } from "./dir-tree";
export { type ListDir, type ReadMany, type ScanStats } from "./scan";

export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;
const CACHE_FILE = "tabula/checkpoint-cache.json";
const CACHE_VERSION = 1;
/**
 * The repository's generation stamp: a random token every writer of .git/tabula (checkpoint,
 * restore, prune, another tab's engine) replaces after it wrote. An engine that finds a token
 * other than the one it last saw or wrote knows the repository changed behind it (another
 * instance pruned, or the whole repository was put back to an earlier copy, which brings its
 * older token along) and stops trusting its caches until it re-checked them.
 */
export const GENERATION_FILE = "tabula/generation";
/**
 * The object epoch: a random token replaced only by a writer about to delete objects (prune),
 * before it deletes any. The cache file is labelled with the epoch its objects were known
 * present in; a later epoch means objects may have gone since, and the loaded cache is
 * checked object by object. Writers that only add objects (checkpoint, restore, annotate)
 * leave it alone, so their generation bumps do not cost the next page load a verification.
 */
export const EPOCH_FILE = "tabula/object-epoch";
const PERSIST_AFTER_FILES = 256;
const PERSIST_EVERY_MS = 60_000;

export type Workspace = {
  fs: IsoFs;
  /** Absolute workspace root inside `fs`; the git dir is `<dir>/.git`. */
  dir: string;
  /** Accelerator: the workspace's change journal (lib/fs). Optional. */
  journal?: ChangeJournal;
  /** Default size cap for this workspace (bytes); options may override. */
  maxFileBytes?: number;
  /** Accelerator: batched reads (see lightningReadMany). Optional. */
  readMany?: ReadMany;
  /** Accelerator: a directory's entries with their stats in one call (see lightningListDir). Optional. */
  listDir?: ListDir;
};

function statKey(st: IsoFsStat | null): string {
  return st ? `${st.size}:${st.mtimeMs}:${st.ino ?? ""}` : "";
}

export type ScanResult = { tree: string; stats: ScanStats; large: { path: string; size: number }[] };

type State = {
  root: DirNode;
  cap: number;
  excludeKey: string;
  /** Stat key of the cache file as we last wrote or read it ("" = not on disk). */
  fileKey: string;
  /** Root tree oid as persisted, and whether memory has news worth writing. */
  persistedRoot?: string | null;
  needsPersist: boolean;
  persistedAt: number;
  hashedSincePersist: number;
  lastScanWalked: boolean;
  /** What the last scan followed: the journal's seq and the worktree stamp's log position
   * at its start (either may be absent), for the next scan to ask what changed since. */
  binding?: { journal: ChangeJournal | undefined; seq: number; stampSeq: number | undefined; stampForeign: number | undefined };
  /** Random id of the cache file as persisted (the worktree stamp names it). */
  cacheId?: string;
  /** The worktree stamp as the last scan found it at its start (for stampClean after persist). */
  scanStamp?: StampView;
  /** Ignore rules memoised for journal-mode scans (reset by a walk). */
  rules?: Rules;
  /** Every object the state names is known to be in the repository (checked against the
   * generation stamp); false: check each before trusting it. */
  verified: boolean;
  /** What the last scan reported as too large to capture, while nothing has changed the state
   * since: a no-change checkpoint then need not visit every directory to list them again. */
  large?: { path: string; size: number }[];
};

/** Test hooks (never set outside tests and benchmarks). */
export const __testing = {
  /** When set, a failed restore skips its rollback, as if the process died at that moment. */
  crashOnRestoreFailure: false,
  /**
   * Awaited after each file a restore writes or deletes (path, count so far): the e2e suite
   * parks a restore half-way with it, then closes the page, to test crash recovery for real.
   */
  afterRestoreWrite: undefined as ((path: string, count: number) => void | Promise<void>) | undefined,
  /** Phase timings, for profiling. */
  trace: undefined as ((phase: string, ms: number) => void) | undefined,
};

export function tracePhase(phase: string, since: number): number {
  const t = perfNow();
  __testing.trace?.(phase, t - since);
  return t;
}

export class Engine {
  readonly gitdir: string;
  readonly store: ObjectStore;
  readonly refs: RefStore;
  readonly mutex = new Mutex();
  private readonly scanner: Scanner;
  private state: State | undefined;
  /** The generation token last seen or written (undefined: unknown, trust nothing). */
  private generation: string | undefined;
  /** The object epoch read with that generation token ("" = no prune ever wrote one). */
  private epoch: string | undefined;

  constructor(
    readonly fs: IsoFs,
    readonly dir: string,
  ) {
    this.gitdir = joinAbs(dir, ".git");
    this.store = new ObjectStore(fs, this.gitdir);
    this.refs = new RefStore(fs, this.gitdir);
    this.scanner = new Scanner(fs, dir, this.store);
  }

  abs(rel: string): string {
    return joinAbs(this.dir, rel);
  }

  /** Every operation starts here: the repository exists, and the caches are still valid. */
  async assertRepo(): Promise<void> {
    const st = await lstatOrNull(this.fs, joinAbs(this.gitdir, "HEAD"));
    if (!st) throw new CheckpointError("NOT_A_REPO", `${this.dir} is not a git repository (no .git/HEAD)`);
    await this.checkGeneration();
  }

  /**
   * Compare the repository's generation token with the one this engine last saw or wrote.
   * On a mismatch every cache may be stale: pack lists, known directories and refs are
   * dropped; the stat/tree cache is kept but marked unverified (its objects are checked
   * before the next scan trusts them) and the journal binding dropped (a walk follows).
   */
  async checkGeneration(): Promise<void> {
    const token = (await this.refs.readText(GENERATION_FILE))?.trim() ?? "";
    // An absent token never matches: a repository put back to a copy from before any token
    // would look unchanged. So a repository must have one (createCheckpoint writes it).
    if (token !== "" && token === this.generation) return;
    this.generation = token;
    this.epoch = undefined;
    this.dropCaches();
    this.epoch = (await this.refs.readText(EPOCH_FILE))?.trim() ?? "";
    if (this.state) {
      this.state.verified = false;
      this.state.binding = undefined;
      this.state.rules = undefined;
    }
  }

  /** Whether the repository has a generation token this engine knows: without one, every
   * operation reads as "changed behind the engine" and drops the caches. */
  get hasGeneration(): boolean {
    return !!this.generation;
  }

  /**
   * After writing to the repository: replace the generation token, so other engine
   * instances (and this one, should the repository be put back to an earlier copy) know.
   * A failed write leaves this engine's own token unknown: its next operation re-checks.
   */
  async bumpGeneration(): Promise<void> {
    const token = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
    this.generation = undefined;
    await atomicWrite(this.fs, joinAbs(this.gitdir, GENERATION_FILE), token + "\n", this.refs.knownDirs);
    this.generation = token;
  }

  /**
   * Before deleting objects: a new object epoch, so that no cache file written before (by
   * this or another engine) is trusted without checking its objects again.
   */
  async beginDeletions(): Promise<void> {
    const token = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
    this.epoch = undefined;
    await atomicWrite(this.fs, joinAbs(this.gitdir, EPOCH_FILE), token + "\n", this.refs.knownDirs);
    this.epoch = token;
  }

  private dropCaches(): void {
    this.store.relist();
    this.store.knownDirs.clear();
    this.refs.knownDirs.clear();
    this.refs.clearCache();
  }

  /** Drop everything cached in memory (after a failure that may have left it ahead of disk). */
  invalidate(): void {
    this.state = undefined;
    this.generation = undefined;
    this.epoch = undefined;
    this.dropCaches();
    this.store.resetPacks();
  }

  // ---- persistence --------------------------------------------------------------------------

  private async loadState(cap: number): Promise<State> {
    const path = joinAbs(this.gitdir, CACHE_FILE);
    const st = await lstatOrNull(this.fs, path);
    const key = statKey(st);
    if (this.state && this.state.fileKey === key && this.state.cap === cap) return this.state;
    const fresh: State = {
      root: new DirNode(),
      cap,
      excludeKey: "",
      fileKey: "",
      needsPersist: true,
      persistedAt: 0,
      hashedSincePersist: 0,
      lastScanWalked: false,
      verified: true, // nothing in it yet
    };
    if (st) {
      try {
        const raw = await readOrNull(this.fs, path);
        if (raw) {
          const data = JSON.parse(fromUtf8(raw)) as PersistedState;
          if (data.v === CACHE_VERSION && data.cap === cap) {
            fresh.root = inflateState(data);
            fresh.fileKey = key;
            fresh.excludeKey = data.exclude ?? "";
            fresh.persistedRoot = fresh.root.oid;
            fresh.cacheId = typeof data.id === "string" ? data.id : undefined;
            fresh.needsPersist = false;
            fresh.persistedAt = Date.now();
            // labelled with the current object epoch: nothing was deleted since its objects were
            // known present (an older file, or one from before any epoch, is checked instead)
            fresh.verified = data.epoch !== undefined && this.epoch !== undefined && data.epoch === this.epoch;
          }
        }
      } catch {
        // unreadable cache: start from scratch (it is only a cache)
      }
    }
    this.state = fresh;
    return fresh;
  }

  /**
   * Whether a checkpoint should write the cache file now. It only serves the next page load
   * (in a session the in-memory state and the journal are what count), and writing it is a
   * ~1 MB JSON + IndexedDB put at 10k files: write it after a walk, after many re-hashed
   * files, or when the last write is older than PERSIST_EVERY_MS; otherwise later. A stale
   * cache file is safe: every entry is re-validated by stat.
   */
  shouldPersist(): boolean {
    const s = this.state;
    if (!s || !s.needsPersist) return false;
    return s.persistedRoot === undefined || s.lastScanWalked || s.hashedSincePersist >= PERSIST_AFTER_FILES || Date.now() - s.persistedAt >= PERSIST_EVERY_MS;
  }

  /**
   * Write the cache file (one file, at most once per checkpoint). Failures are not fatal.
   * `stamp`: the state is exactly what the last scan found (a checkpoint, not a prune that
   * dropped records): then the worktree stamp may name the new file as the snapshot the
   * working tree matches, apart from what was written since the scan began.
   */
  async persist(opts: { stamp?: boolean } = {}): Promise<boolean> {
    const state = this.state;
    if (!state) return false;
    const stamp = worktreeStampOf(this.fs);
    if (!state.needsPersist) return true;
    const path = joinAbs(this.gitdir, CACHE_FILE);
    const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
    try {
      state.cacheId = undefined;
      await writeAfterEarlierFiles(this.fs, path, JSON.stringify(deflateState(state, state.verified ? this.epoch : undefined, id)), this.refs.knownDirs);
      state.cacheId = id;
      state.fileKey = statKey(await lstatOrNull(this.fs, path));
      state.persistedRoot = state.root.oid;
      state.needsPersist = false;
      state.persistedAt = Date.now();
      state.hashedSincePersist = 0;
      const root = state.root.oid;
      if (opts.stamp && stamp && state.scanStamp && root) await stamp.stampClean(state.scanStamp, id, root).catch(() => false);
      return true;
    } catch {
      state.fileKey = "\0"; // the file no longer matches memory: reload next time
      return false;
    }
  }

  /**
   * After a checkpoint that did not need to write the cache file: if the worktree stamp does
   * not name that file (a walk after a reload found nothing new), make it, so the next page
   * load need not walk again. Memory equals the file here (nothing to persist), so the file
   * is what the scan found.
   */
  async restamp(): Promise<void> {
    const state = this.state;
    const stamp = worktreeStampOf(this.fs);
    if (!state || !stamp || state.needsPersist || !state.scanStamp || !state.cacheId || !state.persistedRoot) return;
    if (state.root.oid !== state.persistedRoot) return;
    const k = state.scanStamp.known;
    if (k && k.cache === state.cacheId && k.root === state.persistedRoot) return;
    await stamp.stampClean(state.scanStamp, state.cacheId, state.persistedRoot).catch(() => false);
  }

  // ---- scanning -----------------------------------------------------------------------------

  /**
   * Bring the state up to date with the working tree and write any new blobs and trees
   * through `writer` (flushed by the caller). Returns the root tree oid.
   */
  async scan(writer: ObjectWriter, opts: { journal?: ChangeJournal; cap: number; readMany?: ReadMany; listDir?: ListDir }): Promise<ScanResult> {
    let t = perfNow();
    const state = await this.loadState(opts.cap);
    t = tracePhase("scan.loadState", t);
    await this.store.refreshPacks();
    t = tracePhase("scan.refreshPacks", t);
    // A state read from the cache file in this scan, its objects known present (same object
    // epoch): the worktree stamp may say how the working tree differs from it.
    const trustedAsLoaded = state.verified && !state.binding && state.cacheId !== undefined && !state.needsPersist;
    const wasVerified = state.verified;
    if (!state.verified) {
      // The repository changed behind this engine: every object the cache names must be
      // there before a tree is built on it; those that are not are hashed again.
      await this.scanner.verifyObjects(state.root);
      state.binding = undefined;
      state.verified = true;
    }
    const stats: ScanStats = { mode: "walk", filesHashed: 0, bytesHashed: 0, pathsChecked: 0, nestedReposSkipped: [] };
    const excludeKey = statKey(await lstatOrNull(this.fs, joinAbs(this.gitdir, "info/exclude")));
    const journal = opts.journal;
    const seqAtStart = journal?.seq;
    const stamp = worktreeStampOf(this.fs);
    const stampView = stamp ? await stamp.view() : undefined;
    state.scanStamp = stampView;
    let dirty = excludeKey === state.excludeKey ? this.changedSince(state, journal, stampView, trustedAsLoaded) : undefined;
    if (dirty && [...dirty].some((p) => baseName(p) === ".gitignore")) dirty = undefined;
    try {
      if (dirty) {
        stats.mode = "journal";
        state.rules ??= workingTreeRules(this.fs, this.dir);
        const ctx: ScanCtx = { pending: [], readMany: opts.readMany, rules: state.rules, writer, sem: new Semaphore(IO_LIMIT), cap: opts.cap, stats };
        await this.scanner.applyDirty(ctx, state.root, dirty);
        state.rules = ctx.rules;
        await this.scanner.hashPending(ctx);
      } else {
        const rules = workingTreeRules(this.fs, this.dir);
        state.rules = rules;
        const ctx: ScanCtx = { pending: [], readMany: opts.readMany, listDir: opts.listDir, rules, writer, sem: new Semaphore(IO_LIMIT), cap: opts.cap, stats };
        await this.scanner.scanDir(ctx, "", state.root);
        t = tracePhase("scan.walk", t);
        await this.scanner.hashPending(ctx);
      }
      t = tracePhase("scan.hash", t);
      state.excludeKey = excludeKey;
      const tree = (await buildTree(state.root, writer)) ?? (await writer.add("tree", new Uint8Array(0)));
      t = tracePhase("scan.buildTree", t);
      if (stats.filesHashed > 0 || state.root.oid !== state.persistedRoot) state.needsPersist = true;
      state.hashedSincePersist += stats.filesHashed;
      state.lastScanWalked = stats.mode === "walk";
      state.binding = (journal && seqAtStart !== undefined) || stampView ? { journal, seq: seqAtStart ?? 0, stampSeq: stampView?.seq, stampForeign: stampView?.foreign } : undefined;
      const unchanged = wasVerified && dirty !== undefined && dirty.size === 0 && state.large !== undefined;
      state.large = unchanged ? state.large : collectLarge(state.root);
      return { tree, stats, large: state.large! };
    } catch (err) {
      this.invalidate();
      throw err;
    }
  }

  /**
   * The paths that may have changed since the state was last brought up to date (each: this
   * path and below), or undefined when that is not known and a walk must decide:
   * - in a session: the bound journal's events and the worktree stamp's log since the last scan
   *   (both when both are there: a writer may record to the journal without the stamp's fs),
   *   and the stamp's list when it vouches for this state's cache file; a stamp file changed
   *   behind this engine without such a list means a walk;
   * - right after loading the cache file: the worktree stamp's list, if it names that very file
   *   and root (nothing was written since by any writer the stamp's fs serves but these paths).
   */
  private changedSince(state: State, journal: ChangeJournal | undefined, stamp: StampView | undefined, trustedAsLoaded: boolean): Set<string> | undefined {
    const b = state.binding;
    if (b) {
      if (b.journal !== journal) return undefined;
      if (b.stampSeq === undefined && !journal) return undefined;
      const out = new Set<string>();
      if (journal) {
        const j = journal.dirtySince(b.seq);
        if (!j) return undefined;
        for (const p of j) out.add(p);
      }
      if (b.stampSeq !== undefined) {
        if (!stamp) return undefined;
        const s = worktreeStampOf(this.fs)?.touchedSince(b.stampSeq);
        if (!s) return undefined;
        for (const p of s) out.add(p);
        if (stamp.known && stamp.known.cache === state.cacheId) {
          // Another fs object over the same files (another tab) writes into no log here, and
          // not even into the stamp file when its path is listed already: the list is what
          // every stamped writer touched since the snapshot, so it covers theirs too.
          for (const p of stamp.known.paths) out.add(p);
        } else if (stamp.foreign !== b.stampForeign) return undefined;
      }
      return out;
    }
    if (!trustedAsLoaded || !stamp?.known) return undefined;
    if (stamp.known.cache !== state.cacheId || stamp.known.root !== state.persistedRoot) return undefined;
    const out = new Set(stamp.known.paths);
    // Writes recorded in this session's journal by a writer outside the stamp's fs.
    const j = journal?.dirtySince(0);
    if (j) for (const p of j) out.add(p);
    return out;
  }

  /** The current in-memory root (valid right after a scan). */
  root(): DirNode {
    if (!this.state) throw new CheckpointError("IO", "internal: no scan state");
    return this.state.root;
  }
  // ---- updates from restore and prune -------------------------------------------------------

  /** Record what the engine itself wrote at `rel` (restore): `rec`, or null = look again. */
  noteWritten(rel: string, rec: FileRec | null): void {
    const state = this.state;
    if (!state) return;
    state.needsPersist = true;
    state.large = undefined;
    const name = baseName(rel);
    if (rec === null) {
      removeAt(state.root, rel);
      return;
    }
    let node = state.root;
    for (const part of parentRel(rel) === "" ? [] : parentRel(rel).split("/")) {
      let next = node.dirs.get(part);
      if (!next) {
        next = new DirNode();
        node.files.delete(part);
        node.dirs.set(part, next);
      }
      node = next;
    }
    node.dirs.delete(name);
    node.large.delete(name);
    node.files.set(name, rec);
    markDirty(state.root, parentRel(rel));
  }

  /** The journal binding, if this state follows `journal`. */
  boundSeq(journal: ChangeJournal | undefined): number | undefined {
    const b = this.state?.binding;
    return journal && b && b.journal === journal ? b.seq : undefined;
  }

  /** After the engine recorded its own events into the bound journal (and updated the state
   * for them), move the binding past them. */
  advanceBinding(journal: ChangeJournal, seq: number): void {
    const b = this.state?.binding;
    if (b && b.journal === journal) b.seq = seq;
  }

  /** After writes the journal does not know about, journal mode must not be trusted. */
  unbindJournal(): void {
    if (this.state) this.state.binding = undefined;
  }

  /** Drop cache entries that name objects about to disappear (prune). */
  forgetObjects(deleted: Set<string>): boolean {
    const state = this.state;
    if (!state) return false;
    const visit = (node: DirNode): boolean => {
      let dirty = false;
      for (const [name, rec] of node.files) {
        if (deleted.has(rec.oid)) {
          node.files.delete(name);
          dirty = true;
        }
      }
      for (const child of node.dirs.values()) if (visit(child)) dirty = true;
      if (node.oid && deleted.has(node.oid)) dirty = true;
      if (dirty) node.oid = undefined;
      return dirty;
    };
    const touched = visit(state.root);
    state.large = undefined;
    if (touched) {
      state.binding = undefined; // force a walk to re-add the dropped files
      state.needsPersist = true;
    }
    return touched;
  }

  async ensureState(cap: number): Promise<void> {
    await this.loadState(cap);
  }
}

// ---- persisted form -------------------------------------------------------------------------

type PersistedState = {
  v: number;
  cap: number;
  /** The object epoch in which every object named here was known present (EPOCH_FILE). */
  epoch?: string;
  /** Random per write: the worktree stamp names the file it vouches for by it. */
  id?: string;
  exclude?: string;
  /** [path, mode, size, mtimeMs, ino, oid, t] */
  files: [string, number, number, number, number, string, number][];
  /** [path, size, mtimeMs] */
  large: [string, number, number][];
  /** [dir, oid] for directories with a tree */
  trees: [string, string][];
};

function deflateState(state: State, epoch: string | undefined, id: string): PersistedState {
  const files: PersistedState["files"] = [];
  const large: PersistedState["large"] = [];
  const trees: PersistedState["trees"] = [];
  const visit = (node: DirNode, prefix: string) => {
    if (node.oid) trees.push([prefix, node.oid]);
    for (const [name, r] of node.files) files.push([joinRel(prefix, name), r.mode, r.size, r.mtimeMs, r.ino, r.oid, r.t]);
    for (const [name, l] of node.large) large.push([joinRel(prefix, name), l.size, l.mtimeMs]);
    for (const [name, child] of node.dirs) visit(child, joinRel(prefix, name));
  };
  visit(state.root, "");
  return { v: CACHE_VERSION, cap: state.cap, epoch, id, exclude: state.excludeKey, files, large, trees };
}

function inflateState(data: PersistedState): DirNode {
  const root = new DirNode();
  // Maps per directory path: deflateState writes a directory's files together, and every
  // directory once more for its tree, so each path is split and walked only once.
  const byPath = new Map<string, DirNode>([["", root]]);
  const dirOf = (rel: string): DirNode => {
    const known = byPath.get(rel);
    if (known) return known;
    let node = root;
    for (const part of rel.split("/")) {
      let next = node.dirs.get(part);
      if (!next) {
        next = new DirNode();
        node.dirs.set(part, next);
      }
      node = next;
    }
    byPath.set(rel, node);
    return node;
  };
  for (const [path, mode, size, mtimeMs, ino, oid, t] of data.files) {
    dirOf(parentRel(path)).files.set(baseName(path), { mode, size, mtimeMs, ino, oid, t });
  }
  for (const [path, size, mtimeMs] of data.large) dirOf(parentRel(path)).large.set(baseName(path), { size, mtimeMs });
  // Directories without a recorded tree were empty (or dirty): they stay undefined and are
  // rebuilt; their parents carry recorded oids that already account for them.
  for (const [dir, oid] of data.trees) dirOf(dir).oid = oid;
  return root;
}

// ---- registry -------------------------------------------------------------------------------

const engines = new WeakMap<object, Map<string, Engine>>();

export function engineFor(ws: Workspace): Engine {
  if (!ws || !ws.fs || typeof ws.dir !== "string" || !ws.dir.startsWith("/")) {
    throw new CheckpointError("INVALID_ARGUMENT", "ws must be { fs, dir } with an absolute dir");
  }
  const dir = ws.dir.length > 1 && ws.dir.endsWith("/") ? ws.dir.slice(0, -1) : ws.dir;
  let byDir = engines.get(ws.fs);
  if (!byDir) {
    byDir = new Map();
    engines.set(ws.fs, byDir);
  }
  let e = byDir.get(dir);
  if (!e) {
    e = new Engine(ws.fs, dir);
    byDir.set(dir, e);
  }
  return e;
}
