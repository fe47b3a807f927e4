import type { WorkspaceFs } from "../fs/workspace-fs";
import { normalizeRelPath, isGitInternal } from "../fs/paths";

/** One file to bring into a workspace (from a .zip, a dropped folder, or the sample). */
export interface ImportEntry {
  path: string;
  data: Uint8Array | string;
  mode?: number;
}

export type Progress = (done: number, total: number, label?: string) => void;

export const MAX_IMPORT_FILES = 50_000;

/**
 * Validate every entry before a single byte is written, so a bad archive never leaves a
 * half-imported workspace: paths are normalised and confined, duplicates are refused. The
 * root `.git/` content is set apart in `git` (import-history.ts decides whether it makes a
 * repository); any other `.git` path (a `.git` file, a differently cased `.GIT`) is skipped.
 */
export function planImport(entries: ImportEntry[]): { entries: ImportEntry[]; skipped: string[]; git: ImportEntry[] } {
  if (entries.length > MAX_IMPORT_FILES) throw new Error(`Too many files to import (${entries.length}; the limit is ${MAX_IMPORT_FILES}).`);
  const seen = new Set<string>();
  const out: ImportEntry[] = [];
  const skipped: string[] = [];
  const git: ImportEntry[] = [];
  for (const entry of entries) {
    let path: string;
    try {
      path = normalizeRelPath(entry.path);
    } catch (error) {
      throw new Error(`Refusing to import "${entry.path}": ${(error as Error).message}`);
    }
    if (!path) continue;
    if (isGitInternal(path)) {
      if (path.startsWith(".git/") && !seen.has(path)) {
        seen.add(path);
        git.push({ ...entry, path });
      } else skipped.push(path);
      continue;
    }
    if (seen.has(path)) throw new Error(`The archive holds "${path}" twice.`);
    seen.add(path);
    out.push({ ...entry, path });
  }
  return { entries: out, skipped, git };
}

/** Archives made by "Download ZIP" wrap everything in one folder: drop it. */
export function stripCommonRoot(entries: ImportEntry[]): ImportEntry[] {
  if (entries.length === 0) return entries;
  const first = entries[0].path.split("/")[0];
  if (!entries.every((e) => e.path.includes("/") && e.path.split("/")[0] === first)) return entries;
  return entries.map((e) => ({ ...e, path: e.path.slice(first.length + 1) }));
}

export async function writeEntries(wsfs: WorkspaceFs, entries: ImportEntry[], onProgress?: Progress, signal?: AbortSignal): Promise<void> {
  let done = 0;
  for (const entry of entries) {
    if (signal?.aborted) throw new Error("Import cancelled.");
    await wsfs.writeFile(entry.path, entry.data, { origin: "import", mode: entry.mode });
    done++;
    if (onProgress && (done % 10 === 0 || done === entries.length)) onProgress(done, entries.length, entry.path);
  }
  await wsfs.flush();
}
