/**
 * Git's object formats, as bytes: object modes, SHA-1 of wrapped objects (`type len\0` +
 * content), CRC-32 for pack indexes, and tree and commit encodings. Pure functions; the object
 * database that stores them is objects.ts.
 */
import { sha1 as jsSha1 } from "@noble/hashes/legacy.js";
import { createSHA1, type IHasher } from "hash-wasm";
import { CheckpointError, compareUtf8, concatBytes, fromHex, fromHexInto, fromUtf8, toHex, treeKey, utf8 } from "./util";

export type ObjectType = "blob" | "tree" | "commit" | "tag";

export const MODE_FILE = 0o100644;
export const MODE_EXEC = 0o100755;
export const MODE_LINK = 0o120000;
export const MODE_TREE = 0o040000;
export const MODE_GITLINK = 0o160000;

export const EMPTY_TREE_OID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

// ---- hashing --------------------------------------------------------------------------------

type NodeHash = { update(data: Uint8Array): NodeHash; digest(encoding: "hex"): string };
type NodeCrypto = { createHash(algorithm: string): NodeHash };

/**
 * Node's own hasher, when the engine runs in Node (tests, the bench, a desktop host), reached
 * through `process.getBuiltinModule` so lib/ never imports node:crypto and stays loadable in a
 * page. `crypto.subtle.digest` in Node is a promise job per call: profiled on a 10,000-file
 * cold checkpoint it was ~500 ms, where `createHash` hashes the same bytes in under 100 ms.
 */
const nodeCrypto: NodeCrypto | undefined = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const mod = proc?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
    return typeof mod?.createHash === "function" ? mod : undefined;
  } catch {
    return undefined;
  }
})();

export type Sha1Backend = "node" | "wasm" | "subtle" | "js";

/**
 * Which SHA-1 runs: Node's hasher in Node; in a browser, hash-wasm's (synchronous once
 * loaded, and it takes an object's header and content in turn, where `crypto.subtle` needs
 * them copied into one buffer and costs a promise per call); `crypto.subtle` where
 * WebAssembly is refused; a JS implementation where neither exists (the app served over plain
 * http on a LAN address is not a secure context, and browsers hide `crypto.subtle` there).
 * `hashing.force` lets tests run each one in Node: every backend must give git's ids.
 */
export const hashing: { force?: Sha1Backend } = {};

let wasm: Promise<IHasher | null> | undefined;
function wasmHasher(): Promise<IHasher | null> {
  wasm ??= createSHA1().catch(() => null);
  return wasm;
}

/** The hasher for one call; the wasm one falls back to the next when it cannot be loaded. */
async function resolveBackend(): Promise<{ kind: Sha1Backend; wasm?: IHasher }> {
  const withoutWasm = (): Sha1Backend => ((globalThis as { crypto?: Crypto }).crypto?.subtle ? "subtle" : "js");
  const kind: Sha1Backend = hashing.force ?? (nodeCrypto ? "node" : typeof WebAssembly === "object" ? "wasm" : withoutWasm());
  if (kind !== "wasm") return { kind };
  const h = await wasmHasher();
  return h ? { kind, wasm: h } : { kind: withoutWasm() };
}

/** SHA-1 of `parts` one after another, as hex. Only `crypto.subtle` (no streaming) needs them joined. */
async function sha1OfParts(parts: Uint8Array[]): Promise<string> {
  const b = await resolveBackend();
  switch (b.kind) {
    case "node": {
      const h = nodeCrypto!.createHash("sha1");
      for (const p of parts) h.update(p);
      return h.digest("hex");
    }
    case "wasm": {
      // init, update and digest with no await between: concurrent callers never interleave.
      const h = b.wasm!.init();
      for (const p of parts) h.update(p);
      return h.digest("hex");
    }
    case "js": {
      const h = jsSha1.create();
      for (const p of parts) h.update(p);
      return toHex(h.digest());
    }
    case "subtle": {
      const joined = parts.length === 1 ? parts[0]! : concatBytes(parts);
      return toHex(new Uint8Array(await crypto.subtle.digest("SHA-1", joined as unknown as BufferSource)));
    }
  }
}

export function sha1Hex(data: Uint8Array): Promise<string> {
  return sha1OfParts([data]);
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

/**
 * Writes `type len\0` (ASCII) at the start of `out`, returning its length; `out` must have
 * room for `objectHeaderLength`. Written by hand: a TextEncoder call per object was a tenth of
 * the hashing phase of a 10,000-file checkpoint in Chromium.
 */
function writeHeader(type: ObjectType, length: number, out: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < type.length; i++) out[n++] = type.charCodeAt(i);
  out[n++] = 0x20;
  const digits = String(length);
  for (let i = 0; i < digits.length; i++) out[n++] = digits.charCodeAt(i);
  out[n++] = 0;
  return n;
}

function objectHeaderLength(type: ObjectType, length: number): number {
  return type.length + String(length).length + 2;
}

/** `type len\0` + content, in one buffer (what a loose object deflates). */
export function wrapObject(type: ObjectType, content: Uint8Array): Uint8Array {
  const wrapped = new Uint8Array(objectHeaderLength(type, content.length) + content.length);
  wrapped.set(content, writeHeader(type, content.length, wrapped));
  return wrapped;
}

/**
 * The object id of `content` as a `type` object: the header and the content hashed in turn,
 * without copying the content behind the header (a copy of every file that showed up as a
 * tenth of a cold checkpoint in Node).
 */
export function hashObject(type: ObjectType, content: Uint8Array): Promise<string> {
  const header = new Uint8Array(objectHeaderLength(type, content.length));
  writeHeader(type, content.length, header);
  return sha1OfParts([header, content]);
}

// ---- trees ----------------------------------------------------------------------------------

export type TreeEntry = { name: string; mode: number; oid: string };

export function modeString(mode: number): string {
  return mode.toString(8);
}

/**
 * Serialise entries in git's order (directories compare as "name/"). Sorts a copy. Written
 * into one buffer, names byte by byte while they are ASCII: a first checkpoint of a deep
 * repository encodes thousands of trees, and one TextEncoder call plus two small arrays per
 * entry showed in its profile.
 */
export function encodeTree(entries: TreeEntry[]): Uint8Array {
  const keyed = entries.map((e) => ({ e, key: treeKey(e.name, e.mode === MODE_TREE), bytes: asciiOrUtf8(e.name) }));
  keyed.sort((a, b) => compareUtf8(a.key, b.key));
  let size = 0;
  for (const k of keyed) size += modeString(k.e.mode).length + 1 + (typeof k.bytes === "number" ? k.bytes : k.bytes.length) + 1 + 20;
  const out = new Uint8Array(size);
  let at = 0;
  for (const { e, bytes } of keyed) {
    const mode = modeString(e.mode);
    for (let i = 0; i < mode.length; i++) out[at++] = mode.charCodeAt(i);
    out[at++] = 0x20;
    if (typeof bytes === "number") for (let i = 0; i < bytes; i++) out[at++] = e.name.charCodeAt(i);
    else {
      out.set(bytes, at);
      at += bytes.length;
    }
    out[at++] = 0;
    fromHexInto(e.oid, out, at);
    at += 20;
  }
  return out;
}

/** The name's length when it is ASCII (its bytes are its char codes), else its UTF-8 bytes. */
function asciiOrUtf8(name: string): number | Uint8Array {
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) >= 0x80) return utf8(name);
  return name.length;
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
