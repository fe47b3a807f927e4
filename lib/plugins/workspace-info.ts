/** What a plugin's setup learns about the workspace: root, branch, HEAD and remotes (read-only). */
import git from "isomorphic-git";
import type { IsoFs } from "../fs/types";
import type { WorkspaceInfo } from "./types";

export async function readWorkspaceInfo(repo: { fs: IsoFs; dir: string }): Promise<WorkspaceInfo> {
  const args = { fs: repo.fs, dir: repo.dir };
  const [branch, head, remotes] = await Promise.all([
    git.currentBranch({ ...args, fullname: false }).catch(() => undefined),
    git.resolveRef({ ...args, ref: "HEAD" }).catch(() => undefined),
    git.listRemotes(args).catch(() => [] as { remote: string; url: string }[]),
  ]);
  return { rootPath: repo.dir, branch: branch ?? undefined, head, remotes: remotes.map((r) => ({ name: r.remote, url: r.url })) };
}
