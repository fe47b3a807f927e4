/**
 * Blobs stored at hidden paths, for `cat-file`: the trees git shows are filtered, but an object
 * name can still be typed in, so cat-file refuses the blobs that only hidden paths name.
 */
import git, { type FsClient } from "isomorphic-git";
import { isGitInternal } from "../../fs/paths";
import type { GitRepository } from "./repository";

const memo = new WeakMap<GitRepository, Promise<Set<string>>>();

/** Blobs at hidden paths in the index, the work tree, HEAD and every ref (branches, tags, stash, checkpoints). */
export function hiddenBlobOids(repo: GitRepository): Promise<Set<string>> {
  let found = memo.get(repo);
  if (!found) {
    found = collectHiddenBlobs(repo);
    memo.set(repo, found);
  }
  return found;
}

async function collectHiddenBlobs(repo: GitRepository): Promise<Set<string>> {
  const abs = (rel: string) => (rel === "" ? repo.dir : repo.dir === "/" ? "/" + rel : repo.dir + "/" + rel);
  const out = new Set<string>();
  if (!repo.hidden) return out;
  const full = { fs: repo.fullFs as unknown as FsClient, dir: repo.dir, gitdir: repo.gitdir, cache: repo.cache };
  const seenTrees = new Set<string>();
  const walkTree = async (oid: string, prefix: string, under: boolean): Promise<void> => {
    const key = `${oid}\0${under ? "h" : prefix}`;
    if (seenTrees.has(key)) return;
    seenTrees.add(key);
    const { tree } = await git.readTree({ ...full, oid });
    for (const e of tree) {
      const path = prefix + e.path;
      const hidden = under || repo.hidden!.ruleFor(path) !== null;
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
  for (const e of await repo.stashEntries()) commits.add(e.oid);
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
      if ((await entry.type()) === "blob" && repo.isHidden(filepath)) out.add(await entry.oid());
      return undefined;
    },
  }).catch(() => undefined);
  // The work tree's hidden files, as `git hash-object` would name them.
  const walkDir = async (rel: string): Promise<void> => {
    const names = await repo.fullFs.promises.readdir(abs(rel)).catch(() => [] as string[]);
    for (const name of names) {
      const child = rel === "" ? name : rel + "/" + name;
      if (isGitInternal(child)) continue;
      const st = await repo.fullFs.promises.lstat(abs(child)).catch(() => null);
      if (!st) continue;
      if (st.isDirectory()) await walkDir(child);
      else if (st.isFile() && repo.isHidden(child)) {
        const bytes = await repo.fullFs.promises.readFile(abs(child)).catch(() => null);
        if (bytes) out.add((await git.hashBlob({ object: typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes })).oid);
      }
    }
  };
  await walkDir("");
  return out;
}
