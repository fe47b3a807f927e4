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
import type { IsoFs } from "../fs/types";
import { crc32, hashObject, sha1Hex, wrapObject, type ObjectType } from "./git-format";
import { applyDelta, CODE_TYPE, encodePackIndex, PackIndex, TYPE_CODE } from "./pack-index";
import {
  atomicWrite,
  CheckpointError,
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
  utf8,
} from "./util";

export * from "./git-format";
export { PackIndex } from "./pack-index";


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
/** Under 1 KB (a commit, most trees) fflate's own table size, from the input's, is ~3× faster
 * than the fixed one (~40 against ~110 µs at 300 bytes; 0.5 ms of a no-change checkpoint in
 * the page): the small hash table is still 64 KB to allocate and clear. */
const DEFLATE_SMALL = { level: 1 } as const;
const deflateOptions = (bytes: number) => (bytes < 1024 ? DEFLATE_SMALL : DEFLATE_FAST);
/** Pending raw bytes after which a writer flushes on its own (bounds memory on huge trees). */
const AUTO_FLUSH_BYTES = 96 * 1024 * 1024;
const IO_LIMIT = 32;
const PACK_CACHE_BYTES = 96 * 1024 * 1024;
/**
 * Objects a delta was applied to, kept for the next delta on the same base: git packs trees and
 * commits in delta chains, and a history walk (log, blame) meets the same bases again and again.
 */
const DELTA_BASE_CACHE_BYTES = 32 * 1024 * 1024;



export type StoredObject = { type: ObjectType; content: Uint8Array };

type Pending = { oid: string; type: ObjectType; content: Uint8Array };

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
  private readonly packCacheBytes: number;
  private bases = new Map<string, StoredObject>();
  private basesBytes = 0;
  readonly knownDirs = new Set<string>();

  /** `packCacheBytes`: how much pack data to keep in memory (a pack bigger than this is re-read per object). */
  constructor(
    readonly fs: IsoFs,
    readonly gitdir: string,
    opts: { packCacheBytes?: number } = {},
  ) {
    this.objectsDir = joinAbs(gitdir, "objects");
    this.packCacheBytes = opts.packCacheBytes ?? PACK_CACHE_BYTES;
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
    this.bases.clear();
    this.basesBytes = 0;
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
    if (bytes.length > this.packCacheBytes) return;
    this.dropPackBytes(name);
    this.packBytes.set(name, bytes);
    this.packBytesTotal += bytes.length;
    for (const [n, b] of this.packBytes) {
      if (this.packBytesTotal <= this.packCacheBytes) break;
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

  /** A delta's base entry, from the base cache when a walk met it before (LRU by bytes). */
  private async deltaBase(pack: PackIndex, offset: number, depth: number): Promise<StoredObject> {
    const key = `${pack.name}@${offset}`;
    const hit = this.bases.get(key);
    if (hit) {
      this.bases.delete(key);
      this.bases.set(key, hit);
      return hit;
    }
    const obj = await this.readPacked(pack, offset, depth);
    if (obj.content.length <= DELTA_BASE_CACHE_BYTES / 8) {
      this.bases.set(key, obj);
      this.basesBytes += obj.content.length;
      for (const [k, o] of this.bases) {
        if (this.basesBytes <= DELTA_BASE_CACHE_BYTES) break;
        this.bases.delete(k);
        this.basesBytes -= o.content.length;
      }
    }
    return obj;
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
        base = await this.deltaBase(pack, offset - rel, depth + 1);
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
      const data = stored ? zlibSync(o.content, { level: 0 }) : zlibSync(o.content, deflateOptions(o.content.length));
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

    const names = new Uint8Array(index.length * 20);
    index.forEach((e, i) => names.set(fromHex(e.oid), i * 20));
    const idx = encodePackIndex(
      names,
      index.map((e) => e.offset),
      index.map((e) => e.crc),
      fromHex(packSum),
    );
    idx.set(fromHex(await sha1Hex(idx.subarray(0, idx.length - 20))), idx.length - 20);

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
    const oid = await hashObject(type, content);
    if (this.pending.has(oid) || this.written.has(oid)) return oid;
    if (await this.store.has(oid)) return oid;
    if (this.pending.has(oid)) return oid; // added concurrently while we checked
    this.pending.set(oid, { oid, type, content });
    this.pendingBytes += content.length;
    if (this.pendingBytes >= AUTO_FLUSH_BYTES) await this.flush();
    return oid;
  }

  /**
   * Flush, and store `files` (e.g. the ref naming a new commit; their directories exist) in
   * the same storage transaction as the objects when the fs can (lightning-fs's `writeFiles`)
   * and everything pending goes loose: then a file is never stored without the objects, and a
   * checkpoint with nothing new pays one IndexedDB commit instead of two. Returns false when
   * it only flushed: the caller writes `files` itself, after. A directory found gone behind
   * the caches is forgotten and the ordinary way taken; any other failure is thrown with the
   * objects still pending.
   */
  async flushWith(files: readonly { path: string; data: Uint8Array }[]): Promise<boolean> {
    const writeFiles = this.store.fs.promises.writeFiles;
    const items = [...this.pending.values()];
    if (!writeFiles || items.length > LOOSE_MAX) {
      await this.flush();
      return false;
    }
    const loose = items.map((it) => {
      const wrapped = wrapObject(it.type, it.content);
      return { it, path: this.store.loosePath(it.oid), data: zlibSync(wrapped, deflateOptions(wrapped.length)) };
    });
    const dirs = new Set(loose.map((l) => l.path.slice(0, l.path.lastIndexOf("/"))));
    try {
      for (const dir of dirs) await mkdirp(this.store.fs, dir, this.store.knownDirs);
      await writeFiles.call(this.store.fs.promises, [...loose.map(({ path, data }) => ({ path, data })), ...files]);
    } catch (err) {
      if (!isNotFound(err) && errCode(err) !== "ENOTDIR") throw err;
      for (const dir of dirs) this.store.knownDirs.delete(dir);
      await this.flush();
      return false;
    }
    this.pending = new Map();
    this.pendingBytes = 0;
    for (const l of loose) {
      this.stats.bytesWritten += l.data.length;
      this.written.add(l.it.oid);
    }
    this.stats.objectsWritten += loose.length;
    return true;
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
        const wrapped = wrapObject(it.type, it.content);
        const deflated = zlibSync(wrapped, deflateOptions(wrapped.length));
        await this.store.writeLoose(it.oid, deflated);
        this.stats.bytesWritten += deflated.length;
      });
      this.stats.objectsWritten += items.length;
      for (const it of items) this.written.add(it.oid);
      return;
    }
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
        curBytes += b.content.length;
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
      const r = await this.store.writePack(g, bulk && g[0]!.type === "blob");
      names.push(r.name);
      this.stats.packsWritten++;
      this.stats.bytesWritten += r.bytes;
    }
    await this.store.recordOwnPacks(names);
    this.stats.objectsWritten += items.length;
    for (const it of items) this.written.add(it.oid);
  }
}
