/** pako's zlib port at its C-like level (index-pack needs `next_in`: how much input a stream used). */
declare module "pako/lib/zlib/zstream.js" {
  export default class ZStream {
    input: Uint8Array | null;
    next_in: number;
    avail_in: number;
    output: Uint8Array | null;
    next_out: number;
    avail_out: number;
    total_in: number;
    total_out: number;
    msg: string;
  }
}
declare module "pako/lib/zlib/inflate.js" {
  import type ZStream from "pako/lib/zlib/zstream.js";
  export function inflateInit(strm: ZStream): number;
  export function inflateInit2(strm: ZStream, windowBits: number): number;
  export function inflateReset(strm: ZStream): number;
  export function inflate(strm: ZStream, flush: number): number;
  export function inflateEnd(strm: ZStream): number;
}
