/**
 * Git bundles (v2): what `git bundle create` writes and `git clone <file>` reads. A header of
 * `<oid> <refname>` lines, a blank line, then a packfile holding every object the refs reach
 * (history included, so the bundle needs nothing else: no prerequisites).
 *
 * Written with isomorphic-git's packObjects over any IsoFs (lightning-fs in the browser,
 * node:fs in tests); read by indexing the pack into the repository's objects/pack.
 */
import git from "isomorphic-git";
import type { IsoFs } from "../fs";
import { mkdirp, toHex } from "../checkpoints/util";

export type Repo = { fs: IsoFs; dir: string };
export type BundleRef = { name: string; oid: string };

export class BundleError extends Error {
  constructor(
    readonly code: "NOT_A_BUNDLE" | "UNSUPPORTED" | "CORRUPT" | "TOO_LARGE" | "INVALID_REF",
    message: string,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = "BundleError";
  }
}

const OID_RE = /^[0-9a-f]{40}$/;
const V2 = "# v2 git bundle\n";
const V3 = "# v3 git bundle\n";
const enc = new TextEncoder();
const dec = new TextDecoder();

/** A ref name git would accept, and that can never escape .git/refs (no "..", no "//", no control chars). */
export function isSafeRefName(name: string): boolean {
  if (name === "HEAD") return true;
  if (!name.startsWith("refs/") || name.length > 400) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name) || name.includes("..") || name.includes("//") || name.includes("@{")) return false;
  if (name.endsWith("/") || name.endsWith(".") || name.endsWith(".lock")) return false;
  return name.split("/").every((part) => part !== "" && !part.startsWith("."));
}

type Parsed =
  | { type: "commit"; object: { tree: string; parent: string[] } }
  | { type: "tree"; object: { type: "blob" | "tree" | "commit"; oid: string }[] }
  | { type: "tag"; object: { object: string } }
  | { type: "blob"; object: Uint8Array };

/** Every object the tips reach: commits (with their history), trees, blobs; gitlinks are not followed. */
export async function reachableObjects(repo: Repo, tips: string[]): Promise<string[]> {
  const seen = new Set<string>();
  const stack = [...tips];
  while (stack.length) {
    const oid = stack.pop()!;
    if (seen.has(oid)) continue;
    seen.add(oid);
    const obj = (await git.readObject({ fs: repo.fs, dir: repo.dir, oid, format: "parsed" })) as Parsed;
    if (obj.type === "commit") {
      stack.push(obj.object.tree, ...obj.object.parent);
    } else if (obj.type === "tree") {
      for (const e of obj.object) {
        if (e.type === "commit") continue; // a submodule's commit lives in another repository
        if (e.type === "blob") seen.add(e.oid);
        else stack.push(e.oid);
      }
    } else if (obj.type === "tag") {
      stack.push(obj.object.object);
    }
  }
  return [...seen];
}

/** A v2 bundle of `refs` (HEAD may be one of them) with every object they reach. */
export async function writeBundle(repo: Repo, refs: BundleRef[]): Promise<Uint8Array> {
  if (refs.length === 0) throw new BundleError("INVALID_REF", "A bundle needs at least one ref");
  for (const r of refs) {
    if (!isSafeRefName(r.name)) throw new BundleError("INVALID_REF", `Not a ref name: ${JSON.stringify(r.name)}`);
    if (!OID_RE.test(r.oid)) throw new BundleError("INVALID_REF", `Not an object id: ${JSON.stringify(r.oid)}`);
  }
  const oids = await reachableObjects(repo, [...new Set(refs.map((r) => r.oid))]);
  const { packfile } = await git.packObjects({ fs: repo.fs, dir: repo.dir, oids });
  if (!packfile) throw new BundleError("CORRUPT", "The pack could not be built");
  const header = enc.encode(V2 + refs.map((r) => `${r.oid} ${r.name}\n`).join("") + "\n");
  const out = new Uint8Array(header.length + packfile.length);
  out.set(header, 0);
  out.set(packfile, header.length);
  return out;
}

export type ParsedBundle = { version: 2 | 3; refs: BundleRef[]; pack: Uint8Array };

/** The header and pack of a bundle; anything else is refused with a sentence saying why. */
export function parseBundle(bytes: Uint8Array, maxBytes = Infinity): ParsedBundle {
  if (bytes.length > maxBytes) throw new BundleError("TOO_LARGE", `The bundle is ${bytes.length} bytes; the limit is ${maxBytes}`);
  const head = dec.decode(bytes.subarray(0, Math.min(bytes.length, 16)));
  const version = head === V2 ? 2 : head === V3 ? 3 : 0;
  if (!version) throw new BundleError("NOT_A_BUNDLE", "This is not a git bundle (it should start with \"# v2 git bundle\")");
  let pos = head.length;
  const refs: BundleRef[] = [];
  for (;;) {
    const nl = bytes.indexOf(10, pos);
    if (nl === -1 || nl - pos > 1024) throw new BundleError("CORRUPT", "The bundle's header is cut off or malformed");
    const line = dec.decode(bytes.subarray(pos, nl));
    pos = nl + 1;
    if (line === "") break;
    if (line.startsWith("@")) {
      if (version === 3 && (line === "@object-format=sha1" || line.startsWith("@filter="))) {
        if (line.startsWith("@filter=")) throw new BundleError("UNSUPPORTED", "Partial (filtered) bundles cannot be imported");
        continue;
      }
      throw new BundleError("UNSUPPORTED", `Unsupported bundle capability: ${line}`);
    }
    if (line.startsWith("-")) throw new BundleError("UNSUPPORTED", "This bundle needs objects it does not contain (an incremental bundle): export a complete one");
    const m = /^([0-9a-f]{40}) (.+)$/.exec(line);
    if (!m) throw new BundleError("CORRUPT", `Malformed bundle header line: ${JSON.stringify(line.slice(0, 100))}`);
    if (!isSafeRefName(m[2]!)) throw new BundleError("INVALID_REF", `The bundle names an invalid ref: ${JSON.stringify(m[2]!.slice(0, 100))}`);
    refs.push({ oid: m[1]!, name: m[2]! });
  }
  if (refs.length === 0) throw new BundleError("CORRUPT", "The bundle has no refs");
  const pack = bytes.subarray(pos);
  if (pack.length < 32 || dec.decode(pack.subarray(0, 4)) !== "PACK") throw new BundleError("CORRUPT", "The bundle holds no pack data");
  return { version: version as 2 | 3, refs, pack };
}


/**
 * Put a bundle's objects into a repository (as an indexed pack) and check that every ref it
 * names resolves. Refs are returned, not written: the caller decides which to create.
 */
export async function importBundleObjects(repo: Repo, parsed: ParsedBundle): Promise<BundleRef[]> {
  const name = `pack-${toHex(parsed.pack.subarray(parsed.pack.length - 20))}`;
  const rel = `.git/objects/pack/${name}.pack`;
  const abs = `${repo.dir.replace(/\/$/, "")}/${rel}`;
  await git.init({ fs: repo.fs, dir: repo.dir }).catch(() => undefined);
  await mkdirp(repo.fs, `${repo.dir.replace(/\/$/, "")}/.git/objects/pack`);
  await repo.fs.promises.writeFile(abs, parsed.pack);
  try {
    await git.indexPack({ fs: repo.fs, dir: repo.dir, filepath: rel });
  } catch (e) {
    await repo.fs.promises.unlink(abs).catch(() => undefined);
    // isomorphic-git's own message ("…please file an issue… Pako error") means nothing to the user.
    throw new BundleError("CORRUPT", "The bundle's pack is damaged: its data was cut short or altered.", e);
  }
  for (const r of parsed.refs) {
    try {
      await git.readObject({ fs: repo.fs, dir: repo.dir, oid: r.oid, format: "deflated" });
    } catch {
      throw new BundleError("CORRUPT", `The bundle names ${r.name} → ${r.oid}, which its pack does not contain`);
    }
  }
  return parsed.refs;
}

