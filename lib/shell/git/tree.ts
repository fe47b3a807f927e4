/** Writing trees, and making the index / work tree match a commit (reset, checkout, stash). */
import git from "isomorphic-git";
import type { GitContext, TreeEntry, TreeMap } from "./context";
import { diffTrees } from "./diff";
import { GitError } from "./util";

/** Write the (nested) trees for a flat path → blob map; returns the root tree oid. */
export async function buildTree(ctx: GitContext, map: TreeMap): Promise<string> {
  type Dir = { files: Map<string, TreeEntry>; dirs: Map<string, Dir> };
  const root: Dir = { files: new Map(), dirs: new Map() };
  for (const [path, e] of map) {
    const parts = path.split("/");
    let d = root;
    for (const part of parts.slice(0, -1)) {
      let next = d.dirs.get(part);
      if (!next) {
        next = { files: new Map(), dirs: new Map() };
        d.dirs.set(part, next);
      }
      d = next;
    }
    d.files.set(parts[parts.length - 1]!, e);
  }
  const write = async (d: Dir): Promise<string> => {
    const entries: { mode: string; path: string; oid: string; type: "blob" | "tree" | "commit" }[] = [];
    for (const [name, sub] of d.dirs) entries.push({ mode: "040000", path: name, oid: await write(sub), type: "tree" });
    for (const [name, e] of d.files) {
      entries.push({ mode: e.mode.toString(8).padStart(6, "0"), path: name, oid: e.oid, type: e.mode === 0o160000 ? "commit" : "blob" });
    }
    return git.writeTree({ ...ctx.repo.iso, tree: entries });
  };
  return write(root);
}

/** Make index entries (filtered) equal to the commit's tree (null = empty tree). */
export async function resetIndexTo(ctx: GitContext, commitOid: string | null, filter?: (p: string) => boolean): Promise<string[]> {
  const index = await ctx.work.index();
  const target = await ctx.repo.treeOf(commitOid);
  const changed: string[] = [];
  for (const c of diffTrees(index, target, filter, false)) {
    if (c.new && commitOid) await git.resetIndex({ ...ctx.repo.iso, filepath: c.path, ref: commitOid });
    else await git.remove({ ...ctx.repo.iso, filepath: c.path });
    changed.push(c.path);
  }
  ctx.work.invalidate();
  return changed;
}

/**
 * Make the work tree and the index match `commitOid` for `paths` (all tracked and target paths
 * when omitted): rewrites files whose content or mode differ, deletes tracked files the
 * target lacks. Untracked files are left alone.
 */
export async function applyTree(ctx: GitContext, commitOid: string | null, paths?: Set<string>): Promise<void> {
  const index = await ctx.work.index();
  const target = await ctx.repo.treeOf(commitOid);
  const dirty = new Set<string>();
  for (const e of await ctx.work.status()) if (e.index !== "?" && e.worktree !== " ") dirty.add(e.path);
  const all = paths ?? new Set<string>([...index.keys(), ...target.keys()]);
  const sorted = [...all].sort();
  for (const p of sorted) {
    const t = target.get(p);
    const i = index.get(p);
    const same = t && i && t.oid === i.oid && t.mode === i.mode;
    if (t) {
      if (!same || dirty.has(p)) await ctx.work.write(p, t);
    } else if (i || dirty.has(p)) {
      await ctx.work.remove(p);
    }
  }
  for (const p of sorted) {
    const t = target.get(p);
    const i = index.get(p);
    if (t && commitOid) {
      if (!i || i.oid !== t.oid || i.mode !== t.mode || dirty.has(p)) await git.resetIndex({ ...ctx.repo.iso, filepath: p, ref: commitOid });
    } else if (i) {
      await git.remove({ ...ctx.repo.iso, filepath: p });
    }
  }
  ctx.work.invalidate();
}

/** Write `head` (a branch name or a detached commit) to HEAD. */
export async function setHead(ctx: GitContext, head: { branch: string } | { oid: string }): Promise<void> {
  if ("branch" in head) {
    await git.writeRef({ ...ctx.repo.iso, ref: "HEAD", value: `refs/heads/${head.branch}`, symbolic: true, force: true });
  } else {
    await git.writeRef({ ...ctx.repo.iso, ref: "HEAD", value: head.oid, force: true });
  }
}

/** Move what HEAD points at (the branch, or HEAD itself when detached) to `oid`. */
export async function moveHead(ctx: GitContext, oid: string): Promise<void> {
  const branch = await ctx.repo.branch();
  await git.writeRef({ ...ctx.repo.iso, ref: branch ? `refs/heads/${branch}` : "HEAD", value: oid, force: true });
}

export async function writeOrigHead(ctx: GitContext, oid: string | null): Promise<void> {
  if (!oid) return;
  await ctx.repo.fs.promises.writeFile(`${ctx.repo.gitdir}/ORIG_HEAD`, oid + "\n");
}

/**
 * Switch the work tree from HEAD to `targetOid`, carrying local changes along when the files
 * they touch are the same in both commits (as git does); otherwise refuse without changing
 * anything.
 */
export async function switchTree(ctx: GitContext, targetOid: string, opts: { force?: boolean; verb?: string } = {}): Promise<void> {
  const head = await ctx.repo.headOid();
  const headTree = await ctx.repo.treeOf(head);
  const targetTree = await ctx.repo.treeOf(targetOid);
  const between = new Set(diffTrees(headTree, targetTree, undefined, false).map((c) => c.path));
  const entries = await ctx.work.status();
  const dirty = entries.filter((e) => e.index !== "?" && (e.index !== " " || e.worktree !== " "));
  if (opts.force) {
    await applyTree(ctx, targetOid);
    return;
  }
  const conflicts = dirty.filter((e) => between.has(e.path)).map((e) => e.path);
  if (conflicts.length > 0) {
    throw new GitError(
      `error: Your local changes to the following files would be overwritten by ${opts.verb ?? "checkout"}:\n${conflicts.map((p) => `\t${ctx.work.display(p)}\n`).join("")}Please commit your changes or stash them before you switch branches.\nAborting\n`,
      1,
    );
  }
  const untracked = entries.filter((e) => e.index === "?").map((e) => e.path);
  const inTheWay = untracked.filter((u) => between.has(u) && !headTree.has(u) && targetTree.has(u));
  // An untracked file standing where the target has a directory.
  for (const p of between) {
    if (!targetTree.has(p)) continue;
    for (const u of untracked) if (p.startsWith(u + "/") && !inTheWay.includes(u)) inTheWay.push(u);
  }
  if (inTheWay.length > 0) {
    // Identical content is not "in the way".
    const really: string[] = [];
    for (const u of inTheWay) {
      const bytes = await ctx.work.read(u);
      const t = targetTree.get(u);
      if (!bytes || !t || (await git.hashBlob({ object: bytes })).oid !== t.oid) really.push(u);
    }
    if (really.length > 0) {
      throw new GitError(
        `error: The following untracked working tree files would be overwritten by ${opts.verb ?? "checkout"}:\n${really.map((p) => `\t${ctx.work.display(p)}\n`).join("")}Please move or remove them before you switch branches.\nAborting\n`,
        1,
      );
    }
  }
  await applyTree(ctx, targetOid, between);
}

/** What stands at a work-tree path: a file (or symlink), a directory, or nothing. */
export async function pathKind(ctx: GitContext, rel: string): Promise<"file" | "dir" | null> {
  try {
    const st = await ctx.repo.fs.promises.lstat(ctx.work.abs(rel));
    return st.isDirectory() ? "dir" : "file";
  } catch {
    return null;
  }
}

/** Shared by restore and `checkout [--] <paths>`. `source` undefined = the index. */
export async function restorePaths(
  ctx: GitContext,
  specs: string[],
  opts: { staged: boolean; worktree: boolean; source: string | null | undefined },
): Promise<number> {
  const index = await ctx.work.index();
  const srcTree = opts.source === undefined ? index : await ctx.repo.treeOf(opts.source);
  const known = new Set<string>([...index.keys(), ...srcTree.keys()]);
  const selected = new Set<string>();
  for (const s of specs) {
    const m = ctx.work.pathspec([s]);
    const hits = [...known].filter((k) => m(k));
    if (hits.length === 0) throw new GitError(`error: pathspec '${s}' did not match any file(s) known to git\n`, 1);
    hits.forEach((h) => selected.add(h));
  }
  if (opts.staged) await resetIndexTo(ctx, opts.source ?? null, (p) => selected.has(p));
  let count = 0;
  if (opts.worktree) {
    const target = opts.source === undefined ? await ctx.work.index() : srcTree;
    const work = await ctx.work.tree();
    for (const p of [...selected].sort()) {
      const t = target.get(p);
      const w = work.get(p);
      if (t) {
        const onDisk = await pathKind(ctx, p);
        if (!w || w.oid !== t.oid || w.mode !== t.mode || onDisk !== "file") await ctx.work.write(p, t);
        count++;
      } else if (opts.source !== undefined && index.has(p)) {
        await ctx.work.remove(p);
      }
    }
    ctx.work.invalidate();
  }
  return count;
}
