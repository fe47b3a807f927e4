/**
 * The file tree a node program sees: the workspace snapshot at the mount point plus scratch
 * space elsewhere (/tmp), in memory and synchronous, as `fs.readFileSync` must be. Errors carry
 * Node's codes and messages ("ENOENT: no such file or directory, open '/workspace/x'"). In a
 * read-only run (Plan, Review) every change under the mount point fails with EROFS. When the
 * program ends, `changes()` says what it did to the workspace, for the page to write back.
 */
import type { PythonChanges as WorkspaceChanges, SnapshotFile } from "../python/protocol";
import { dirname, normalize } from "./builtins/path";

export type { WorkspaceChanges };

type FileNode = { kind: "file"; data: Uint8Array; mtimeMs: number; mode: number };
type DirNode = { kind: "dir"; mtimeMs: number; mode: number };
type Node = FileNode | DirNode;

const ERRORS: Record<string, [number, string]> = {
  ENOENT: [-2, "no such file or directory"],
  EEXIST: [-17, "file already exists"],
  ENOTDIR: [-20, "not a directory"],
  EISDIR: [-21, "illegal operation on a directory"],
  ENOTEMPTY: [-39, "directory not empty"],
  EROFS: [-30, "read-only file system"],
  EINVAL: [-22, "invalid argument"],
  EBADF: [-9, "bad file descriptor"],
};

export type FsError = Error & { errno: number; code: string; syscall: string; path?: string; dest?: string };

export function fsError(code: keyof typeof ERRORS | string, syscall: string, path?: string, dest?: string): FsError {
  const [errno, text] = ERRORS[code] ?? [-1, code.toLowerCase()];
  const where = path === undefined ? "" : dest === undefined ? ` '${path}'` : ` '${path}' -> '${dest}'`;
  const err = new Error(`${code}: ${text}, ${syscall}${where}`) as FsError;
  err.errno = errno;
  err.code = code;
  err.syscall = syscall;
  if (path !== undefined) err.path = path;
  if (dest !== undefined) err.dest = dest;
  return err;
}

export class Stats {
  readonly dev = 1;
  readonly ino: number;
  readonly mode: number;
  readonly nlink = 1;
  readonly uid = 1000;
  readonly gid = 1000;
  readonly rdev = 0;
  readonly size: number;
  readonly blksize = 4096;
  readonly blocks: number;
  readonly atimeMs: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly birthtimeMs: number;
  readonly atime: Date;
  readonly mtime: Date;
  readonly ctime: Date;
  readonly birthtime: Date;
  constructor(node: Node, ino: number) {
    this.ino = ino;
    this.mode = node.mode;
    this.size = node.kind === "file" ? node.data.length : 4096;
    this.blocks = Math.ceil(this.size / 512);
    this.atimeMs = this.mtimeMs = this.ctimeMs = this.birthtimeMs = node.mtimeMs;
    this.atime = this.mtime = this.ctime = this.birthtime = new Date(node.mtimeMs);
  }
  isFile(): boolean {
    return (this.mode & 0o170000) === 0o100000;
  }
  isDirectory(): boolean {
    return (this.mode & 0o170000) === 0o040000;
  }
  isSymbolicLink(): boolean {
    return false;
  }
  isFIFO(): boolean {
    return false;
  }
  isSocket(): boolean {
    return false;
  }
  isBlockDevice(): boolean {
    return false;
  }
  isCharacterDevice(): boolean {
    return false;
  }
}

export class Dirent {
  constructor(
    readonly name: string,
    private readonly kind: "file" | "dir",
    readonly parentPath: string,
  ) {}
  get path(): string {
    return this.parentPath;
  }
  isFile(): boolean {
    return this.kind === "file";
  }
  isDirectory(): boolean {
    return this.kind === "dir";
  }
  isSymbolicLink(): boolean {
    return false;
  }
  isFIFO(): boolean {
    return false;
  }
  isSocket(): boolean {
    return false;
  }
  isBlockDevice(): boolean {
    return false;
  }
  isCharacterDevice(): boolean {
    return false;
  }
}

export class MemFs {
  private readonly nodes = new Map<string, Node>();
  private readonly inodes = new Map<string, number>();
  private nextIno = 100;
  private readonly snapshot: Map<string, Uint8Array>;
  private readonly snapshotDirs: Set<string>;

  constructor(
    readonly mountPoint: string,
    files: SnapshotFile[],
    dirs: string[],
    private readonly readOnly: boolean,
    private readonly now: () => number = Date.now,
  ) {
    const t = now();
    for (const d of ["/", "/tmp", "/home", "/home/user", "/dev", mountPoint]) this.mkdirp(d, t);
    this.snapshot = new Map(files.map((f) => [f.path, f.data]));
    this.snapshotDirs = new Set(dirs);
    for (const d of dirs) this.mkdirp(this.abs(d), t);
    for (const f of files) {
      this.mkdirp(dirname(this.abs(f.path)), t);
      this.nodes.set(this.abs(f.path), { kind: "file", data: f.data, mtimeMs: t, mode: 0o100644 });
    }
    for (const f of files) for (let d = parentRel(f.path); d !== ""; d = parentRel(d)) this.snapshotDirs.add(d);
  }

  private abs(rel: string): string {
    return rel === "" ? this.mountPoint : `${this.mountPoint}/${rel}`;
  }

  private mkdirp(p: string, t: number): void {
    const parts = p.split("/").filter(Boolean);
    let cur = "";
    if (!this.nodes.has("/")) this.nodes.set("/", { kind: "dir", mtimeMs: t, mode: 0o040755 });
    for (const part of parts) {
      cur += "/" + part;
      if (!this.nodes.has(cur)) this.nodes.set(cur, { kind: "dir", mtimeMs: t, mode: 0o040755 });
    }
  }

  private guard(p: string, syscall: string, shown = p): void {
    if (this.readOnly && (p === this.mountPoint || p.startsWith(this.mountPoint + "/"))) throw fsError("EROFS", syscall, shown);
  }

  private parentDir(p: string, syscall: string, shown: string): void {
    const parent = this.nodes.get(dirname(p));
    if (!parent) throw fsError("ENOENT", syscall, shown);
    if (parent.kind !== "dir") throw fsError("ENOTDIR", syscall, shown);
  }

  /** Absolute, normalised path of what the program passed (string, Buffer or file: URL). */
  resolve(cwd: string, p: unknown): string {
    let s: string;
    if (typeof p === "string") s = p;
    else if (p instanceof Uint8Array) s = new TextDecoder().decode(p);
    else if (p instanceof URL) {
      if (p.protocol !== "file:") throw Object.assign(new TypeError("The URL must be of scheme file"), { code: "ERR_INVALID_URL_SCHEME" });
      s = decodeURIComponent(p.pathname);
    } else {
      throw Object.assign(new TypeError(`The "path" argument must be of type string or an instance of Buffer or URL. Received ${p === null ? "null" : typeof p}`), { code: "ERR_INVALID_ARG_TYPE" });
    }
    if (s.includes("\0")) throw Object.assign(new TypeError("The argument 'path' must be a string, Uint8Array, or URL without null bytes."), { code: "ERR_INVALID_ARG_VALUE" });
    return normalize(s.startsWith("/") ? s : `${cwd}/${s}`).replace(/(.)\/$/, "$1");
  }

  lookup(p: string): Node | undefined {
    return this.nodes.get(p);
  }

  stat(p: string, shown = p, syscall = "stat"): Stats {
    const n = this.nodes.get(p);
    if (!n) throw fsError("ENOENT", syscall, shown);
    return new Stats(n, this.ino(p));
  }

  private ino(p: string): number {
    let i = this.inodes.get(p);
    if (i === undefined) {
      i = this.nextIno++;
      this.inodes.set(p, i);
    }
    return i;
  }

  readFile(p: string, shown = p): Uint8Array {
    const n = this.nodes.get(p);
    if (!n) throw fsError("ENOENT", "open", shown);
    if (n.kind === "dir") throw fsError("EISDIR", "read");
    return n.data;
  }

  writeFile(p: string, data: Uint8Array, opts: { append?: boolean; exclusive?: boolean } = {}, shown = p): void {
    this.guard(p, "open", shown);
    const n = this.nodes.get(p);
    if (n?.kind === "dir") throw fsError("EISDIR", "open", shown);
    if (n && opts.exclusive) throw fsError("EEXIST", "open", shown);
    this.parentDir(p, "open", shown);
    const next = opts.append && n?.kind === "file" ? concat(n.data, data) : data.slice();
    this.nodes.set(p, { kind: "file", data: next, mtimeMs: this.now(), mode: n?.mode ?? 0o100644 });
  }

  readdir(p: string, shown = p): { name: string; kind: "file" | "dir" }[] {
    const n = this.nodes.get(p);
    if (!n) throw fsError("ENOENT", "scandir", shown);
    if (n.kind !== "dir") throw fsError("ENOTDIR", "scandir", shown);
    const prefix = p === "/" ? "/" : p + "/";
    const out: { name: string; kind: "file" | "dir" }[] = [];
    for (const [k, v] of this.nodes) {
      if (k.length > prefix.length && k.startsWith(prefix) && !k.slice(prefix.length).includes("/")) out.push({ name: k.slice(prefix.length), kind: v.kind });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  mkdir(p: string, recursive: boolean, shown = p): string | undefined {
    const existing = this.nodes.get(p);
    if (existing) {
      if (recursive && existing.kind === "dir") return undefined;
      throw fsError("EEXIST", "mkdir", shown);
    }
    this.guard(p, "mkdir", shown);
    if (!recursive) {
      this.parentDir(p, "mkdir", shown);
      this.nodes.set(p, { kind: "dir", mtimeMs: this.now(), mode: 0o040755 });
      return undefined;
    }
    let first: string | undefined;
    let cur = "";
    for (const part of p.split("/").filter(Boolean)) {
      cur += "/" + part;
      const n = this.nodes.get(cur);
      if (n?.kind === "file") throw fsError("ENOTDIR", "mkdir", shown);
      if (!n) {
        this.guard(cur, "mkdir", shown);
        first ??= cur;
        this.nodes.set(cur, { kind: "dir", mtimeMs: this.now(), mode: 0o040755 });
      }
    }
    return first;
  }

  unlink(p: string, shown = p): void {
    const n = this.nodes.get(p);
    if (!n) throw fsError("ENOENT", "unlink", shown);
    if (n.kind === "dir") throw fsError("EISDIR", "unlink", shown);
    this.guard(p, "unlink", shown);
    this.nodes.delete(p);
  }

  rmdir(p: string, shown = p): void {
    const n = this.nodes.get(p);
    if (!n) throw fsError("ENOENT", "rmdir", shown);
    if (n.kind !== "dir") throw fsError("ENOTDIR", "rmdir", shown);
    if (this.readdir(p).length > 0) throw fsError("ENOTEMPTY", "rmdir", shown);
    this.guard(p, "rmdir", shown);
    this.nodes.delete(p);
  }

  rm(p: string, opts: { recursive?: boolean; force?: boolean }, shown = p): void {
    const n = this.nodes.get(p);
    if (!n) {
      if (opts.force) return;
      throw fsError("ENOENT", "rm", shown);
    }
    if (n.kind === "dir") {
      if (!opts.recursive) throw Object.assign(fsError("EISDIR", "rm", shown), { code: "ERR_FS_EISDIR", message: `Path is a directory: rm returned EISDIR (is a directory) ${shown}` });
      this.guard(p, "rm", shown);
      const prefix = p + "/";
      for (const k of [...this.nodes.keys()]) if (k.startsWith(prefix)) this.nodes.delete(k);
    } else this.guard(p, "rm", shown);
    this.nodes.delete(p);
  }

  rename(from: string, to: string, shownFrom = from, shownTo = to): void {
    const n = this.nodes.get(from);
    if (!n) throw fsError("ENOENT", "rename", shownFrom, shownTo);
    this.guard(from, "rename", shownFrom);
    this.guard(to, "rename", shownTo);
    this.parentDir(to, "rename", shownFrom);
    const target = this.nodes.get(to);
    if (target?.kind === "dir" && n.kind === "file") throw fsError("EISDIR", "rename", shownFrom, shownTo);
    if (target?.kind === "dir" && this.readdir(to).length > 0) throw fsError("ENOTEMPTY", "rename", shownFrom, shownTo);
    const moved: [string, Node][] = [];
    const prefix = from + "/";
    for (const [k, v] of this.nodes) if (k === from || k.startsWith(prefix)) moved.push([to + k.slice(from.length), v]);
    for (const [k] of moved) this.nodes.delete(from + k.slice(to.length));
    for (const [k, v] of moved) this.nodes.set(k, v);
  }

  chmod(p: string, mode: number, shown = p): void {
    const n = this.nodes.get(p);
    if (!n) throw fsError("ENOENT", "chmod", shown);
    this.guard(p, "chmod", shown);
    n.mode = (n.mode & 0o170000) | (mode & 0o7777);
  }

  utimes(p: string, mtimeMs: number, shown = p): void {
    const n = this.nodes.get(p);
    if (!n) throw fsError("ENOENT", "utime", shown);
    this.guard(p, "utime", shown);
    n.mtimeMs = mtimeMs;
  }

  /** What the program did under the mount point, compared with the snapshot. */
  changes(): WorkspaceChanges {
    if (this.readOnly) return { written: [], deleted: [], removedDirs: [], madeDirs: [] };
    const root = this.mountPoint + "/";
    const written: SnapshotFile[] = [];
    const madeDirs: string[] = [];
    const liveFiles = new Set<string>();
    const liveDirs = new Set<string>();
    for (const [k, v] of this.nodes) {
      if (!k.startsWith(root)) continue;
      const rel = k.slice(root.length);
      if (v.kind === "dir") {
        liveDirs.add(rel);
        if (!this.snapshotDirs.has(rel)) madeDirs.push(rel);
        continue;
      }
      liveFiles.add(rel);
      const old = this.snapshot.get(rel);
      if (old === undefined || (old !== v.data && !sameBytes(old, v.data))) written.push({ path: rel, data: v.data });
    }
    const deleted = [...this.snapshot.keys()].filter((p) => !liveFiles.has(p));
    const removedDirs = [...this.snapshotDirs].filter((d) => !liveDirs.has(d));
    return {
      written: written.sort((a, b) => (a.path < b.path ? -1 : 1)),
      deleted,
      removedDirs: removedDirs.sort((a, b) => b.split("/").length - a.split("/").length || (a < b ? -1 : 1)),
      madeDirs: madeDirs.filter((d) => !written.some((w) => w.path.startsWith(d + "/"))).sort(),
    };
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function parentRel(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i < 0 ? "" : rel.slice(0, i);
}
