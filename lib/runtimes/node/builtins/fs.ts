/**
 * `node:fs` and `node:fs/promises` over the run's MemFs: the synchronous calls, their callback
 * forms and the promise API, with Node's argument shapes (encoding as a string or in options,
 * `withFileTypes`, `recursive`, flags "a"/"wx"), file descriptors for the open/read/write/close
 * family, and stdin as fd 0 or /dev/stdin. Streams (`createReadStream`/`createWriteStream`) are
 * small event-emitting stand-ins that deliver or take whole chunks; `watch` is refused.
 */
import { Buffer } from "./buffer";
import { EventEmitter } from "./events";
import { Dirent, fsError, type MemFs, Stats } from "../memfs";
import { join } from "./path";

export type FsHost = {
  memfs: MemFs;
  cwd(): string;
  stdin: Uint8Array;
  /** Writes to fd 1 and 2 go to the program's stdout/stderr. */
  write(fd: 1 | 2, data: Uint8Array): void;
  /** Schedules a callback the way libuv would complete it (keeps the run alive until then). */
  defer(fn: () => void): void;
};

type Opts = { encoding?: string | null; flag?: string; withFileTypes?: boolean; recursive?: boolean; force?: boolean; mode?: number } | string | undefined | null;

function encodingOf(o: Opts): string | null {
  if (typeof o === "string") return o;
  return o?.encoding ?? null;
}

function toBytes(data: unknown, enc?: string | null): Uint8Array {
  if (typeof data === "string") return Buffer.from(data, enc ?? "utf8");
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw Object.assign(new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${data === null ? "null" : typeof data}`), {
    code: "ERR_INVALID_ARG_TYPE",
  });
}

export const constants = { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, COPYFILE_EXCL: 1 };

export function createFs(host: FsHost): { fs: Record<string, unknown>; promises: Record<string, unknown> } {
  const m = host.memfs;
  const abs = (p: unknown) => m.resolve(host.cwd(), p);
  const shown = (p: unknown) => (typeof p === "string" ? p : p instanceof URL ? decodeURIComponent(p.pathname) : String(p));
  const fds = new Map<number, { path: string; pos: number; append: boolean; writable: boolean }>();
  let nextFd = 3;

  const readFileSync = (p: unknown, o?: Opts): string | Buffer => {
    let data: Uint8Array;
    if (p === 0 || p === "/dev/stdin") data = host.stdin;
    else if (typeof p === "number") {
      const f = fds.get(p);
      if (!f) throw fsError("EBADF", "read");
      data = m.readFile(f.path);
    } else data = m.readFile(abs(p), shown(p));
    const enc = encodingOf(o);
    return enc ? Buffer.wrap(data).toString(enc) : Buffer.from(data);
  };

  const writeFileSync = (p: unknown, data: unknown, o?: Opts): void => {
    const enc = encodingOf(o);
    const flag = (typeof o === "object" && o?.flag) || "w";
    const bytes = toBytes(data, enc);
    if (typeof p === "number") return void writeSync(p, bytes);
    if (p === "/dev/stdout") return host.write(1, bytes);
    if (p === "/dev/stderr") return host.write(2, bytes);
    m.writeFile(abs(p), bytes, { append: flag.startsWith("a"), exclusive: flag.includes("x") }, shown(p));
  };

  const appendFileSync = (p: unknown, data: unknown, o?: Opts): void => {
    m.writeFile(abs(p), toBytes(data, encodingOf(o)), { append: true }, shown(p));
  };

  const existsSync = (p: unknown): boolean => {
    try {
      return m.lookup(abs(p)) !== undefined;
    } catch {
      return false;
    }
  };

  const statSync = (p: unknown, o?: { throwIfNoEntry?: boolean }): Stats | undefined => {
    try {
      return m.stat(abs(p), shown(p));
    } catch (err) {
      if (o?.throwIfNoEntry === false && (err as { code?: string }).code === "ENOENT") return undefined;
      throw err;
    }
  };
  const lstatSync = (p: unknown, o?: { throwIfNoEntry?: boolean }): Stats | undefined => {
    try {
      return m.stat(abs(p), shown(p), "lstat");
    } catch (err) {
      if (o?.throwIfNoEntry === false && (err as { code?: string }).code === "ENOENT") return undefined;
      throw err;
    }
  };

  const readdirSync = (p: unknown, o?: Opts): (string | Buffer | Dirent)[] => {
    const dir = abs(p);
    const withTypes = typeof o === "object" && o?.withFileTypes;
    const recursive = typeof o === "object" && o?.recursive;
    const out: (string | Dirent)[] = [];
    const walk = (d: string, rel: string) => {
      for (const e of m.readdir(d, shown(p))) {
        const name = rel === "" ? e.name : `${rel}/${e.name}`;
        out.push(withTypes ? new Dirent(e.name, e.kind, rel === "" ? dir : join(dir, rel)) : name);
        if (recursive && e.kind === "dir") walk(join(d, e.name), name);
      }
    };
    walk(dir, "");
    return encodingOf(o) === "buffer" ? out.map((x) => (typeof x === "string" ? Buffer.from(x) : x)) : out;
  };

  const mkdirSync = (p: unknown, o?: { recursive?: boolean; mode?: number } | number): string | undefined => {
    const recursive = typeof o === "object" && !!o?.recursive;
    return m.mkdir(abs(p), recursive, shown(p));
  };

  const rmSync = (p: unknown, o?: { recursive?: boolean; force?: boolean }) => m.rm(abs(p), o ?? {}, shown(p));
  const rmdirSync = (p: unknown, o?: { recursive?: boolean }) => (o?.recursive ? m.rm(abs(p), { recursive: true }, shown(p)) : m.rmdir(abs(p), shown(p)));
  const unlinkSync = (p: unknown) => m.unlink(abs(p), shown(p));
  const renameSync = (a: unknown, b: unknown) => m.rename(abs(a), abs(b), shown(a), shown(b));
  const copyFileSync = (a: unknown, b: unknown, mode = 0) => {
    const data = m.readFile(abs(a), shown(a));
    m.writeFile(abs(b), data, { exclusive: (mode & constants.COPYFILE_EXCL) !== 0 }, shown(b));
  };
  const cpSync = (a: unknown, b: unknown, o?: { recursive?: boolean }) => {
    const from = abs(a);
    const to = abs(b);
    const st = m.stat(from, shown(a));
    if (st.isDirectory()) {
      if (!o?.recursive) throw Object.assign(new Error(`Recursive option is required to copy a directory: ${shown(a)}`), { code: "ERR_FS_EISDIR" });
      m.mkdir(to, true);
      for (const e of m.readdir(from)) cpSync(join(from, e.name), join(to, e.name), o);
    } else m.writeFile(to, m.readFile(from));
  };
  const accessSync = (p: unknown, mode = 0) => {
    m.stat(abs(p), shown(p), "access");
    if (mode & constants.W_OK) {
      try {
        // Probe the read-only guard without changing anything.
        const a = abs(p);
        const node = m.lookup(a);
        if (node?.kind === "file") m.writeFile(a, node.data, {}, shown(p));
      } catch (err) {
        if ((err as { code?: string }).code === "EROFS") throw fsError("EROFS", "access", shown(p));
      }
    }
  };
  const realpathSync = (p: unknown) => {
    const a = abs(p);
    m.stat(a, shown(p), "realpath");
    return a;
  };
  (realpathSync as unknown as { native: unknown }).native = realpathSync;
  const chmodSync = (p: unknown, mode: number | string) => m.chmod(abs(p), typeof mode === "string" ? parseInt(mode, 8) : mode, shown(p));
  const utimesSync = (p: unknown, _atime: unknown, mtime: number | Date) => m.utimes(abs(p), mtime instanceof Date ? mtime.getTime() : Number(mtime) * 1000, shown(p));
  const truncateSync = (p: unknown, len = 0) => {
    const a = abs(p);
    const data = m.readFile(a, shown(p));
    const out = new Uint8Array(len);
    out.set(data.subarray(0, len));
    m.writeFile(a, out, {}, shown(p));
  };
  const mkdtempSync = (prefix: string) => {
    const a = abs(prefix + Math.random().toString(36).slice(2, 8));
    m.mkdir(a, false);
    return a;
  };

  const openSync = (p: unknown, flags: string | number = "r"): number => {
    const a = abs(p);
    const f = typeof flags === "number" ? (flags & 3 ? (flags & constants.O_APPEND ? "a" : "w") : "r") : flags;
    if (f.startsWith("r")) {
      const n = m.lookup(a);
      if (!n) throw fsError("ENOENT", "open", shown(p));
      if (f.includes("+") && n.kind === "file") m.writeFile(a, n.data, {}, shown(p)); // refuses on a read-only tree
    } else if (f.startsWith("w")) m.writeFile(a, new Uint8Array(), { exclusive: f.includes("x") }, shown(p));
    else if (f.startsWith("a")) m.writeFile(a, new Uint8Array(), { append: true, exclusive: f.includes("x") }, shown(p));
    const fd = nextFd++;
    fds.set(fd, { path: a, pos: 0, append: f.startsWith("a"), writable: !f.startsWith("r") || f.includes("+") });
    return fd;
  };
  const closeSync = (fd: number) => {
    if (!fds.delete(fd) && fd > 2) throw fsError("EBADF", "close");
  };
  function writeSync(fd: number, data: unknown, offsetOrPos?: unknown, lengthOrEnc?: unknown, position?: number): number {
    let bytes: Uint8Array;
    if (typeof data === "string") {
      bytes = Buffer.from(data, typeof lengthOrEnc === "string" ? lengthOrEnc : "utf8");
      if (typeof offsetOrPos === "number") position = offsetOrPos;
    } else {
      const b = toBytes(data);
      const off = typeof offsetOrPos === "number" ? offsetOrPos : 0;
      const len = typeof lengthOrEnc === "number" ? lengthOrEnc : b.length - off;
      bytes = b.subarray(off, off + len);
    }
    if (fd === 1 || fd === 2) {
      host.write(fd, bytes);
      return bytes.length;
    }
    const f = fds.get(fd);
    if (!f || !f.writable) throw fsError("EBADF", "write");
    const cur = m.readFile(f.path);
    const pos = f.append ? cur.length : (position ?? f.pos);
    const out = new Uint8Array(Math.max(cur.length, pos + bytes.length));
    out.set(cur);
    out.set(bytes, pos);
    m.writeFile(f.path, out);
    if (position === undefined || position === null) f.pos = pos + bytes.length;
    return bytes.length;
  }
  const readSync = (fd: number, buf: Uint8Array, offset = 0, length = buf.length - offset, position: number | null = null): number => {
    if (typeof offset === "object" && offset !== null) {
      const o = offset as { offset?: number; length?: number; position?: number };
      return readSync(fd, buf, o.offset ?? 0, o.length ?? buf.length - (o.offset ?? 0), o.position ?? null);
    }
    let data: Uint8Array;
    let f: { pos: number } | undefined;
    if (fd === 0) {
      data = host.stdin;
      f = stdinPos;
    } else {
      const e = fds.get(fd);
      if (!e) throw fsError("EBADF", "read");
      data = m.readFile(e.path);
      f = e;
    }
    const pos = position ?? f.pos;
    const chunk = data.subarray(pos, pos + length);
    buf.set(chunk, offset);
    if (position === null) f.pos = pos + chunk.length;
    return chunk.length;
  };
  const stdinPos = { pos: 0 };
  const fstatSync = (fd: number) => {
    const f = fds.get(fd);
    if (!f) throw fsError("EBADF", "fstat");
    return m.stat(f.path);
  };

  const unsupported = (name: string) => () => {
    throw Object.assign(new Error(`fs.${name} is not available in this runtime: programs here run on a snapshot of the workspace, which does not change under them`), { code: "ERR_NOT_AVAILABLE" });
  };

  const sync: Record<string, (...a: never[]) => unknown> = {
    readFileSync,
    writeFileSync,
    appendFileSync,
    existsSync,
    statSync,
    lstatSync,
    readdirSync,
    mkdirSync,
    rmSync,
    rmdirSync,
    unlinkSync,
    renameSync,
    copyFileSync,
    cpSync,
    accessSync,
    realpathSync,
    chmodSync,
    utimesSync,
    truncateSync,
    mkdtempSync,
    openSync,
    closeSync,
    writeSync,
    readSync,
    fstatSync,
  } as never;

  const fs: Record<string, unknown> = { ...sync, constants, Stats, Dirent };
  // Callback forms: the work is done now, the callback runs later, as libuv would call it.
  for (const [name, fn] of Object.entries(sync)) {
    const base = name.slice(0, -4);
    if (base === "exists") {
      fs.exists = (p: unknown, cb: (b: boolean) => void) => host.defer(() => cb(existsSync(p)));
      continue;
    }
    fs[base] = (...args: unknown[]) => {
      const cb = args.pop();
      if (typeof cb !== "function") throw Object.assign(new TypeError(`The "cb" argument must be of type function. Received ${typeof cb}`), { code: "ERR_INVALID_ARG_TYPE" });
      let result: unknown;
      let error: unknown = null;
      try {
        result = (fn as (...a: unknown[]) => unknown)(...args);
      } catch (err) {
        error = err;
      }
      host.defer(() => (error ? cb(error) : cb(null, result)));
    };
  }
  fs.watch = unsupported("watch");
  fs.watchFile = unsupported("watchFile");

  const promises: Record<string, unknown> = { constants };
  for (const [name, fn] of Object.entries(sync)) {
    const base = name.slice(0, -4);
    if (["exists", "open", "close", "write", "read", "fstat"].includes(base)) continue;
    promises[base] = (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        host.defer(() => {
          try {
            resolve((fn as (...a: unknown[]) => unknown)(...args));
          } catch (err) {
            reject(err);
          }
        });
      });
  }
  promises.open = async (p: unknown, flags?: string) => {
    const fd = openSync(p, flags);
    return {
      fd,
      readFile: async (o?: Opts) => readFileSync(fd, o),
      writeFile: async (d: unknown, o?: Opts) => void writeSync(fd, toBytes(d, encodingOf(o))),
      write: async (d: unknown) => ({ bytesWritten: writeSync(fd, d) }),
      stat: async () => fstatSync(fd),
      close: async () => closeSync(fd),
    };
  };
  promises.watch = unsupported("promises.watch");
  fs.promises = promises;

  fs.createReadStream = (p: unknown, o?: Opts) => {
    const s = new EventEmitter() as EventEmitter & Record<string, unknown>;
    const enc = encodingOf(o);
    s.path = p;
    s.setEncoding = () => s;
    s.pipe = (dest: { write(c: unknown): void; end?(): void }) => {
      s.on("data", (c: unknown) => dest.write(c));
      s.on("end", () => dest.end?.());
      return dest;
    };
    host.defer(() => {
      try {
        const data = readFileSync(p);
        s.emit("open");
        s.emit("data", enc ? (data as Buffer).toString(enc) : data);
        s.emit("end");
        s.emit("close");
      } catch (err) {
        s.emit("error", err);
      }
    });
    Object.defineProperty(s, Symbol.asyncIterator, {
      value: async function* () {
        yield enc ? (readFileSync(p) as Buffer).toString(enc) : readFileSync(p);
      },
    });
    return s;
  };
  fs.createWriteStream = (p: unknown, o?: Opts) => {
    const s = new EventEmitter() as EventEmitter & Record<string, unknown>;
    const flag = (typeof o === "object" && o?.flag) || "w";
    let opened = false;
    const open = () => {
      if (opened) return;
      opened = true;
      if (!flag.startsWith("a")) writeFileSync(p, "");
    };
    s.path = p;
    s.write = (chunk: unknown, enc?: unknown, cb?: () => void) => {
      try {
        open();
        appendFileSync(p, chunk, typeof enc === "string" ? enc : undefined);
      } catch (err) {
        host.defer(() => s.emit("error", err));
        return false;
      }
      const done = typeof enc === "function" ? enc : cb;
      if (typeof done === "function") host.defer(done as () => void);
      return true;
    };
    s.end = (chunk?: unknown, cb?: () => void) => {
      if (chunk !== undefined && typeof chunk !== "function") (s.write as (c: unknown) => boolean)(chunk);
      else open();
      host.defer(() => {
        s.emit("finish");
        s.emit("close");
        if (typeof chunk === "function") (chunk as () => void)();
        else cb?.();
      });
      return s;
    };
    host.defer(() => s.emit("open"));
    return s;
  };
  return { fs, promises };
}
