/**
 * Agent session history per workspace (IndexedDB, IDBFactory injected): save / load / list with
 * search / delete, resume after reload, autosave, and search over whole transcripts (search.ts).
 * Keys are never persisted.
 *
 *   const store = new SessionStore(indexedDB, { secrets: () => settings.secrets() });
 *   const list = await store.list(workspaceId, { query: "greet" });
 *   const data = await store.load(list[0].id);           // or: await store.latest(workspaceId)
 *   const session = AgentSession.fromJSON(data, { deps, model });
 *   attachAutosave(session, store);
 */
export { SessionStore, SESSIONS_DB, type SessionMeta, type SessionStoreOptions } from "./store";
export { attachAutosave, type Autosave } from "./autosave";
export { searchSessions, type SearchableSession, type SessionSearchResult, type SearchHit } from "./search";
export { ChildSessions, type ChildSessionsOptions } from "./children";
