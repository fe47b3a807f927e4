"use client";
import { openKeyValueStore } from "@/lib/storage/idb-kv";
import { WorkspaceRegistry, type WorkspaceMeta } from "@/lib/workspaces/registry";
import { WorkspaceManager } from "@/lib/workspaces/manager";
import { openLightningFs, deleteWorkspaceStorage, lightningFsName } from "@/lib/fs/lightning";
import { cloneInWorker, type WorkerHandle } from "@/lib/workspaces/clone-in-worker";
import { revocableFs, type RevocableFs } from "@/lib/fs/revocable";
import { forgetViewState } from "@/lib/workbench/view-state";

/** The browser's wiring of the framework-free core: IndexedDB, crypto, the clock. */
let manager: WorkspaceManager | undefined;
const openFileSystems = new Map<string, RevocableFs>();

export function workspaceManager(): WorkspaceManager {
  manager ??= new WorkspaceManager({
    registry: new WorkspaceRegistry(openKeyValueStore<WorkspaceMeta>(indexedDB, "tabula-registry", "workspaces")),
    openFs: (id) => {
      // One lightning-fs instance per workspace per page: two instances would each keep their own
      // copy of the superblock and overwrite each other's.
      // Revocable, so a tab whose workspace is deleted elsewhere can cut its writes off at once.
      let fs = openFileSystems.get(id);
      if (!fs || fs.revoked === "all") openFileSystems.set(id, (fs = revocableFs(openLightningFs(id))));
      return fs.fs;
    },
    deleteStorage: async (id) => {
      revokeWorkspaceFs(id, "all", "This workspace was deleted");
      await deleteWorkspaceStorage(id, indexedDB);
      forgetViewState(id);
    },
    randomBytes: (bytes) => crypto.getRandomValues(bytes),
    now: () => Date.now(),
    // Fetching, indexing and checking out a big project off the page's thread.
    cloneElsewhere: (id, clone, signal) =>
      cloneInWorker(
        () => new Worker(new URL("../../lib/workspaces/clone.worker.ts", import.meta.url), { type: "module", name: "tabula-clone" }) as unknown as WorkerHandle,
        { fsName: lightningFsName(id), url: clone.url, proxyEndpoint: new URL(clone.proxyEndpoint, location.origin).toString(), ...(clone.depth ? { depth: clone.depth } : {}) },
        { auth: clone.auth, onProgress: clone.onCloneProgress, signal },
      ),
  });
  return manager;
}

/** Cut this page's file system of a workspace off: its writes, or every call ("all" also forgets it). */
export function revokeWorkspaceFs(id: string, what: "writes" | "all", reason: string): void {
  const fs = openFileSystems.get(id);
  fs?.revoke(what, reason);
  if (what === "all") openFileSystems.delete(id);
}

export const GIT_PROXY_ENDPOINT = "/api/git-proxy";

export function proxyEndpoint(): string {
  return new URL(GIT_PROXY_ENDPOINT, location.origin).toString();
}

/**
 * End-to-end test hooks, exposed only when the page's origin opted in (localStorage
 * "tabula:test-hooks" = "1", which only a test or a developer sets): the checkpoint engine's
 * `__testing`, to park a restore half-way and close the tab on it.
 */
export function exposeTestHooks(): void {
  try {
    if (localStorage.getItem("tabula:test-hooks") !== "1") return;
  } catch {
    return;
  }
  (window as unknown as { __tabulaTesting?: unknown }).__tabulaTesting = {
    checkpoints: () => import("@/lib/checkpoints").then((m) => m.__testing),
  };
}
