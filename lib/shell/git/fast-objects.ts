/**
 * Commits and trees read through the checkpoint engine's object store (lib/checkpoints/
 * objects.ts: pack indexes searched in place, fflate, a delta-base cache) instead of
 * isomorphic-git's readCommit/readTree. Why our own: on a 6,000-commit history isomorphic-git
 * took 1.6–2.7 s to read the commits (0.3 ms each, every delta chain resolved afresh), the
 * store 0.13–0.2 s; `git log` and `git blame` walk every commit, and blame ran into the
 * terminal's time limit. Commits are parsed as isomorphic-git's GitCommit parses them, so the
 * objects are the same; anything the store cannot read falls back to isomorphic-git (and its
 * errors).
 */
import git, { type CommitObject, type ReadCommitResult } from "isomorphic-git";
import { ObjectStore } from "../../checkpoints/objects";
import { toHex } from "../../checkpoints/util";
import type { IsoFs } from "../../fs/types";

const decoder = new TextDecoder();
const encoder = new TextEncoder();
/** Parsed objects kept per command (a bound, so a walk over a huge history does not hold them all). */
const KEEP_COMMITS = 50_000;
const KEEP_TREES = 2_000;
/** As much pack data as isomorphic-git would hold itself (it reads a whole pack into memory). */
const PACK_CACHE_BYTES = 1024 * 1024 * 1024;

export type TreeItem = { name: string; mode: string; oid: string };

export class FastObjects {
  private readonly store: ObjectStore;
  private readonly commits = new Map<string, ReadCommitResult>();
  private readonly trees = new Map<string, TreeItem[]>();

  constructor(
    private readonly iso: { fs: IsoFs; dir: string; gitdir: string; cache: object },
  ) {
    this.store = new ObjectStore(iso.fs, iso.gitdir, { packCacheBytes: PACK_CACHE_BYTES });
  }

  async readCommit(oid: string): Promise<ReadCommitResult> {
    const known = this.commits.get(oid);
    if (known) return known;
    let result: ReadCommitResult;
    try {
      const o = await this.store.read(oid);
      if (o.type !== "commit") throw new Error("not a commit");
      result = { oid, commit: parseCommit(decoder.decode(o.content)), payload: "" };
    } catch {
      result = await git.readCommit({ ...this.iso, fs: this.iso.fs as never, oid });
    }
    if (this.commits.size >= KEEP_COMMITS) this.commits.clear();
    this.commits.set(oid, result);
    return result;
  }

  async readTree(oid: string): Promise<TreeItem[]> {
    const known = this.trees.get(oid);
    if (known) return known;
    let items: TreeItem[];
    try {
      const o = await this.store.read(oid);
      if (o.type !== "tree") throw new Error("not a tree");
      items = parseTree(o.content);
    } catch {
      const { tree } = await git.readTree({ ...this.iso, fs: this.iso.fs as never, oid });
      items = tree.map((e) => ({ name: e.path, mode: e.mode, oid: e.oid }));
    }
    if (this.trees.size >= KEEP_TREES) this.trees.clear();
    this.trees.set(oid, items);
    return items;
  }

  /** The entry at `path` in a commit's tree, found by walking only that path's directories. */
  async entryAt(commitOid: string, path: string): Promise<{ oid: string; mode: number } | undefined> {
    const { commit } = await this.readCommit(commitOid);
    return this.entryIn(commit.tree, path);
  }

  private readonly lookups = new Map<string, { oid: string; mode: number } | undefined>();

  /** `path` under `tree`, memoised per (tree, path): a walk down a history meets the same subtrees
   * again and again (only the directories on the changed files' paths get new oids). */
  private async entryIn(tree: string, path: string): Promise<{ oid: string; mode: number } | undefined> {
    const key = `${tree}:${path}`;
    if (this.lookups.has(key)) return this.lookups.get(key);
    const slash = path.indexOf("/");
    const name = slash === -1 ? path : path.slice(0, slash);
    // Scanned in the raw tree: no entry objects for the other names (a history walk reads
    // thousands of trees and would spend its time collecting them).
    const item = await this.rawEntry(tree, name);
    let found: { oid: string; mode: number } | undefined;
    if (item && slash === -1) found = { oid: item.oid, mode: parseInt(item.mode, 8) };
    else if (item && (item.mode === "040000" || item.mode === "40000")) found = await this.entryIn(item.oid, path.slice(slash + 1));
    if (this.lookups.size > 100_000) this.lookups.clear();
    this.lookups.set(key, found);
    return found;
  }

  private async rawEntry(tree: string, name: string): Promise<TreeItem | undefined> {
    let buf: Uint8Array;
    try {
      const o = await this.store.read(tree);
      if (o.type !== "tree") return undefined;
      buf = o.content;
    } catch {
      return (await this.readTree(tree)).find((e) => e.name === name);
    }
    return findInTree(buf, encoder.encode(name));
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    try {
      const o = await this.store.read(oid);
      if (o.type === "blob") return o.content;
    } catch {
      /* fall through */
    }
    return (await git.readBlob({ ...this.iso, fs: this.iso.fs as never, oid })).blob;
  }
}

/** A commit object's text, parsed as isomorphic-git's GitCommit.parse() does. */
export function parseCommit(text: string): CommitObject {
  const cut = text.indexOf("\n\n"); // -1 as isomorphic-git takes it: slice(0, -1) and slice(1)
  const head = text.slice(0, cut);
  const hs: string[] = [];
  for (const h of head.split("\n")) {
    if (h[0] === " " && hs.length) hs[hs.length - 1] += "\n" + h.slice(1);
    else hs.push(h);
  }
  const keyOf = (h: string) => h.slice(0, h.indexOf(" "));
  const valueOf = (h: string) => h.slice(h.indexOf(" ") + 1);
  if (hs.length === 0 || keyOf(hs[0]!) !== "tree") throw new Error("tree as the first commit header");
  const obj: Record<string, unknown> & { parent: string[] } = { parent: [], tree: valueOf(hs[0]!) };
  let i = 1;
  while (i < hs.length && keyOf(hs[i]!) === "parent") obj.parent.push(valueOf(hs[i++]!));
  const seen = new Set(["tree", "parent"]);
  for (; i < hs.length; i++) {
    const key = keyOf(hs[i]!);
    if (seen.has(key)) continue;
    seen.add(key);
    obj[key] = valueOf(hs[i]!);
  }
  if (typeof obj.author === "string") obj.author = parseAuthor(obj.author);
  if (typeof obj.committer === "string") obj.committer = parseAuthor(obj.committer);
  obj.message = normalizeNewlines(text.slice(cut + 2));
  return obj as unknown as CommitObject;
}

function parseAuthor(author: string) {
  const m = /^(.*) <(.*)> (.*) (.*)$/.exec(author);
  if (!m) throw new Error(`unparsable identity: ${author}`);
  const tz = /(\+|-)(\d\d)(\d\d)/.exec(m[4]!);
  const minutes = tz ? (tz[1] === "+" ? 1 : -1) * (Number(tz[2]) * 60 + Number(tz[3])) : 0;
  return { name: m[1]!, email: m[2]!, timestamp: Number(m[3]), timezoneOffset: minutes === 0 ? 0 : -minutes };
}

function normalizeNewlines(s: string): string {
  return s.replace(/\r/g, "").replace(/^\n+/, "").replace(/\n+$/, "") + "\n";
}

/** One entry of a raw tree by its name's bytes. */
export function findInTree(buf: Uint8Array, name: Uint8Array): TreeItem | undefined {
  let cursor = 0;
  while (cursor < buf.length) {
    const space = buf.indexOf(32, cursor);
    const nul = buf.indexOf(0, space);
    if (space === -1 || nul === -1) throw new Error("corrupt tree");
    if (nul - space - 1 === name.length) {
      let same = true;
      for (let k = 0; k < name.length; k++) {
        if (buf[space + 1 + k] !== name[k]) {
          same = false;
          break;
        }
      }
      if (same) {
        let mode = decoder.decode(buf.subarray(cursor, space));
        if (mode === "40000") mode = "040000";
        return { name: decoder.decode(name), mode, oid: toHex(buf.subarray(nul + 1, nul + 21)) };
      }
    }
    cursor = nul + 21;
  }
  return undefined;
}

export function parseTree(buf: Uint8Array): TreeItem[] {
  const out: TreeItem[] = [];
  let cursor = 0;
  while (cursor < buf.length) {
    const space = buf.indexOf(32, cursor);
    const nul = buf.indexOf(0, space);
    if (space === -1 || nul === -1) throw new Error("corrupt tree");
    let mode = decoder.decode(buf.subarray(cursor, space));
    if (mode === "40000") mode = "040000";
    const name = decoder.decode(buf.subarray(space + 1, nul));
    out.push({ name, mode, oid: toHex(buf.subarray(nul + 1, nul + 21)) });
    cursor = nul + 21;
  }
  return out;
}
