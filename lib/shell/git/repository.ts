/**
 * The repository a git command works on: its fs (read-only when the shell is; seen through the
 * hiding view when paths are hidden), where it is, and what can be read from it — config and
 * identity, refs and revisions, trees, blobs and the stash list.
 */
import git, { type FsClient } from "isomorphic-git";
import { hiddenRuleOf, type HiddenPaths } from "../../fs/hidden-view";
import type { IsoFs, IsoFsPromises } from "../../fs/types";
import type { GitRepo } from "../../git/types";
import { fatal, parseGitDate } from "./util";
import { FastObjects } from "./fast-objects";

export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
export const ZERO_OID = "0000000000000000000000000000000000000000";

export type TreeEntry = { oid: string; mode: number };
export type TreeMap = Map<string, TreeEntry>;

/** An author or committer, with the date from the environment (or now). */
export type Identity = { name: string; email: string; timestamp: number; timezoneOffset: number };

const WRITE_METHODS = ["writeFile", "unlink", "mkdir", "rmdir", "rename", "symlink", "chmod", "utimes", "lutimes", "cp", "rm", "appendFile"];

/** The same fs with every mutating method refused (EROFS): read-only git cannot write .git. */
export function readOnlyIsoFs(fs: IsoFs): IsoFs {
  const p = fs.promises as unknown as Record<string, unknown>;
  const promises = new Proxy(p, {
    get(target, key) {
      const v = target[key as string];
      if (typeof key === "string" && WRITE_METHODS.includes(key)) {
        return async (path: string) => {
          throw Object.assign(new Error(`EROFS: read-only file system, ${key} '${path}'`), { code: "EROFS" });
        };
      }
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as unknown as IsoFsPromises;
  return { promises };
}

export type RepositoryOptions = {
  /** The fs git reads and writes through (the hiding view, when paths are hidden). */
  fs: IsoFs;
  /** The same fs without the hiding (for the hidden-blob check only). */
  fullFs: IsoFs;
  /** Absolute work-tree directory in `fs`; the git dir is `<dir>/.git`. */
  dir: string;
  hidden: HiddenPaths | null;
  /** GIT_AUTHOR_NAME and the like. */
  env: Map<string, string>;
};

export class GitRepository {
  readonly fs: IsoFs;
  readonly fullFs: IsoFs;
  readonly dir: string;
  readonly gitdir: string;
  readonly cache: object = {};
  readonly hidden: HiddenPaths | null;
  private readonly env: Map<string, string>;
  /** Blobs read or hashed during this command, so diffs need not re-read them. */
  readonly blobBytes = new Map<string, Uint8Array>();
  private treeCache = new Map<string, TreeMap>();

  constructor(opts: RepositoryOptions) {
    this.fs = opts.fs;
    this.fullFs = opts.fullFs;
    this.dir = opts.dir;
    this.gitdir = this.dir === "/" ? "/.git" : this.dir + "/.git";
    this.hidden = opts.hidden;
    this.env = opts.env;
  }

  /** Arguments every isomorphic-git call takes. */
  get iso(): { fs: FsClient; dir: string; gitdir: string; cache: object } {
    return { fs: this.fs as unknown as FsClient, dir: this.dir, gitdir: this.gitdir, cache: this.cache };
  }

  private fast: FastObjects | undefined;

  /** Commits, trees and blobs read fast (fast-objects.ts): what history walks use. */
  get objects(): FastObjects {
    this.fast ??= new FastObjects({ fs: this.fs, dir: this.dir, gitdir: this.gitdir, cache: this.cache });
    return this.fast;
  }

  /** isomorphic-git's readCommit result, read through `objects`. */
  readCommit(oid: string) {
    return this.objects.readCommit(oid);
  }

  /** The repository as lib/git's functions take it. */
  get asGitRepo(): GitRepo {
    return { fs: this.fs, dir: this.dir, cache: this.cache };
  }

  private dateFrom(varName: string): { timestamp: number; timezoneOffset: number } {
    const v = this.env.get(varName);
    if (v) {
      const d = parseGitDate(v);
      if (d) return d;
    }
    return { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  }

  async configValue(path: string): Promise<string | undefined> {
    const v = await git.getConfig({ ...this.iso, path }).catch(() => undefined);
    return v === undefined || v === null ? undefined : String(v);
  }

  /** GIT_{AUTHOR,COMMITTER}_{NAME,EMAIL,DATE}, else user.name/email, else the Tabula default. */
  async identity(kind: "author" | "committer"): Promise<Identity> {
    const prefix = kind === "author" ? "GIT_AUTHOR_" : "GIT_COMMITTER_";
    const name = this.env.get(prefix + "NAME") || (await this.configValue("user.name")) || "Tabula User";
    const email = this.env.get(prefix + "EMAIL") || (await this.configValue("user.email")) || "user@tabula.local";
    return { name, email, ...this.dateFrom(prefix + "DATE") };
  }

  async isRepo(): Promise<boolean> {
    try {
      const st = await this.fs.promises.stat(this.gitdir + "/HEAD");
      return st.isFile();
    } catch {
      return false;
    }
  }

  async requireRepo(): Promise<void> {
    if (!(await this.isRepo())) throw fatal("not a git repository (or any of the parent directories): .git");
  }

  /** The commit HEAD points at, or null on an unborn branch. */
  async headOid(): Promise<string | null> {
    try {
      return await git.resolveRef({ ...this.iso, ref: "HEAD" });
    } catch {
      return null;
    }
  }

  /** Current branch short name, or null when HEAD is detached. */
  async branch(): Promise<string | null> {
    const b = await git.currentBranch({ ...this.iso, fullname: false }).catch(() => undefined);
    return b ?? null;
  }

  async branchExists(name: string): Promise<boolean> {
    try {
      await git.resolveRef({ ...this.iso, ref: `refs/heads/${name}` });
      return true;
    } catch {
      return false;
    }
  }

  /** Full oid of an object name (full or abbreviated hex), or null. */
  async expandOid(hex: string): Promise<string | null> {
    if (/^[0-9a-f]{40}$/.test(hex)) return hex;
    if (!/^[0-9a-f]{4,39}$/.test(hex)) return null;
    try {
      return await git.expandOid({ ...this.iso, oid: hex });
    } catch (err) {
      if ((err as { code?: string }).code === "AmbiguousError") throw fatal(`ambiguous argument '${hex}': ambiguous object name`);
      return null;
    }
  }

  /** Peel an object (annotated tag) down to a commit oid. */
  async peelToCommit(oid: string, spec: string): Promise<string> {
    for (let i = 0; i < 10; i++) {
      const { type, object } = await git.readObject({ ...this.iso, oid, format: "parsed" });
      if (type === "commit") return oid;
      if (type === "tag") {
        oid = (object as { object: string }).object;
        continue;
      }
      throw fatal(`${spec}: expected commit type, but the object dereferences to ${type} type`);
    }
    throw fatal(`${spec}: too many tag levels`);
  }

  /**
   * Resolve a revision to a commit oid: HEAD, @, branch, tag, (abbreviated) oid, stash@{n},
   * with any chain of ~N / ^N suffixes. Throws "unknown revision" errors like git.
   */
  async resolveCommit(spec: string): Promise<string> {
    const oid = await this.tryResolveCommit(spec);
    if (oid === null) {
      throw fatal(
        `ambiguous argument '${spec}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`,
      );
    }
    return oid;
  }

  async tryResolveCommit(spec: string): Promise<string | null> {
    const m = /^(.*?)((?:[~^]\d*)*)$/.exec(spec)!;
    let base = m[1]!;
    const suffix = m[2] ?? "";
    if (base.endsWith("^{commit}")) base = base.slice(0, -9);
    if (base === "" && suffix !== "") return null;
    let oid = await this.resolveBase(base);
    if (oid === null) return null;
    oid = await this.peelToCommit(oid, spec);
    const ops = suffix.match(/[~^]\d*/g) ?? [];
    for (const op of ops) {
      const n = op.length > 1 ? Number(op.slice(1)) : 1;
      if (op[0] === "~") {
        for (let i = 0; i < n; i++) {
          const { commit } = await git.readCommit({ ...this.iso, oid });
          if (commit.parent.length === 0) return null;
          oid = commit.parent[0]!;
        }
      } else {
        if (n === 0) continue;
        const { commit } = await git.readCommit({ ...this.iso, oid });
        const p = commit.parent[n - 1];
        if (!p) return null;
        oid = p;
      }
    }
    return oid;
  }

  private async resolveBase(base: string): Promise<string | null> {
    if (base === "HEAD" || base === "@") return this.headOid();
    const stash = /^stash@\{(\d+)\}$/.exec(base) ?? (base === "stash" ? ["", "0"] : null);
    if (stash) {
      const entries = await this.stashEntries();
      return entries[Number(stash[1])]?.oid ?? null;
    }
    if (base === "ORIG_HEAD" || base === "FETCH_HEAD" || base === "MERGE_HEAD") {
      try {
        const text = String(await this.fs.promises.readFile(`${this.gitdir}/${base}`, "utf8")).trim();
        return /^[0-9a-f]{40}/.test(text) ? text.slice(0, 40) : null;
      } catch {
        return null;
      }
    }
    if (!/^[0-9a-f]{4,39}$/.test(base) || (await this.refExists(base))) {
      try {
        return await git.resolveRef({ ...this.iso, ref: base });
      } catch {
        // not a ref: maybe an abbreviated object name
      }
    }
    return this.expandOid(base);
  }

  private async refExists(name: string): Promise<boolean> {
    try {
      await git.expandRef({ ...this.iso, ref: name });
      return true;
    } catch {
      return false;
    }
  }

  /** Stash entries, newest first (stash@{0} first), from the refs/stash reflog. */
  async stashEntries(): Promise<{ oid: string; message: string }[]> {
    let text: string;
    try {
      text = String(await this.fs.promises.readFile(`${this.gitdir}/logs/refs/stash`, "utf8"));
    } catch {
      return [];
    }
    const out: { oid: string; message: string }[] = [];
    for (const line of text.split("\n")) {
      const m = /^[0-9a-f]{40} ([0-9a-f]{40}) .*?\t(.*)$/.exec(line);
      if (m) out.push({ oid: m[1]!, message: m[2]! });
    }
    return out.reverse();
  }

  /** Flattened blobs of a commit's (or tree's) tree: path → {oid, mode}. */
  async treeOf(oid: string | null): Promise<TreeMap> {
    if (oid === null) return new Map();
    const cached = this.treeCache.get(oid);
    if (cached) return cached;
    const { type, object } = await git.readObject({ ...this.iso, oid, format: "parsed" });
    let treeOid = oid;
    if (type === "commit") treeOid = (object as { tree: string }).tree;
    else if (type === "tag") return this.treeOf(await this.peelToCommit(oid, oid));
    else if (type !== "tree") throw fatal(`${oid} is not a tree-ish`);
    const out: TreeMap = new Map();
    const walk = async (tree: string, prefix: string) => {
      const { tree: entries } = await git.readTree({ ...this.iso, oid: tree });
      for (const e of entries) {
        const path = prefix + e.path;
        if (this.hidden?.ruleFor(path)) continue;
        if (e.type === "tree") await walk(e.oid, path + "/");
        else if (e.type === "blob") out.set(path, { oid: e.oid, mode: parseInt(e.mode, 8) });
      }
    };
    await walk(treeOid, "");
    const sorted = new Map([...out.entries()].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)));
    this.treeCache.set(oid, sorted);
    return sorted;
  }

  /**
   * The blobs that differ between two trees, as two partial TreeMaps (what diffTrees needs:
   * unchanged paths would be skipped there anyway), found by descending only into subtrees
   * whose oids differ: O(changed) per commit, where treeOf flattens the whole tree.
   */
  async changedEntries(aTree: string, bTree: string): Promise<[TreeMap, TreeMap]> {
    const a: TreeMap = new Map();
    const b: TreeMap = new Map();
    const isDir = (mode: string) => mode === "040000" || mode === "40000";
    const isBlob = (mode: string) => !isDir(mode) && mode !== "160000";
    const entries = async (tree: string | null) => (tree === null || tree === EMPTY_TREE ? [] : await this.objects.readTree(tree));
    const addAll = async (tree: string, prefix: string, into: TreeMap): Promise<void> => {
      for (const e of await entries(tree)) {
        const path = prefix + e.name;
        if (this.hidden?.ruleFor(path)) continue;
        if (isDir(e.mode)) await addAll(e.oid, path + "/", into);
        else if (isBlob(e.mode)) into.set(path, { oid: e.oid, mode: parseInt(e.mode, 8) });
      }
    };
    const walk = async (x: string | null, y: string | null, prefix: string): Promise<void> => {
      if (x === y) return;
      const xs = new Map((await entries(x)).map((e) => [e.name, e]));
      const ys = new Map((await entries(y)).map((e) => [e.name, e]));
      for (const name of new Set([...xs.keys(), ...ys.keys()])) {
        const ex = xs.get(name);
        const ey = ys.get(name);
        if (ex && ey && ex.oid === ey.oid && ex.mode === ey.mode) continue;
        const path = prefix + name;
        if (this.hidden?.ruleFor(path)) continue;
        if (ex && ey && isDir(ex.mode) && isDir(ey.mode)) {
          await walk(ex.oid, ey.oid, path + "/");
          continue;
        }
        for (const [e, into] of [[ex, a], [ey, b]] as const) {
          if (!e) continue;
          if (isDir(e.mode)) await addAll(e.oid, path + "/", into);
          else if (isBlob(e.mode)) into.set(path, { oid: e.oid, mode: parseInt(e.mode, 8) });
        }
      }
    };
    await walk(aTree, bTree, "");
    return [a, b];
  }

  async hashBytes(bytes: Uint8Array): Promise<string> {
    const { oid } = await git.hashBlob({ object: bytes });
    this.blobBytes.set(oid, bytes);
    return oid;
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    const cached = this.blobBytes.get(oid);
    if (cached) return cached;
    const { blob } = await git.readBlob({ ...this.iso, oid });
    this.blobBytes.set(oid, blob);
    return blob;
  }

  /** How many hex digits an abbreviated oid has here (prepareAbbrev: git's automatic length). */
  abbrevLen = 7;

  /**
   * git's automatic abbreviation length (core.abbrev=auto): from the number of packed objects,
   * half the bits needed to count them, at least 7 — so that a big repository's `--oneline`
   * prints what native git prints (8, 9… digits). Pack object counts are read once per pack
   * (a pack's name is its checksum, so the count never changes).
   */
  async prepareAbbrev(): Promise<void> {
    const dir = `${this.gitdir}/objects/pack`;
    let names: string[] = [];
    try {
      names = ((await this.fs.promises.readdir(dir)) as unknown[]).map(String);
    } catch {
      return;
    }
    let count = 0;
    for (const n of names) {
      if (!n.endsWith(".idx")) continue;
      let c = PACK_OBJECT_COUNTS.get(n);
      if (c === undefined) {
        try {
          c = idxObjectCount((await this.fs.promises.readFile(`${dir}/${n}`)) as Uint8Array);
        } catch {
          c = 0;
        }
        PACK_OBJECT_COUNTS.set(n, c);
      }
      count += c;
    }
    this.abbrevLen = autoAbbrevLength(count);
  }

  abbrev(oid: string, len = this.abbrevLen): string {
    return oid.slice(0, len);
  }

  async commitSubject(oid: string): Promise<string> {
    const { commit } = await this.readCommit(oid);
    return commit.message.split("\n")[0] ?? "";
  }

  /** True for a path the shell's user must not see (or one under such a directory). */
  isHidden(rel: string): boolean {
    return this.hidden !== null && hiddenRuleOf(this.hidden, rel) !== null;
  }
}

const PACK_OBJECT_COUNTS = new Map<string, number>();

/** Objects in a pack index: the last fan-out entry (v2: after the 8-byte header; v1: at 0). */
export function idxObjectCount(idx: Uint8Array): number {
  const v2 = idx[0] === 0xff && idx[1] === 0x74 && idx[2] === 0x4f && idx[3] === 0x63;
  const at = (v2 ? 8 : 0) + 255 * 4;
  if (idx.length < at + 4) return 0;
  return ((idx[at]! << 24) | (idx[at + 1]! << 16) | (idx[at + 2]! << 8) | idx[at + 3]!) >>> 0;
}

/** git's find_unique_abbrev length for `count` objects: ceil((msb(count) + 1) / 2), at least 7. */
export function autoAbbrevLength(count: number): number {
  if (count <= 0) return 7;
  const bits = Math.floor(Math.log2(count)) + 1;
  return Math.max(7, Math.ceil(bits / 2));
}
