/**
 * The files that differ between two commits: what a branch switch or a fast-forward must rewrite
 * in the working tree (shared by both, so they agree on what "changed" means).
 */
import git from "isomorphic-git";
import { gitArgs, type GitRepo } from "./types";

const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** A file that differs between two commits; `oid` and `mode` (octal text) are the second commit's. */
export type TreeChange = { path: string; deleted: boolean; added: boolean; oid?: string; mode?: string };

/** The files that differ between two commits (content or mode), with the second one's blob. */
export async function changedPaths(repo: GitRepo, from: string | null, to: string): Promise<TreeChange[]> {
  const trees = [git.TREE({ ref: from ?? EMPTY_TREE }), git.TREE({ ref: to })];
  const changes = (await git.walk({
    ...gitArgs(repo),
    trees,
    map: async (filepath, [a, b]) => {
      if (filepath === ".") return undefined;
      const [ta, tb] = await Promise.all([a?.type(), b?.type()]);
      if (ta === "tree" && tb === "tree") {
        // Same subtree id: nothing inside changed, skip it.
        return (await a!.oid()) === (await b!.oid()) ? null : undefined;
      }
      if (ta === "tree" || tb === "tree") {
        // A file on one side, a folder on the other: the file side changes; the walk goes on into the folder.
        const file = ta === "tree" ? (tb === "blob" || tb === "commit" ? b : undefined) : a;
        if (!file) return undefined;
        return ta === "tree" ? { path: filepath, deleted: false, added: true, oid: await b!.oid(), mode: (await b!.mode()).toString(8) } : { path: filepath, deleted: true, added: false };
      }
      if (ta === "commit" || tb === "commit") return null; // submodules are not checked out here
      const oa = ta === "blob" ? await a!.oid() : undefined;
      const ob = tb === "blob" ? await b!.oid() : undefined;
      const ma = ta === "blob" ? await a!.mode() : undefined;
      const mb = tb === "blob" ? await b!.mode() : undefined;
      if (oa === ob && ma === mb) return undefined;
      return ob === undefined ? { path: filepath, deleted: true, added: false } : { path: filepath, deleted: false, added: oa === undefined, oid: ob, mode: mb!.toString(8) };
    },
  })) as TreeChange[] | undefined;
  return changes ?? [];
}
