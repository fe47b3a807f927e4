/**
 * Child sessions (sub-agents, team members) found by their parent's call: the live session while
 * it runs, saved as it goes, and read back from the store after a reload.
 */
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession } from "../../lib/agent/session";
import { ChildSessions, SessionStore } from "../../lib/sessions";
import { cleanupList, deps, scripted, tempWs } from "../agent/helpers";

const cleanups = cleanupList();
afterEach(() => cleanups.run());

describe("child sessions", () => {
  it("finds a call's child live, saves it as it runs, and finds it again from the store after a reload", async () => {
    const idb = new IDBFactory();
    const ws = tempWs({ "a.txt": "hello\n" });
    cleanups.add(ws.cleanup);
    const d = deps(ws);
    const hydrate = (data: Parameters<typeof AgentSession.fromJSON>[0]) => AgentSession.fromJSON(data, { deps: d, model: scripted([]) });
    const store = new SessionStore(idb);
    const kids = new ChildSessions(store, "ws1", { hydrate });
    const child = new AgentSession({ deps: d, model: scripted([{ text: "CHILD-ANSWER", delayMs: 20 }]), workspaceId: "ws1", title: "Explore", parent: { sessionId: "p1", toolCallId: "call-1" } });
    let notified = 0;
    kids.subscribe(() => notified++);
    kids.adopt(child);
    expect(notified).toBe(1);
    expect(kids.liveFor("p1", "call-1")).toEqual([child]);
    expect(kids.liveFor("p1", "call-2")).toEqual([]);
    expect(await kids.forCall("p1", "call-1")).toBe(child);
    // Listed under its parent before it ran a step.
    await kids.flush();
    expect((await store.childrenOf("ws1", "p1")).map((m) => m.id)).toEqual([child.id]);

    await child.run("look");
    await kids.dispose();

    // A reload: a new store and registry over the same database.
    const after = new ChildSessions(new SessionStore(idb), "ws1", { hydrate });
    const back = await after.forCall("p1", "call-1");
    expect(back).toBeDefined();
    expect(back).not.toBe(child);
    expect(back!.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(back!.state.messages[1])).toContain("CHILD-ANSWER");
    expect(await after.forCall("p1", "call-2")).toBeUndefined();
    expect((await after.byId(child.id))!.id).toBe(child.id);
  });

  it("refuses a session without a parent, and never hands out a top-level session as a child", async () => {
    const idb = new IDBFactory();
    const ws = tempWs({});
    cleanups.add(ws.cleanup);
    const d = deps(ws);
    const store = new SessionStore(idb);
    const kids = new ChildSessions(store, "ws1", { hydrate: (data) => AgentSession.fromJSON(data, { deps: d, model: scripted([]) }) });
    const top = new AgentSession({ deps: d, model: scripted([]), workspaceId: "ws1" });
    expect(() => kids.adopt(top)).toThrow(/no parent/);
    await store.save(top.toJSON());
    expect(await kids.byId(top.id)).toBeUndefined();
  });
});
