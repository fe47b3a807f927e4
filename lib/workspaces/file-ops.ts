import type { WorkspaceFs } from "../fs/workspace-fs";
import { normalizeRelPath } from "../fs/paths";

/** What a delete kept so it can be undone: every file under the removed path, with its bytes. */
export interface DeletedSnapshot {
  path: string;
  files: { path: string; data: Uint8Array }[];
  dirs: string[];
}

/** The most a delete keeps in memory to be undoable; larger deletes are refused by the caller's confirm. */
export const UNDO_DELETE_MAX_BYTES = 64 * 1024 * 1024;

export function validateNewName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new Error("A name cannot be empty.");
  if (trimmed.includes("/") && trimmed.split("/").some((p) => p === "" || p === "." || p === "..")) throw new Error(`"${name}" is not a valid path.`);
  if (trimmed === "." || trimmed === "..") throw new Error(`"${name}" is not a valid name.`);
  return trimmed;
}

export function childPath(parent: string, name: string): string {
  return normalizeRelPath(parent ? `${parent}/${name}` : name);
}

/** Read everything under `path` before deleting it, so the delete can be undone exactly. */
export async function deleteWithUndo(wsfs: WorkspaceFs, path: string, origin = "tree"): Promise<DeletedSnapshot> {
  const stat = await wsfs.stat(path);
  if (!stat) throw new Error(`${path} does not exist.`);
  const snapshot: DeletedSnapshot = { path, files: [], dirs: [] };
  if (stat.type === "dir") {
    snapshot.dirs.push(path);
    const collect = async (dir: string) => {
      for (const e of await wsfs.readdir(dir)) {
        const p = `${dir}/${e.name}`;
        if (e.type === "dir") {
          snapshot.dirs.push(p);
          await collect(p);
        } else snapshot.files.push({ path: p, data: await wsfs.readFile(p) });
      }
    };
    await collect(path);
  } else {
    snapshot.files.push({ path, data: await wsfs.readFile(path) });
  }
  await wsfs.remove(path, { origin });
  await wsfs.flush();
  return snapshot;
}

export async function undoDelete(wsfs: WorkspaceFs, snapshot: DeletedSnapshot, origin = "tree"): Promise<void> {
  for (const dir of snapshot.dirs) await wsfs.mkdir(dir, { origin });
  for (const f of snapshot.files) await wsfs.writeFile(f.path, f.data, { origin });
  await wsfs.flush();
}

/** Move `from` into folder `toDir` (""= root), keeping its name. */
export function moveTarget(from: string, toDir: string): string {
  const name = from.split("/").pop()!;
  const to = toDir ? `${toDir}/${name}` : name;
  if (to === from) throw new Error("Already there.");
  if (toDir === from || toDir.startsWith(from + "/")) throw new Error("A folder cannot be moved into itself.");
  return to;
}
