/**
 * The request and the response of git's smart-HTTP upload-pack for a clone (protocol v0/v1):
 * "want" lines, an optional "deepen", "done"; back come the shallow boundary (for a depth),
 * "NAK", and the pack, multiplexed with the server's progress messages (side-band).
 *
 * Why not isomorphic-git's fetch: it indexes the pack itself (see index-pack.ts for why that is
 * slow) and offers no way to keep the pack without it. Discovery and the HTTP exchange, with its
 * 401 → credentials → retry dance, are still isomorphic-git's (GitRemoteHTTP).
 */
import type { HttpClient } from "isomorphic-git";
import { GitRemoteHTTP } from "isomorphic-git/managers";
import type { AuthCallbacks } from "./credentials";

export type Advertisement = {
  refs: Map<string, string>;
  symrefs: Map<string, string>;
  capabilities: Set<string>;
  auth: unknown;
};

export type UploadPackProgress = { phase: string; loaded: number; total?: number };

/** GET info/refs?service=git-upload-pack: the server's refs, symbolic refs and capabilities. */
export async function discoverUploadPack(http: HttpClient, url: string, auth: Partial<AuthCallbacks> = {}, signal?: AbortSignal): Promise<Advertisement> {
  const found = (await GitRemoteHTTP.discover({
    http,
    onAuth: auth.onAuth,
    onAuthSuccess: auth.onAuthSuccess,
    onAuthFailure: auth.onAuthFailure,
    service: "git-upload-pack",
    url,
    headers: {},
    signal,
    protocolVersion: 1,
  })) as { refs: Map<string, string>; symrefs: Map<string, string>; capabilities: Set<string>; auth: unknown };
  return { refs: found.refs, symrefs: found.symrefs, capabilities: found.capabilities, auth: found.auth };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function pktLine(text: string): Uint8Array {
  const body = encoder.encode(text);
  const out = new Uint8Array(body.length + 4);
  out.set(encoder.encode((body.length + 4).toString(16).padStart(4, "0")), 0);
  out.set(body, 4);
  return out;
}

export function uploadPackRequest(wants: string[], capabilities: string[], depth?: number): Uint8Array {
  if (wants.length === 0) throw new Error("nothing to fetch");
  const parts = wants.map((oid, i) => pktLine(i === 0 ? `want ${oid} ${capabilities.join(" ")}\n` : `want ${oid}\n`));
  if (depth) parts.push(pktLine(`deepen ${depth}\n`));
  parts.push(encoder.encode("0000"), pktLine("done\n"));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Reads pkt-lines from a stream of chunks, and the rest raw (a pack sent without side-band). */
class PktReader {
  private buf = new Uint8Array(0);
  private done = false;
  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  private async fill(n: number): Promise<boolean> {
    while (this.buf.length < n && !this.done) {
      const next = await this.source.next();
      if (next.done) {
        this.done = true;
        break;
      }
      const chunk = next.value;
      const joined = new Uint8Array(this.buf.length + chunk.length);
      joined.set(this.buf, 0);
      joined.set(chunk, this.buf.length);
      this.buf = joined;
    }
    return this.buf.length >= n;
  }

  /** The next pkt-line's payload, `null` for a flush packet, `undefined` at the end of the stream. */
  async read(): Promise<Uint8Array | null | undefined> {
    if (!(await this.fill(4))) {
      if (this.buf.length === 0) return undefined;
      throw new Error("the server's answer ended in the middle of a packet");
    }
    const len = parseInt(decoder.decode(this.buf.subarray(0, 4)), 16);
    if (Number.isNaN(len)) throw new Error("the server's answer is not in git's packet format");
    if (len === 0 || len === 1 || len === 2) {
      this.buf = this.buf.subarray(4);
      return null;
    }
    if (len < 4 || !(await this.fill(len))) throw new Error("the server's answer ended in the middle of a packet");
    const payload = this.buf.slice(4, len);
    this.buf = this.buf.subarray(len);
    return payload;
  }

  /** Everything left, raw. */
  async *rest(): AsyncGenerator<Uint8Array> {
    if (this.buf.length > 0) yield this.buf;
    this.buf = new Uint8Array(0);
    while (!this.done) {
      const next = await this.source.next();
      if (next.done) break;
      yield next.value;
    }
  }
}

/** Collects chunks into one buffer, growing by doubling (a pack's size is not known ahead). */
class Collector {
  private buf = new Uint8Array(1 << 20);
  length = 0;
  push(chunk: Uint8Array): void {
    if (this.length + chunk.length > this.buf.length) {
      let size = this.buf.length * 2;
      while (size < this.length + chunk.length) size *= 2;
      const next = new Uint8Array(size);
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
    }
    this.buf.set(chunk, this.length);
    this.length += chunk.length;
  }
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

const PROGRESS_LINE = /^([^:]+):\s+(\d+)% \((\d+)\/(\d+)\)/;

export type FetchedPack = { pack: Uint8Array; shallow: string[]; unshallow: string[] };

/** POST git-upload-pack and read the answer: shallow lines, NAK, then the pack. */
export async function fetchPack(
  http: HttpClient,
  url: string,
  advertisement: Advertisement,
  wants: string[],
  opts: { depth?: number; onProgress?: (p: UploadPackProgress) => void; onMessage?: (line: string) => void; signal?: AbortSignal } = {},
): Promise<FetchedPack> {
  const caps = advertisement.capabilities;
  if (opts.depth && !caps.has("shallow")) throw new Error("the server does not support shallow clones (--depth)");
  const band = caps.has("side-band-64k") ? "side-band-64k" : caps.has("side-band") ? "side-band" : undefined;
  const wanted = [band, "ofs-delta", opts.depth ? "shallow" : undefined, caps.has("include-tag") ? "include-tag" : undefined, "agent=git/tabula"].filter(
    (c): c is string => c !== undefined && (c.startsWith("agent=") || caps.has(c)),
  );
  const body = uploadPackRequest(wants, wanted, opts.depth);
  const res = (await GitRemoteHTTP.connect({
    http,
    service: "git-upload-pack",
    url,
    auth: advertisement.auth as never,
    body: [body] as never,
    headers: {},
    signal: opts.signal,
  } as never)) as { body: AsyncIterableIterator<Uint8Array> };
  const reader = new PktReader(res.body[Symbol.asyncIterator]());
  const shallow: string[] = [];
  const unshallow: string[] = [];
  if (opts.depth) {
    for (;;) {
      const line = await reader.read();
      if (line === undefined) throw new Error("the server's answer ended before its shallow list");
      if (line === null) break;
      const text = decoder.decode(line).trim();
      if (text.startsWith("shallow ")) shallow.push(text.slice(8));
      else if (text.startsWith("unshallow ")) unshallow.push(text.slice(10));
      else if (text.startsWith("ERR ")) throw new Error(`remote error: ${text.slice(4)}`);
    }
  }
  const first = await reader.read();
  if (!first) throw new Error("the server sent no pack");
  const ack = decoder.decode(first).trim();
  if (ack.startsWith("ERR ")) throw new Error(`remote error: ${ack.slice(4)}`);
  if (ack !== "NAK" && !ack.startsWith("ACK")) throw new Error(`unexpected answer from the server: ${ack.slice(0, 80)}`);

  const pack = new Collector();
  let lastReport = 0;
  const received = () => {
    const now = Date.now();
    if (now - lastReport < 100) return;
    lastReport = now;
    opts.onProgress?.({ phase: "Receiving objects", loaded: pack.length });
  };
  if (!band) {
    for await (const chunk of reader.rest()) {
      pack.push(chunk);
      received();
    }
  } else {
    let pending = "";
    for (;;) {
      const line = await reader.read();
      if (line === undefined || line === null) break;
      const channel = line[0];
      if (channel === 1) {
        pack.push(line.subarray(1));
        received();
      } else if (channel === 2) {
        pending += decoder.decode(line.subarray(1));
        const parts = pending.split(/[\r\n]/);
        pending = parts.pop() ?? "";
        for (const p of parts) {
          if (!p.trim()) continue;
          opts.onMessage?.(p);
          const m = PROGRESS_LINE.exec(p);
          if (m) opts.onProgress?.({ phase: m[1]!.replace(/^remote:\s*/, "").trim(), loaded: Number(m[3]), total: Number(m[4]) });
        }
      } else if (channel === 3) throw new Error(`remote error: ${decoder.decode(line.subarray(1)).trim()}`);
    }
  }
  opts.onProgress?.({ phase: "Receiving objects", loaded: pack.length, total: pack.length });
  return { pack: pack.bytes(), shallow, unshallow };
}
