/**
 * Session persistence per workspace in IndexedDB (the IDBFactory is passed in: `indexedDB` in
 * the browser, fake-indexeddb in tests). Two object stores: full session data, and a small
 * metadata record per session for the history list and its search. Sessions hold no keys; as a
 * last line of defence, any known secret found in the data is replaced before it is written.
 */
import type { SessionData } from "../agent/session";
import { textOf } from "../agent/messages";

export const SESSIONS_DB = "tabula-agent-sessions";
const DB_VERSION = 1;
const DATA = "sessions";
const META = "meta";

export type SessionMeta = {
  id: string;
  workspaceId: string;
  title: string;
  mode: string;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
  runCount: number;
  costUsd?: number;
  /** The last prompt, for the list. */
  preview: string;
  forkedFrom?: { sessionId: string; messageId: string };
};

type MetaRecord = SessionMeta & { searchText: string };

export type SessionStoreOptions = {
  dbName?: string;
  /** Known secrets (API keys): never written, whatever the data says. */
  secrets?: () => string[];
};

function req<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error("IndexedDB request failed"));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
}

const SEARCH_CHARS = 20_000;

export class SessionStore {
  private db: Promise<IDBDatabase> | null = null;
  private readonly dbName: string;

  constructor(
    private readonly idb: IDBFactory,
    private readonly opts: SessionStoreOptions = {},
  ) {
    this.dbName = opts.dbName ?? SESSIONS_DB;
  }

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const r = this.idb.open(this.dbName, DB_VERSION);
      r.onupgradeneeded = () => {
        const db = r.result;
        if (!db.objectStoreNames.contains(DATA)) db.createObjectStore(DATA, { keyPath: "id" });
        if (!db.objectStoreNames.contains(META)) {
          const meta = db.createObjectStore(META, { keyPath: "id" });
          meta.createIndex("workspaceId", "workspaceId", { unique: false });
        }
      };
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error ?? new Error(`Cannot open IndexedDB database ${this.dbName}`));
      r.onblocked = () => reject(new Error(`IndexedDB database ${this.dbName} is blocked by another tab`));
    }).catch((err) => {
      this.db = null;
      throw err;
    });
    return this.db;
  }

  async save(data: SessionData): Promise<void> {
    const clean = this.scrub(data);
    const db = await this.open();
    const tx = db.transaction([DATA, META], "readwrite");
    tx.objectStore(DATA).put(clean);
    tx.objectStore(META).put(metaOf(clean));
    await done(tx);
  }

  async load(id: string): Promise<SessionData | undefined> {
    const db = await this.open();
    return (await req(db.transaction(DATA, "readonly").objectStore(DATA).get(id))) as SessionData | undefined;
  }

  /**
   * The sessions of a workspace, most recent first. `query` matches titles and message text
   * (case-insensitive; every word must occur).
   */
  async list(workspaceId: string, opts: { query?: string; limit?: number } = {}): Promise<SessionMeta[]> {
    const db = await this.open();
    const index = db.transaction(META, "readonly").objectStore(META).index("workspaceId");
    const all = (await req(index.getAll(workspaceId))) as MetaRecord[];
    const words = (opts.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    const hits = all.filter((m) => words.every((w) => m.title.toLowerCase().includes(w) || m.searchText.includes(w)));
    hits.sort((a, b) => b.updatedAt - a.updatedAt);
    return hits.slice(0, opts.limit ?? hits.length).map(({ searchText: _s, ...meta }) => {
      void _s;
      return meta;
    });
  }

  /** The most recently updated session of a workspace (resume after reload). */
  async latest(workspaceId: string): Promise<SessionData | undefined> {
    const [first] = await this.list(workspaceId, { limit: 1 });
    return first ? this.load(first.id) : undefined;
  }

  async delete(id: string): Promise<void> {
    const db = await this.open();
    const tx = db.transaction([DATA, META], "readwrite");
    tx.objectStore(DATA).delete(id);
    tx.objectStore(META).delete(id);
    await done(tx);
  }

  /** Remove every session of a workspace (when the workspace is deleted). */
  async deleteWorkspace(workspaceId: string): Promise<number> {
    const metas = await this.list(workspaceId);
    for (const m of metas) await this.delete(m.id);
    return metas.length;
  }

  close(): void {
    void this.db?.then((db) => db.close()).catch(() => undefined);
    this.db = null;
  }

  private scrub(data: SessionData): SessionData {
    const secrets = (this.opts.secrets?.() ?? []).filter((s) => s.length >= 6);
    const json = JSON.stringify(data);
    if (!secrets.some((s) => json.includes(JSON.stringify(s).slice(1, -1)))) return JSON.parse(json) as SessionData;
    let out = json;
    for (const s of secrets) out = out.split(JSON.stringify(s).slice(1, -1)).join("[redacted]");
    return JSON.parse(out) as SessionData;
  }
}

function metaOf(data: SessionData): MetaRecord {
  const prompts = data.messages.filter((m) => m.role === "user" && (m.kind ?? "prompt") === "prompt");
  const last = prompts[prompts.length - 1];
  let searchText = "";
  for (const m of data.messages) {
    if (m.role === "tool") continue;
    if (searchText.length > SEARCH_CHARS) break;
    searchText += " " + textOf(m);
  }
  const meta: MetaRecord = {
    id: data.id,
    workspaceId: data.workspaceId,
    title: data.title,
    mode: data.mode,
    createdAt: data.createdAt,
    updatedAt: data.updatedAt,
    messageCount: data.messages.length,
    runCount: data.runCount,
    preview: last ? textOf(last).replace(/\s+/g, " ").slice(0, 160) : "",
    searchText: searchText.toLowerCase().slice(0, SEARCH_CHARS),
  };
  if (data.usage.costUsd !== undefined) meta.costUsd = data.usage.costUsd;
  if (data.forkedFrom) meta.forkedFrom = data.forkedFrom;
  return meta;
}
