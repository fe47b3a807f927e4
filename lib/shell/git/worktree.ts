/**
 * The work tree a git command sees: the caller's place in it (cwd, pathspecs, display paths),
 * the index and status as of this command, the tracked files' current contents, and the
 * writes checkout/reset/stash make to it (through WorkspaceFs, journalled with origin "git").
 */
import git from "isomorphic-git";
import type { ChangeJournal } from "../../fs/journal";
import type { WorkspaceFs } from "../../fs/workspace-fs";
import { statusAll, type StatusEntry } from "../../git/status";
import { statusTrackerFor } from "../../git/status-tracker";
import { relativePath, toShellPath } from "../paths";
import type { GitRepository, TreeEntry, TreeMap } from "./repository";
import { fatal, hasGlob, pathspecToRegExp } from "./util";

export type WorkTreeOptions = {
  repo: GitRepository;
  wsfs: WorkspaceFs;
  /** Where the shell shows the work tree (what --show-toplevel prints). */
  mountPoint: string;
  /** The caller's cwd relative to the work-tree root ("" = root). */
  cwdRel: string;
  readOnly: boolean;
};

export class WorkTree {
  readonly repo: GitRepository;
  readonly wsfs: WorkspaceFs;
  readonly journal: ChangeJournal;
  readonly mountPoint: string;
  /** cwd relative to the workspace root ("" = root). */
  readonly cwdRel: string;
  private readonly readOnly: boolean;
  private indexCache: TreeMap | null = null;
  private statusCache: StatusEntry[] | null = null;

  constructor(opts: WorkTreeOptions) {
    this.repo = opts.repo;
    this.wsfs = opts.wsfs;
    this.journal = opts.wsfs.journal;
    this.mountPoint = opts.mountPoint;
    this.cwdRel = opts.cwdRel;
    this.readOnly = opts.readOnly;
  }

  /** Absolute path in the fs of a repo-relative path ("" is the work-tree root). */
  abs(rel: string): string {
    if (rel === "") return this.repo.dir;
    return this.repo.dir === "/" ? "/" + rel : this.repo.dir + "/" + rel;
  }

  /** Shell path of the work tree (what --show-toplevel prints). */
  get toplevel(): string {
    return this.mountPoint;
  }

  /** A repo-relative path as the shell shows it (under the mount point). */
  shellPath(rel: string): string {
    return toShellPath(this.mountPoint, rel);
  }

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

  /** The index: path → {oid, mode} (stage 0 entries). */
  async index(): Promise<TreeMap> {
    if (this.indexCache) return this.indexCache;
    const out: TreeMap = new Map();
    const entries = (await git.walk({
      ...this.repo.iso,
      trees: [git.STAGE()],
      map: async (filepath, [entry]) => {
        if (filepath === "." || !entry) return undefined;
        const type = await entry.type();
        if (type !== "blob") return undefined;
        return { path: filepath, oid: await entry.oid(), mode: await entry.mode() };
      },
    })) as { path: string; oid: string; mode: number }[] | undefined;
    for (const e of entries ?? []) if (!this.repo.isHidden(e.path)) out.set(e.path, { oid: e.oid, mode: e.mode });
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
      // The workspace's own fs (not a read-only or hiding view made for this command): the
      // tracker shared with the workbench answers from what changed since its last pass.
      all =
        !this.readOnly && !this.repo.hidden
          ? (await statusTrackerFor(this.repo.fs, this.repo.dir).update()).entries
          : await statusAll(this.repo.asGitRepo, { refresh: !this.readOnly });
    } catch (err) {
      if (this.readOnly) throw err;
      all = await statusAll(this.repo.asGitRepo, { refresh: false });
    }
    this.statusCache = this.repo.hidden ? all.filter((e) => !this.repo.isHidden(e.path)) : all;
    return this.statusCache;
  }

  /** Bytes of a worktree file, or null when absent / a directory. */
  async read(rel: string): Promise<Uint8Array | null> {
    try {
      const st = await this.repo.fs.promises.lstat(this.abs(rel));
      if (st.isDirectory()) return null;
      if (st.isSymbolicLink() && this.repo.fs.promises.readlink) {
        const t = await this.repo.fs.promises.readlink(this.abs(rel));
        return typeof t === "string" ? new TextEncoder().encode(t) : t;
      }
      return await this.wsfs.readFile(rel);
    } catch {
      return null;
    }
  }

  /**
   * The mode a work-tree file would be staged with (symlink, executable, regular; with
   * core.filemode=false, `fallback`), or null when absent or a directory.
   */
  async modeOf(rel: string, fallback?: number): Promise<number | null> {
    try {
      const st = await this.repo.fs.promises.lstat(this.abs(rel));
      if (st.isSymbolicLink()) return 0o120000;
      if (st.isDirectory()) return null;
      const filemode = (await git.getConfig({ ...this.repo.iso, path: "core.filemode" }).catch(() => undefined)) !== false;
      if (!filemode && fallback !== undefined) return fallback;
      return st.mode & 0o111 ? 0o100755 : 0o100644;
    } catch {
      return null;
    }
  }

  /**
   * The tracked work tree as a TreeMap: the index with the status' worktree changes applied
   * (modified files hashed, deleted ones removed). Untracked files are not included.
   */
  async tree(): Promise<TreeMap> {
    const index = await this.index();
    const out: TreeMap = new Map(index);
    for (const e of await this.status()) {
      if (e.index === "?") continue;
      if (e.worktree === "D") out.delete(e.path);
      else if (e.worktree === "M") {
        const bytes = await this.read(e.path);
        if (bytes === null) {
          out.delete(e.path);
          continue;
        }
        const prev = index.get(e.path);
        const mode = (await this.modeOf(e.path, prev?.mode)) ?? prev?.mode ?? 0o100644;
        out.set(e.path, { oid: await this.repo.hashBytes(bytes), mode });
      }
    }
    return out;
  }

  /** Make a work-tree path hold a tree entry (bytes and mode, or a symlink), clearing what stands in the way. */
  async write(rel: string, entry: TreeEntry): Promise<void> {
    const bytes = await this.repo.readBlob(entry.oid);
    const abs = this.abs(rel);
    const existing = await this.repo.fs.promises.lstat(abs).catch(() => null);
    if (entry.mode === 0o120000 && this.repo.fs.promises.symlink) {
      if (existing) await this.wsfs.remove(rel, { origin: "git" });
      else await this.ensureParent(rel);
      await this.repo.fs.promises.symlink(new TextDecoder().decode(bytes), abs);
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
      const st = await this.repo.fs.promises.lstat(this.abs(p)).catch(() => null);
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
  async remove(rel: string): Promise<void> {
    const st = await this.repo.fs.promises.lstat(this.abs(rel)).catch(() => null);
    if (!st) return;
    await this.wsfs.remove(rel, { origin: "git" });
    let dir = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
    while (dir !== "") {
      const names = await this.repo.fs.promises.readdir(this.abs(dir)).catch(() => null);
      if (names === null || names.length > 0) break;
      await this.wsfs.remove(dir, { origin: "git" });
      dir = dir.includes("/") ? dir.slice(0, dir.lastIndexOf("/")) : "";
    }
  }
}
