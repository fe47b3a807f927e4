/**
 * Bringing the DirNode mirror up to date with the working tree (see engine.ts for when each
 * mode is used):
 * - walk (`scanDir`): readdir + lstat of every non-ignored directory; a file is queued for
 *   hashing when its (mode, size, mtime, ino) differ from its record or the record is racy
 *   (the file's mtime not older than the moment it was recorded, minus RACY_MARGIN_MS).
 * - journal (`applyDirty`): only the paths the change journal names, each meaning "this path
 *   and everything below it".
 * Queued files are read and hashed afterwards (`hashPending`), in batches with `readMany`.
 */
import type { IsoFs, IsoFsStat } from "../fs/types";
import { DirNode, gitModeOf, markDirty, removeAt } from "./dir-tree";
import { workingTreeRules, type Rules } from "./ignore";
import { MODE_LINK, type ObjectStore, type ObjectWriter } from "./objects";
import {
  asBytes,
  baseName,
  isGitName,
  isNotFound,
  joinAbs,
  joinRel,
  lstatOrNull,
  mapLimit,
  normalizeRel,
  parentRel,
  readdirOrEmpty,
  Semaphore,
  utf8,
} from "./util";
import { RACY_MARGIN_MS } from "../fs/racy-margin";

export const IO_LIMIT = 32;
const READ_BATCH = 256;
const READ_AHEAD = 4;

/** Optional accelerator: read many files at once (e.g. one IndexedDB transaction); an entry
 * left undefined is read the ordinary way. */
export type ReadMany = (absPaths: string[], stats: IsoFsStat[]) => Promise<(Uint8Array | undefined)[]>;

/**
 * Optional accelerator: a directory's names with every entry's lstat, in one call (what a walk
 * would get from readdir and one lstat per entry). `undefined` means "not here": the walk
 * lists the directory the ordinary way. A `null` stat is an entry gone while listing.
 */
export type ListDir = (absDir: string) => Promise<{ names: string[]; stats: (IsoFsStat | null)[] } | undefined>;

export type ScanStats = {
  mode: "journal" | "walk";
  filesHashed: number;
  bytesHashed: number;
  pathsChecked: number;
  nestedReposSkipped: string[];
};

type PendingFile = { node: DirNode; name: string; rel: string; st: IsoFsStat; t: number; mode: number };

export type ScanCtx = {
  pending: PendingFile[];
  readMany?: ReadMany;
  listDir?: ListDir;
  /** Ignore rules; applyDirty may replace them with fresh ones (read them back after). */
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

const KIND_UNKNOWN = 0;
const KIND_FILE = 1;
const KIND_DIR = 2;
const KIND_LINK = 3;
/** FIFOs, sockets, devices: never captured (git does not either). */
const KIND_OTHER = 4;
const WITH_FILE_TYPES = { withFileTypes: true } as const;

type DirentLike = {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO?(): boolean;
  isSocket?(): boolean;
  isCharacterDevice?(): boolean;
  isBlockDevice?(): boolean;
};
/** Names in listing order; `kinds` (KIND_*) only when the backend's readdir gave types. */
type Listing = { names: string[]; kinds?: Uint8Array };

/** `rel/name` ignored, for a directory `rel` the walk did not ignore. */
function ignoredChild(rules: Rules, rel: string, name: string, isDir: boolean): boolean {
  return rules.testChild ? rules.testChild(rel, name, isDir) : rules.test(joinRel(rel, name), isDir);
}

const identity = <T>(x: T): T => x;
function nullIfNotFound(err: unknown): null {
  if (isNotFound(err)) return null;
  throw err;
}

export class Scanner {
  constructor(
    readonly fs: IsoFs,
    readonly dir: string,
    private readonly store: ObjectStore,
  ) {}

  abs(rel: string): string {
    return joinAbs(this.dir, rel);
  }


  /**
   * Drop file records whose blob and tree oids whose object is missing from the repository
   * (their directories become dirty, so the scan re-hashes and rebuilds them). A directory
   * whose tree object is present but a child's object is missing is rebuilt too.
   */
  async verifyObjects(root: DirNode): Promise<void> {
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

  /**
   * Returns false when `rel` turned out to be a nested repository (left out, like ignored).
   * The per-entry cost is what a walk costs (≈13k entries at 10k files), so: one listing with
   * file types where the backend gives them (node; lightning-fs gives names only, and then
   * every entry is lstat'ed), no lstat for directories, the files' lstats of one directory
   * issued together under one semaphore slot, and one clock reading per directory taken
   * before them (an earlier recording time only makes more entries racy, never fewer). With
   * `ctx.listDir` the stats come with the listing.
   */
  async scanDir(ctx: ScanCtx, rel: string, node: DirNode): Promise<boolean> {
    const abs = this.abs(rel);
    const t0 = Date.now();
    const listed = ctx.listDir ? await ctx.sem.run(() => ctx.listDir!(abs).catch(() => undefined)) : undefined;
    const listing: Listing = listed ?? (await ctx.sem.run(() => this.list(abs)));
    const names = listing.names;
    if (rel !== "" && names.some(isGitName)) {
      ctx.stats.nestedReposSkipped.push(rel);
      return false;
    }
    ctx.rules.noteListing?.(rel, names.includes(".gitignore"));
    await ctx.rules.prepare(rel === "" ? "x" : rel + "/x");
    let changed = node.oid === undefined;
    const seen = new Set<string>();
    const subdirs: string[] = [];
    if (listed) {
      // Every entry's lstat came with the listing: no lstat calls, and each kind is known
      // before the ignore rules are asked.
      ctx.stats.pathsChecked += names.length;
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!;
        const st = listed.stats[i];
        if (!st || isGitName(name) || isTransient(name)) continue;
        if (st.isDirectory()) subdirs.push(name);
        else if (st.isFile() || st.isSymbolicLink()) {
          if (ignoredChild(ctx.rules, rel, name, false)) continue;
          seen.add(name);
          if (this.scanFile(ctx, node, name, joinRel(rel, name), st, t0)) changed = true;
        }
      }
    }
    const toStat: string[] = [];
    /** Entries in toStat whose ignore verdict is still to be found (their kind was unknown). */
    const untested = new Set<string>();
    for (let i = 0; i < (listed ? 0 : names.length); i++) {
      const name = names[i]!;
      if (isGitName(name) || isTransient(name)) continue;
      const kind = listing.kinds?.[i] ?? KIND_UNKNOWN;
      if (kind === KIND_DIR) subdirs.push(name);
      else if (kind === KIND_FILE) {
        if (!ignoredChild(ctx.rules, rel, name, false)) toStat.push(name);
      } else if (kind !== KIND_OTHER) {
        toStat.push(name); // symlinks and unknown types
        untested.add(name);
      }
    }
    ctx.stats.pathsChecked += subdirs.length + toStat.length;
    if (toStat.length > 0) {
      const t = Date.now();
      const prefix = abs.endsWith("/") ? abs : abs + "/";
      const fsp = this.fs.promises;
      const stats = await ctx.sem.run(() => Promise.all(toStat.map((name) => fsp.lstat(prefix + name).then(identity, nullIfNotFound))));
      for (let i = 0; i < toStat.length; i++) {
        const st = stats[i];
        if (!st) continue;
        const name = toStat[i]!;
        const childRel = joinRel(rel, name);
        if (st.isDirectory()) subdirs.push(name);
        else if (st.isFile() || st.isSymbolicLink()) {
          if (untested.has(name) && ignoredChild(ctx.rules, rel, name, false)) continue;
          seen.add(name);
          if (this.scanFile(ctx, node, name, childRel, st, t)) changed = true;
        }
      }
    }
    const results = await Promise.all(
      subdirs.map(async (name) => {
        if (ignoredChild(ctx.rules, rel, name, true)) return false;
        const childRel = joinRel(rel, name);
        if (node.files.delete(name)) changed = true; // a file became a directory
        node.large.delete(name);
        let child = node.dirs.get(name);
        const isNew = !child;
        child ??= new DirNode();
        if (!(await this.scanDir(ctx, childRel, child))) return false;
        seen.add(name);
        if (isNew) node.dirs.set(name, child);
        return child.oid === undefined;
      }),
    );
    if (results.includes(true)) changed = true;
    for (const name of node.dirs.keys()) {
      if (!seen.has(name)) {
        node.dirs.delete(name);
        changed = true;
      }
    }
    for (const name of node.files.keys()) {
      if (!seen.has(name)) {
        node.files.delete(name);
        changed = true;
      }
    }
    for (const name of node.large.keys()) if (!seen.has(name)) node.large.delete(name);
    if (changed) node.oid = undefined;
    return true;
  }

  /** A directory's names, with their kinds when the backend's readdir gives file types. */
  private async list(abs: string): Promise<Listing> {
    const readdir = this.fs.promises.readdir as (path: string, options?: { withFileTypes: true }) => Promise<unknown[]>;
    let raw: unknown[];
    try {
      raw = await readdir.call(this.fs.promises, abs, WITH_FILE_TYPES);
    } catch (err) {
      if (isNotFound(err)) return { names: [] };
      throw err;
    }
    if (raw.length === 0 || typeof raw[0] === "string") return { names: raw as string[] }; // options ignored (lightning-fs)
    const names: string[] = new Array(raw.length);
    const kinds = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) {
      const d = raw[i] as DirentLike;
      names[i] = String(d.name);
      kinds[i] = d.isFile() ? KIND_FILE : d.isDirectory() ? KIND_DIR : d.isSymbolicLink() ? KIND_LINK : d.isFIFO?.() || d.isSocket?.() || d.isCharacterDevice?.() || d.isBlockDevice?.() ? KIND_OTHER : KIND_UNKNOWN;
    }
    return { names, kinds };
  }

  /** Check one file against its record; true when the tree above must be rebuilt. */
  private scanFile(ctx: ScanCtx, node: DirNode, name: string, rel: string, st: IsoFsStat, t: number): boolean {
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
      rec.mtimeMs + RACY_MARGIN_MS < rec.t
    ) {
      return changed;
    }
    // Read and hash later, in batches (hashPending): the tree above is dirty either way.
    ctx.pending.push({ node, name, rel, st, t, mode });
    return true;
  }

  /** Read and hash the files the scan found changed; with `readMany`, in batched reads. */
  async hashPending(ctx: ScanCtx): Promise<void> {
    const items = ctx.pending;
    ctx.pending = [];
    if (items.length === 0) return;
    const readMany = ctx.readMany;
    if (!readMany) {
      await mapLimit(items, IO_LIMIT, (it) => this.hashOne(ctx, it, undefined));
      return;
    }
    // In inode order: the walk finds files in whatever order its parallel listings finish,
    // while a backend that numbers inodes as files are created (lightning-fs) keeps neighbours
    // together, so sorted batches are a few ranged reads each instead of hundreds of gets.
    items.sort((a, b) => (a.st.ino ?? 0) - (b.st.ino ?? 0));
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
    // Several batches in flight: IndexedDB serves parallel transactions ~30% faster than the
    // same reads one transaction after another (measured in Chromium: 10,000 files 590–620 ms
    // against 770–890 ms); the window bounds the bytes held.
    const inFlight = batches.slice(0, READ_AHEAD).map(read);
    for (let b = 0; b < batches.length; b++) {
      const got = await inFlight[b]!;
      inFlight[b] = undefined as never; // let the batch's bytes go once hashed
      if (b + READ_AHEAD < batches.length) inFlight[b + READ_AHEAD] = read(batches[b + READ_AHEAD]!);
      // readMany may bypass the fs (lightning-fs: straight to IndexedDB); one cheap call per batch
      // keeps lightning-fs from unloading its tree after 500 ms without calls, which the steps
      // after hashing would pay for by loading it again (~50 ms at 10,000 files).
      if (b % 4 === 3) void this.fs.promises.lstat(this.dir).catch(() => undefined);
      await mapLimit(batches[b]!, IO_LIMIT, (it) => this.hashOne(ctx, it, got.get(it)));
    }
  }

  private async hashOne(ctx: ScanCtx, it: PendingFile, pre: Uint8Array | undefined): Promise<void> {
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
  async applyDirty(ctx: ScanCtx, root: DirNode, dirty: Set<string>): Promise<void> {
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
    }
    await Promise.all(roots.map((p) => this.refreshPath(ctx, root, p)));
  }

  private async refreshPath(ctx: ScanCtx, root: DirNode, p: string): Promise<void> {
    ctx.stats.pathsChecked++;
    await ctx.rules.prepare(p);
    const t = Date.now();
    const st = await ctx.sem.run(() => lstatOrNull(this.fs, this.abs(p)));
    const isDir = st?.isDirectory() ?? false;
    const name = baseName(p);
    if (!st || (!isDir && !st.isFile() && !st.isSymbolicLink()) || isTransient(name) || ctx.rules.test(p, isDir)) {
      removeAt(root, p);
      return;
    }
    const parent = await this.ensureDirChain(ctx, root, parentRel(p));
    if (!parent) {
      removeAt(root, p);
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
        removeAt(root, p);
        return;
      }
      if (isNew) parent.dirs.set(name, node);
      if (node.oid === undefined) changed = true;
    } else {
      changed = await this.scanFile(ctx, parent, name, p, st, t);
    }
    if (changed) markDirty(root, parentRel(p));
  }

  /** The node for directory `rel`, creating missing ones after checking they are real,
   * non-ignored directories outside nested repositories; null when they are not. */
  private async ensureDirChain(ctx: ScanCtx, root: DirNode, rel: string): Promise<DirNode | null> {
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
        // Paths are refreshed in parallel: another one in this new directory may have made
        // its node while we waited (replacing it would drop what that path recorded).
        next = node.dirs.get(part);
        if (!next) {
          next = new DirNode();
          node.files.delete(part);
          node.large.delete(part);
          node.dirs.set(part, next);
          node.oid = undefined;
        }
      }
      node = next;
    }
    return node;
  }
}
