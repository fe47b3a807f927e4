/**
 * Small helpers shared by the checkpoint engine: paths, errors, bounded concurrency, hex,
 * git's name order, and fs calls that tolerate "not found".
 *
 * Nothing here touches a browser or Node global at import time.
 */
import type { IsoFs, IsoFsStat } from "../fs/types";

export type CheckpointErrorCode =
  | "INVALID_ARGUMENT"
  | "NOT_A_REPO"
  | "NOT_FOUND"
  | "RESTORE_IN_PROGRESS"
  | "RESTORE_FAILED"
  | "ROLLBACK_FAILED"
  | "CORRUPT"
  | "IO";

/** Every error the engine throws on purpose; `code` is what callers switch on. */
export class CheckpointError extends Error {
  readonly code: CheckpointErrorCode;
  constructor(code: CheckpointErrorCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "CheckpointError";
    this.code = code;
  }
}

export function errCode(err: unknown): string | undefined {
  const c = (err as { code?: unknown } | null)?.code;
  return typeof c === "string" ? c : undefined;
}

export function isNotFound(err: unknown): boolean {
  const c = errCode(err);
  return c === "ENOENT" || c === "ENOTDIR" || c === "NotFoundError";
}

export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// ---- paths ---------------------------------------------------------------------------------

/** `dir` + workspace-relative `rel` ("" is `dir` itself). */
export function joinAbs(dir: string, rel: string): string {
  if (rel === "") return dir;
  return dir.endsWith("/") ? dir + rel : dir + "/" + rel;
}

export function joinRel(a: string, b: string): string {
  return a === "" ? b : a + "/" + b;
}

export function parentRel(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i === -1 ? "" : rel.slice(0, i);
}

export function baseName(rel: string): string {
  return rel.slice(rel.lastIndexOf("/") + 1);
}

/** Normalise a caller's workspace path: posix, no leading "/", no "." / ".." / empty parts. */
export function normalizeRel(p: string): string {
  if (typeof p !== "string" || p.includes("\0")) throw new CheckpointError("INVALID_ARGUMENT", `Invalid path ${JSON.stringify(p)}`);
  const out: string[] = [];
  for (const seg of p.replace(/\\/g, "/").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) throw new CheckpointError("INVALID_ARGUMENT", `Path ${JSON.stringify(p)} escapes the workspace`);
      out.pop();
      continue;
    }
    out.push(seg);
  }
  return out.join("/");
}

export function isSameOrInside(rel: string, base: string): boolean {
  return base === "" || rel === base || rel.startsWith(base + "/");
}

/** A component git refuses in a path (".git" in any case). */
export function isGitName(name: string): boolean {
  return name.length === 4 && name.toLowerCase() === ".git";
}

// ---- git's tree order -----------------------------------------------------------------------

/**
 * Compare two strings in UTF-8 byte order (= code point order), which is how git compares
 * names; plain `<` compares UTF-16 code units and misorders astral vs U+E000–U+FFFF.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** Sort key of a tree entry: directories compare as "name/" (git's base_name_compare). */
export function treeKey(name: string, isTree: boolean): string {
  return isTree ? name + "/" : name;
}

// ---- bytes ----------------------------------------------------------------------------------

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export function toHex(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]!];
  return s;
}

/** Nibble value of a hex digit's char code (0–9, a–f, A–F), -1 otherwise. */
const NIBBLE = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) t[97 + i] = t[65 + i] = 10 + i;
  return t;
})();

// A building tree converts every entry's oid: a lookup table, not slice + parseInt per byte.
export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  fromHexInto(hex, out, 0);
  return out;
}

/** Decode `hex` into `out` at `at` (hex.length / 2 bytes). */
export function fromHexInto(hex: string, out: Uint8Array, at: number): void {
  const n = hex.length >> 1;
  for (let i = 0; i < n; i++) {
    const hi = NIBBLE[hex.charCodeAt(2 * i)] ?? -1;
    const lo = NIBBLE[hex.charCodeAt(2 * i + 1)] ?? -1;
    out[at + i] = hi < 0 || lo < 0 ? NaN : (hi << 4) | lo; // NaN stores 0, as parseInt's NaN did
  }
}

export const OID_RE = /^[0-9a-f]{40}$/;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
export const utf8 = (s: string): Uint8Array => encoder.encode(s);
export const fromUtf8 = (b: Uint8Array): string => decoder.decode(b);

/** node's fs returns Buffers (a Uint8Array subclass), lightning-fs plain Uint8Arrays or strings. */
export function asBytes(raw: unknown, what: string): Uint8Array {
  if (raw instanceof Uint8Array) return raw;
  if (typeof raw === "string") return utf8(raw);
  throw new CheckpointError("IO", `The contents of ${what} are missing from storage`);
}

export function concatBytes(parts: Uint8Array[], total?: number): Uint8Array {
  const size = total ?? parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(size);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

// ---- concurrency ----------------------------------------------------------------------------

/** A counting semaphore: at most `limit` tasks inside `run` at once. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** `fn` over `items` with at most `limit` in flight; results in input order; first error wins
 * (after everything started has settled, so no stray work runs on after a failure). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  let firstError: unknown;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (err) {
        if (!failed) {
          failed = true;
          firstError = err;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed) throw firstError;
  return results;
}

/** A promise-chain mutex. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

// ---- fs helpers -----------------------------------------------------------------------------

export async function lstatOrNull(fs: IsoFs, abs: string): Promise<IsoFsStat | null> {
  try {
    return await fs.promises.lstat(abs);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

export async function readOrNull(fs: IsoFs, abs: string): Promise<Uint8Array | null> {
  try {
    const raw: unknown = await fs.promises.readFile(abs);
    if (raw === undefined || raw === null) return null;
    return asBytes(raw, abs);
  } catch (err) {
    if (isNotFound(err) || errCode(err) === "EISDIR") return null;
    throw err;
  }
}

export async function readdirOrEmpty(fs: IsoFs, abs: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(abs);
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
}

/** mkdir -p (lightning-fs has no `recursive`). `known` remembers directories seen to exist. */
export async function mkdirp(fs: IsoFs, abs: string, known?: Set<string>): Promise<void> {
  if (known?.has(abs)) return;
  const st = await lstatOrNull(fs, abs);
  if (st) {
    if (!st.isDirectory()) throw Object.assign(new Error(`Cannot create directory ${abs}: a file is in the way`), { code: "ENOTDIR" });
    known?.add(abs);
    return;
  }
  const i = abs.lastIndexOf("/");
  if (i > 0) await mkdirp(fs, abs.slice(0, i), known);
  try {
    await fs.promises.mkdir(abs);
  } catch (err) {
    if (errCode(err) !== "EEXIST") throw err;
  }
  known?.add(abs);
}

/** lightning-fs is recognised by its `flush`: there a rename over an existing file leaks the
 * old bytes, while a plain writeFile is a single IndexedDB put (atomic enough). */
export function isLightning(fs: IsoFs): boolean {
  return typeof fs.promises.flush === "function";
}

let tmpCounter = 0;
export function tmpSuffix(): string {
  tmpCounter = (tmpCounter + 1) % 1e9;
  return `${Date.now().toString(36)}${tmpCounter.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** Write a file so a crash never leaves it truncated: temp file + rename on real file
 * systems, a single put on lightning-fs. Parent directories are created (again, if git
 * removed them since we last looked: pack-refs and gc prune empty directories). */
export async function atomicWrite(fs: IsoFs, abs: string, data: Uint8Array | string, known?: Set<string>): Promise<void> {
  const dir = abs.slice(0, abs.lastIndexOf("/"));
  await mkdirp(fs, dir, known);
  try {
    await writeOnce(fs, abs, dir, data);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    forgetKnownUnder(known, dir);
    await mkdirp(fs, dir, known);
    await writeOnce(fs, abs, dir, data);
  }
}

/** `dir` and its ancestors are no longer known to exist (git removed one behind the cache). */
function forgetKnownUnder(known: Set<string> | undefined, dir: string): void {
  for (const k of [...(known ?? [])]) if (dir === k || dir.startsWith(k + "/")) known!.delete(k);
}

async function writeOnce(fs: IsoFs, abs: string, dir: string, data: Uint8Array | string): Promise<void> {
  if (isLightning(fs)) {
    await fs.promises.writeFile(abs, typeof data === "string" ? utf8(data) : data);
    return;
  }
  const tmp = `${dir}/.tmp-${tmpSuffix()}`;
  try {
    await fs.promises.writeFile(tmp, data);
    await fs.promises.rename(tmp, abs);
  } catch (err) {
    await fs.promises.unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * Replace a file so its new bytes can never be read under its name before the files written
 * ahead of it exist. On real file systems that is atomicWrite (the objects are already on
 * disk). On lightning-fs a file's bytes are stored at once but names only with the next save
 * of its file tree, so an in-place overwrite would be durable before the new objects' names
 * are: there the bytes go to a new inode (a temp file), the old inode is removed (a crash
 * before the next tree save then finds the name with no bytes: an absent file), and the
 * rename makes the new inode visible in the same tree save as everything written before it.
 * Saves flushing the whole tree first (a structured clone of it, ~8 ms at 10k files).
 */
export async function writeAfterEarlierFiles(fs: IsoFs, abs: string, data: Uint8Array | string, known?: Set<string>): Promise<void> {
  if (!isLightning(fs)) return atomicWrite(fs, abs, data, known);
  const dir = abs.slice(0, abs.lastIndexOf("/"));
  const bytes = typeof data === "string" ? utf8(data) : data;
  const tmp = `${dir}/.tmp-${tmpSuffix()}`;
  await mkdirp(fs, dir, known);
  try {
    try {
      await fs.promises.writeFile(tmp, bytes);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // the directory went away behind a cached "it exists"
      forgetKnownUnder(known, dir);
      await mkdirp(fs, dir, known);
      await fs.promises.writeFile(tmp, bytes);
    }
    await unlinkIfExists(fs, abs);
    await fs.promises.rename(tmp, abs);
  } catch (err) {
    await fs.promises.unlink(tmp).catch(() => undefined);
    throw err;
  }
}

export async function unlinkIfExists(fs: IsoFs, abs: string): Promise<boolean> {
  try {
    await fs.promises.unlink(abs);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

export function perfNow(): number {
  const p = (globalThis as { performance?: { now(): number } }).performance;
  return p ? p.now() : Date.now();
}
