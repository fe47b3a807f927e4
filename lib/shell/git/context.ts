/**
 * Everything a git subcommand needs: the repository (raw fs, read-only when the shell is),
 * the caller's cwd inside it, output buffers, identity/dates from the environment, and the
 * object/tree/index helpers shared by the subcommands.
 */
import git, { type FsClient } from "isomorphic-git";
import type { ChangeJournal } from "../../fs/journal";
import { hiddenRuleOf, hidingIsoFs, type HiddenPaths } from "../../fs/hidden-view";
import { isGitInternal } from "../../fs/paths";
import type { IsoFs, IsoFsPromises } from "../../fs/types";
import type { WorkspaceFs } from "../../fs/workspace-fs";
import { statusAll, type StatusEntry } from "../../git/status";
import { relativePath, toShellPath } from "../paths";
import { fatal, GitError, pathspecToRegExp, hasGlob, parseGitDate } from "./util";

export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
export const ZERO_OID = "0000000000000000000000000000000000000000";

export type TreeEntry = { oid: string; mode: number };
export type TreeMap = Map<string, TreeEntry>;

export type Identity = { name: string; email: string; timestamp: number; timezoneOffset: number };

export type GitEnvOptions = {
  fs: IsoFs;
  wsfs: WorkspaceFs;
  mountPoint: string;
  readOnly: boolean;
  /** Called before and after every git command (it changes the raw fs behind the shell's
   * back: the shell drops its per-command metadata memo). */
  onRawChange?: () => void;
  /**
   * Paths the shell's user must not see (the agent's view, lib/fs/hidden-view). git then
   * reads the work tree through the same hiding view, and leaves those paths out of every
   * tree, index and status it works from, so no subcommand shows, stages, writes or removes them.
   */
  hidden?: HiddenPaths | null;
};

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

export class GitContext {
  readonly fs: IsoFs;
  readonly dir: string;
  readonly gitdir: string;
  readonly cache: object = {};
  readonly wsfs: WorkspaceFs;
  readonly journal: ChangeJournal;
  readonly readOnly: boolean;
  readonly mountPoint: string;
  readonly hidden: HiddenPaths | null;
  /** The repository's fs without the hiding (for the hidden-blob check only). */
  private readonly fullFs: IsoFs;
  private hiddenBlobs: Promise<Set<string>> | null = null;
  /** cwd relative to the workspace root ("" = root). */
  cwdRel: string;
  readonly env: Map<string, string>;
  /** The command's standard input (decoded), for `commit -F -`. */
  stdin = "";
  private readonly outChunks: (string | Uint8Array)[] = [];
  private readonly errChunks: string[] = [];
  /** Worktree blobs hashed during this command, so diffs need not re-read them. */
  readonly blobBytes = new Map<string, Uint8Array>();
  private treeCache = new Map<string, TreeMap>();
  private indexCache: TreeMap | null = null;
  private statusCache: StatusEntry[] | null = null;

  constructor(opts: GitEnvOptions, cwdRel: string, env: Map<string, string>) {
    this.readOnly = opts.readOnly;
    this.hidden = opts.hidden ?? null;
    this.fullFs = opts.readOnly ? readOnlyIsoFs(opts.fs) : opts.fs;
    // .git itself stays whole for isomorphic-git; the work tree is seen as the shell's user sees it.
    this.fs = this.hidden ? hidingIsoFs(this.fullFs, opts.wsfs.dir, this.hidden, { exempt: isGitInternal }) : this.fullFs;
    this.wsfs = opts.wsfs;
    this.journal = opts.wsfs.journal;
    this.dir = opts.wsfs.dir;
    this.gitdir = this.dir === "/" ? "/.git" : this.dir + "/.git";
    this.mountPoint = opts.mountPoint;
    this.cwdRel = cwdRel;
    this.env = env;
  }

  /** Arguments every isomorphic-git call takes. */
  get a(): { fs: FsClient; dir: string; gitdir: string; cache: object } {
    return { fs: this.fs as unknown as FsClient, dir: this.dir, gitdir: this.gitdir, cache: this.cache };
  }

  get repo() {
    return { fs: this.fs, dir: this.dir, cache: this.cache };
  }

  out(s: string): void {
    this.outChunks.push(s);
  }
  /** Raw bytes on stdout (blob contents): the result is then byte-shaped. */
  outBytes(b: Uint8Array): void {
    this.outChunks.push(b);
  }
  err(s: string): void {
    this.errChunks.push(s);
  }
  /** stdout as text or, when raw bytes were written, as a latin1 byte string. */
  stdoutResult(): { stdout: string; bytes: boolean } {
    if (!this.outChunks.some((c) => typeof c !== "string")) return { stdout: this.outChunks.join(""), bytes: false };
    const enc = new TextEncoder();
    let out = "";
    for (const c of this.outChunks) {
      const b = typeof c === "string" ? enc.encode(c) : c;
      for (let i = 0; i < b.length; i += 0x8000) out += String.fromCharCode.apply(null, b.subarray(i, i + 0x8000) as unknown as number[]);
    }
    return { stdout: out, bytes: true };
  }
  get stderr(): string {
    return this.errChunks.join("");
  }

  abs(rel: string): string {
    if (rel === "") return this.dir;
    return this.dir === "/" ? "/" + rel : this.dir + "/" + rel;
  }

  /** Shell path of the work tree (what --show-toplevel prints). */
  get toplevel(): string {
    return this.mountPoint;
  }

  shellPath(rel: string): string {
    return toShellPath(this.mountPoint, rel);
  }

  // ---- paths ----------------------------------------------------------------------------------

  /** A user-given path (relative to cwd) → repo-relative; "" is the root. */
  repoPath(p: string): string {
    let base: string[];
    if (p.startsWith("/")) {
      const mount = this.mountPoint;
      if (p !== mount && !p.startsWith(mount + "/")) throw fatal(`${p}: '${p}' is outside repository at '${mount}'`);
      base = [];
      p = p.slice(mount.length);
    } else {
      base = this.cwdRel === "" ? [] : this.cwdRel.split("/");
    }
    for (const seg of p.split("/")) {
      if (seg === "" || seg === ".") continue;
      if (seg === "..") {
        if (base.length === 0) throw fatal(`${p}: '${p}' is outside repository at '${this.mountPoint}'`);
        base.pop();
      } else base.push(seg);
    }
    return base.join("/");
  }

  /** Repo-relative → relative to cwd, for display (as git shows paths in status, ls-files…). */
  display(rel: string): string {
    if (this.cwdRel === "") return rel;
    return relativePath(this.cwdRel, rel);
  }

  /** A matcher for pathspecs (relative to cwd, may be directories or globs). */
  pathspec(specs: string[]): ((rel: string) => boolean) & { specs: string[]; empty: boolean } {
    const parts = specs.map((s) => {
      if (hasGlob(s)) {
        const prefix = this.cwdRel === "" ? "" : this.cwdRel + "/";
        const re = pathspecToRegExp(prefix + s.replace(/^\.\//, ""));
        return (rel: string) => re.test(rel);
      }
      const base = this.repoPath(s);
      return (rel: string) => base === "" || rel === base || rel.startsWith(base + "/");
    });
    const fn = ((rel: string) => parts.length === 0 || parts.some((m) => m(rel))) as ((rel: string) => boolean) & {
      specs: string[];
      empty: boolean;
    };
    fn.specs = specs;
    fn.empty = parts.length === 0;
    return fn;
  }

  // ---- identity & time --------------------------------------------------------------------------

  private dateFrom(varName: string): { timestamp: number; timezoneOffset: number } {
    const v = this.env.get(varName);
    if (v) {
      const d = parseGitDate(v);
      if (d) return d;
    }
    return { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  }

  async configValue(path: string): Promise<string | undefined> {
    const v = await git.getConfig({ ...this.a, path }).catch(() => undefined);
    return v === undefined || v === null ? undefined : String(v);
  }

  /** GIT_{AUTHOR,COMMITTER}_{NAME,EMAIL,DATE}, else user.name/email, else the Tabula default. */
  async identity(kind: "author" | "committer"): Promise<Identity> {
    const prefix = kind === "author" ? "GIT_AUTHOR_" : "GIT_COMMITTER_";
    const name = this.env.get(prefix + "NAME") || (await this.configValue("user.name")) || "Tabula User";
    const email = this.env.get(prefix + "EMAIL") || (await this.configValue("user.email")) || "user@tabula.local";
    return { name, email, ...this.dateFrom(prefix + "DATE") };
  }

  // ---- refs -------------------------------------------------------------------------------------

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
      return await git.resolveRef({ ...this.a, ref: "HEAD" });
    } catch {
      return null;
    }
  }

  /** Current branch short name, or null when HEAD is detached. */
  async branch(): Promise<string | null> {
    const b = await git.currentBranch({ ...this.a, fullname: false }).catch(() => undefined);
    return b ?? null;
  }

  async branchExists(name: string): Promise<boolean> {
    try {
      await git.resolveRef({ ...this.a, ref: `refs/heads/${name}` });
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
      return await git.expandOid({ ...this.a, oid: hex });
    } catch (err) {
      if ((err as { code?: string }).code === "AmbiguousError") throw fatal(`ambiguous argument '${hex}': ambiguous object name`);
      return null;
    }
  }

  /** Peel an object (annotated tag) down to a commit oid. */
  async peelToCommit(oid: string, spec: string): Promise<string> {
    for (let i = 0; i < 10; i++) {
      const { type, object } = await git.readObject({ ...this.a, oid, format: "parsed" });
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
          const { commit } = await git.readCommit({ ...this.a, oid });
          if (commit.parent.length === 0) return null;
          oid = commit.parent[0]!;
        }
      } else {
        if (n === 0) continue;
        const { commit } = await git.readCommit({ ...this.a, oid });
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
        return await git.resolveRef({ ...this.a, ref: base });
      } catch {
        // not a ref: maybe an abbreviated object name
      }
    }
    return this.expandOid(base);
  }

  private async refExists(name: string): Promise<boolean> {
    try {
      await git.expandRef({ ...this.a, ref: name });
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

  // ---- trees, index, worktree ----------------------------------------------------------------------

  /** Flattened blobs of a commit's (or tree's) tree: path → {oid, mode}. */
  async treeOf(oid: string | null): Promise<TreeMap> {
    if (oid === null) return new Map();
    const cached = this.treeCache.get(oid);
    if (cached) return cached;
    const { type, object } = await git.readObject({ ...this.a, oid, format: "parsed" });
    let treeOid = oid;
    if (type === "commit") treeOid = (object as { tree: string }).tree;
    else if (type === "tag") return this.treeOf(await this.peelToCommit(oid, oid));
    else if (type !== "tree") throw fatal(`${oid} is not a tree-ish`);
    const out: TreeMap = new Map();
    const walk = async (tree: string, prefix: string) => {
      const { tree: entries } = await git.readTree({ ...this.a, oid: tree });
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

  /** The index: path → {oid, mode} (stage 0 entries). */
  async index(): Promise<TreeMap> {
    if (this.indexCache) return this.indexCache;
    const out: TreeMap = new Map();
    const entries = (await git.walk({
      ...this.a,
      trees: [git.STAGE()],
      map: async (filepath, [entry]) => {
        if (filepath === "." || !entry) return undefined;
        const type = await entry.type();
        if (type !== "blob") return undefined;
        return { path: filepath, oid: await entry.oid(), mode: await entry.mode() };
      },
    })) as { path: string; oid: string; mode: number }[] | undefined;
    for (const e of entries ?? []) if (!this.isHidden(e.path)) out.set(e.path, { oid: e.oid, mode: e.mode });
    this.indexCache = out;
    return out;
  }

  /** Forget cached index/status after the index or work tree changed. */
  invalidate(): void {
    this.indexCache = null;
    this.statusCache = null;
  }

  /** Porcelain-like status (-uall), from lib/git; never refreshes the index in read-only mode. */
  async status(): Promise<StatusEntry[]> {
    if (this.statusCache) return this.statusCache;
    let all: StatusEntry[];
    try {
      all = await statusAll(this.repo, { refresh: !this.readOnly });
    } catch (err) {
      if (this.readOnly) throw err;
      all = await statusAll(this.repo, { refresh: false });
    }
    this.statusCache = this.hidden ? all.filter((e) => !this.isHidden(e.path)) : all;
    return this.statusCache;
  }

  /** True for a path the shell's user must not see (or one under such a directory). */
  isHidden(rel: string): boolean {
    return this.hidden !== null && hiddenRuleOf(this.hidden, rel) !== null;
  }

  /**
   * Blobs stored at hidden paths in the index, the work tree, HEAD and every ref (branches, tags,
   * stash, checkpoints): `cat-file` refuses these object names, since the trees that would
   * name them are filtered but an object name can still be typed in.
   */
  hiddenBlobOids(): Promise<Set<string>> {
    this.hiddenBlobs ??= this.collectHiddenBlobs();
    return this.hiddenBlobs;
  }

  private async collectHiddenBlobs(): Promise<Set<string>> {
    const out = new Set<string>();
    if (!this.hidden) return out;
    const full = { fs: this.fullFs as unknown as FsClient, dir: this.dir, gitdir: this.gitdir, cache: this.cache };
    const seenTrees = new Set<string>();
    const walkTree = async (oid: string, prefix: string, under: boolean): Promise<void> => {
      const key = `${oid}\0${under ? "h" : prefix}`;
      if (seenTrees.has(key)) return;
      seenTrees.add(key);
      const { tree } = await git.readTree({ ...full, oid });
      for (const e of tree) {
        const path = prefix + e.path;
        const hidden = under || this.hidden!.ruleFor(path) !== null;
        if (e.type === "tree") await walkTree(e.oid, path + "/", hidden);
        else if (e.type === "blob" && hidden) out.add(e.oid);
      }
    };
    const refs = new Set<string>(["HEAD"]);
    for (const r of await git.listRefs({ ...full, filepath: "refs" }).catch(() => [] as string[])) refs.add(`refs/${r}`);
    const commits = new Set<string>();
    for (const ref of refs) {
      const oid = await git.resolveRef({ ...full, ref }).catch(() => null);
      if (oid) commits.add(oid);
    }
    for (const e of await this.stashEntries()) commits.add(e.oid);
    for (const c of commits) {
      try {
        const { type, object } = await git.readObject({ ...full, oid: c, format: "parsed" });
        if (type !== "commit") continue;
        const commit = object as { tree: string; parent: string[] };
        await walkTree(commit.tree, "", false);
        // A stash keeps its index and untracked trees in its parents.
        for (const p of commit.parent.slice(1)) {
          const pc = await git.readCommit({ ...full, oid: p }).catch(() => null);
          if (pc) await walkTree(pc.commit.tree, "", false);
        }
      } catch {
        // a dangling ref: nothing to hide behind it
      }
    }
    await git.walk({
      ...full,
      trees: [git.STAGE()],
      map: async (filepath, [entry]) => {
        if (filepath === "." || !entry) return undefined;
        if ((await entry.type()) === "blob" && this.isHidden(filepath)) out.add(await entry.oid());
        return undefined;
      },
    }).catch(() => undefined);
    // The work tree's hidden files, as `git hash-object` would name them.
    const walkDir = async (rel: string): Promise<void> => {
      const names = await this.fullFs.promises.readdir(this.abs(rel)).catch(() => [] as string[]);
      for (const name of names) {
        const child = rel === "" ? name : rel + "/" + name;
        if (isGitInternal(child)) continue;
        const st = await this.fullFs.promises.lstat(this.abs(child)).catch(() => null);
        if (!st) continue;
        if (st.isDirectory()) await walkDir(child);
        else if (st.isFile() && this.isHidden(child)) {
          const bytes = await this.fullFs.promises.readFile(this.abs(child)).catch(() => null);
          if (bytes) out.add((await git.hashBlob({ object: typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes })).oid);
        }
      }
    };
    await walkDir("");
    return out;
  }

  /** Bytes of a worktree file, or null when absent / a directory. */
  async readWorktree(rel: string): Promise<Uint8Array | null> {
    try {
      const st = await this.fs.promises.lstat(this.abs(rel));
      if (st.isDirectory()) return null;
      if (st.isSymbolicLink() && this.fs.promises.readlink) {
        const t = await this.fs.promises.readlink(this.abs(rel));
        return typeof t === "string" ? new TextEncoder().encode(t) : t;
      }
      return await this.wsfs.readFile(rel);
    } catch {
      return null;
    }
  }

  async worktreeMode(rel: string, fallback?: number): Promise<number | null> {
    try {
      const st = await this.fs.promises.lstat(this.abs(rel));
      if (st.isSymbolicLink()) return 0o120000;
      if (st.isDirectory()) return null;
      const filemode = (await git.getConfig({ ...this.a, path: "core.filemode" }).catch(() => undefined)) !== false;
      if (!filemode && fallback !== undefined) return fallback;
      return st.mode & 0o111 ? 0o100755 : 0o100644;
    } catch {
      return null;
    }
  }

  async hashBytes(bytes: Uint8Array): Promise<string> {
    const { oid } = await git.hashBlob({ object: bytes });
    this.blobBytes.set(oid, bytes);
    return oid;
  }

  /**
   * The tracked work tree as a TreeMap: the index with the status' worktree changes applied
   * (modified files hashed, deleted ones removed). Untracked files are not included.
   */
  async worktree(): Promise<TreeMap> {
    const index = await this.index();
    const out: TreeMap = new Map(index);
    for (const e of await this.status()) {
      if (e.index === "?") continue;
      if (e.worktree === "D") out.delete(e.path);
      else if (e.worktree === "M") {
        const bytes = await this.readWorktree(e.path);
        if (bytes === null) {
          out.delete(e.path);
          continue;
        }
        const prev = index.get(e.path);
        const mode = (await this.worktreeMode(e.path, prev?.mode)) ?? prev?.mode ?? 0o100644;
        out.set(e.path, { oid: await this.hashBytes(bytes), mode });
      }
    }
    return out;
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    const cached = this.blobBytes.get(oid);
    if (cached) return cached;
    const { blob } = await git.readBlob({ ...this.a, oid });
    this.blobBytes.set(oid, blob);
    return blob;
  }

  abbrev(oid: string, len = 7): string {
    return oid.slice(0, len);
  }

  async commitSubject(oid: string): Promise<string> {
    const { commit } = await git.readCommit({ ...this.a, oid });
    return commit.message.split("\n")[0] ?? "";
  }

  // ---- work tree writes (through WorkspaceFs: journalled with origin "git") ------------------------

  async writeWorktree(rel: string, entry: TreeEntry): Promise<void> {
    const bytes = await this.readBlob(entry.oid);
    const abs = this.abs(rel);
    const existing = await this.fs.promises.lstat(abs).catch(() => null);
    if (entry.mode === 0o120000 && this.fs.promises.symlink) {
      if (existing) await this.wsfs.remove(rel, { origin: "git" });
      else await this.ensureParent(rel);
      await this.fs.promises.symlink(new TextDecoder().decode(bytes), abs);
      this.journal.record({ kind: "write", path: rel, origin: "git" });
      return;
    }
    if (existing?.isDirectory()) await this.wsfs.remove(rel, { origin: "git" });
    else if (existing?.isSymbolicLink()) await this.wsfs.remove(rel, { origin: "git" });
    await this.clearFileParents(rel);
    await this.wsfs.writeFile(rel, bytes, { origin: "git", mode: entry.mode === 0o100755 ? 0o755 : 0o644 });
  }

  /** A file standing where a parent directory must go (a/b replaced by a/b/c) is removed. */
  private async clearFileParents(rel: string): Promise<void> {
    const parts = rel.split("/");
    for (let i = 1; i < parts.length; i++) {
      const p = parts.slice(0, i).join("/");
      const st = await this.fs.promises.lstat(this.abs(p)).catch(() => null);
      if (!st) return;
      if (!st.isDirectory()) {
        await this.wsfs.remove(p, { origin: "git" });
        return;
      }
    }
  }

  private async ensureParent(rel: string): Promise<void> {
    const i = rel.lastIndexOf("/");
    if (i > 0) await this.wsfs.mkdir(rel.slice(0, i), { origin: "git" });
  }

  /** Delete a worktree file and prune directories it leaves empty (as git does). */
  async removeWorktree(rel: string): Promise<void> {
    const st = await this.fs.promises.lstat(this.abs(rel)).catch(() => null);
    if (!st) return;
    await this.wsfs.remove(rel, { origin: "git" });
    let dir = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
    while (dir !== "") {
      const names = await this.fs.promises.readdir(this.abs(dir)).catch(() => null);
      if (names === null || names.length > 0) break;
      await this.wsfs.remove(dir, { origin: "git" });
      dir = dir.includes("/") ? dir.slice(0, dir.lastIndexOf("/")) : "";
    }
  }

  assertWritable(sub: string): void {
    if (this.readOnly) throw fatal(`'git ${sub}' would modify the repository: the workspace is read-only (Plan mode)`);
  }
}

export function rethrowAsGit(err: unknown): never {
  if (err instanceof GitError) throw err;
  const e = err as { code?: string; message?: string };
  throw fatal(e?.message ?? String(err));
}
