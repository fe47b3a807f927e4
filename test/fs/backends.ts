/**
 * The two storage backends WorkspaceFs runs on, for tests that must pass on both:
 * node's fs in a temp dir, and lightning-fs over fake-indexeddb (as in the browser).
 */
import "fake-indexeddb/auto";
import nodeFs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { IsoFs } from "../../lib/fs/types";

// lightning-fs reads navigator.locks at init; Node 20 has no navigator (STACK.md pitfall 5).
(globalThis as { navigator?: unknown }).navigator ??= {};

export type Backend = {
  name: "node" | "lightning";
  fs: IsoFs;
  dir: string;
  /** Remove what the test created. */
  cleanup(): Promise<void>;
};

let counter = 0;

export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}`;
}

export async function nodeBackend(): Promise<Backend> {
  const dir = nodeFs.mkdtempSync(path.join(os.tmpdir(), "tabula-test-"));
  return {
    name: "node",
    fs: nodeFs as unknown as IsoFs,
    dir,
    cleanup: async () => nodeFs.rmSync(dir, { recursive: true, force: true }),
  };
}

export async function lightningBackend(dir = "/ws"): Promise<Backend & { dbName: string }> {
  const { openNamedLightningFs } = await import("../../lib/fs/lightning");
  const dbName = uniqueName("tabula-test");
  const lfs = openNamedLightningFs(dbName);
  if (dir !== "/") await lfs.promises.mkdir(dir);
  return {
    name: "lightning",
    fs: lfs,
    dir,
    dbName,
    cleanup: async () => {
      await lfs.promises.flush?.();
    },
  };
}

export const backends: [string, () => Promise<Backend>][] = [
  ["node", nodeBackend],
  ["lightning", () => lightningBackend()],
];

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every key in lightning-fs's IndexedDB store (file bytes by inode, plus "!root"). */
export async function idbKeys(dbName: string): Promise<IDBValidKey[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(dbName);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  try {
    return await new Promise<IDBValidKey[]>((resolve, reject) => {
      const tx = db.transaction(dbName + "_files", "readonly");
      const req = tx.objectStore(dbName + "_files").getAllKeys();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  } finally {
    db.close();
  }
}
