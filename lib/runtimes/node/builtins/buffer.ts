/**
 * `node:buffer` — no Buffer polyfill ships in node_modules, so this is an honest subset written
 * here: a Uint8Array subclass with the encodings scripts use (utf8, hex, base64, base64url,
 * latin1/binary, ascii, utf16le), `from`/`alloc`/`concat`/`compare`/`byteLength`, `toString`,
 * `equals`, `indexOf`/`includes`, `slice`/`subarray` (views, as in Node), `write`, `fill`,
 * `copy`, `toJSON`, and the integer/float read and write methods. Not provided: `transcode`,
 * `Blob`-from-buffer helpers beyond the platform's own, `SlowBuffer`.
 */
import { registerFormatter } from "../inspect";

type Encoding = "utf8" | "hex" | "base64" | "base64url" | "latin1" | "ascii" | "utf16le";

function normEncoding(enc: unknown): Encoding {
  const e = String(enc ?? "utf8").toLowerCase();
  switch (e) {
    case "utf8":
    case "utf-8":
      return "utf8";
    case "hex":
      return "hex";
    case "base64":
      return "base64";
    case "base64url":
      return "base64url";
    case "latin1":
    case "binary":
      return "latin1";
    case "ascii":
      return "ascii";
    case "utf16le":
    case "utf-16le":
    case "ucs2":
    case "ucs-2":
      return "utf16le";
    default:
      throw Object.assign(new TypeError(`Unknown encoding: ${String(enc)}`), { code: "ERR_UNKNOWN_ENCODING" });
  }
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function encodeString(s: string, enc: Encoding): Uint8Array {
  switch (enc) {
    case "utf8":
      return new TextEncoder().encode(s);
    case "hex": {
      const n = Math.floor(s.length / 2);
      const out = new Uint8Array(n);
      let i = 0;
      for (; i < n; i++) {
        const v = parseInt(s.substr(i * 2, 2), 16);
        if (Number.isNaN(v)) break;
        out[i] = v;
      }
      return out.subarray(0, i);
    }
    case "base64":
    case "base64url": {
      const clean = s.replace(/[^A-Za-z0-9+/\-_]/g, "").replace(/-/g, "+").replace(/_/g, "/");
      const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
      let bits = 0;
      let acc = 0;
      let j = 0;
      for (const ch of clean) {
        acc = (acc << 6) | B64.indexOf(ch);
        bits += 6;
        if (bits >= 8) {
          bits -= 8;
          out[j++] = (acc >> bits) & 0xff;
        }
      }
      return out.subarray(0, j);
    }
    case "latin1":
    case "ascii": {
      const out = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
      return out;
    }
    case "utf16le": {
      const out = new Uint8Array(s.length * 2);
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        out[i * 2] = c & 0xff;
        out[i * 2 + 1] = c >> 8;
      }
      return out;
    }
  }
}

function decodeBytes(b: Uint8Array, enc: Encoding): string {
  switch (enc) {
    case "utf8":
      return new TextDecoder().decode(b);
    case "hex":
      return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    case "base64":
    case "base64url": {
      let out = "";
      let i = 0;
      for (; i + 2 < b.length; i += 3) {
        const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
        out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
      }
      const rest = b.length - i;
      if (rest === 1) {
        const n = b[i]! << 16;
        out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + "==";
      } else if (rest === 2) {
        const n = (b[i]! << 16) | (b[i + 1]! << 8);
        out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + "=";
      }
      return enc === "base64" ? out : out.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    }
    case "latin1":
      return Array.from(b, (x) => String.fromCharCode(x)).join("");
    case "ascii":
      return Array.from(b, (x) => String.fromCharCode(x & 0x7f)).join("");
    case "utf16le": {
      let out = "";
      for (let i = 0; i + 1 < b.length; i += 2) out += String.fromCharCode(b[i]! | (b[i + 1]! << 8));
      return out;
    }
  }
}

export class Buffer extends Uint8Array {
  static poolSize = 8192;

  static from(value: unknown, encOrOffset?: unknown, length?: number): Buffer {
    if (typeof value === "string") return Buffer.wrap(encodeString(value, normEncoding(encOrOffset)));
    if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && value instanceof SharedArrayBuffer)) {
      const off = Number(encOrOffset ?? 0);
      return new Buffer(value as ArrayBuffer, off, length ?? value.byteLength - off);
    }
    if (ArrayBuffer.isView(value)) {
      const src = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      const out = Buffer.alloc(value instanceof Uint8Array ? value.length : (value as unknown as { length: number }).length ?? src.length);
      if (value instanceof Uint8Array) out.set(value);
      else out.set(Array.from(value as unknown as ArrayLike<number>));
      return out;
    }
    if (Array.isArray(value)) return Buffer.wrap(Uint8Array.from(value, (x) => Number(x) & 0xff));
    if (value && typeof value === "object") {
      const o = value as { type?: string; data?: unknown; valueOf?: () => unknown; length?: number };
      if (o.type === "Buffer" && Array.isArray(o.data)) return Buffer.from(o.data);
      const prim = o.valueOf?.();
      if (prim !== value && (typeof prim === "string" || ArrayBuffer.isView(prim))) return Buffer.from(prim, encOrOffset);
      if (typeof o.length === "number") return Buffer.wrap(Uint8Array.from(value as ArrayLike<number>));
    }
    throw Object.assign(
      new TypeError(`The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object. Received ${value === null ? "null" : typeof value}`),
      { code: "ERR_INVALID_ARG_TYPE" },
    );
  }

  /** A Buffer over the same memory as `u8`. */
  static wrap(u8: Uint8Array): Buffer {
    return new Buffer(u8.buffer as ArrayBuffer, u8.byteOffset, u8.byteLength);
  }

  static alloc(size: number, fill?: unknown, enc?: unknown): Buffer {
    const b = new Buffer(size);
    if (fill !== undefined && fill !== 0) b.fill(fill as number, 0, size, enc as string);
    return b;
  }
  static allocUnsafe(size: number): Buffer {
    return new Buffer(size);
  }
  static allocUnsafeSlow(size: number): Buffer {
    return new Buffer(size);
  }
  static isBuffer(v: unknown): v is Buffer {
    return v instanceof Buffer;
  }
  static isEncoding(enc: unknown): boolean {
    try {
      normEncoding(enc);
      return typeof enc === "string";
    } catch {
      return false;
    }
  }
  static byteLength(v: unknown, enc?: unknown): number {
    if (typeof v === "string") return encodeString(v, normEncoding(enc)).length;
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v.byteLength;
    throw Object.assign(new TypeError(`The "string" argument must be of type string or an instance of Buffer or ArrayBuffer. Received ${typeof v}`), { code: "ERR_INVALID_ARG_TYPE" });
  }
  static concat(list: Uint8Array[], total?: number): Buffer {
    const len = total ?? list.reduce((n, b) => n + b.length, 0);
    const out = Buffer.alloc(len);
    let off = 0;
    for (const b of list) {
      if (off >= len) break;
      out.set(b.subarray(0, len - off), off);
      off += b.length;
    }
    return out;
  }
  static compare(a: Uint8Array, b: Uint8Array): number {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  }

  override toString(enc?: string, start = 0, end = this.length): string {
    return decodeBytes(this.subarray(Math.max(0, start), Math.min(this.length, end)), normEncoding(enc));
  }
  toJSON(): { type: "Buffer"; data: number[] } {
    return { type: "Buffer", data: Array.from(this) };
  }
  equals(other: Uint8Array): boolean {
    return Buffer.compare(this, other) === 0;
  }
  compare(other: Uint8Array): number {
    return Buffer.compare(this, other);
  }
  override subarray(start?: number, end?: number): Buffer {
    const u = Uint8Array.prototype.subarray.call(this, start, end);
    return new Buffer(u.buffer as ArrayBuffer, u.byteOffset, u.byteLength);
  }
  override slice(start?: number, end?: number): Buffer {
    return this.subarray(start, end);
  }
  write(s: string, offset = 0, length?: number, enc?: string): number {
    if (typeof offset === "string") {
      enc = offset;
      offset = 0;
    }
    const bytes = encodeString(s, normEncoding(enc));
    const n = Math.min(bytes.length, length ?? this.length - offset, this.length - offset);
    this.set(bytes.subarray(0, n), offset);
    return n;
  }
  override fill(value: unknown, start = 0, end = this.length, enc?: string): this {
    if (typeof start === "string") {
      enc = start;
      start = 0;
      end = this.length;
    }
    if (typeof value === "number") return Uint8Array.prototype.fill.call(this, value & 0xff, start, end) as this;
    const pattern = typeof value === "string" ? encodeString(value, normEncoding(enc)) : (value as Uint8Array);
    if (pattern.length === 0) return Uint8Array.prototype.fill.call(this, 0, start, end) as this;
    for (let i = start, j = 0; i < end; i++, j = (j + 1) % pattern.length) this[i] = pattern[j]!;
    return this;
  }
  copy(target: Uint8Array, targetStart = 0, sourceStart = 0, sourceEnd = this.length): number {
    const chunk = this.subarray(sourceStart, Math.min(sourceEnd, sourceStart + target.length - targetStart));
    target.set(chunk, targetStart);
    return chunk.length;
  }
  override indexOf(value: unknown, byteOffset = 0, enc?: string): number {
    if (typeof value === "number") return Uint8Array.prototype.indexOf.call(this, value & 0xff, byteOffset);
    const needle = typeof value === "string" ? encodeString(value, normEncoding(enc)) : (value as Uint8Array);
    const from = byteOffset < 0 ? Math.max(0, this.length + byteOffset) : byteOffset;
    outer: for (let i = from; i <= this.length - needle.length; i++) {
      for (let j = 0; j < needle.length; j++) if (this[i + j] !== needle[j]) continue outer;
      return i;
    }
    return -1;
  }
  override includes(value: unknown, byteOffset = 0, enc?: string): boolean {
    return this.indexOf(value, byteOffset, enc) !== -1;
  }
  private view(): DataView {
    return new DataView(this.buffer, this.byteOffset, this.byteLength);
  }
  readUInt8(o = 0): number {
    return this.view().getUint8(o);
  }
  readInt8(o = 0): number {
    return this.view().getInt8(o);
  }
  readUInt16LE(o = 0): number {
    return this.view().getUint16(o, true);
  }
  readUInt16BE(o = 0): number {
    return this.view().getUint16(o, false);
  }
  readInt16LE(o = 0): number {
    return this.view().getInt16(o, true);
  }
  readInt16BE(o = 0): number {
    return this.view().getInt16(o, false);
  }
  readUInt32LE(o = 0): number {
    return this.view().getUint32(o, true);
  }
  readUInt32BE(o = 0): number {
    return this.view().getUint32(o, false);
  }
  readInt32LE(o = 0): number {
    return this.view().getInt32(o, true);
  }
  readInt32BE(o = 0): number {
    return this.view().getInt32(o, false);
  }
  readBigUInt64LE(o = 0): bigint {
    return this.view().getBigUint64(o, true);
  }
  readBigUInt64BE(o = 0): bigint {
    return this.view().getBigUint64(o, false);
  }
  readFloatLE(o = 0): number {
    return this.view().getFloat32(o, true);
  }
  readFloatBE(o = 0): number {
    return this.view().getFloat32(o, false);
  }
  readDoubleLE(o = 0): number {
    return this.view().getFloat64(o, true);
  }
  readDoubleBE(o = 0): number {
    return this.view().getFloat64(o, false);
  }
  writeUInt8(v: number, o = 0): number {
    this.view().setUint8(o, v);
    return o + 1;
  }
  writeInt8(v: number, o = 0): number {
    this.view().setInt8(o, v);
    return o + 1;
  }
  writeUInt16LE(v: number, o = 0): number {
    this.view().setUint16(o, v, true);
    return o + 2;
  }
  writeUInt16BE(v: number, o = 0): number {
    this.view().setUint16(o, v, false);
    return o + 2;
  }
  writeInt16LE(v: number, o = 0): number {
    this.view().setInt16(o, v, true);
    return o + 2;
  }
  writeInt16BE(v: number, o = 0): number {
    this.view().setInt16(o, v, false);
    return o + 2;
  }
  writeUInt32LE(v: number, o = 0): number {
    this.view().setUint32(o, v, true);
    return o + 4;
  }
  writeUInt32BE(v: number, o = 0): number {
    this.view().setUint32(o, v, false);
    return o + 4;
  }
  writeInt32LE(v: number, o = 0): number {
    this.view().setInt32(o, v, true);
    return o + 4;
  }
  writeInt32BE(v: number, o = 0): number {
    this.view().setInt32(o, v, false);
    return o + 4;
  }
  writeFloatLE(v: number, o = 0): number {
    this.view().setFloat32(o, v, true);
    return o + 4;
  }
  writeDoubleLE(v: number, o = 0): number {
    this.view().setFloat64(o, v, true);
    return o + 8;
  }
}

// Aliases Node keeps for old code.
for (const [alias, name] of [
  ["readUint8", "readUInt8"],
  ["readUint16LE", "readUInt16LE"],
  ["readUint16BE", "readUInt16BE"],
  ["readUint32LE", "readUInt32LE"],
  ["readUint32BE", "readUInt32BE"],
  ["writeUint8", "writeUInt8"],
  ["writeUint16LE", "writeUInt16LE"],
  ["writeUint32LE", "writeUInt32LE"],
] as const) {
  (Buffer.prototype as unknown as Record<string, unknown>)[alias] = Buffer.prototype[name];
}

registerFormatter((v) => {
  if (!(v instanceof Buffer)) return undefined;
  const max = 50;
  const hex = Array.from(v.subarray(0, max), (b) => b.toString(16).padStart(2, "0")).join(" ");
  const more = v.length > max ? ` ... ${v.length - max} more byte${v.length - max > 1 ? "s" : ""}` : "";
  return `<Buffer${hex ? " " + hex : ""}${more}>`;
});

export function bufferModule(): Record<string, unknown> {
  return {
    Buffer,
    kMaxLength: 2 ** 32,
    constants: { MAX_LENGTH: 2 ** 32, MAX_STRING_LENGTH: 2 ** 29 - 24 },
    atob: (s: string) => atob(s),
    btoa: (s: string) => btoa(s),
    Blob: globalThis.Blob,
    isUtf8: (b: Uint8Array) => {
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(b);
        return true;
      } catch {
        return false;
      }
    },
  };
}
