/**
 * The workspace file system: the only door the editor, the agent and the terminal use to touch
 * workspace files. It confines paths to the workspace, keeps .git/ for isomorphic-git alone,
 * makes saves atomic, caches reads, and records every change in the ChangeJournal.
 *
 * isomorphic-git gets the raw `fs` (it must write .git/ and does its own locking).
 */
import { ChangeJournal } from "./journal";
import { isQuotaError, WorkspaceStorageError } from "./errors";
import {
  basenameRel,
  isGitInternal,
  isSameOrInside,
  normalizeAbsPath,
  toWorkspaceRel,
  WorkspacePathError,
} from "./paths";
import { DEFAULT_CACHE_BYTES, ReadCache } from "./read-cache";
import { HiddenPathError, hiddenRuleOf, hidingIsoFs, type HiddenPaths } from "./hidden-view";
import { codedError, isNotFound, type IsoFs, type IsoFsStat } from "./types";
import { listDirOf } from "./listing";

export type EntryType = "file" | "dir" | "symlink";
export type WorkspaceStat = { type: EntryType; size: number; mtimeMs: number; mode: number };
export type DirEntry = { name: string; type: EntryType };
export type WriteOptions = { origin?: string; mode?: number };
export type ChangeOptions = { origin?: string };

export type WorkspaceFsOptions = {
  fs: IsoFs;
  /** Absolute directory of the workspace inside `fs` (e.g. "/" or "/workspace"). */
  dir: string;
  journal?: ChangeJournal;
  cacheBytes?: number;
  readOnly?: boolean;
  /**
   * Replace files by unlink + rename instead of rename alone. Defaults to true on lightning-fs
   * (detected by its `flush`), whose rename over an existing file drops the old inode from the
   * tree but never deletes its bytes from IndexedDB, leaking them forever.
   */
  replaceByUnlink?: boolean;
  /** Share a read cache between instances (readOnlyView does). */
  readCache?: ReadCache;
  /** Paths this view does not show (`fs` must already be hidingIsoFs over them: see hidingView). */
  hidden?: HiddenPaths;
};

const encoder = new TextEncoder();

export class WorkspaceFs {
  readonly fs: IsoFs;
  readonly dir: string;
  readonly journal: ChangeJournal;
  readonly readOnly: boolean;
  readonly readCache: ReadCache;
  /** Set on a hiding view (the agent's): what it leaves out. */
  readonly hidden: HiddenPaths | null;
  private readonly replaceByUnlink: boolean;
  /** Per-path queue so two saves of one file cannot interleave their unlink/rename steps. */
  private readonly writeQueues = new Map<string, Promise<unknown>>();
  private flushing: Promise<void> | null = null;
  private flushAgain = false;

  constructor(opts: WorkspaceFsOptions) {
    this.fs = opts.fs;
    this.dir = normalizeAbsPath(opts.dir);
    this.journal = opts.journal ?? new ChangeJournal();
    this.readOnly = opts.readOnly ?? false;
    this.readCache = opts.readCache ?? new ReadCache(opts.cacheBytes ?? DEFAULT_CACHE_BYTES);
    this.replaceByUnlink = opts.replaceByUnlink ?? typeof opts.fs.promises.flush === "function";
    this.hidden = opts.hidden ?? null;
  }

  /** Normalise a caller's path (workspace-relative, or absolute inside `dir`). */
  toRel(path: string): string {
    return toWorkspaceRel(this.dir, path);
  }

  /** Absolute path inside the underlying fs for a caller's path. */
  toAbs(path: string): string {
    return this.absOf(this.toRel(path));
  }

  // ---- reading ----------------------------------------------------------------------------

  async readFile(path: string): Promise<Uint8Array> {
    const rel = this.toRel(path);
    this.assertVisible(rel);
    const abs = this.absOf(rel);
    // Taken before the stat so the cache's racy-clean check errs on the side of re-reading.
    const startedAt = Date.now();
    const st = await this.fs.promises.stat(abs);
    if (st.isDirectory()) throw codedError("EISDIR", `Cannot read ${JSON.stringify(rel)}: it is a directory`);
    const cached = this.readCache.get(rel, st);
    if (cached) return cached;
    const raw: unknown = await this.fs.promises.readFile(abs);
    // lightning-fs resolves undefined when the tree names a file whose bytes are missing from
    // IndexedDB (e.g. after a crash between a delete and the next superblock save).
    if (raw === undefined || raw === null) {
      throw codedError("ENOENT", `The contents of ${JSON.stringify(rel)} are missing from storage`);
    }
    const data = toBytes(raw as Uint8Array | string);
    this.readCache.set(rel, st, data, startedAt);
    return data;
  }

  async readText(path: string): Promise<string> {
    // ignoreBOM keeps a byte-order mark in the string so that saving the text back
    // reproduces the file byte for byte.
    return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await this.readFile(path));
  }

  async stat(path: string): Promise<WorkspaceStat | null> {
    const st = await this.lstatAbs(this.absOf(this.toRel(path)));
    if (!st) return null;
    // Only the permission bits: node includes the file-type bits, lightning-fs does not.
    return { type: typeOf(st), size: st.size, mtimeMs: st.mtimeMs, mode: st.mode & 0o7777 };
  }

  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }

  /** Entries of a directory, directories first, then by name (code-unit order, so it is the
   * same on every machine). Lists everything, `.git` included. */
  async readdir(path: string): Promise<DirEntry[]> {
    const abs = this.absOf(this.toRel(path));
    // A file system holding its tree in memory answers names and stats in one call (a walk of a
    // 10k-file tree: one lookup per folder instead of one per entry).
    const listing = await listDirOf(this.fs)?.(abs);
    const entries = listing
      ? listing.names.map((name, i) => (listing.stats[i] ? { name, type: typeOf(listing.stats[i]!) } : null))
      : await Promise.all(
          (await this.fs.promises.readdir(abs)).map(async (name): Promise<DirEntry | null> => {
            const st = await this.lstatAbs(joinAbs(abs, name));
            return st ? { name, type: typeOf(st) } : null; // vanished while listing
          }),
        );
    return entries
      .filter((e): e is DirEntry => e !== null)
      .sort((a, b) => (a.type === "dir") === (b.type === "dir") ? compareStrings(a.name, b.name) : a.type === "dir" ? -1 : 1);
  }

  /** Every non-directory path under `path` (itself if it is a file), sorted; `.git`
   * directories (at any depth, any case) are skipped unless asked for. */
  async listFiles(path = "", { includeGit = false }: { includeGit?: boolean } = {}): Promise<string[]> {
    const root = this.toRel(path);
    const st = await this.lstatAbs(this.absOf(root));
    if (!st) return [];
    if (!st.isDirectory()) return [root];
    const out: string[] = [];
    const walk = async (relDir: string): Promise<void> => {
      const subdirs: Promise<void>[] = [];
      for (const { name, type } of await this.readdir(relDir)) {
        if (!includeGit && name.toLowerCase() === ".git") continue;
        const child = relDir === "" ? name : relDir + "/" + name;
        if (type === "dir") subdirs.push(walk(child));
        else out.push(child);
      }
      await Promise.all(subdirs);
    };
    await walk(root);
    return out.sort(compareStrings);
  }

  // ---- writing ----------------------------------------------------------------------------

  /**
   * Save a file atomically: the bytes go to a sibling temp file first and only replace the
   * target once fully written, so a failed save (full storage, a crash) leaves the previous
   * version intact instead of a truncated file.
   */
  async writeFile(path: string, data: string | Uint8Array, opts: WriteOptions = {}): Promise<void> {
    const rel = this.toRel(path);
    this.assertWritable(rel, "write");
    try {
      await this.serialized(rel, () => this.writeFileNow(rel, data, opts));
    } catch (err) {
      // lightning-fs may fail on its own file-tree save (e.g. when it wakes from idle) before the
      // temp write even starts: a full disk is still a full disk, with the file untouched.
      if (!(err instanceof WorkspaceStorageError) && isQuotaError(err)) throw storageError(rel, err);
      throw err;
    }
    this.journal.record({ kind: "write", path: rel, origin: opts.origin });
  }

  private async writeFileNow(rel: string, data: string | Uint8Array, opts: WriteOptions): Promise<void> {
    const p = this.fs.promises;
    const abs = this.absOf(rel);
    const existing = await this.lstatAbs(abs);
    if (existing?.isDirectory()) throw codedError("EISDIR", `Cannot write ${JSON.stringify(rel)}: it is a directory`);
    // Keep the executable bit of the file being replaced (a symlink's mode is not a file mode).
    const mode = opts.mode ?? (existing?.isFile() ? existing.mode & 0o7777 : undefined);
    await this.mkdirpAbs(parentAbs(abs));

    const tmp = joinAbs(parentAbs(abs), `.${basenameRel(rel)}.tabula-tmp-${randomSuffix()}`);
    try {
      await p.writeFile(tmp, storableBytes(data), mode === undefined ? undefined : { mode });
      // node applies the umask to a new file's mode; chmod makes the kept mode exact.
      if (mode !== undefined && p.chmod) await p.chmod(tmp, mode);
    } catch (err) {
      await p.unlink(tmp).catch(() => undefined);
      throw storageError(rel, err);
    }

    let targetRemoved = false;
    try {
      if (existing && this.replaceByUnlink) {
        await p.unlink(abs);
        targetRemoved = true;
      }
      await p.rename(tmp, abs);
    } catch (err) {
      // Once the old version is gone the temp file holds the only copy: keep it.
      if (!targetRemoved) await p.unlink(tmp).catch(() => undefined);
      throw targetRemoved
        ? new WorkspaceStorageError("IO", rel, `Could not save ${rel}; the new contents were left in ${tmp}`, err)
        : storageError(rel, err);
    } finally {
      this.readCache.delete(rel);
    }
    if (targetRemoved) this.persistSoon();
  }

  /** Create a directory and any missing parents. Already a directory → no-op, no event. */
  async mkdir(path: string, opts: ChangeOptions = {}): Promise<void> {
    const rel = this.toRel(path);
    this.assertWritable(rel, "create");
    const abs = this.absOf(rel);
    const existing = await this.lstatAbs(abs);
    if (existing) {
      if (existing.isDirectory()) return;
      throw codedError("EEXIST", `Cannot create directory ${JSON.stringify(rel)}: a file exists there`);
    }
    await this.mkdirpAbs(abs);
    this.journal.record({ kind: "mkdir", path: rel, origin: opts.origin });
  }

  /** Delete a file, or a directory with everything in it (one journal event for the root). */
  async remove(path: string, opts: ChangeOptions = {}): Promise<void> {
    const rel = this.toRel(path);
    this.assertWritable(rel, "delete");
    const abs = this.absOf(rel);
    const st = await this.lstatAbs(abs);
    if (!st) throw codedError("ENOENT", `Cannot delete ${JSON.stringify(rel)}: it does not exist`);
    try {
      if (st.isDirectory()) await this.removeTree(abs);
      else await this.fs.promises.unlink(abs);
    } finally {
      this.readCache.deletePrefix(rel);
    }
    this.persistSoon();
    this.journal.record({ kind: "delete", path: rel, origin: opts.origin });
  }

  /** Move a file or directory; refuses to overwrite, creates the destination's parents. */
  async rename(from: string, to: string, opts: ChangeOptions = {}): Promise<void> {
    const src = this.toRel(from);
    const dst = this.toRel(to);
    this.assertWritable(src, "move");
    this.assertWritable(dst, "move");
    if (src === dst) return;
    if (isSameOrInside(dst, src)) {
      throw new WorkspacePathError("INVALID", to, `Cannot move ${JSON.stringify(src)} into itself`);
    }
    const srcAbs = this.absOf(src);
    const dstAbs = this.absOf(dst);
    const s = await this.lstatAbs(srcAbs);
    if (!s) throw codedError("ENOENT", `Cannot move ${JSON.stringify(src)}: it does not exist`);
    const d = await this.lstatAbs(dstAbs);
    // On a case-insensitive fs "a"→"A" finds the source itself at the destination.
    const caseOnly = d !== null && src.toLowerCase() === dst.toLowerCase() && d.ino !== undefined && d.ino === s.ino;
    if (d && !caseOnly) throw codedError("EEXIST", `Cannot move to ${JSON.stringify(dst)}: it already exists`);
    await this.mkdirpAbs(parentAbs(dstAbs));
    try {
      await this.fs.promises.rename(srcAbs, dstAbs);
    } finally {
      this.readCache.deletePrefix(src);
      this.readCache.deletePrefix(dst);
    }
    this.journal.record({ kind: "rename", path: dst, from: src, origin: opts.origin });
  }

  /** Persist now (lightning-fs otherwise saves its file tree 500 ms after the last write). */
  async flush(): Promise<void> {
    try {
      if (this.flushing) await this.flushing;
      if (this.fs.promises.flush) {
        // lightning-fs's flush does not wait for its own start-up (it throws before the first
        // call has finished opening the database); any ordinary call does wait.
        await this.fs.promises.lstat("/").catch(() => undefined);
        await this.fs.promises.flush();
      }
    } catch (err) {
      // The file tree could not be written (lightning-fs's superblock): say so in the user's terms.
      if (isQuotaError(err)) {
        throw new WorkspaceStorageError("QUOTA", "", "Storage is full: the latest changes could not be stored. Free space (delete or export a workspace) and save again.", err);
      }
      throw err;
    }
  }

  /** Same storage, journal and cache; every mutation refused with EROFS. */
  readOnlyView(): WorkspaceFs {
    return new WorkspaceFs({
      fs: this.fs,
      dir: this.dir,
      journal: this.journal,
      readOnly: true,
      readCache: this.readCache,
      replaceByUnlink: this.replaceByUnlink,
      hidden: this.hidden ?? undefined,
    });
  }

  /**
   * Same storage, journal and cache, with the paths `hidden` names absent (lib/fs/hidden-view):
   * the view the agent's tools and shell get. Composes with readOnlyView either way round.
   */
  hidingView(hidden: HiddenPaths): WorkspaceFs {
    const outer = this.hidden;
    const both: HiddenPaths = outer
      ? { ruleFor: (rel) => outer.ruleFor(rel) ?? hidden.ruleFor(rel), isEmpty: () => (outer.isEmpty?.() ?? false) && (hidden.isEmpty?.() ?? false) }
      : hidden;
    return new WorkspaceFs({
      fs: hidingIsoFs(this.fs, this.dir, hidden),
      dir: this.dir,
      journal: this.journal,
      readOnly: this.readOnly,
      readCache: this.readCache,
      replaceByUnlink: this.replaceByUnlink,
      hidden: both,
    });
  }

  // ---- internals --------------------------------------------------------------------------

  private absOf(rel: string): string {
    if (rel === "") return this.dir;
    return this.dir === "/" ? "/" + rel : this.dir + "/" + rel;
  }

  /** The early, by-name refusal (the fs below also follows symlinks). */
  private assertVisible(rel: string): void {
    const rule = this.hidden ? hiddenRuleOf(this.hidden, rel) : null;
    if (rule) throw new HiddenPathError(rel, rule);
  }

  private assertWritable(rel: string, verb: string): void {
    this.assertVisible(rel);
    if (this.readOnly) {
      throw codedError("EROFS", `Cannot ${verb} ${JSON.stringify(rel)}: this workspace is open read-only (another tab is editing it)`);
    }
    if (rel === "") throw new WorkspacePathError("INVALID", rel, `Cannot ${verb} the workspace root`);
    if (isGitInternal(rel)) throw new WorkspacePathError("GITDIR", rel);
  }

  private async lstatAbs(abs: string): Promise<IsoFsStat | null> {
    try {
      return await this.fs.promises.lstat(abs);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** mkdir -p (lightning-fs has no `recursive` option). */
  private async mkdirpAbs(abs: string): Promise<void> {
    const st = await this.lstatAbs(abs);
    if (st) {
      if (st.isDirectory()) return;
      throw codedError("ENOTDIR", `Cannot create ${abs}: a file is in the way`);
    }
    if (abs !== "/") await this.mkdirpAbs(parentAbs(abs));
    try {
      await this.fs.promises.mkdir(abs);
    } catch (err) {
      if ((err as { code?: unknown }).code !== "EEXIST") throw err; // lost a race: fine
    }
  }

  private async removeTree(abs: string): Promise<void> {
    const names = await this.fs.promises.readdir(abs);
    // In parallel: on IndexedDB each delete is a request, and the backend pipelines them.
    await Promise.all(
      names.map(async (name) => {
        const child = joinAbs(abs, name);
        const st = await this.lstatAbs(child);
        if (!st) return;
        if (st.isDirectory()) await this.removeTree(child);
        else await this.fs.promises.unlink(child);
      }),
    );
    await this.fs.promises.rmdir(abs);
  }

  private async serialized<T>(rel: string, task: () => Promise<T>): Promise<T> {
    const previous = this.writeQueues.get(rel) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(task);
    const settled = run.catch(() => undefined);
    this.writeQueues.set(rel, settled);
    try {
      return await run;
    } finally {
      if (this.writeQueues.get(rel) === settled) this.writeQueues.delete(rel);
    }
  }

  /**
   * lightning-fs deletes a file's bytes from IndexedDB at once but saves the tree that names
   * it only 500 ms later; a crash in between leaves a name with no bytes. Start a save right
   * away (coalesced: at most one running and one queued) to shrink that window to one save.
   */
  private persistSoon(): void {
    const flush = this.fs.promises.flush;
    if (typeof flush !== "function") return;
    if (this.flushing) {
      this.flushAgain = true;
      return;
    }
    this.flushing = (async () => {
      do {
        this.flushAgain = false;
        try {
          await flush.call(this.fs.promises);
        } catch {
          // The debounced save lightning-fs schedules itself will retry.
        }
      } while (this.flushAgain);
    })().finally(() => {
      this.flushing = null;
    });
  }
}

function typeOf(st: IsoFsStat): EntryType {
  if (st.isDirectory()) return "dir";
  if (st.isSymbolicLink()) return "symlink";
  return "file";
}

function toBytes(raw: Uint8Array | string): Uint8Array {
  if (typeof raw === "string") return encoder.encode(raw);
  // Always a fresh plain view: node returns a Buffer subclass and lightning-fs patches a
  // `toString` onto the array it returns; neither should leak to callers.
  return new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
}

/** IndexedDB structured-clones a typed array's whole ArrayBuffer, so a small view into a big
 * buffer (node's pooled Buffers, subarray()) would store the big buffer: copy those. */
function storableBytes(input: string | Uint8Array): Uint8Array {
  // node's TextEncoder may return a view into a larger buffer, so strings need the check too.
  const data = typeof input === "string" ? encoder.encode(input) : input;
  if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.constructor === Uint8Array) return data;
  return new Uint8Array(data);
}

function storageError(rel: string, err: unknown): WorkspaceStorageError {
  if (isQuotaError(err)) {
    return new WorkspaceStorageError("QUOTA", rel, `Storage is full: ${rel} was not saved; your previous version is intact`, err);
  }
  const reason = err instanceof Error ? err.message : String(err);
  return new WorkspaceStorageError("IO", rel, `Could not save ${rel} (${reason}); your previous version is intact`, err);
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 10);
}

function joinAbs(dir: string, name: string): string {
  return dir === "/" ? "/" + name : dir + "/" + name;
}

function parentAbs(abs: string): string {
  const i = abs.lastIndexOf("/");
  return i <= 0 ? "/" : abs.slice(0, i);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

