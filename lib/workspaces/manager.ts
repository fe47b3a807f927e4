import { WorkspaceFs, ChangeJournal, withWorktreeStamp, type IsoFs } from "../fs";
import { populateWorkspace, workingTreeSize } from "./create";
import type { ImportEntry, Progress } from "./import-entries";
import { newWorkspaceId, validateWorkspaceName, type WorkspaceMeta, WorkspaceRegistry } from "./registry";
import { SAMPLE_PROJECT } from "./sample";
import type { AuthCallbacks } from "../git/credentials";
import { cloneRepository, type CloneProgress } from "./clone";

/** Root of every workspace inside its own lightning-fs. */
export const WORKSPACE_DIR = "/";

export interface WorkspaceEnvironment {
  registry: WorkspaceRegistry;
  openFs(id: string): IsoFs;
  /** Where the workspace lives inside its fs: "/" for a lightning-fs of its own (the browser). */
  workspaceDir?(id: string): string;
  deleteStorage(id: string): Promise<void>;
  randomBytes(bytes: Uint8Array): Uint8Array;
  now(): number;
  /**
   * Clone into the new workspace's storage somewhere else (the browser: a worker of its own).
   * The workspace's fs is only opened here once it has returned.
   */
  cloneElsewhere?(id: string, clone: CloneRequest, signal?: AbortSignal): Promise<void>;
}

export type CloneRequest = { url: string; proxyEndpoint: string; onCloneProgress?: (p: CloneProgress) => void; auth?: AuthCallbacks; depth?: number };

export interface OpenedWorkspace {
  meta: WorkspaceMeta;
  wsfs: WorkspaceFs;
}

type Source =
  | { kind: "empty" }
  | { kind: "sample" }
  | { kind: "zip" | "folder"; entries: ImportEntry[]; detail?: string; includeIgnored?: boolean }
  | ({ kind: "clone" } & CloneRequest)
  /** A session exported as a git bundle: branch, checkpoints and files; the session goes to `onImported`. */
  | { kind: "bundle"; bytes: Uint8Array; detail?: string; onImported?: (r: import("../share/session-bundle").SessionImport) => void };

/**
 * Creating, opening and deleting workspaces. A workspace that fails to be created (bad archive,
 * clone error, full storage) is removed again, so the list never shows a half-made one.
 */
export class WorkspaceManager {
  constructor(private readonly env: WorkspaceEnvironment) {}

  list() {
    return this.env.registry.list();
  }

  async create(rawName: string, source: Source, onProgress?: Progress, signal?: AbortSignal): Promise<WorkspaceMeta> {
    const name = validateWorkspaceName(rawName);
    const id = newWorkspaceId(this.env.randomBytes);
    let imported: { history: boolean; notes: string[] } | undefined;
    try {
      // A clone done elsewhere owns the storage until it returns: open it only then.
      const elsewhere = source.kind === "clone" ? this.env.cloneElsewhere : undefined;
      if (source.kind === "clone" && elsewhere) await this.env.cloneElsewhere!(id, source, signal);
      const wsfs = this.workspaceFs(id);
      if (source.kind === "clone") {
        // Done elsewhere, the clone saved its own file tree (this page has written nothing).
        if (!elsewhere) {
          await cloneRepository({ fs: wsfs.fs, dir: wsfs.dir }, source.url, {
            proxyEndpoint: source.proxyEndpoint,
            onProgress: source.onCloneProgress,
            auth: source.auth,
            depth: source.depth,
            signal,
          });
          await wsfs.flush();
        }
      } else if (source.kind === "bundle") {
        // Loaded on demand: the start page does not carry the checkpoint engine otherwise.
        const [engine, share] = await Promise.all([import("../checkpoints/index"), import("../share/session-bundle")]);
        const imported = await share.importSessionBundle(engine, { fs: wsfs.fs, dir: wsfs.dir }, source.bytes, this.env.now());
        await wsfs.flush();
        source.onImported?.(imported);
      } else {
        const entries: ImportEntry[] =
          source.kind === "sample"
            ? Object.entries(SAMPLE_PROJECT).map(([path, data]) => ({ path, data }))
            : source.kind === "empty"
              ? []
              : source.entries;
        const message = source.kind === "sample" ? "Sample project" : source.kind === "empty" ? "" : `Import ${source.detail ?? name}`;
        const r = await populateWorkspace(wsfs, entries, { message, onProgress, signal, includeIgnored: source.kind === "zip" || source.kind === "folder" ? source.includeIgnored : true });
        if (source.kind === "zip" || source.kind === "folder") imported = { history: r.history, notes: r.notes };
      }
      const size = await workingTreeSize(wsfs);
      const now = this.env.now();
      const meta: WorkspaceMeta = {
        id,
        name,
        createdAt: now,
        lastOpenedAt: now,
        ...size,
        origin: {
          kind: source.kind,
          detail: source.kind === "clone" ? source.url : source.kind === "zip" || source.kind === "folder" || source.kind === "bundle" ? source.detail : undefined,
          ...(imported?.history ? { history: true } : {}),
          ...(imported?.notes.length ? { notes: imported.notes } : {}),
        },
      };
      await this.env.registry.add(meta);
      return meta;
    } catch (error) {
      await this.env.deleteStorage(id).catch(() => undefined);
      throw error;
    }
  }

  async open(id: string): Promise<OpenedWorkspace> {
    const meta = await this.env.registry.get(id);
    if (!meta) throw new Error("This workspace does not exist in this browser. It may have been deleted, or created in another browser profile.");
    const wsfs = this.workspaceFs(id);
    const opened = await this.env.registry.update(id, { lastOpenedAt: this.env.now() });
    return { meta: opened, wsfs };
  }

  private workspaceFs(id: string): WorkspaceFs {
    const dir = this.env.workspaceDir?.(id) ?? WORKSPACE_DIR;
    // Every writer gets wsfs.fs: the stamp it keeps lets a page load skip the checkpoint walk.
    return new WorkspaceFs({ fs: withWorktreeStamp(this.env.openFs(id), dir), dir, journal: new ChangeJournal() });
  }

  async refreshSize(id: string, wsfs: WorkspaceFs): Promise<void> {
    await this.env.registry.update(id, await workingTreeSize(wsfs));
  }

  rename(id: string, name: string) {
    return this.env.registry.update(id, { name });
  }

  async remove(id: string): Promise<void> {
    await this.env.registry.remove(id);
    await this.env.deleteStorage(id);
  }
}
