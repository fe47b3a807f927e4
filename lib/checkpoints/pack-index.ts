/**
 * Reading git's pack files: the v2 .idx searched in place, entry type codes and delta
 * resolution. Writing packs is ObjectStore.writePack (objects.ts).
 */
import type { ObjectType } from "./git-format";
import { CheckpointError, fromHex, toHex } from "./util";

export const TYPE_CODE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
export const CODE_TYPE: Record<number, ObjectType> = { 1: "commit", 2: "tree", 3: "blob", 4: "tag" };

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

export function readVarint(buf: Uint8Array, pos: number): [number, number] {
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

export function applyDelta(delta: Uint8Array, base: Uint8Array): Uint8Array {
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

/**
 * A v2 .idx for a pack: `oids` holds each object's 20-byte name (flat), `offsets` and `crcs`
 * the object's entry offset and CRC-32, index i for object i, in any order. The trailing
 * checksum (its last 20 bytes, zero here) is left for the caller to fill in: the SHA-1 of
 * everything before it (hashing is async here).
 */
export function encodePackIndex(oids: Uint8Array, offsets: ArrayLike<number>, crcs: ArrayLike<number>, packSum: Uint8Array): Uint8Array {
  const n = offsets.length;
  // Sort by name: the first four bytes as one number, the rest only on a tie.
  const lead = new Uint32Array(n);
  for (let i = 0; i < n; i++) lead[i] = ((oids[i * 20]! << 24) | (oids[i * 20 + 1]! << 16) | (oids[i * 20 + 2]! << 8) | oids[i * 20 + 3]!) >>> 0;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => {
    const d = lead[a]! - lead[b]!;
    if (d !== 0) return d;
    for (let k = 4; k < 20; k++) {
      const e = oids[a * 20 + k]! - oids[b * 20 + k]!;
      if (e !== 0) return e;
    }
    return 0;
  });
  let large = 0;
  for (let i = 0; i < n; i++) if (offsets[i]! >= 0x80000000) large++;
  const idx = new Uint8Array(8 + 256 * 4 + n * 28 + large * 8 + 40);
  const view = new DataView(idx.buffer);
  view.setUint32(0, 0xff744f63);
  view.setUint32(4, 2);
  const fan = new Uint32Array(256);
  for (let i = 0; i < n; i++) fan[oids[i * 20]!]!++;
  let acc = 0;
  for (let i = 0; i < 256; i++) {
    acc += fan[i]!;
    view.setUint32(8 + i * 4, acc);
  }
  const namesAt = 8 + 256 * 4;
  const crcsAt = namesAt + n * 20;
  const offsAt = crcsAt + n * 4;
  const largeAt = offsAt + n * 4;
  let nextLarge = 0;
  for (let j = 0; j < n; j++) {
    const i = order[j]!;
    idx.set(oids.subarray(i * 20, i * 20 + 20), namesAt + j * 20);
    view.setUint32(crcsAt + j * 4, crcs[i]! >>> 0);
    const off = offsets[i]!;
    if (off < 0x80000000) view.setUint32(offsAt + j * 4, off);
    else {
      view.setUint32(offsAt + j * 4, (0x80000000 | nextLarge) >>> 0);
      view.setUint32(largeAt + nextLarge * 8, Math.floor(off / 2 ** 32));
      view.setUint32(largeAt + nextLarge * 8 + 4, off >>> 0);
      nextLarge++;
    }
  }
  idx.set(packSum, largeAt + large * 8);
  return idx;
}
