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
