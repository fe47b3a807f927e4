/**
 * Session persistence per workspace in IndexedDB (the IDBFactory is passed in: `indexedDB` in
 * the browser, fake-indexeddb in tests). Two object stores: full session data, and a small
 * metadata record per session for the history list and its search. Sessions hold no keys; as a
 * last line of defence, any known secret found in the data is replaced before it is written.
 */
import type { SessionData, SessionParent } from "../agent/session";
import { textOf } from "../agent/messages";
import { IdbConnection } from "../storage/idb-connection";

export const SESSIONS_DB = "tabula-agent-sessions";
// 2: attachments (what the UI keeps about a session beside it: a team's proposal and state).
const DB_VERSION = 2;
const DATA = "sessions";
const META = "meta";
const ATTACHMENTS = "attachments";

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
  /** A sub-agent's or team member's session: listed under its parent, not in the history. */
  parent?: SessionParent;
};

type MetaRecord = SessionMeta & { searchText: string };

type AttachmentRecord = { id: string; sessionId: string; key: string; value: unknown };

function attachmentId(sessionId: string, key: string): string {
  return `${sessionId}\u0000${key}`;
}

export type SessionStoreOptions = {
  dbName?: string;
  /** Known secrets (API keys): never written, whatever the data says. */
  secrets?: () => string[];
};

const SEARCH_CHARS = 20_000;

export class SessionStore {
  private readonly db: IdbConnection;

  constructor(
    idb: IDBFactory,
    private readonly opts: SessionStoreOptions = {},
  ) {
    this.db = new IdbConnection(idb, opts.dbName ?? SESSIONS_DB, DB_VERSION, (db) => {
      if (!db.objectStoreNames.contains(DATA)) db.createObjectStore(DATA, { keyPath: "id" });
      if (!db.objectStoreNames.contains(META)) {
        const meta = db.createObjectStore(META, { keyPath: "id" });
        meta.createIndex("workspaceId", "workspaceId", { unique: false });
      }
      if (!db.objectStoreNames.contains(ATTACHMENTS)) {
        const att = db.createObjectStore(ATTACHMENTS, { keyPath: "id" });
        att.createIndex("sessionId", "sessionId", { unique: false });
      }
    });
  }

  /** Resolves once the session and its list entry are committed together; rejects (StorageError) if not. */
  async save(data: SessionData): Promise<void> {
    const clean = this.scrub(data);
    await this.db.run([DATA, META], "readwrite", `The session "${clean.title}"`, async (tx) => {
      await Promise.all([tx.objectStore(DATA).put(clean), tx.objectStore(META).put(metaOf(clean))]);
    });
  }

  async load(id: string): Promise<SessionData | undefined> {
    return this.db.run(DATA, "readonly", "Loading the session", (tx) => tx.objectStore(DATA).get(id) as Promise<SessionData | undefined>);
  }

  /**
   * The sessions of a workspace, most recent first. `query` matches titles and message text
   * (case-insensitive; every word must occur). Child sessions (sub-agents, team members) are
   * left out: they open from their parent's transcript (`childrenOf`).
   */
  async list(workspaceId: string, opts: { query?: string; limit?: number } = {}): Promise<SessionMeta[]> {
    const all = (await this.metas(workspaceId)).filter((m) => !m.parent);
    const words = (opts.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    const hits = all.filter((m) => words.every((w) => m.title.toLowerCase().includes(w) || m.searchText.includes(w)));
    hits.sort((a, b) => b.updatedAt - a.updatedAt);
    return hits.slice(0, opts.limit ?? hits.length).map(({ searchText: _s, ...meta }) => {
      void _s;
      return meta;
    });
  }

  /** Every child session of a workspace (sub-agents and team members of all its sessions), oldest first. */
  async childrenIn(workspaceId: string): Promise<SessionMeta[]> {
    const kids = (await this.metas(workspaceId)).filter((m) => m.parent);
    kids.sort((a, b) => a.createdAt - b.createdAt);
    return kids.map(({ searchText: _s, ...meta }) => {
      void _s;
      return meta;
    });
  }

  /** The child sessions of `parentId` (its sub-agents and team members), oldest first. */
  async childrenOf(workspaceId: string, parentId: string): Promise<SessionMeta[]> {
    const kids = (await this.metas(workspaceId)).filter((m) => m.parent?.sessionId === parentId);
    kids.sort((a, b) => a.createdAt - b.createdAt);
    return kids.map(({ searchText: _s, ...meta }) => {
      void _s;
      return meta;
    });
  }

  private async metas(workspaceId: string): Promise<MetaRecord[]> {
    return (await this.db.run(META, "readonly", "Listing sessions", (tx) => tx.objectStore(META).index("workspaceId").getAll(workspaceId))) as MetaRecord[];
  }

  /** The most recently updated session of a workspace (resume after reload). */
  async latest(workspaceId: string): Promise<SessionData | undefined> {
    const [first] = await this.list(workspaceId, { limit: 1 });
    return first ? this.load(first.id) : undefined;
  }

  /** Delete a session and its child sessions (a sub-agent's transcript goes with its parent's). */
  async delete(id: string): Promise<void> {
    await this.db.run([DATA, META, ATTACHMENTS], "readwrite", "Deleting the session", async (tx) => {
      const meta = (await tx.objectStore(META).get(id)) as MetaRecord | undefined;
      const ids = [id];
      if (meta) {
        const all = (await tx.objectStore(META).index("workspaceId").getAll(meta.workspaceId)) as MetaRecord[];
        for (let i = 0; i < ids.length; i++) for (const m of all) if (m.parent?.sessionId === ids[i] && !ids.includes(m.id)) ids.push(m.id);
      }
      const attachments = (await Promise.all(ids.map((x) => tx.objectStore(ATTACHMENTS).index("sessionId").getAllKeys(x)))).flat();
      await Promise.all([...ids.flatMap((x) => [tx.objectStore(DATA).delete(x), tx.objectStore(META).delete(x)]), ...attachments.map((k) => tx.objectStore(ATTACHMENTS).delete(k))]);
    });
  }

  /**
   * Keep a record beside a session (`key` names it within the session: a team's, by its call):
   * JSON data the UI reads back after a reload, deleted with the session. Scrubbed like a session.
   */
  async saveAttachment(sessionId: string, key: string, value: unknown): Promise<void> {
    const clean = this.scrubJson({ id: attachmentId(sessionId, key), sessionId, key, value }) as AttachmentRecord;
    await this.db.run(ATTACHMENTS, "readwrite", "Saving the session's record", async (tx) => {
      await tx.objectStore(ATTACHMENTS).put(clean);
    });
  }

  /** The records kept beside a session, by key. */
  async attachments(sessionId: string): Promise<{ key: string; value: unknown }[]> {
    const all = (await this.db.run(ATTACHMENTS, "readonly", "Reading the session's records", (tx) => tx.objectStore(ATTACHMENTS).index("sessionId").getAll(sessionId))) as AttachmentRecord[];
    return all.map((r) => ({ key: r.key, value: r.value }));
  }

  /** Remove every session of a workspace, children included (when the workspace is deleted). */
  async deleteWorkspace(workspaceId: string): Promise<number> {
    const metas = await this.metas(workspaceId);
    for (const m of metas) await this.delete(m.id);
    return metas.length;
  }

  close(): void {
    this.db.close();
  }

  private scrub(data: SessionData): SessionData {
    return this.scrubJson(data) as SessionData;
  }

  private scrubJson(data: unknown): unknown {
    const secrets = (this.opts.secrets?.() ?? []).filter((s) => s.length >= 6);
    const json = JSON.stringify(data);
    if (!secrets.some((s) => json.includes(JSON.stringify(s).slice(1, -1)))) return JSON.parse(json);
    let out = json;
    for (const s of secrets) out = out.split(JSON.stringify(s).slice(1, -1)).join("[redacted]");
    return JSON.parse(out);
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
  if (data.parent) meta.parent = data.parent;
  return meta;
}
