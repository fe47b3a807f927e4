import git from "isomorphic-git";
import type { WorkspaceFs } from "../fs/workspace-fs";
import { initRepo, stageAll, commit } from "../git";
import { planImport, writeEntries, type ImportEntry, type Progress } from "./import-entries";
import { ignoredEntries, planGitImport, settleImportedRepo, summariseIgnored, writeGitDir } from "./import-history";

export type PopulateResult = {
  files: number;
  skipped: string[];
  /** The import brought its own repository (history, branches, remotes). */
  history: boolean;
  /** What the user should know about the import (left out, rebuilt, cleaned). */
  notes: string[];
};

/**
 * Fill a fresh workspace. Entries holding a root `.git` keep it as the workspace's repository
 * (import-history.ts); otherwise the repository is initialised on `main` with a first commit,
 * so that status and diffs mean something from the first minute. Files the .gitignore files
 * ignore (and the repository does not track) stay out unless `includeIgnored`.
 */
export async function populateWorkspace(
  wsfs: WorkspaceFs,
  entries: ImportEntry[],
  opts: { message: string; onProgress?: Progress; signal?: AbortSignal; includeIgnored?: boolean },
): Promise<PopulateResult> {
  const plan = planImport(entries);
  const repo = { fs: wsfs.fs, dir: wsfs.dir };
  const notes: string[] = [];
  const gitPlan = plan.git.length ? planGitImport(plan.git) : undefined;
  if (gitPlan) notes.push(...gitPlan.notes);
  let tracked = new Set<string>();
  const history = !!gitPlan?.git;
  if (gitPlan?.git) {
    await writeGitDir(wsfs.fs, wsfs.dir, gitPlan.git.entries);
    notes.push(...(await settleImportedRepo(wsfs.fs, wsfs.dir)));
    tracked = new Set(await git.listFiles({ fs: wsfs.fs, dir: wsfs.dir }));
  } else {
    await initRepo(repo, { defaultBranch: "main" });
  }
  let work = plan.entries;
  if (!opts.includeIgnored) {
    const { ignored, isIgnoredDir } = await ignoredEntries(work, plan.git);
    for (const t of tracked) ignored.delete(t); // a tracked file is part of the repository, ignored or not
    if (ignored.size > 0) {
      work = work.filter((e) => !ignored.has(e.path));
      notes.push(`Skipped ${ignored.size.toLocaleString("en-US")} file${ignored.size === 1 ? "" : "s"} the .gitignore files ignore: ${summariseIgnored(ignored, isIgnoredDir)}. Import again with "Include ignored files" to bring them.`);
    }
  }
  await writeEntries(wsfs, work, opts.onProgress, opts.signal);
  if (!history && work.length > 0) {
    await stageAll(repo);
    await commit(repo, { message: opts.message });
  }
  await wsfs.flush();
  return { files: work.length, skipped: plan.skipped, history, notes };
}

export async function workingTreeSize(wsfs: WorkspaceFs): Promise<{ sizeBytes: number; fileCount: number }> {
  const files = await wsfs.listFiles("");
  let sizeBytes = 0;
  for (const f of files) sizeBytes += (await wsfs.stat(f))?.size ?? 0;
  return { sizeBytes, fileCount: files.length };
}
