/**
 * lightning-fs (IndexedDB) storage for a workspace: one named file system per workspace id.
 *
 * Importing this module is safe anywhere (lightning-fs touches nothing at load time); only
 * constructing the fs needs `indexedDB` and `navigator`, which happens inside the functions.
 */
import LightningFS from "@isomorphic-git/lightning-fs";
import { BatchedIdbStore } from "./batched-idb-store";
import { CountingInodeBackend } from "./lightning-backend";
import { setSyncLister } from "./listing";
import type { IsoFs } from "./types";

export const WORKSPACE_FS_PREFIX = "tabula-ws-";

export type LightningFsOptions = {
  /** Start from an empty file system (deletes what is stored under this name). */
  wipe?: boolean;
};

export function lightningFsName(workspaceId: string): string {
  if (typeof workspaceId !== "string" || workspaceId === "") throw new Error("workspaceId must be a non-empty string");
  return WORKSPACE_FS_PREFIX + workspaceId;
}

export function openLightningFs(workspaceId: string, options: LightningFsOptions = {}): IsoFs {
  return openNamedLightningFs(lightningFsName(workspaceId), options);
}

/** A lightning-fs by its database name, as the app opens every one (benchmarks measure this). */
export function openNamedLightningFs(name: string, options: LightningFsOptions = {}): IsoFs {
  // lightning-fs's own store names (DefaultBackend.init's defaults), with group commit, and
  // its own backend numbering new inodes without walking the tree.
  const db = new BatchedIdbStore(name, name + "_files") as unknown as LightningFS.IDB;
  const backend = new CountingInodeBackend();
  // `backend` is an option lightning-fs reads (PromisifiedFS._init) but does not declare.
  const fs = new LightningFS(name, { db, backend, ...(options.wipe ? { wipe: true } : {}) } as LightningFS.Options);
  setSyncLister(fs as unknown as IsoFs, (dir) => backend.listDirSync(dir));
  addGroupWrite(fs as unknown as IsoFs, backend);
  return fs as unknown as IsoFs;
}

type LightningPromises = {
  _wrap?(fn: (...args: never[]) => Promise<unknown>, cleanParams: (...args: never[]) => unknown[], mutating: boolean): (...args: unknown[]) => Promise<unknown>;
};

/**
 * `promises.writeFiles`, through lightning-fs's own call wrapper (`_wrap`) so that it loads the
 * tree first, keeps the fs active while it runs and schedules the tree's save afterwards, as
 * its writeFile does. Not added if a future lightning-fs has no such wrapper.
 */
function addGroupWrite(fs: IsoFs, backend: CountingInodeBackend): void {
  const promises = fs.promises as IsoFs["promises"] & LightningPromises;
  if (typeof promises._wrap !== "function") return;
  const writeFiles = async (files: readonly { path: string; data: Uint8Array }[]) => {
    if (!Array.isArray(files)) throw Object.assign(new Error("writeFiles: a list of { path, data } is required"), { code: "EINVAL" });
    for (const f of files) {
      if (!isNormalisedAbsolute(f?.path) || !(f.data instanceof Uint8Array)) {
        throw Object.assign(new Error(`writeFiles: ${String(f?.path)} is not an absolute, normalised path with bytes`), { code: "EINVAL" });
      }
    }
    await backend.writeFiles(files);
  };
  promises.writeFiles = promises._wrap.call(promises, writeFiles, (files: never) => [files], true) as IsoFs["promises"]["writeFiles"];
}

/**
 * Every IndexedDB database lightning-fs creates for a workspace (DefaultBackend.init):
 * the file database (`fileDbName = name`, holding the tree and file bytes) and the lock
 * database (`lockDbName = name + "_lock"`, only created where navigator.locks is missing;
 * with Web Locks the mutex is a lock named `<name>_lock` and uses no database).
 */
export function workspaceDbNames(workspaceId: string): string[] {
  const name = lightningFsName(workspaceId);
  return [name, name + "_lock"];
}

/**
 * Delete a workspace's stored files. IndexedDB holds a deletion while any connection to the
 * database is open ("blocked"); lightning-fs closes its connection after 500 ms idle, so the
 * promise simply resolves once that has happened.
 */
export async function deleteWorkspaceStorage(workspaceId: string, idb: IDBFactory): Promise<void> {
  await Promise.all(
    workspaceDbNames(workspaceId).map(
      (name) =>
        new Promise<void>((resolve, reject) => {
          const req = idb.deleteDatabase(name);
          req.onsuccess = () => resolve();
          req.onerror = () => reject(req.error ?? new Error(`Could not delete IndexedDB database ${name}`));
        }),
    ),
  );
}

function isNormalisedAbsolute(path: unknown): path is string {
  if (typeof path !== "string" || !path.startsWith("/") || path === "/") return false;
  return path
    .slice(1)
    .split("/")
    .every((part) => part !== "" && part !== "." && part !== "..");
}
