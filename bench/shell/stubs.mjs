/**
 * Stubs for Node built-ins the browser bundle of the shell benchmark must not pull in:
 * just-bash's browser entry imports node:zlib (gzip is unavailable in the browser), and
 * isomorphic-git's sha.js reaches `buffer` through safe-buffer (the app gets a real polyfill
 * from Next). The benchmark never runs git or gzip, so loading must merely not fail.
 */
export const zlibStub = `
export const constants = {};
export function gzipSync() { throw new Error("gzip is not available in the browser"); }
export function gunzipSync() { throw new Error("gunzip is not available in the browser"); }
export default { constants, gzipSync, gunzipSync };
`;

export const bufferStub = `
class Buffer extends Uint8Array {
  static from(v) {
    if (typeof v === "string") return new Buffer(new TextEncoder().encode(v));
    return new Buffer(v);
  }
  static alloc(n) { return new Buffer(n); }
  static allocUnsafe(n) { return new Buffer(n); }
  static allocUnsafeSlow(n) { return new Buffer(n); }
  static isBuffer(b) { return b instanceof Buffer; }
}
export { Buffer };
export default { Buffer };
`;
