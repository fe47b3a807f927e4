/**
 * What a tab keeps when its workspace is deleted elsewhere: the working tree as stored (never
 * `.git`: the history goes with the workspace), with the text of every editor the user has not
 * saved over it. The user downloads it as a .zip or recreates a workspace from it.
 */
import { zip, type Zippable } from "fflate";
import type { WorkspaceFs } from "../fs/workspace-fs";
import type { ImportEntry } from "./import-entries";

export type UnsavedText = { path: string; text: string };

export async function keepWorkingTree(wsfs: WorkspaceFs, unsaved: UnsavedText[] = []): Promise<ImportEntry[]> {
  const entries = new Map<string, ImportEntry>();
  for (const path of await wsfs.listFiles("")) entries.set(path, { path, data: await wsfs.readFile(path) });
  for (const u of unsaved) entries.set(u.path, { path: u.path, data: u.text });
  return [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export function entriesToZip(entries: ImportEntry[]): Promise<Uint8Array> {
  const tree: Zippable = {};
  const encoder = new TextEncoder();
  for (const e of entries) tree[e.path] = [typeof e.data === "string" ? encoder.encode(e.data) : e.data, { level: 6 }];
  return new Promise((resolve, reject) => zip(tree, { level: 6 }, (error, data) => (error ? reject(error) : resolve(data))));
}
