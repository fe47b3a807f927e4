import type { KeyValueStore } from "../storage/idb-kv";

/** What the start page knows about a workspace without opening it. */
export interface WorkspaceMeta {
  id: string;
  name: string;
  createdAt: number;
  lastOpenedAt: number;
  /** Bytes of working-tree files (excluding .git), refreshed when the workspace is opened or saved. */
  sizeBytes: number;
  fileCount: number;
  origin: {
    kind: "empty" | "sample" | "zip" | "folder" | "clone" | "bundle";
    detail?: string;
    /** An import that kept the repository it held (history, branches, remotes). */
    history?: boolean;
    /** What the import left out or changed, for the workbench to say once. */
    notes?: string[];
  };
}

const NAME_MAX = 80;

export function validateWorkspaceName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new Error("A workspace needs a name.");
  if (name.length > NAME_MAX) throw new Error(`A workspace name is at most ${NAME_MAX} characters.`);
  if (/[\u0000-\u001f]/.test(name)) throw new Error("A workspace name cannot contain control characters.");
  return name;
}

/** A new id: 16 random bytes in base32-ish lowercase, safe in URLs and IndexedDB names. */
export function newWorkspaceId(random: (bytes: Uint8Array) => Uint8Array): string {
  const bytes = random(new Uint8Array(10));
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  let out = "";
  for (const b of bytes) out += alphabet[b & 31] + alphabet[(b >> 5) & 7];
  return out;
}

export function isWorkspaceId(id: string): boolean {
  return /^[a-z2-7]{20}$/.test(id);
}

/** The list of workspaces, kept in its own IndexedDB database. */
export class WorkspaceRegistry {
  constructor(private readonly store: KeyValueStore<WorkspaceMeta>) {}

  async list(): Promise<WorkspaceMeta[]> {
    const all = await this.store.all();
    return all.sort((a, b) => b.lastOpenedAt - a.lastOpenedAt);
  }

  get(id: string): Promise<WorkspaceMeta | undefined> {
    return this.store.get(id);
  }

  async add(meta: WorkspaceMeta): Promise<void> {
    await this.store.put(meta.id, meta);
  }

  async update(id: string, patch: Partial<Omit<WorkspaceMeta, "id">>): Promise<WorkspaceMeta> {
    const current = await this.store.get(id);
    if (!current) throw new Error(`Workspace ${id} does not exist.`);
    const next = { ...current, ...patch, id };
    if (patch.name !== undefined) next.name = validateWorkspaceName(patch.name);
    await this.store.put(id, next);
    return next;
  }

  remove(id: string): Promise<void> {
    return this.store.delete(id);
  }
}
