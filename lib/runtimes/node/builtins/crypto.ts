/**
 * `node:crypto` — what scripts use most: randomUUID, getRandomValues, randomBytes, randomInt,
 * createHash (sha1, sha256, sha224, sha384, sha512, md5 through @noble/hashes, synchronous as
 * Node's is), createHmac over the same, timingSafeEqual, and `webcrypto`/`subtle` from the
 * platform. Ciphers, key pairs and signing are not here and say so.
 */
import { sha1, md5 } from "@noble/hashes/legacy.js";
import { sha224, sha256, sha384, sha512 } from "@noble/hashes/sha2.js";
import { hmac } from "@noble/hashes/hmac.js";
import { Buffer } from "./buffer";

type HashFn = { create(): { update(b: Uint8Array): unknown; digest(): Uint8Array } };
const HASHES: Record<string, HashFn> = { sha1, md5, sha224, sha256, sha384, sha512, "sha-1": sha1, "sha-256": sha256 };

function algorithm(name: string): HashFn {
  const h = HASHES[String(name).toLowerCase()];
  if (!h) throw Object.assign(new Error(`Digest method not supported: ${name} (this runtime has sha1, sha224, sha256, sha384, sha512, md5)`), { code: "ERR_CRYPTO_INVALID_DIGEST" });
  return h;
}

function bytesOf(data: unknown, enc?: string): Uint8Array {
  if (typeof data === "string") return Buffer.from(data, enc ?? "utf8");
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw Object.assign(new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${typeof data}`), { code: "ERR_INVALID_ARG_TYPE" });
}

class Hash {
  private done = false;
  constructor(private readonly h: { update(b: Uint8Array): unknown; digest(): Uint8Array }) {}
  update(data: unknown, enc?: string): this {
    if (this.done) throw Object.assign(new Error("Digest already called"), { code: "ERR_CRYPTO_HASH_FINALIZED" });
    this.h.update(bytesOf(data, enc));
    return this;
  }
  digest(enc?: string): Buffer | string {
    if (this.done) throw Object.assign(new Error("Digest already called"), { code: "ERR_CRYPTO_HASH_FINALIZED" });
    this.done = true;
    const out = Buffer.wrap(this.h.digest());
    return enc ? out.toString(enc) : out;
  }
}

const notHere = (name: string) => () => {
  throw Object.assign(new Error(`crypto.${name} is not available in this runtime (it has hashes, HMAC, random values and crypto.subtle)`), { code: "ERR_NOT_AVAILABLE" });
};

export function cryptoModule(): Record<string, unknown> {
  const c = globalThis.crypto;
  const randomBytes = (n: number, cb?: (err: null, b: Buffer) => void) => {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i += 65536) c.getRandomValues(b.subarray(i, Math.min(n, i + 65536)));
    if (cb) queueMicrotask(() => cb(null, b));
    return b;
  };
  return {
    randomUUID: () => c.randomUUID(),
    getRandomValues: <T extends ArrayBufferView>(a: T) => c.getRandomValues(a as never) as T,
    randomBytes,
    randomInt: (min: number, max?: number) => {
      if (max === undefined) [min, max] = [0, min];
      const range = max - min;
      const buf = new Uint32Array(1);
      const limit = Math.floor(0x100000000 / range) * range;
      do c.getRandomValues(buf);
      while (buf[0]! >= limit);
      return min + (buf[0]! % range);
    },
    createHash: (name: string) => new Hash(algorithm(name).create()),
    createHmac: (name: string, key: unknown) => new Hash(hmac.create(algorithm(name) as typeof sha256, bytesOf(key))),
    hash: (name: string, data: unknown, enc = "hex") => new Hash(algorithm(name).create()).update(data).digest(enc),
    getHashes: () => ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"],
    timingSafeEqual: (a: Uint8Array, b: Uint8Array) => {
      if (a.byteLength !== b.byteLength) throw Object.assign(new RangeError("Input buffers must have the same byte length"), { code: "ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH" });
      let d = 0;
      for (let i = 0; i < a.length; i++) d |= a[i]! ^ b[i]!;
      return d === 0;
    },
    webcrypto: c,
    subtle: c.subtle,
    createCipheriv: notHere("createCipheriv"),
    createDecipheriv: notHere("createDecipheriv"),
    generateKeyPairSync: notHere("generateKeyPairSync"),
    createSign: notHere("createSign"),
    createVerify: notHere("createVerify"),
    pbkdf2Sync: notHere("pbkdf2Sync"),
    scryptSync: notHere("scryptSync"),
  };
}
