/**
 * Git objects, written and read by the engine itself (no isomorphic-git on the hot path).
 *
 * - SHA-1 through `crypto.subtle` (Node 20 and browsers; @noble/hashes outside a secure
 *   context), zlib through fflate: the per-object
 *   costs of isomorphic-git's write path (CompressionStream, ~2.5 ms per object in Chromium)
 *   are what made checkpoints slow in the baseline.
 * - A batch of at most LOOSE_MAX objects is written loose; a bigger one as a pack + v2 .idx,
 *   which native git and isomorphic-git both read. On lightning-fs every new file costs a walk
 *   of the whole inode tree plus one IndexedDB put, so a checkpoint of a few changes writes
 *   one small pack (2 new files) rather than 6 loose objects, and a first checkpoint ~25
 *   packs rather than 10,000 loose objects. Small packs are merged once they pile up.
 * - Reading: packs first (O(1) oid map), then loose objects; delta entries of git's own packs
 *   are resolved; pack bytes are kept in a small LRU because lightning-fs can only read whole
 *   files.
 */
import { unzlibSync, zlibSync } from "fflate";
import { sha1 as jsSha1 } from "@noble/hashes/legacy.js";
import type { IsoFs } from "../fs/types";
import {
  atomicWrite,
  CheckpointError,
  compareUtf8,
  concatBytes,
  errCode,
  fromHex,
  fromUtf8,
  isLightning,
  isNotFound,
  joinAbs,
  lstatOrNull,
  mapLimit,
  mkdirp,
  readdirOrEmpty,
  readOrNull,
  tmpSuffix,
  toHex,
  treeKey,
  utf8,
} from "./util";

export type ObjectType = "blob" | "tree" | "commit" | "tag";

export const MODE_FILE = 0o100644;
export const MODE_EXEC = 0o100755;
export const MODE_LINK = 0o120000;
export const MODE_TREE = 0o040000;
export const MODE_GITLINK = 0o160000;

export const EMPTY_TREE_OID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/**
 * Batches up to this many objects are written loose; bigger ones as a pack. On lightning-fs
 * every new file costs a walk of the whole inode tree (~2 ms at 10k files) plus an IndexedDB
 * put, so a 6-object checkpoint costs 6 new files loose but 2 as a pack (.pack + .idx).
 */
export const LOOSE_MAX = 2;
/** Target size of one blob pack. */
export const PACK_CHUNK = 2 * 1024 * 1024;
/**
 * A batch bigger than this (a first checkpoint) is packed with zlib level 0 ("stored"):
 * still valid git, ~130 MB/s instead of 8–14 MB/s for fflate level 1 on small objects,
 * which made deflate half of a cold checkpoint. `git gc` recompresses it if it ever matters.
 */
export const BULK_BYTES = 4 * 1024 * 1024;
/** fflate options for everything else: level 1 with a small hash table (~1.8× faster than
 * the default memory level on source-sized objects, same ratio). */
const DEFLATE_FAST = { level: 1, mem: 4 } as const;
/** Pending raw bytes after which a writer flushes on its own (bounds memory on huge trees). */
const AUTO_FLUSH_BYTES = 96 * 1024 * 1024;
const IO_LIMIT = 32;
const PACK_CACHE_BYTES = 96 * 1024 * 1024;

// ---- hashing --------------------------------------------------------------------------------

/**
 * SHA-1 through `crypto.subtle` where it exists; a JS implementation where it does not (the
 * app served over plain http on a LAN address is not a secure context, and browsers hide
 * `crypto.subtle` there).
 */
export async function sha1Hex(data: Uint8Array): Promise<string> {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle) return toHex(jsSha1(data));
  return toHex(new Uint8Array(await subtle.digest("SHA-1", data as unknown as BufferSource)));
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const p of parts) for (let i = 0; i < p.length; i++) c = CRC_TABLE[(c ^ p[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** `type len\0` + content, in one buffer (what git hashes and what a loose object deflates). */
export function wrapObject(type: ObjectType, content: Uint8Array): { wrapped: Uint8Array; headerLength: number } {
  const header = utf8(`${type} ${content.length}\0`);
  const wrapped = new Uint8Array(header.length + content.length);
  wrapped.set(header, 0);
  wrapped.set(content, header.length);
  return { wrapped, headerLength: header.length };
}

export async function hashObject(type: ObjectType, content: Uint8Array): Promise<string> {
  return sha1Hex(wrapObject(type, content).wrapped);
}

// ---- trees ----------------------------------------------------------------------------------

export type TreeEntry = { name: string; mode: number; oid: string };

export function modeString(mode: number): string {
  return mode.toString(8);
}

/** Serialise entries in git's order (directories compare as "name/"). Sorts a copy. */
export function encodeTree(entries: TreeEntry[]): Uint8Array {
  const sorted = [...entries].sort((a, b) => compareUtf8(treeKey(a.name, a.mode === MODE_TREE), treeKey(b.name, b.mode === MODE_TREE)));
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const e of sorted) {
    const head = utf8(`${modeString(e.mode)} ${e.name}\0`);
    const oid = fromHex(e.oid);
    parts.push(head, oid);
    size += head.length + 20;
  }
  return concatBytes(parts, size);
}

export function decodeTree(content: Uint8Array): TreeEntry[] {
  const out: TreeEntry[] = [];
  let i = 0;
  while (i < content.length) {
    const sp = content.indexOf(0x20, i);
    const nul = content.indexOf(0, sp + 1);
    if (sp < 0 || nul < 0 || nul + 21 > content.length) throw new CheckpointError("CORRUPT", "Malformed tree object");
    const mode = parseInt(fromUtf8(content.subarray(i, sp)), 8);
    const name = fromUtf8(content.subarray(sp + 1, nul));
    const oid = toHex(content.subarray(nul + 1, nul + 21));
    out.push({ name, mode, oid });
    i = nul + 21;
  }
  return out;
}

// ---- commits --------------------------------------------------------------------------------

export type CommitData = { tree: string; parents: string[]; author: string; committer: string; message: string };

export function encodeCommit(c: CommitData): Uint8Array {
  let s = `tree ${c.tree}\n`;
  for (const p of c.parents) s += `parent ${p}\n`;
  s += `author ${c.author}\ncommitter ${c.committer}\n\n${c.message}`;
  return utf8(s);
}

export function decodeCommit(content: Uint8Array): CommitData {
  const text = fromUtf8(content);
  const split = text.indexOf("\n\n");
  const head = split === -1 ? text : text.slice(0, split);
  const message = split === -1 ? "" : text.slice(split + 2);
  let tree = "";
  const parents: string[] = [];
  let author = "";
  let committer = "";
  for (const line of head.split("\n")) {
    if (line.startsWith("tree ")) tree = line.slice(5);
    else if (line.startsWith("parent ")) parents.push(line.slice(7));
    else if (line.startsWith("author ")) author = line.slice(7);
    else if (line.startsWith("committer ")) committer = line.slice(10);
  }
  if (!tree) throw new CheckpointError("CORRUPT", "Malformed commit object");
  return { tree, parents, author, committer, message };
}

// ---- packs ----------------------------------------------------------------------------------

const TYPE_CODE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
const CODE_TYPE: Record<number, ObjectType> = { 1: "commit", 2: "tree", 3: "blob", 4: "tag" };

/**
 * A .idx (v2), searched in place: the fan-out table narrows an oid to its first byte's range,
 * a binary search over the sorted 20-byte names finds it. Nothing is parsed up front (a
 * cloned project's pack index holds ~200k objects; turning each into a hex string and a map
 * entry cost seconds per page load). The oid → offset map and the sorted offsets (for an
 * entry's end) are built only when asked for.
 */
export class PackIndex {
  readonly count: number;
  private readonly view: DataView;
  private readonly oidsAt: number;
  private readonly offsAt: number;
  private readonly largeAt: number;
  private map: Map<string, number> | undefined;
  private sorted: Float64Array | undefined;
  constructor(
    readonly name: string,
    readonly packSize: number,
    private readonly idx: Uint8Array,
  ) {
    const view = new DataView(idx.buffer, idx.byteOffset, idx.byteLength);
    if (idx.length < 8 + 256 * 4 || view.getUint32(0) !== 0xff744f63 || view.getUint32(4) !== 2) throw new CheckpointError("CORRUPT", `Unsupported pack index ${name}`);
    this.view = view;
    this.count = view.getUint32(8 + 255 * 4);
    this.oidsAt = 8 + 256 * 4;
    this.offsAt = this.oidsAt + this.count * 24;
    this.largeAt = this.offsAt + this.count * 4;
    if (idx.length < this.largeAt + 40) throw new CheckpointError("CORRUPT", `Truncated pack index ${name}`);
  }

  private offsetAt(i: number): number {
    const off = this.view.getUint32(this.offsAt + i * 4);
    if (!(off & 0x80000000)) return off;
    const j = off & 0x7fffffff;
    return this.view.getUint32(this.largeAt + j * 8) * 2 ** 32 + this.view.getUint32(this.largeAt + j * 8 + 4);
  }

  /** Offset of `oid` in the pack, or undefined. */
  find(oid: string): number | undefined {
    if (oid.length !== 40) return undefined;
    const key = fromHex(oid);
    const first = key[0]!;
    let lo = first === 0 ? 0 : this.view.getUint32(8 + (first - 1) * 4);
    let hi = this.view.getUint32(8 + first * 4) - 1;
    const idx = this.idx;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.oidsAt + mid * 20;
      let c = 0;
      for (let b = 1; b < 20; b++) {
        c = idx[at + b]! - key[b]!;
        if (c !== 0) break;
      }
      if (c === 0) return this.offsetAt(mid);
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Every oid → offset (built on first use: for prune and compaction of our own small packs). */
  get offsets(): Map<string, number> {
    if (!this.map) {
      const m = new Map<string, number>();
      for (let i = 0; i < this.count; i++) m.set(toHex(this.idx.subarray(this.oidsAt + i * 20, this.oidsAt + i * 20 + 20)), this.offsetAt(i));
      this.map = m;
    }
    return this.map;
  }

  /** End of the entry starting at `offset` (the next entry, or the trailer). */
  endOf(offset: number): number {
    if (!this.sorted) {
      const a = new Float64Array(this.count);
      for (let i = 0; i < this.count; i++) a[i] = this.offsetAt(i);
      this.sorted = a.sort();
    }
    const a = this.sorted;
    let lo = 0;
    let hi = a.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (a[mid]! <= offset) lo = mid + 1;
      else hi = mid - 1;
    }
    return lo < a.length ? a[lo]! : this.packSize - 20;
  }
}

function readVarint(buf: Uint8Array, pos: number): [number, number] {
  let result = 0;
  let shift = 0;
  let c: number;
  do {
    c = buf[pos++]!;
    result += (c & 0x7f) * 2 ** shift;
    shift += 7;
  } while (c & 0x80);
  return [result, pos];
}

function applyDelta(delta: Uint8Array, base: Uint8Array): Uint8Array {
  let [srcSize, pos] = readVarint(delta, 0);
  if (srcSize !== base.length) throw new CheckpointError("CORRUPT", "Delta base size mismatch");
  let dstSize: number;
  [dstSize, pos] = readVarint(delta, pos);
  const out = new Uint8Array(dstSize);
  let o = 0;
  while (pos < delta.length) {
    const op = delta[pos++]!;
    if (op & 0x80) {
      let off = 0;
      let size = 0;
      for (let b = 0; b < 4; b++) if (op & (1 << b)) off += delta[pos++]! * 2 ** (8 * b);
      for (let b = 0; b < 3; b++) if (op & (0x10 << b)) size += delta[pos++]! * 2 ** (8 * b);
      if (size === 0) size = 0x10000;
      out.set(base.subarray(off, off + size), o);
      o += size;
    } else if (op) {
      out.set(delta.subarray(pos, pos + op), o);
      o += op;
      pos += op;
    } else throw new CheckpointError("CORRUPT", "Invalid delta opcode");
  }
  if (o !== dstSize) throw new CheckpointError("CORRUPT", "Delta result size mismatch");
  return out;
}

export type StoredObject = { type: ObjectType; content: Uint8Array };

type Pending = { oid: string; type: ObjectType; wrapped: Uint8Array; headerLength: number };

export type WriteStats = { objectsWritten: number; packsWritten: number; bytesWritten: number };

export function isMissingObject(err: unknown): boolean {
  return errCode(err) === "NOT_FOUND";
}

/**
 * The object database of one repository. Instances are kept per workspace by the engine, so
 * pack indexes and recently read packs survive between operations.
 */
export class ObjectStore {
  readonly objectsDir: string;
  private packs = new Map<string, PackIndex>();
  private packListKey = "";
  private own: { key: string; names: Set<string> } | undefined;
  private packBytes = new Map<string, Uint8Array>();
  private packBytesTotal = 0;
  readonly knownDirs = new Set<string>();

  constructor(
    readonly fs: IsoFs,
    readonly gitdir: string,
  ) {
    this.objectsDir = joinAbs(gitdir, "objects");
  }

  loosePath(oid: string): string {
    return `${this.objectsDir}/${oid.slice(0, 2)}/${oid.slice(2)}`;
  }

  /** Re-list objects/pack and load new .idx files (cheap when nothing changed). */
  async refreshPacks(): Promise<void> {
    const dir = `${this.objectsDir}/pack`;
    const names = (await readdirOrEmpty(this.fs, dir)).filter((n) => n.endsWith(".idx")).sort();
    const key = names.join("\n");
    if (key === this.packListKey) return;
    const next = new Map<string, PackIndex>();
    await mapLimit(names, 8, async (idxName) => {
      const base = idxName.slice(0, -4);
      // A pack's name is its checksum: a parsed index stays valid while its pack is there.
      const known = this.packs.get(base);
      const packStat = await lstatOrNull(this.fs, `${dir}/${base}.pack`);
      if (known && packStat && packStat.size === known.packSize) {
        next.set(base, known);
        return;
      }
      const idx = await readOrNull(this.fs, `${dir}/${idxName}`);
      if (!packStat || !idx) return; // an .idx without its pack (being written or removed)
      try {
        next.set(base, new PackIndex(base, packStat.size, idx));
      } catch {
        // unsupported (v1) or damaged index: objects in it are unreadable to us; skip it
      }
    });
    this.packs = next;
    this.packListKey = key;
    for (const name of [...this.packBytes.keys()]) if (!next.has(name)) this.dropPackBytes(name);
  }

  /** Re-list the pack directory (and packs.json) before the next lookup; parsed indexes of
   * packs still there are kept. */
  relist(): void {
    this.packListKey = "\0";
    this.own = undefined;
  }

  /** Forget every cached pack (after packs were rewritten or deleted). */
  resetPacks(): void {
    this.packs.clear();
    this.own = undefined;
    this.packListKey = "\0";
    this.packBytes.clear();
    this.packBytesTotal = 0;
  }

  /** The pack holding `oid` (among those known since the last refresh) and its offset. */
  locate(oid: string): { pack: PackIndex; offset: number } | undefined {
    for (const pack of this.packs.values()) {
      const offset = pack.find(oid);
      if (offset !== undefined) return { pack, offset };
    }
    return undefined;
  }

  findPacked(oid: string): PackIndex | undefined {
    return this.locate(oid)?.pack;
  }

  /** Is the object stored (loose, or in a pack known since the last refresh)? */
  async has(oid: string): Promise<boolean> {
    if (this.packListKey === "\0") await this.refreshPacks();
    if (this.locate(oid)) return true;
    const st = await lstatOrNull(this.fs, this.loosePath(oid));
    return st !== null && st.size > 0;
  }

  async read(oid: string): Promise<StoredObject> {
    // Packed first: an O(1) map lookup, where a loose probe is an fs call (on lightning-fs an
    // async round trip even when the file does not exist). Same bytes either way.
    const known = this.locate(oid);
    if (known) {
      try {
        return await this.readPacked(known.pack, known.offset);
      } catch (err) {
        if (!isMissingObject(err)) throw err; // the pack vanished (gc): fall through
      }
    }
    const loose = await readOrNull(this.fs, this.loosePath(oid));
    if (loose && loose.length > 0) {
      let raw: Uint8Array;
      try {
        raw = unzlibSync(loose);
      } catch (err) {
        throw new CheckpointError("CORRUPT", `Object ${oid} is damaged`, err);
      }
      const sp = raw.indexOf(0x20);
      const nul = raw.indexOf(0, sp);
      const type = fromUtf8(raw.subarray(0, sp)) as ObjectType;
      return { type, content: raw.subarray(nul + 1) };
    }
    await this.refreshPacks();
    const found = this.locate(oid);
    if (!found) throw new CheckpointError("NOT_FOUND", `Object ${oid} is missing from the repository`);
    return this.readPacked(found.pack, found.offset);
  }

  private async loadPack(pack: PackIndex): Promise<Uint8Array> {
    let bytes = this.packBytes.get(pack.name);
    if (bytes) {
      // LRU: move to the end
      this.packBytes.delete(pack.name);
      this.packBytes.set(pack.name, bytes);
      return bytes;
    }
    const data = await readOrNull(this.fs, `${this.objectsDir}/pack/${pack.name}.pack`);
    if (!data) throw new CheckpointError("NOT_FOUND", `Pack ${pack.name} is missing`);
    bytes = data;
    this.rememberPack(pack.name, bytes);
    return bytes;
  }

  rememberPack(name: string, bytes: Uint8Array): void {
    if (bytes.length > PACK_CACHE_BYTES) return;
    this.dropPackBytes(name);
    this.packBytes.set(name, bytes);
    this.packBytesTotal += bytes.length;
    for (const [n, b] of this.packBytes) {
      if (this.packBytesTotal <= PACK_CACHE_BYTES) break;
      this.packBytes.delete(n);
      this.packBytesTotal -= b.length;
    }
  }

  private dropPackBytes(name: string): void {
    const b = this.packBytes.get(name);
    if (b) {
      this.packBytes.delete(name);
      this.packBytesTotal -= b.length;
    }
  }

  private async readPacked(pack: PackIndex, offset: number, depth = 0): Promise<StoredObject> {
    if (depth > 64) throw new CheckpointError("CORRUPT", "Delta chain too deep");
    const bytes = await this.loadPack(pack);
    let pos = offset;
    let c = bytes[pos++]!;
    const code = (c >> 4) & 7;
    let size = c & 15;
    let shift = 4;
    while (c & 0x80) {
      c = bytes[pos++]!;
      size += (c & 0x7f) * 2 ** shift;
      shift += 7;
    }
    const end = pack.endOf(offset);
    if (code === 6 || code === 7) {
      let base: StoredObject;
      if (code === 6) {
        c = bytes[pos++]!;
        let rel = c & 127;
        while (c & 128) {
          c = bytes[pos++]!;
          rel = (rel + 1) * 128 + (c & 127);
        }
        base = await this.readPacked(pack, offset - rel, depth + 1);
      } else {
        const baseOid = toHex(bytes.subarray(pos, pos + 20));
        pos += 20;
        base = await this.read(baseOid);
      }
      const delta = unzlibSync(bytes.subarray(pos, end), { out: new Uint8Array(size) });
      return { type: base.type, content: applyDelta(delta, base.content) };
    }
    const type = CODE_TYPE[code];
    if (!type) throw new CheckpointError("CORRUPT", `Unknown pack entry type ${code}`);
    const content = unzlibSync(bytes.subarray(pos, end), { out: new Uint8Array(size) });
    if (content.length !== size) throw new CheckpointError("CORRUPT", `Pack entry size mismatch in ${pack.name}`);
    return { type, content };
  }

  newWriter(): ObjectWriter {
    return new ObjectWriter(this);
  }

  /** Write one loose object (`deflated` = zlib of the wrapped object). */
  async writeLoose(oid: string, deflated: Uint8Array): Promise<void> {
    const dir = `${this.objectsDir}/${oid.slice(0, 2)}`;
    const final = `${dir}/${oid.slice(2)}`;
    await mkdirp(this.fs, dir, this.knownDirs);
    if (isLightning(this.fs)) {
      try {
        await this.fs.promises.writeFile(final, deflated);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        this.knownDirs.delete(dir); // the fan-out directory vanished (gc): recreate once
        await mkdirp(this.fs, dir, this.knownDirs);
        await this.fs.promises.writeFile(final, deflated);
      }
      return;
    }
    const tmp = `${dir}/tmp_obj_${tmpSuffix()}`;
    try {
      await this.fs.promises.writeFile(tmp, deflated);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.knownDirs.delete(dir);
      await mkdirp(this.fs, dir, this.knownDirs);
      await this.fs.promises.writeFile(tmp, deflated);
    }
    try {
      await this.fs.promises.rename(tmp, final);
    } catch (err) {
      await this.fs.promises.unlink(tmp).catch(() => undefined);
      throw err;
    }
  }

  /** Write `objects` as one pack + v2 index (`stored`: zlib level 0); returns its name. */
  async writePack(objects: { oid: string; type: ObjectType; content: Uint8Array }[], stored = false): Promise<{ name: string; bytes: number }> {
    const header = new Uint8Array(12);
    const hv = new DataView(header.buffer);
    header.set(utf8("PACK"), 0);
    hv.setUint32(4, 2);
    hv.setUint32(8, objects.length);
    const chunks: Uint8Array[] = [header];
    let offset = 12;
    const index: { oid: string; offset: number; crc: number }[] = [];
    for (const o of objects) {
      const hdr: number[] = [];
      let size = o.content.length;
      let c = (TYPE_CODE[o.type] << 4) | (size & 15);
      size = Math.floor(size / 16);
      while (size > 0) {
        hdr.push(c | 0x80);
        c = size & 0x7f;
        size = Math.floor(size / 128);
      }
      hdr.push(c);
      const h = Uint8Array.from(hdr);
      const data = stored ? zlibSync(o.content, { level: 0 }) : zlibSync(o.content, DEFLATE_FAST);
      index.push({ oid: o.oid, offset, crc: crc32([h, data]) });
      chunks.push(h, data);
      offset += h.length + data.length;
    }
    const pack = new Uint8Array(offset + 20);
    let o = 0;
    for (const ch of chunks) {
      pack.set(ch, o);
      o += ch.length;
    }
    const packSum = await sha1Hex(pack.subarray(0, offset));
    pack.set(fromHex(packSum), offset);

    index.sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
    const n = index.length;
    const idx = new Uint8Array(8 + 256 * 4 + n * 28 + 40);
    const iv = new DataView(idx.buffer);
    iv.setUint32(0, 0xff744f63);
    iv.setUint32(4, 2);
    const fan = new Uint32Array(256);
    for (const e of index) fan[parseInt(e.oid.slice(0, 2), 16)]!++;
    let acc = 0;
    for (let i = 0; i < 256; i++) {
      acc += fan[i]!;
      iv.setUint32(8 + i * 4, acc);
    }
    let p = 8 + 256 * 4;
    for (const e of index) {
      idx.set(fromHex(e.oid), p);
      p += 20;
    }
    for (const e of index) {
      iv.setUint32(p, e.crc);
      p += 4;
    }
    for (const e of index) {
      iv.setUint32(p, e.offset);
      p += 4;
    }
    idx.set(fromHex(packSum), p);
    p += 20;
    idx.set(fromHex(await sha1Hex(idx.subarray(0, p))), p);

    const name = `pack-${packSum}`;
    const dir = `${this.objectsDir}/pack`;
    await mkdirp(this.fs, dir, this.knownDirs);
    // The pack first, then its index: readers only look for .idx files, so a crash in between
    // leaves an unused pack, never an index pointing at a missing or truncated pack.
    await this.writeWhole(`${dir}/${name}.pack`, pack);
    await this.writeWhole(`${dir}/${name}.idx`, idx);
    this.rememberPack(name, pack);
    this.packs.set(name, new PackIndex(name, pack.length, idx));
    this.packListKey = "\0"; // re-list next time
    return { name, bytes: pack.length + idx.length };
  }

  private async writeWhole(abs: string, data: Uint8Array): Promise<void> {
    if (isLightning(this.fs)) {
      await this.fs.promises.writeFile(abs, data);
      return;
    }
    const tmp = `${abs.slice(0, abs.lastIndexOf("/"))}/tmp_pack_${tmpSuffix()}`;
    try {
      await this.fs.promises.writeFile(tmp, data);
      await this.fs.promises.rename(tmp, abs);
    } catch (err) {
      await this.fs.promises.unlink(tmp).catch(() => undefined);
      throw err;
    }
  }

  /** Packs this engine wrote (the only ones prune may rewrite or merge), from
   * .git/tabula/packs.json, cached on its stat. */
  async ownPacks(): Promise<Set<string>> {
    const path = this.ownPacksPath();
    const st = await lstatOrNull(this.fs, path);
    const key = st ? `${st.size}:${st.mtimeMs}:${st.ino ?? ""}` : "";
    if (this.own && this.own.key === key) return new Set(this.own.names);
    let names = new Set<string>();
    const raw = st ? await readOrNull(this.fs, path) : null;
    if (raw) {
      try {
        const list: unknown = JSON.parse(fromUtf8(raw));
        names = new Set(Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : []);
      } catch {
        // unreadable: treat as none (prune then leaves those packs alone)
      }
    }
    this.own = { key, names };
    return new Set(names);
  }

  async setOwnPacks(names: Set<string>): Promise<void> {
    const path = this.ownPacksPath();
    await atomicWrite(this.fs, path, JSON.stringify([...names].sort()), this.knownDirs);
    const st = await lstatOrNull(this.fs, path);
    this.own = { key: st ? `${st.size}:${st.mtimeMs}:${st.ino ?? ""}` : "", names: new Set(names) };
  }

  async recordOwnPacks(names: string[]): Promise<void> {
    if (names.length === 0) return;
    const own = await this.ownPacks();
    for (const n of names) own.add(n);
    await this.setOwnPacks(own);
  }

  private ownPacksPath(): string {
    return joinAbs(this.gitdir, "tabula/packs.json");
  }

  /**
   * Merge this engine's small packs into one once there are more than `max` of them (every
   * checkpoint with a few changes writes one small pack, and packs must not pile up forever).
   * The new pack is written before the old ones are removed, so a crash in between only
   * leaves duplicates.
   */
  async compactSmallPacks(max = 64, smallBytes = 512 * 1024): Promise<{ merged: number } | undefined> {
    const own = await this.ownPacks();
    if (own.size <= max) return undefined;
    await this.refreshPacks();
    const small = [...own].map((n) => this.packs.get(n)).filter((p): p is PackIndex => !!p && p.packSize < smallBytes);
    if (small.length <= max) return undefined;
    const objects: { oid: string; type: ObjectType; content: Uint8Array }[] = [];
    const seen = new Set<string>();
    for (const p of small) {
      for (const [oid, off] of p.offsets) {
        if (seen.has(oid)) continue;
        seen.add(oid);
        const o = await this.readPacked(p, off);
        objects.push({ oid, type: o.type, content: o.content });
      }
    }
    const merged = await this.writePack(objects);
    own.add(merged.name);
    await this.setOwnPacks(own);
    const dir = `${this.objectsDir}/pack`;
    for (const p of small) {
      if (p.name === merged.name) continue;
      await this.fs.promises.unlink(`${dir}/${p.name}.idx`).catch(() => undefined);
      await this.fs.promises.unlink(`${dir}/${p.name}.pack`).catch(() => undefined);
      own.delete(p.name);
    }
    await this.setOwnPacks(own);
    this.resetPacks();
    return { merged: small.length };
  }
}

/**
 * Collects the new objects of one operation and writes them in one go (`flush`): loose for
 * one or two, one small pack for a few changes, ~2 MB packs for a bulk first checkpoint.
 * `add` hashes and dedups (already pending, loose, or packed).
 */
export class ObjectWriter {
  private pending = new Map<string, Pending>();
  private pendingBytes = 0;
  readonly stats: WriteStats = { objectsWritten: 0, packsWritten: 0, bytesWritten: 0 };
  /** Objects this writer wrote (across flushes). */
  readonly written = new Set<string>();

  constructor(private readonly store: ObjectStore) {}

  async add(type: ObjectType, content: Uint8Array): Promise<string> {
    const { wrapped, headerLength } = wrapObject(type, content);
    const oid = await sha1Hex(wrapped);
    if (this.pending.has(oid) || this.written.has(oid)) return oid;
    if (await this.store.has(oid)) return oid;
    if (this.pending.has(oid)) return oid; // added concurrently while we checked
    this.pending.set(oid, { oid, type, wrapped, headerLength });
    this.pendingBytes += wrapped.length;
    if (this.pendingBytes >= AUTO_FLUSH_BYTES) await this.flush();
    return oid;
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const items = [...this.pending.values()];
    const rawBytes = this.pendingBytes;
    const bulk = rawBytes > BULK_BYTES;
    this.pending = new Map();
    this.pendingBytes = 0;
    if (items.length <= LOOSE_MAX) {
      await mapLimit(items, IO_LIMIT, async (it) => {
        const deflated = zlibSync(it.wrapped, DEFLATE_FAST);
        await this.store.writeLoose(it.oid, deflated);
        this.stats.bytesWritten += deflated.length;
      });
      this.stats.objectsWritten += items.length;
      for (const it of items) this.written.add(it.oid);
      return;
    }
    const content = (i: Pending) => ({ oid: i.oid, type: i.type, content: i.wrapped.subarray(i.headerLength) });
    // A few changes: one small pack for everything. Bulk: trees and commits in one pack (a
    // restore reading a few trees then reads a small file), blobs in stored packs of ~2 MB.
    const groups: Pending[][] = [];
    if (!bulk && rawBytes <= PACK_CHUNK * 3) groups.push(items);
    else {
      const meta = items.filter((i) => i.type !== "blob");
      if (meta.length) groups.push(meta);
      let cur: Pending[] = [];
      let curBytes = 0;
      for (const b of items) {
        if (b.type !== "blob") continue;
        cur.push(b);
        curBytes += b.wrapped.length;
        if (curBytes >= (bulk ? PACK_CHUNK : PACK_CHUNK * 3)) {
          groups.push(cur);
          cur = [];
          curBytes = 0;
        }
      }
      if (cur.length) groups.push(cur);
    }
    const names: string[] = [];
    for (const g of groups) {
      const r = await this.store.writePack(g.map(content), bulk && g[0]!.type === "blob");
      names.push(r.name);
      this.stats.packsWritten++;
      this.stats.bytesWritten += r.bytes;
    }
    await this.store.recordOwnPacks(names);
    this.stats.objectsWritten += items.length;
    for (const it of items) this.written.add(it.oid);
  }
}
