"use client";
import { openKeyValueStore } from "@/lib/storage/idb-kv";
import { WorkspaceRegistry, type WorkspaceMeta } from "@/lib/workspaces/registry";
import { WorkspaceManager } from "@/lib/workspaces/manager";
import { openLightningFs, deleteWorkspaceStorage } from "@/lib/fs/lightning";
import type { IsoFs } from "@/lib/fs";

/** The browser's wiring of the framework-free core: IndexedDB, crypto, the clock. */
let manager: WorkspaceManager | undefined;
const openFileSystems = new Map<string, IsoFs>();

export function workspaceManager(): WorkspaceManager {
  manager ??= new WorkspaceManager({
    registry: new WorkspaceRegistry(openKeyValueStore<WorkspaceMeta>(indexedDB, "tabula-registry", "workspaces")),
    openFs: (id) => {
      // One lightning-fs instance per workspace per page: two instances would each keep their own
      // copy of the superblock and overwrite each other's.
      let fs = openFileSystems.get(id);
      if (!fs) openFileSystems.set(id, (fs = openLightningFs(id)));
      return fs;
    },
    deleteStorage: async (id) => {
      openFileSystems.delete(id);
      await deleteWorkspaceStorage(id, indexedDB);
    },
    randomBytes: (bytes) => crypto.getRandomValues(bytes),
    now: () => Date.now(),
  });
  return manager;
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
