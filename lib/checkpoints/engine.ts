/**
 * The per-workspace engine: the stat cache + tree cache (an in-memory mirror of the working
 * tree as git would see it), the scan that brings it up to date, and its persistence.
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
import { ObjectStore, type ObjectWriter, encodeTree, MODE_EXEC, MODE_FILE, MODE_LINK, MODE_TREE, type TreeEntry } from "./objects";
import { RefStore } from "./refs";
import { workingTreeRules, type Rules } from "./ignore";
import {
  asBytes,
  atomicWrite,
  baseName,
  CheckpointError,
  fromUtf8,
  isGitName,
  isNotFound,
  joinAbs,
  joinRel,
  lstatOrNull,
  mapLimit,
  Mutex,
  normalizeRel,
  parentRel,
  perfNow,
  readdirOrEmpty,
  readOrNull,
  Semaphore,
  utf8,
} from "./util";

export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** A cache entry is trusted only if the file's mtime is older than its recording time by this
 * much: Linux stamps files with a coarse clock that can trail Date.now() by a tick. */
export const RACY_MS = 50;
const IO_LIMIT = 32;
const READ_BATCH = 256;
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
const PERSIST_AFTER_FILES = 256;
const PERSIST_EVERY_MS = 60_000;

/** Optional accelerator: read many files at once (e.g. one IndexedDB transaction); an entry
 * left undefined is read the ordinary way. */
export type ReadMany = (absPaths: string[], stats: IsoFsStat[]) => Promise<(Uint8Array | undefined)[]>;

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
};

export type FileRec = { mode: number; size: number; mtimeMs: number; ino: number; oid: string; t: number };
export type LargeRec = { size: number; mtimeMs: number };

export class DirNode {
  files = new Map<string, FileRec>();
  dirs = new Map<string, DirNode>();
  large = new Map<string, LargeRec>();
  /** Tree oid; null = nothing captured below (omitted from the parent); undefined = dirty. */
  oid: string | null | undefined = undefined;
}

export type ScanStats = {
  mode: "journal" | "walk";
  filesHashed: number;
  bytesHashed: number;
  pathsChecked: number;
  nestedReposSkipped: string[];
};

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
  binding?: { journal: ChangeJournal; seq: number };
  /** Ignore rules memoised for journal-mode scans (reset by a walk). */
  rules?: Rules;
  /** Every object the state names is known to be in the repository (checked against the
   * generation stamp); false: check each before trusting it. */
  verified: boolean;
};

type PendingFile = { node: DirNode; name: string; rel: string; st: IsoFsStat; t: number; mode: number };

type Ctx = {
  pending: PendingFile[];
  readMany?: ReadMany;
  rules: Rules;
  writer: ObjectWriter;
  sem: Semaphore;
  cap: number;
  stats: ScanStats;
};

/**
 * WorkspaceFs saves through a sibling temp file (`.<name>.tabula-tmp-<suffix>`) renamed over
 * the target; the journal only names the target. A walk that ran mid-save must not capture
 * the temp file (no event would ever tell the journal mode it is gone).
 */
function isTransient(name: string): boolean {
  return name.includes(".tabula-tmp-");
}

function statKey(st: IsoFsStat | null): string {
  return st ? `${st.size}:${st.mtimeMs}:${st.ino ?? ""}` : "";
}

function gitModeOf(st: IsoFsStat): number {
  if (st.isSymbolicLink()) return MODE_LINK;
  return st.mode & 0o100 ? MODE_EXEC : MODE_FILE;
}

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
  private state: State | undefined;
  /** The generation token last seen or written (undefined: unknown, trust nothing). */
  private generation: string | undefined;

  constructor(
    readonly fs: IsoFs,
    readonly dir: string,
  ) {
    this.gitdir = joinAbs(dir, ".git");
    this.store = new ObjectStore(fs, this.gitdir);
    this.refs = new RefStore(fs, this.gitdir);
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
    if (token !== "" && token === this.generation) return;
    this.generation = token;
    this.dropCaches();
    if (this.state) {
      this.state.verified = false;
      this.state.binding = undefined;
      this.state.rules = undefined;
    }
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
            fresh.needsPersist = false;
            fresh.persistedAt = Date.now();
            // written at this very generation: its objects were all there then
            fresh.verified = data.gen !== undefined && data.gen === this.generation;
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

  /** Write the cache file (one file, at most once per checkpoint). Failures are not fatal. */
  async persist(): Promise<boolean> {
    const state = this.state;
    if (!state) return false;
    if (!state.needsPersist) return true;
    const path = joinAbs(this.gitdir, CACHE_FILE);
    try {
      await atomicWrite(this.fs, path, JSON.stringify(deflateState(state, state.verified ? this.generation : undefined)), this.refs.knownDirs);
      state.fileKey = statKey(await lstatOrNull(this.fs, path));
      state.persistedRoot = state.root.oid;
      state.needsPersist = false;
      state.persistedAt = Date.now();
      state.hashedSincePersist = 0;
      return true;
    } catch {
      state.fileKey = "\0"; // the file no longer matches memory: reload next time
      return false;
    }
  }

  // ---- scanning -----------------------------------------------------------------------------

  /**
   * Bring the state up to date with the working tree and write any new blobs and trees
   * through `writer` (flushed by the caller). Returns the root tree oid.
   */
  async scan(writer: ObjectWriter, opts: { journal?: ChangeJournal; cap: number; readMany?: ReadMany }): Promise<ScanResult> {
    const state = await this.loadState(opts.cap);
    await this.store.refreshPacks();
    if (!state.verified) {
      // The repository changed behind this engine: every object the cache names must be
      // there before a tree is built on it; those that are not are hashed again.
      await this.verifyObjects(state.root);
      state.binding = undefined;
      state.verified = true;
    }
    const stats: ScanStats = { mode: "walk", filesHashed: 0, bytesHashed: 0, pathsChecked: 0, nestedReposSkipped: [] };
    const excludeKey = statKey(await lstatOrNull(this.fs, joinAbs(this.gitdir, "info/exclude")));
    const journal = opts.journal;
    const seqAtStart = journal?.seq;
    let dirty: Set<string> | undefined;
    if (journal && state.binding && state.binding.journal === journal && excludeKey === state.excludeKey) {
      dirty = journal.dirtySince(state.binding.seq);
      if (dirty && [...dirty].some((p) => baseName(p) === ".gitignore")) dirty = undefined;
    }
    try {
      if (dirty) {
        stats.mode = "journal";
        state.rules ??= workingTreeRules(this.fs, this.dir);
        const ctx: Ctx = { pending: [], readMany: opts.readMany, rules: state.rules, writer, sem: new Semaphore(IO_LIMIT), cap: opts.cap, stats };
        await this.applyDirty(ctx, state.root, dirty);
        await this.hashPending(ctx);
      } else {
        const rules = workingTreeRules(this.fs, this.dir);
        state.rules = rules;
        const ctx: Ctx = { pending: [], readMany: opts.readMany, rules, writer, sem: new Semaphore(IO_LIMIT), cap: opts.cap, stats };
        await this.scanDir(ctx, "", state.root);
        await this.hashPending(ctx);
      }
      state.excludeKey = excludeKey;
      const tree = (await this.buildTree(state.root, writer)) ?? (await writer.add("tree", new Uint8Array(0)));
      if (stats.filesHashed > 0 || state.root.oid !== state.persistedRoot) state.needsPersist = true;
      state.hashedSincePersist += stats.filesHashed;
      state.lastScanWalked = stats.mode === "walk";
      state.binding = journal && seqAtStart !== undefined ? { journal, seq: seqAtStart } : undefined;
      return { tree, stats, large: collectLarge(state.root) };
    } catch (err) {
      this.invalidate();
      throw err;
    }
  }

  /**
   * Drop file records whose blob and tree oids whose object is missing from the repository
   * (their directories become dirty, so the scan re-hashes and rebuilds them). A directory
   * whose tree object is present but a child's object is missing is rebuilt too.
   */
  private async verifyObjects(root: DirNode): Promise<void> {
    const sem = new Semaphore(IO_LIMIT);
    const present = new Map<string, Promise<boolean>>();
    const has = (oid: string) => {
      let p = present.get(oid);
      if (!p) {
        p = sem.run(() => this.store.has(oid));
        present.set(oid, p);
      }
      return p;
    };
    const visit = async (node: DirNode): Promise<boolean> => {
      let dirty = false;
      const files = [...node.files];
      const ok = await Promise.all(files.map(([, rec]) => has(rec.oid)));
      files.forEach(([name], i) => {
        if (!ok[i]) {
          node.files.delete(name);
          dirty = true;
        }
      });
      const children = await Promise.all([...node.dirs.values()].map(visit));
      if (children.some(Boolean)) dirty = true;
      if (!dirty && typeof node.oid === "string" && !(await has(node.oid))) dirty = true;
      if (dirty) node.oid = undefined;
      return dirty;
    };
    await visit(root);
  }

  /** The current in-memory root (valid right after a scan). */
  root(): DirNode {
    if (!this.state) throw new CheckpointError("IO", "internal: no scan state");
    return this.state.root;
  }

  /** Returns false when `rel` turned out to be a nested repository (left out, like ignored). */
  private async scanDir(ctx: Ctx, rel: string, node: DirNode): Promise<boolean> {
    const names = await ctx.sem.run(() => readdirOrEmpty(this.fs, this.abs(rel)));
    if (rel !== "" && names.some(isGitName)) {
      ctx.stats.nestedReposSkipped.push(rel);
      return false;
    }
    ctx.rules.noteListing?.(rel, names.includes(".gitignore"));
    await ctx.rules.prepare(rel === "" ? "x" : rel + "/x");
    let changed = node.oid === undefined;
    const seen = new Set<string>();
    await Promise.all(
      names.map(async (name) => {
        if (isGitName(name) || isTransient(name)) return;
        const childRel = joinRel(rel, name);
        const t = Date.now();
        const st = await ctx.sem.run(() => lstatOrNull(this.fs, this.abs(childRel)));
        ctx.stats.pathsChecked++;
        if (!st) return;
        if (st.isDirectory()) {
          if (ctx.rules.test(childRel, true)) return;
          if (node.files.delete(name)) changed = true; // a file became a directory
          node.large.delete(name);
          let child = node.dirs.get(name);
          const isNew = !child;
          child ??= new DirNode();
          if (!(await this.scanDir(ctx, childRel, child))) return;
          seen.add(name);
          if (isNew) node.dirs.set(name, child);
          if (child.oid === undefined) changed = true;
        } else if (st.isFile() || st.isSymbolicLink()) {
          if (ctx.rules.test(childRel, false)) return;
          seen.add(name);
          if (await this.scanFile(ctx, node, name, childRel, st, t)) changed = true;
        }
      }),
    );
    for (const name of [...node.dirs.keys()]) {
      if (!seen.has(name)) {
        node.dirs.delete(name);
        changed = true;
      }
    }
    for (const name of [...node.files.keys()]) {
      if (!seen.has(name)) {
        node.files.delete(name);
        changed = true;
      }
    }
    for (const name of [...node.large.keys()]) if (!seen.has(name)) node.large.delete(name);
    if (changed) node.oid = undefined;
    return true;
  }

  /** Check one file against its record; true when the tree above must be rebuilt. */
  private async scanFile(ctx: Ctx, node: DirNode, name: string, rel: string, st: IsoFsStat, t: number): Promise<boolean> {
    let changed = false;
    if (node.dirs.delete(name)) changed = true; // a directory became a file
    const mode = gitModeOf(st);
    const rec = node.files.get(name);
    if (mode === MODE_LINK && typeof this.fs.promises.readlink !== "function") {
      return node.files.delete(name) || changed; // a backend without symlinks: leave them out
    }
    if (mode !== MODE_LINK && st.size > ctx.cap) {
      node.large.set(name, { size: st.size, mtimeMs: st.mtimeMs });
      return node.files.delete(name) || changed;
    }
    node.large.delete(name);
    if (
      rec &&
      rec.mode === mode &&
      rec.size === st.size &&
      rec.mtimeMs === st.mtimeMs &&
      (st.ino === undefined || rec.ino === st.ino) &&
      rec.mtimeMs + RACY_MS < rec.t
    ) {
      return changed;
    }
    // Read and hash later, in batches (hashPending): the tree above is dirty either way.
    ctx.pending.push({ node, name, rel, st, t, mode });
    return true;
  }

  /** Read and hash the files the scan found changed; with `readMany`, in batched reads. */
  private async hashPending(ctx: Ctx): Promise<void> {
    const items = ctx.pending;
    ctx.pending = [];
    if (items.length === 0) return;
    const readMany = ctx.readMany;
    if (!readMany) {
      await mapLimit(items, IO_LIMIT, (it) => this.hashOne(ctx, it, undefined));
      return;
    }
    const batches: PendingFile[][] = [];
    for (let i = 0; i < items.length; i += READ_BATCH) batches.push(items.slice(i, i + READ_BATCH));
    const read = (batch: PendingFile[]) => {
      const files = batch.filter((b) => b.mode !== MODE_LINK);
      return readMany(
        files.map((f) => this.abs(f.rel)),
        files.map((f) => f.st),
      )
        .catch(() => [] as (Uint8Array | undefined)[])
        .then((datas) => new Map(files.map((f, j) => [f, datas[j]])));
    };
    let next = read(batches[0]!);
    for (let b = 0; b < batches.length; b++) {
      const got = await next;
      if (b + 1 < batches.length) next = read(batches[b + 1]!); // read ahead while hashing
      await mapLimit(batches[b]!, IO_LIMIT, (it) => this.hashOne(ctx, it, got.get(it)));
    }
  }

  private async hashOne(ctx: Ctx, it: PendingFile, pre: Uint8Array | undefined): Promise<void> {
    const { node, name, rel, st, t, mode } = it;
    let content: Uint8Array;
    if (pre) content = pre;
    else {
      try {
        content = await ctx.sem.run(async () =>
          mode === MODE_LINK ? utf8(String(await this.fs.promises.readlink!(this.abs(rel)))) : asBytes(await this.fs.promises.readFile(this.abs(rel)), rel),
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
        node.files.delete(name); // vanished between lstat and read
        return;
      }
    }
    if (mode !== MODE_LINK && content.length > ctx.cap) {
      node.large.set(name, { size: content.length, mtimeMs: st.mtimeMs });
      node.files.delete(name);
      return;
    }
    const oid = await ctx.writer.add("blob", content);
    ctx.stats.filesHashed++;
    ctx.stats.bytesHashed += content.length;
    node.files.set(name, { mode, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino ?? 0, oid, t });
  }

  /** Journal mode: look only at the dirty paths (each meaning "this path and below"). */
  private async applyDirty(ctx: Ctx, root: DirNode, dirty: Set<string>): Promise<void> {
    const paths = new Set<string>();
    for (const raw of dirty) {
      let p: string;
      try {
        p = normalizeRel(raw);
      } catch {
        continue;
      }
      const parts = p.split("/");
      const gi = parts.findIndex(isGitName);
      if (gi === 0) continue; // the repository's own .git
      if (gi > 0) p = parts.slice(0, gi).join("/"); // inside a nested repo: re-check its root
      if (p === "") continue;
      paths.add(p);
    }
    const sorted = [...paths].sort();
    const roots: string[] = [];
    for (const p of sorted) {
      const last = roots[roots.length - 1];
      if (last !== undefined && (p === last || p.startsWith(last + "/"))) continue;
      roots.push(p);
    }
    // A directory that appeared (mkdir, a renamed directory) may carry .gitignore files the
    // memoised rules loaded for an earlier directory of that name: use fresh rules then.
    const stats = await Promise.all(roots.map((p) => ctx.sem.run(() => lstatOrNull(this.fs, this.abs(p)))));
    if (stats.some((st) => st?.isDirectory())) {
      ctx.rules = workingTreeRules(this.fs, this.dir);
      if (this.state) this.state.rules = ctx.rules;
    }
    await Promise.all(roots.map((p) => this.refreshPath(ctx, root, p)));
  }

  private async refreshPath(ctx: Ctx, root: DirNode, p: string): Promise<void> {
    ctx.stats.pathsChecked++;
    await ctx.rules.prepare(p);
    const t = Date.now();
    const st = await ctx.sem.run(() => lstatOrNull(this.fs, this.abs(p)));
    const isDir = st?.isDirectory() ?? false;
    const name = baseName(p);
    if (!st || (!isDir && !st.isFile() && !st.isSymbolicLink()) || isTransient(name) || ctx.rules.test(p, isDir)) {
      this.removeAt(root, p);
      return;
    }
    const parent = await this.ensureDirChain(ctx, root, parentRel(p));
    if (!parent) {
      this.removeAt(root, p);
      return;
    }
    let changed = false;
    if (isDir) {
      if (parent.files.delete(name)) changed = true;
      parent.large.delete(name);
      let node = parent.dirs.get(name);
      const isNew = !node;
      node ??= new DirNode();
      if (!(await this.scanDir(ctx, p, node))) {
        this.removeAt(root, p);
        return;
      }
      if (isNew) parent.dirs.set(name, node);
      if (node.oid === undefined) changed = true;
    } else {
      changed = await this.scanFile(ctx, parent, name, p, st, t);
    }
    if (changed) this.markDirty(root, parentRel(p));
  }

  /** The node for directory `rel`, creating missing ones after checking they are real,
   * non-ignored directories outside nested repositories; null when they are not. */
  private async ensureDirChain(ctx: Ctx, root: DirNode, rel: string): Promise<DirNode | null> {
    if (rel === "") return root;
    let node = root;
    let cur = "";
    for (const part of rel.split("/")) {
      cur = joinRel(cur, part);
      let next = node.dirs.get(part);
      if (!next) {
        const st = await lstatOrNull(this.fs, this.abs(cur));
        if (!st || !st.isDirectory() || isGitName(part) || ctx.rules.test(cur, true)) return null;
        if (await lstatOrNull(this.fs, this.abs(joinRel(cur, ".git")))) {
          ctx.stats.nestedReposSkipped.push(cur);
          return null;
        }
        next = new DirNode();
        node.files.delete(part);
        node.large.delete(part);
        node.dirs.set(part, next);
        node.oid = undefined;
      }
      node = next;
    }
    return node;
  }

  private findDir(root: DirNode, rel: string): DirNode | undefined {
    if (rel === "") return root;
    let node: DirNode | undefined = root;
    for (const part of rel.split("/")) {
      node = node.dirs.get(part);
      if (!node) return undefined;
    }
    return node;
  }

  private removeAt(root: DirNode, p: string): void {
    const parent = this.findDir(root, parentRel(p));
    if (!parent) return;
    const name = baseName(p);
    const hadTreeEntry = parent.files.delete(name) || parent.dirs.delete(name);
    parent.large.delete(name);
    if (hadTreeEntry) this.markDirty(root, parentRel(p));
  }

  private markDirty(root: DirNode, rel: string): void {
    root.oid = undefined;
    if (rel === "") return;
    let node: DirNode | undefined = root;
    for (const part of rel.split("/")) {
      node = node.dirs.get(part);
      if (!node) return;
      node.oid = undefined;
    }
  }

  private async buildTree(node: DirNode, writer: ObjectWriter): Promise<string | null> {
    if (node.oid !== undefined) return node.oid;
    const entries: TreeEntry[] = [];
    const dirs = [...node.dirs];
    const oids = await Promise.all(dirs.map(([, child]) => this.buildTree(child, writer)));
    dirs.forEach(([name], i) => {
      const oid = oids[i];
      if (oid) entries.push({ name, mode: MODE_TREE, oid });
    });
    for (const [name, rec] of node.files) entries.push({ name, mode: rec.mode, oid: rec.oid });
    node.oid = entries.length === 0 ? null : await writer.add("tree", encodeTree(entries));
    return node.oid;
  }

  // ---- updates from restore and prune -------------------------------------------------------

  /** Record what the engine itself wrote at `rel` (restore): `rec`, or null = look again. */
  noteWritten(rel: string, rec: FileRec | null): void {
    const state = this.state;
    if (!state) return;
    state.needsPersist = true;
    const name = baseName(rel);
    if (rec === null) {
      this.removeAt(state.root, rel);
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
    this.markDirty(state.root, parentRel(rel));
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

function collectLarge(root: DirNode): { path: string; size: number }[] {
  const out: { path: string; size: number }[] = [];
  const visit = (node: DirNode, prefix: string) => {
    for (const [name, l] of node.large) out.push({ path: joinRel(prefix, name), size: l.size });
    for (const [name, child] of node.dirs) visit(child, joinRel(prefix, name));
  };
  visit(root, "");
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

// ---- persisted form -------------------------------------------------------------------------

type PersistedState = {
  v: number;
  cap: number;
  /** The generation token at which every object named here was known present. */
  gen?: string;
  exclude?: string;
  /** [path, mode, size, mtimeMs, ino, oid, t] */
  files: [string, number, number, number, number, string, number][];
  /** [path, size, mtimeMs] */
  large: [string, number, number][];
  /** [dir, oid] for directories with a tree */
  trees: [string, string][];
};

function deflateState(state: State, gen: string | undefined): PersistedState {
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
  return { v: CACHE_VERSION, cap: state.cap, gen, exclude: state.excludeKey, files, large, trees };
}

function inflateState(data: PersistedState): DirNode {
  const root = new DirNode();
  const dirOf = (rel: string): DirNode => {
    if (rel === "") return root;
    let node = root;
    for (const part of rel.split("/")) {
      let next = node.dirs.get(part);
      if (!next) {
        next = new DirNode();
        node.dirs.set(part, next);
      }
      node = next;
    }
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
