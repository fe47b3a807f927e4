/**
 * just-bash `IFileSystem` over a WorkspaceFs.
 *
 * Mounted by the shell at its workspace mount point, so the paths this class receives are
 * mount-relative absolute paths ("/src/a.ts" means `<workspace>/src/a.ts`).
 *
 * - Reads go through the WorkspaceFs stat-validated read cache; stat/readdir go to the raw fs
 *   (in memory on lightning-fs, cheap), memoised while a command line runs.
 * - Every content change goes through WorkspaceFs (atomic writes, journal events with the
 *   shell's origin, cache invalidation, confinement, and its refusal to write into `.git/`).
 *   The few metadata operations WorkspaceFs has no method for (symlink, directory chmod,
 *   utimes) are applied to the raw fs after the same checks.
 * - Read-only mode refuses every mutating call with EROFS before touching anything.
 *
 * Errors carry node-style codes and messages (`ENOENT: no such file or directory, open '/x'`),
 * the shape just-bash's own InMemoryFs throws and its commands understand.
 */
import type { IFileSystem } from "just-bash";
import { WorkspaceStorageError } from "../fs/errors";
import { isHiddenPathError } from "../fs/hidden-view";
import { isGitInternal, normalizeRelPath, WorkspacePathError } from "../fs/paths";
import type { IsoFsStat } from "../fs/types";
import type { WorkspaceFs } from "../fs/workspace-fs";
import { normalizeShellPath, resolveShellPath } from "./paths";
import { RACY_MARGIN_MS } from "../fs/racy-margin";

type FileContent = string | Uint8Array;
type Encoding = "utf8" | "utf-8" | "ascii" | "binary" | "base64" | "hex" | "latin1";
type EncodingOpt = Encoding | { encoding?: Encoding | null } | null | undefined;

export type ShellFsStat = {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  mode: number;
  size: number;
  mtime: Date;
  ino?: number;
  dev?: number;
};

export type DirentLike = { name: string; isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean };

/** A write the adapter refused (read-only mode, or `.git/`). */
export type DeniedWrite = { op: string; path: string; code: "EROFS" | "EACCES" };

export type WorkspaceShellFsOptions = {
  wsfs: WorkspaceFs;
  /** Where the shell mounts the workspace (used to translate absolute symlink targets). */
  mountPoint: string;
  readOnly?: boolean;
  /** Journal origin of the changes (default "shell"). */
  origin?: string;
  onDenied?: (d: DeniedWrite) => void;
};

const DESCRIPTIONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EEXIST: "file already exists",
  EISDIR: "illegal operation on a directory",
  ENOTDIR: "not a directory",
  ENOTEMPTY: "directory not empty",
  EROFS: "read-only file system",
  EACCES: "permission denied",
  EINVAL: "invalid argument",
  EBUSY: "resource busy or locked",
  ENOSPC: "no space left on device",
  EIO: "i/o error",
  ELOOP: "too many symbolic links encountered",
  EPERM: "operation not permitted",
};

export type ShellFsError = Error & { code: string; path: string; syscall: string };

type MemoEntry = { lstat?: IsoFsStat | null; stat?: IsoFsStat | null; readdir?: string[] };
type TextEntry = { mtimeMs: number; size: number; ino?: number; cachedAt: number; text: string };

const TEXT_CACHE_CHARS = 16 * 1024 * 1024;

/** A node-style error; `path` is mount-relative (what just-bash passed in). */
export function fsError(code: string, syscall: string, path: string, message?: string): ShellFsError {
  const text = message ?? `${code}: ${DESCRIPTIONS[code] ?? "error"}, ${syscall} '${path}'`;
  const err = new Error(text) as ShellFsError;
  err.code = code;
  err.path = path;
  err.syscall = syscall;
  return err;
}

const utf8 = new TextEncoder();

function decodeUtf8(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

/** Bytes → latin1-shaped string (one char per byte). */
export function bytesToLatin1(bytes: Uint8Array): string {
  let out = "";
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return out;
}

export function latin1ToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

function encodingOf(opt: EncodingOpt): Encoding | null {
  if (opt == null) return null;
  if (typeof opt === "string") return opt;
  return opt.encoding ?? null;
}

function toBytes(content: FileContent, opt: EncodingOpt): Uint8Array {
  if (typeof content !== "string") return content;
  switch (encodingOf(opt)) {
    case "binary":
    case "latin1":
      return latin1ToBytes(content);
    case "base64": {
      const bin = atob(content.replace(/[^A-Za-z0-9+/=]/g, ""));
      return latin1ToBytes(bin);
    }
    case "hex": {
      const clean = content.replace(/[^0-9a-fA-F]/g, "");
      const out = new Uint8Array(clean.length >> 1);
      for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
      return out;
    }
    default:
      return utf8.encode(content);
  }
}

function fromBytes(bytes: Uint8Array, opt: EncodingOpt): string {
  switch (encodingOf(opt)) {
    case "binary":
    case "latin1":
      return bytesToLatin1(bytes);
    case "base64":
      return btoa(bytesToLatin1(bytes));
    case "hex":
      return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    default:
      return decodeUtf8(bytes);
  }
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function errCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

export class WorkspaceShellFs implements IFileSystem {
  readonly wsfs: WorkspaceFs;
  readonly readOnly: boolean;
  readonly origin: string;
  readonly mountPoint: string;
  private readonly onDenied?: (d: DeniedWrite) => void;
  /**
   * Metadata memo (lstat/stat/readdir by path) kept only while a command line runs: just-bash
   * commands stat the same paths several times, and every lightning-fs call pays a wrapper
   * with timers. Any change seen by the journal, any write made here and every git command
   * clears it, so it never outlives a change the shell could observe.
   */
  private memo: Map<string, MemoEntry> | null = null;
  private batches = 0;
  private unsubscribe: (() => void) | null = null;
  /** Decoded text of recently read files, validated by stat like WorkspaceFs' read cache
   * (the grep fast path reads text; this skips the byte copy and the decoding). */
  private readonly texts = new Map<string, TextEntry>();
  private textChars = 0;

  constructor(opts: WorkspaceShellFsOptions) {
    this.readOnly = opts.readOnly ?? false;
    // Belt and braces: in read-only mode even a bug here cannot write through wsfs.
    this.wsfs = this.readOnly && !opts.wsfs.readOnly ? opts.wsfs.readOnlyView() : opts.wsfs;
    this.origin = opts.origin ?? "shell";
    this.mountPoint = opts.mountPoint;
    this.onDenied = opts.onDenied;
  }

  /** Start memoising metadata (nestable; pair with endBatch). */
  beginBatch(): void {
    if (this.batches++ === 0) {
      this.memo = new Map();
      this.unsubscribe = this.wsfs.journal.subscribe(() => this.invalidate());
    }
  }

  endBatch(): void {
    if (this.batches === 0) return;
    if (--this.batches === 0) {
      this.memo = null;
      this.unsubscribe?.();
      this.unsubscribe = null;
    }
  }

  /** Forget memoised metadata (after writes, or around commands that write the raw fs). */
  invalidate(): void {
    this.memo?.clear();
  }

  // ---- path helpers -----------------------------------------------------------------------

  private rel(p: string): string {
    // Fast path for the already-normal paths MountableFs hands over ("/a/b").
    if (p === "/" || p === "") return "";
    if (p.charCodeAt(0) === 47 && !/\/\/|\/\.\.?(?:\/|$)|\/$|\\|\0/.test(p)) return p.slice(1);
    try {
      return normalizeRelPath(normalizeShellPath(p));
    } catch (err) {
      throw this.mapError(err, "open", p);
    }
  }

  /** `rel` is already normalised (rel() made it), so this is a plain join. */
  private abs(rel: string): string {
    const dir = this.wsfs.dir;
    if (rel === "") return dir;
    return dir === "/" ? "/" + rel : dir + "/" + rel;
  }

  private get raw() {
    return this.wsfs.fs.promises;
  }

  private memoEntry(rel: string): MemoEntry | null {
    if (!this.memo) return null;
    let e = this.memo.get(rel);
    if (!e) {
      e = {};
      this.memo.set(rel, e);
    }
    return e;
  }

  /** Raw stat/lstat through the memo; null when the path does not exist. Other errors throw. */
  private async statRaw(rel: string, follow: boolean): Promise<IsoFsStat | null> {
    const m = this.memoEntry(rel);
    if (m) {
      const cached = follow ? m.stat : m.lstat;
      if (cached !== undefined) return cached;
      // A non-link's lstat is its stat.
      if (follow && m.lstat && !m.lstat.isSymbolicLink()) return m.lstat;
    }
    let st: IsoFsStat | null;
    try {
      st = follow ? await this.raw.stat(this.abs(rel)) : await this.raw.lstat(this.abs(rel));
    } catch (err) {
      const code = errCode(err);
      if (code === "ENOENT" || code === "ENOTDIR" || code === "NotFoundError") st = null;
      else throw err;
    }
    if (m) {
      if (follow) m.stat = st;
      else m.lstat = st;
    }
    return st;
  }

  private lstatRaw(rel: string): Promise<IsoFsStat | null> {
    return this.statRaw(rel, false);
  }

  /** Throws EROFS (read-only) or EACCES (.git) before any mutation. */
  private guard(op: string, p: string, rel: string): void {
    if (this.readOnly) {
      this.onDenied?.({ op, path: p, code: "EROFS" });
      throw fsError("EROFS", op, p, "Read-only file system");
    }
    if (isGitInternal(rel)) {
      this.onDenied?.({ op, path: p, code: "EACCES" });
      throw fsError("EACCES", op, p, "Permission denied (.git is changed only by git commands)");
    }
    if (rel === "") throw fsError("EBUSY", op, p, "Device or resource busy (the workspace root)");
  }

  private mapError(err: unknown, syscall: string, p: string): Error {
    // A path the agent's view hides: say who hides it (the message names the policy).
    if (isHiddenPathError(err)) return fsError("EACCES", syscall, p, `Permission denied (${err.message})`);
    if (err instanceof WorkspacePathError) {
      if (err.code === "GITDIR") {
        this.onDenied?.({ op: syscall, path: p, code: "EACCES" });
        return fsError("EACCES", syscall, p, "Permission denied (.git is changed only by git commands)");
      }
      if (err.code === "ESCAPE") return fsError("EACCES", syscall, p, "Permission denied (outside the workspace)");
      if (err.code === "INVALID" && err.path === "") return fsError("EBUSY", syscall, p, "Device or resource busy (the workspace root)");
      return fsError("EINVAL", syscall, p);
    }
    if (err instanceof WorkspaceStorageError) {
      if (err.code === "QUOTA") return fsError("ENOSPC", syscall, p, "No space left on device (browser storage is full)");
      return fsError("EIO", syscall, p, `Input/output error (${err.message})`);
    }
    const code = errCode(err);
    if (code === "EROFS") {
      this.onDenied?.({ op: syscall, path: p, code: "EROFS" });
      return fsError("EROFS", syscall, p, "Read-only file system");
    }
    if (code === "NotFoundError") return fsError("ENOENT", syscall, p);
    if (code && /^E[A-Z]+$/.test(code)) return fsError(code, syscall, p);
    return fsError("EIO", syscall, p, `Input/output error (${err instanceof Error ? err.message : String(err)})`);
  }

  private toStat(st: IsoFsStat): ShellFsStat {
    const out: ShellFsStat = {
      isFile: st.isFile(),
      isDirectory: st.isDirectory(),
      isSymbolicLink: st.isSymbolicLink(),
      mode: st.mode & 0o7777,
      size: st.size,
      mtime: new Date(st.mtimeMs),
      dev: 1,
    };
    if (typeof st.ino === "number") out.ino = st.ino;
    return out;
  }

  // ---- reading ----------------------------------------------------------------------------

  async readFile(path: string, options?: EncodingOpt): Promise<string> {
    return fromBytes(await this.readFileBuffer(path), options);
  }

  /** UTF-8 text of a file through a stat-validated text cache (for the grep fast path). */
  async readText(path: string): Promise<string> {
    const rel = this.rel(path);
    const st = await this.statRaw(rel, true).catch((err: unknown) => {
      throw this.mapError(err, "open", path);
    });
    if (!st) throw fsError("ENOENT", "open", path);
    if (st.isDirectory()) throw fsError("EISDIR", "read", path);
    const hit = this.texts.get(rel);
    if (
      hit &&
      hit.mtimeMs === st.mtimeMs &&
      hit.size === st.size &&
      (hit.ino === undefined || hit.ino === st.ino) &&
      st.mtimeMs + RACY_MARGIN_MS <= hit.cachedAt
    ) {
      return hit.text;
    }
    const startedAt = Date.now();
    const text = decodeUtf8(await this.readFileBuffer(path));
    if (hit) {
      this.texts.delete(rel);
      this.textChars -= hit.text.length;
    }
    if (text.length <= TEXT_CACHE_CHARS / 16) {
      const entry: TextEntry = { mtimeMs: st.mtimeMs, size: st.size, cachedAt: startedAt, text };
      if (typeof st.ino === "number") entry.ino = st.ino;
      this.texts.set(rel, entry);
      this.textChars += text.length;
      for (const [key, old] of this.texts) {
        if (this.textChars <= TEXT_CACHE_CHARS) break;
        this.texts.delete(key);
        this.textChars -= old.text.length;
      }
    }
    return text;
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    const rel = this.rel(path);
    try {
      if (this.memo) {
        // One (memoised) stat serves both the existence check and the cache validation.
        const st = await this.statRaw(rel, true);
        if (!st) throw fsError("ENOENT", "open", path);
        if (st.isDirectory()) throw fsError("EISDIR", "read", path);
        const hit = this.wsfs.readCache.get(rel, st);
        if (hit) return hit;
      }
      return await this.wsfs.readFile(rel);
    } catch (err) {
      if ((err as ShellFsError).syscall) throw err;
      throw this.mapError(err, "open", path);
    }
  }

  async exists(path: string): Promise<boolean> {
    let rel: string;
    try {
      rel = this.rel(path);
    } catch {
      return false;
    }
    try {
      if ((await this.statRaw(rel, true)) !== null) return true;
    } catch {
      // fall through
    }
    // A dangling symlink still "exists" for lstat-based callers.
    return (await this.lstatRaw(rel).catch(() => null)) !== null;
  }

  async stat(path: string): Promise<ShellFsStat> {
    const rel = this.rel(path);
    let st: IsoFsStat | null;
    try {
      st = await this.statRaw(rel, true);
    } catch (err) {
      throw this.mapError(err, "stat", path);
    }
    if (!st) throw fsError("ENOENT", "stat", path);
    return this.toStat(st);
  }

  async lstat(path: string): Promise<ShellFsStat> {
    const rel = this.rel(path);
    let st: IsoFsStat | null;
    try {
      st = await this.statRaw(rel, false);
    } catch (err) {
      throw this.mapError(err, "lstat", path);
    }
    if (!st) throw fsError("ENOENT", "lstat", path);
    return this.toStat(st);
  }

  async readdir(path: string): Promise<string[]> {
    const rel = this.rel(path);
    const m = this.memoEntry(rel);
    if (m?.readdir) return [...m.readdir];
    try {
      const st = await this.statRaw(rel, true);
      if (!st) throw fsError("ENOENT", "scandir", path);
      if (!st.isDirectory()) throw fsError("ENOTDIR", "scandir", path);
      const names = (await this.raw.readdir(this.abs(rel))).map(String).sort();
      if (m) m.readdir = names;
      return [...names];
    } catch (err) {
      if ((err as ShellFsError).syscall) throw err;
      throw this.mapError(err, "scandir", path);
    }
  }

  async readdirWithFileTypes(path: string): Promise<DirentLike[]> {
    const rel = this.rel(path);
    const names = await this.readdir(path);
    const out = await Promise.all(
      names.map(async (name): Promise<DirentLike | null> => {
        const st = await this.lstatRaw(rel === "" ? name : rel + "/" + name).catch(() => null);
        if (!st) return null;
        return { name, isFile: st.isFile(), isDirectory: st.isDirectory(), isSymbolicLink: st.isSymbolicLink() };
      }),
    );
    return out.filter((e): e is DirentLike => e !== null);
  }

  async readlink(path: string): Promise<string> {
    const rel = this.rel(path);
    const readlink = this.raw.readlink;
    try {
      const st = await this.lstatRaw(rel);
      if (!st) throw fsError("ENOENT", "readlink", path);
      if (!st.isSymbolicLink() || !readlink) throw fsError("EINVAL", "readlink", path);
      const target = await readlink.call(this.raw, this.abs(rel));
      return this.targetFromRaw(typeof target === "string" ? target : decodeUtf8(target));
    } catch (err) {
      if ((err as ShellFsError).syscall) throw err;
      throw this.mapError(err, "readlink", path);
    }
  }

  async realpath(path: string): Promise<string> {
    // Component-wise, within the mount namespace, so a link can never lead outside it.
    let resolved = "/";
    const pending = normalizeShellPath(path).split("/").filter(Boolean);
    let hops = 0;
    while (pending.length > 0) {
      const name = pending.shift()!;
      const next = resolved === "/" ? "/" + name : resolved + "/" + name;
      const st = await this.lstatRaw(this.rel(next)).catch(() => null);
      if (!st) throw fsError("ENOENT", "realpath", path);
      if (st.isSymbolicLink()) {
        if (++hops > 40) throw fsError("ELOOP", "realpath", path);
        const target = await this.readlink(next);
        const mountRel = target.startsWith("/") ? this.mountRelOfShellTarget(target) : null;
        if (target.startsWith("/") && mountRel === null) throw fsError("ENOENT", "realpath", path);
        const base = mountRel ?? resolveShellPath(resolved, target);
        resolved = "/";
        pending.unshift(...base.split("/").filter(Boolean));
        continue;
      }
      resolved = next;
    }
    return resolved;
  }

  resolvePath(base: string, path: string): string {
    return resolveShellPath(base, path);
  }

  getAllPaths(): string[] {
    return [];
  }

  // ---- writing ----------------------------------------------------------------------------

  async writeFile(path: string, content: FileContent, options?: EncodingOpt): Promise<void> {
    const rel = this.rel(path);
    this.guard("write", path, rel);
    await this.writeBytes(rel, path, toBytes(content, options));
  }

  private async writeBytes(rel: string, path: string, data: Uint8Array, mode?: number): Promise<void> {
    const parent = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
    const pst = await this.lstatRaw(parent).catch(() => null);
    if (!pst) throw fsError("ENOENT", "open", path);
    if (!pst.isDirectory()) throw fsError("ENOTDIR", "open", path);
    try {
      await this.wsfs.writeFile(rel, data, mode === undefined ? { origin: this.origin } : { origin: this.origin, mode });
    } catch (err) {
      throw this.mapError(err, "open", path);
    } finally {
      this.invalidate();
    }
  }

  async appendFile(path: string, content: FileContent, options?: EncodingOpt): Promise<void> {
    const rel = this.rel(path);
    this.guard("append", path, rel);
    const extra = toBytes(content, options);
    let existing: Uint8Array | null = null;
    const st = await this.lstatRaw(rel).catch(() => null);
    if (st?.isDirectory()) throw fsError("EISDIR", "open", path);
    if (st) {
      try {
        existing = await this.wsfs.readFile(rel);
      } catch (err) {
        throw this.mapError(err, "open", path);
      }
    }
    await this.writeBytes(rel, path, existing ? concatBytes(existing, extra) : extra);
  }

  async mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    const rel = this.rel(path);
    const recursive = options?.recursive ?? false;
    if (rel === "" && recursive) return;
    this.guard("mkdir", path, rel);
    const st = await this.lstatRaw(rel).catch(() => null);
    if (st) {
      if (recursive && st.isDirectory()) return;
      throw fsError("EEXIST", "mkdir", path);
    }
    if (!recursive) {
      const parent = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
      const pst = await this.lstatRaw(parent).catch(() => null);
      if (!pst) throw fsError("ENOENT", "mkdir", path);
      if (!pst.isDirectory()) throw fsError("ENOTDIR", "mkdir", path);
    }
    try {
      await this.wsfs.mkdir(rel, { origin: this.origin });
    } catch (err) {
      throw this.mapError(err, "mkdir", path);
    } finally {
      this.invalidate();
    }
  }

  async rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void> {
    const rel = this.rel(path);
    this.guard("rm", path, rel);
    const st = await this.lstatRaw(rel).catch(() => null);
    if (!st) {
      if (options?.force) return;
      throw fsError("ENOENT", "rm", path);
    }
    if (st.isDirectory() && !options?.recursive) {
      const names = await this.raw.readdir(this.abs(rel)).catch(() => []);
      if (names.length > 0) throw fsError("ENOTEMPTY", "rm", path);
    }
    try {
      await this.wsfs.remove(rel, { origin: this.origin });
    } catch (err) {
      throw this.mapError(err, "rm", path);
    } finally {
      this.invalidate();
    }
  }

  async cp(src: string, dest: string, options?: { recursive?: boolean }): Promise<void> {
    const srel = this.rel(src);
    const drel = this.rel(dest);
    this.guard("cp", dest, drel);
    const st = await this.lstatRaw(srel).catch(() => null);
    if (!st) throw fsError("ENOENT", "cp", src);
    if (st.isSymbolicLink()) {
      await this.symlink(await this.readlink(src), dest);
      return;
    }
    if (st.isDirectory()) {
      if (!options?.recursive) throw fsError("EISDIR", "cp", src);
      if (drel === srel || drel.startsWith(srel + "/")) throw fsError("EINVAL", "cp", dest, `cannot copy a directory, '${src}', into itself, '${dest}'`);
      await this.mkdir(dest, { recursive: true });
      for (const name of await this.readdir(src)) {
        await this.cp(src.replace(/\/$/, "") + "/" + name, dest.replace(/\/$/, "") + "/" + name, options);
      }
      return;
    }
    const dst = await this.lstatRaw(drel).catch(() => null);
    if (dst?.isDirectory()) throw fsError("EISDIR", "cp", dest);
    let data: Uint8Array;
    try {
      data = await this.wsfs.readFile(srel);
    } catch (err) {
      throw this.mapError(err, "open", src);
    }
    await this.writeBytes(drel, dest, data, dst ? undefined : st.mode & 0o7777);
  }

  async mv(src: string, dest: string): Promise<void> {
    const srel = this.rel(src);
    const drel = this.rel(dest);
    this.guard("mv", src, srel);
    this.guard("mv", dest, drel);
    if (srel === drel) return;
    const st = await this.lstatRaw(srel).catch(() => null);
    if (!st) throw fsError("ENOENT", "mv", src);
    const parent = drel.includes("/") ? drel.slice(0, drel.lastIndexOf("/")) : "";
    const pst = await this.lstatRaw(parent).catch(() => null);
    if (!pst || !pst.isDirectory()) throw fsError("ENOENT", "mv", dest);
    const dst = await this.lstatRaw(drel).catch(() => null);
    try {
      if (dst) {
        if (dst.isDirectory()) {
          if (!st.isDirectory()) throw fsError("EISDIR", "mv", dest);
          const names = await this.raw.readdir(this.abs(drel));
          if (names.length > 0) throw fsError("ENOTEMPTY", "mv", dest);
        } else if (st.isDirectory()) {
          throw fsError("ENOTDIR", "mv", dest);
        }
        // mv replaces the destination; WorkspaceFs.rename refuses to overwrite.
        await this.wsfs.remove(drel, { origin: this.origin });
      }
      await this.wsfs.rename(srel, drel, { origin: this.origin });
    } catch (err) {
      if ((err as ShellFsError).syscall) throw err;
      throw this.mapError(err, "mv", src);
    } finally {
      this.invalidate();
    }
  }

  async chmod(path: string, mode: number): Promise<void> {
    const rel = this.rel(path);
    this.guard("chmod", path, rel);
    const st = await this.lstatRaw(rel).catch(() => null);
    if (!st) throw fsError("ENOENT", "chmod", path);
    const perm = mode & 0o7777;
    try {
      if (st.isFile()) {
        if ((st.mode & 0o7777) === perm) return;
        // WorkspaceFs has no chmod: rewrite the same bytes with the new mode (journalled).
        await this.wsfs.writeFile(rel, await this.wsfs.readFile(rel), { origin: this.origin, mode: perm });
      } else if (this.raw.chmod) {
        await this.raw.chmod(this.abs(rel), perm);
      }
    } catch (err) {
      throw this.mapError(err, "chmod", path);
    } finally {
      this.invalidate();
    }
  }

  async symlink(target: string, linkPath: string): Promise<void> {
    const rel = this.rel(linkPath);
    this.guard("symlink", linkPath, rel);
    if (await this.lstatRaw(rel).catch(() => null)) throw fsError("EEXIST", "symlink", linkPath);
    const symlink = this.raw.symlink;
    if (!symlink) throw fsError("EPERM", "symlink", linkPath);
    try {
      await symlink.call(this.raw, this.targetToRaw(target), this.abs(rel));
    } catch (err) {
      throw this.mapError(err, "symlink", linkPath);
    } finally {
      this.invalidate();
    }
    this.wsfs.readCache.delete(rel);
    this.wsfs.journal.record({ kind: "write", path: rel, origin: this.origin });
  }

  async link(existingPath: string, newPath: string): Promise<void> {
    // No hard links on lightning-fs: a copy is the closest observable behaviour.
    const rel = this.rel(newPath);
    this.guard("link", newPath, rel);
    if (await this.lstatRaw(rel).catch(() => null)) throw fsError("EEXIST", "link", newPath);
    const st = await this.lstatRaw(this.rel(existingPath)).catch(() => null);
    if (!st) throw fsError("ENOENT", "link", existingPath);
    if (st.isDirectory()) throw fsError("EPERM", "link", existingPath);
    await this.cp(existingPath, newPath);
  }

  async utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    const rel = this.rel(path);
    this.guard("utimes", path, rel);
    const st = await this.lstatRaw(rel).catch(() => null);
    if (!st) throw fsError("ENOENT", "utimes", path);
    const utimes = (this.raw as { utimes?: (p: string, a: Date | number, m: Date | number) => Promise<unknown> }).utimes;
    if (!utimes) return;
    try {
      await utimes.call(this.raw, this.abs(rel), atime, mtime);
    } catch (err) {
      throw this.mapError(err, "utimes", path);
    } finally {
      this.invalidate();
    }
    this.wsfs.readCache.delete(rel);
  }

  // ---- symlink targets ----------------------------------------------------------------------

  /** Mount-relative path of an absolute shell path inside the mount, else null. */
  private mountRelOfShellTarget(target: string): string | null {
    const abs = normalizeShellPath(target);
    if (abs === this.mountPoint) return "/";
    if (this.mountPoint === "/") return abs;
    if (abs.startsWith(this.mountPoint + "/")) return abs.slice(this.mountPoint.length);
    return null;
  }

  /** An absolute target inside the mount is stored as the raw fs path it names. */
  private targetToRaw(target: string): string {
    if (!target.startsWith("/")) return target;
    const mountRel = this.mountRelOfShellTarget(target);
    if (mountRel === null) return target;
    return this.abs(normalizeRelPath(mountRel));
  }

  private targetFromRaw(target: string): string {
    if (!target.startsWith("/")) return target;
    const dir = this.wsfs.dir;
    const abs = normalizeShellPath(target);
    if (abs === dir) return this.mountPoint;
    const prefix = dir === "/" ? "/" : dir + "/";
    if (abs.startsWith(prefix)) return resolveShellPath(this.mountPoint, abs.slice(prefix.length));
    return target;
  }
}
