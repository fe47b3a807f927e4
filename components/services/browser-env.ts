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
