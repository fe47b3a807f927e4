import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentSession } from "../../lib/agent/session";
import { memoryStorage, ProviderSettingsStore, type ScriptedTurn } from "../../lib/providers";
import { attachAutosave, SessionStore } from "../../lib/sessions";
import { cleanupList, deps, scripted, tempWs } from "../agent/helpers";

const cleanups = cleanupList();
afterEach(() => cleanups.run());

function sessionWith(turns: ScriptedTurn[], workspaceId = "ws1", title?: string) {
  const ws = tempWs({ "a.txt": "hello\n" });
  cleanups.add(ws.cleanup);
  const d = deps(ws);
  const s = new AgentSession({ deps: d, model: scripted(turns), workspaceId, title });
  return { s, d };
}

describe("session store", () => {
  it("round-trips a session and resumes it", async () => {
    const store = new SessionStore(new IDBFactory());
    const { s, d } = sessionWith([{ toolCalls: [{ name: "read_files", args: { files: [{ path: "a.txt" }] } }] }, { text: "It says hello." }]);
    await s.run("What is in a.txt?");
    await s.history.checkpointsSettled();
    await store.save(s.toJSON());
    const data = await store.load(s.id);
    expect(data).toEqual(JSON.parse(JSON.stringify(s.toJSON())));
    expect(data!.checkpoints).toHaveLength(1);
    const resumed = AgentSession.fromJSON(data!, { deps: d, model: scripted([{ text: "Still hello." }]) });
    expect(resumed.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect((await resumed.run("and now?")).status).toBe("completed");
    expect(await store.load("nope")).toBeUndefined();
  });

  it("lists per workspace, most recent first, with search by title and text; deletes", async () => {
    const store = new SessionStore(new IDBFactory());
    const a = sessionWith([{ text: "The parser uses a Pratt loop." }], "ws1", "Parser questions");
    const b = sessionWith([{ text: "Renamed the CSS variables." }], "ws1");
    const c = sessionWith([{ text: "other workspace" }], "ws2");
    await a.s.run("How does parsing work?");
    await store.save(a.s.toJSON());
    await new Promise((r) => setTimeout(r, 5));
    await b.s.run("Rename the colours");
    await store.save(b.s.toJSON());
    await c.s.run("x");
    await store.save(c.s.toJSON());

    const all = await store.list("ws1");
    expect(all.map((m) => m.id)).toEqual([b.s.id, a.s.id]);
    expect(all[0]).toMatchObject({ title: "Rename the colours", preview: "Rename the colours", messageCount: 2, runCount: 1, mode: "act" });
    expect((await store.list("ws1", { query: "parser" })).map((m) => m.id)).toEqual([a.s.id]);
    expect((await store.list("ws1", { query: "pratt loop" })).map((m) => m.id)).toEqual([a.s.id]);
    expect((await store.list("ws1", { query: "css" })).map((m) => m.id)).toEqual([b.s.id]);
    expect(await store.list("ws1", { query: "nothing-matches" })).toEqual([]);
    expect((await store.latest("ws1"))!.id).toBe(b.s.id);
    await store.delete(b.s.id);
    expect((await store.list("ws1")).map((m) => m.id)).toEqual([a.s.id]);
    expect(await store.deleteWorkspace("ws2")).toBe(1);
    expect(await store.list("ws2")).toEqual([]);
  });

  it("never persists keys", async () => {
    const idb = new IDBFactory();
    const settings = new ProviderSettingsStore(memoryStorage());
    await settings.load();
    const key = "sk-ant-api03-VERY-SECRET-KEY-0001";
    await settings.setKey("anthropic", key);
    const store = new SessionStore(idb, { secrets: () => settings.secrets() });
    // A provider error that echoes the key, and a user who pastes it into a prompt.
    const ws = tempWs();
    cleanups.add(ws.cleanup);
    const session = new AgentSession({ deps: deps(ws), model: scripted([{ error: { status: 400, message: `bad request with ${key}` } }]), workspaceId: "ws1", redact: settings.redact });
    const events: unknown[] = [];
    session.subscribe((e) => events.push(e));
    const r = await session.run(`my key is ${key}, why does it fail?`);
    expect(r.reason).not.toContain(key);
    expect(JSON.stringify(events.filter((e) => (e as { type: string }).type !== "run-started" && (e as { type: string }).type !== "message-added"))).not.toContain(key);
    await store.save(session.toJSON());
    // Read the raw records back from IndexedDB.
    const raw = await new Promise<unknown[]>((resolve, reject) => {
      const open = idb.open("tabula-agent-sessions");
      open.onsuccess = () => {
        const tx = open.result.transaction(["sessions", "meta"], "readonly");
        const a = tx.objectStore("sessions").getAll();
        const b = tx.objectStore("meta").getAll();
        tx.oncomplete = () => resolve([a.result, b.result]);
        tx.onerror = () => reject(tx.error);
      };
    });
    const dump = JSON.stringify(raw);
    expect(dump).toContain("my key is [redacted]");
    expect(dump).not.toContain(key);
    expect(dump).not.toContain("VERY-SECRET");
  });

  it("autosaves after runs and settings changes", async () => {
    const store = new SessionStore(new IDBFactory());
    const { s } = sessionWith([{ text: "hi" }]);
    const auto = attachAutosave(s, store, { debounceMs: 10 });
    await s.run("hello");
    await auto.flush();
    expect((await store.load(s.id))!.messages).toHaveLength(2);
    s.setMode("plan");
    await auto.flush();
    expect((await store.load(s.id))!.mode).toBe("plan");
    auto.detach();
  });

  it("saves a message added outside a run at once (a team's report steered in), without waiting for the debounce", async () => {
    const store = new SessionStore(new IDBFactory());
    const { s } = sessionWith([{ text: "hi" }]);
    await s.run("hello");
    const auto = attachAutosave(s, store, { debounceMs: 60_000 });
    s.steer("The team finished: REPORT");
    await vi.waitFor(async () => expect(JSON.stringify((await store.load(s.id))?.messages ?? [])).toContain("The team finished: REPORT"), { timeout: 2000 });
    auto.detach();
  });

  it("keeps child sessions out of the history, lists them under their parent, and deletes them with it", async () => {
    const store = new SessionStore(new IDBFactory());
    const ws = tempWs({ "a.txt": "hello\n" });
    cleanups.add(ws.cleanup);
    const d = deps(ws);
    const parent = new AgentSession({ deps: d, model: scripted([{ text: "parent answer" }]), workspaceId: "ws1", title: "Parent" });
    await parent.run("go");
    const child = new AgentSession({ deps: d, model: scripted([{ text: "child answer" }]), workspaceId: "ws1", title: "Child", parent: { sessionId: parent.id, toolCallId: "call-1" } });
    await child.run("look around");
    const grandchild = new AgentSession({ deps: d, model: scripted([{ text: "deeper" }]), workspaceId: "ws1", title: "Grandchild", parent: { sessionId: child.id, toolCallId: "call-9" } });
    await grandchild.run("deeper");
    const other = new AgentSession({ deps: d, model: scripted([{ text: "x" }]), workspaceId: "ws1", title: "Other" });
    await other.run("x");
    for (const s of [parent, child, grandchild, other]) await store.save(s.toJSON());

    expect(child.parent).toEqual({ sessionId: parent.id, toolCallId: "call-1" });
    const loaded = await store.load(child.id);
    expect(loaded!.parent).toEqual({ sessionId: parent.id, toolCallId: "call-1" });
    expect(AgentSession.fromJSON(loaded!, { deps: d, model: scripted([]) }).parent).toEqual({ sessionId: parent.id, toolCallId: "call-1" });

    // The history and the resume-latest see top-level sessions only (the grandchild ran last).
    expect((await store.list("ws1")).map((m) => m.title).sort()).toEqual(["Other", "Parent"]);
    expect((await store.latest("ws1"))!.parent).toBeUndefined();
    const kids = await store.childrenOf("ws1", parent.id);
    expect(kids.map((m) => [m.title, m.parent?.toolCallId])).toEqual([["Child", "call-1"]]);
    expect((await store.childrenIn("ws1")).map((m) => m.title)).toEqual(["Child", "Grandchild"]);

    await store.delete(parent.id);
    expect(await store.load(child.id)).toBeUndefined();
    expect(await store.load(grandchild.id)).toBeUndefined();
    expect(await store.load(other.id)).toBeDefined();
    expect((await store.list("ws1")).map((m) => m.title)).toEqual(["Other"]);
  });

  it("keeps records beside a session (scrubbed, read back by key) and deletes them with it; a version-1 database upgrades in place", async () => {
    const idb = new IDBFactory();
    // A database as the previous version left it: sessions and their list, no attachments.
    await new Promise<void>((resolve, reject) => {
      const open = idb.open("tabula-agent-sessions", 1);
      open.onupgradeneeded = () => {
        open.result.createObjectStore("sessions", { keyPath: "id" });
        open.result.createObjectStore("meta", { keyPath: "id" }).createIndex("workspaceId", "workspaceId", { unique: false });
      };
      open.onsuccess = () => {
        open.result.close();
        resolve();
      };
      open.onerror = () => reject(open.error);
    });
    const store = new SessionStore(idb, { secrets: () => ["sk-VERY-SECRET-1"] });
    const { s } = sessionWith([{ text: "hi" }]);
    await s.run("hello");
    await store.save(s.toJSON());
    await store.saveAttachment(s.id, "team:call-1", { status: "done", note: "used sk-VERY-SECRET-1" });
    await store.saveAttachment(s.id, "team:call-2", { status: "pending" });
    await store.saveAttachment(s.id, "team:call-2", { status: "approved" }); // replaced, not added
    await store.saveAttachment("other-session", "team:x", { status: "pending" });
    const got = await store.attachments(s.id);
    expect(got.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: "team:call-1", value: { status: "done", note: "used [redacted]" } },
      { key: "team:call-2", value: { status: "approved" } },
    ]);
    await store.delete(s.id);
    expect(await store.attachments(s.id)).toEqual([]);
    expect(await store.attachments("other-session")).toHaveLength(1);
  });
});
