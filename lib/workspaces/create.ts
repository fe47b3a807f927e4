import type { WorkspaceFs } from "../fs/workspace-fs";
import { initRepo, stageAll, commit } from "../git";
import { planImport, writeEntries, type ImportEntry, type Progress } from "./import-entries";

/**
 * Fill a fresh workspace: write the files, initialise the repository on `main` and make a
 * first commit, so that status and diffs mean something from the first minute.
 */
export async function populateWorkspace(
  wsfs: WorkspaceFs,
  entries: ImportEntry[],
  opts: { message: string; onProgress?: Progress; signal?: AbortSignal },
): Promise<{ files: number; skipped: string[] }> {
  const plan = planImport(entries);
  const repo = { fs: wsfs.fs, dir: wsfs.dir };
  await initRepo(repo, { defaultBranch: "main" });
  await writeEntries(wsfs, plan.entries, opts.onProgress, opts.signal);
  if (plan.entries.length > 0) {
    await stageAll(repo);
    await commit(repo, { message: opts.message });
  }
  await wsfs.flush();
  return { files: plan.entries.length, skipped: plan.skipped };
}

export async function workingTreeSize(wsfs: WorkspaceFs): Promise<{ sizeBytes: number; fileCount: number }> {
  const files = await wsfs.listFiles("");
  let sizeBytes = 0;
  for (const f of files) sizeBytes += (await wsfs.stat(f))?.size ?? 0;
  return { sizeBytes, fileCount: files.length };
}
