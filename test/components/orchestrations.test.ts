/**
 * The panel's Orchestrate controller (components/orchestrate/orchestrations.ts) with real moded
 * sessions and scripted models: a proposal waits until approve(); approve() runs the team and
 * the synthesis reaches the parent; reject() settles it and words the feedback for the agent;
 * a factory that fails leaves the proposal pending; a plan runs as a team under its card's id.
 */
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionStore } from "../../lib/sessions";
import { createModedSession } from "../../lib/modes";
import { DEFAULT_ORCHESTRATION_CAP, INTERRUPTED_REASON, modedChildFactory, type Proposal } from "../../lib/orchestrate";
import { Orchestrations } from "../../components/orchestrate/orchestrations";
import { taskDepths } from "../../components/orchestrate/task-depth";
import { cleanupList, deps, scripted, tempWs } from "../agent/helpers";

const cleanups = cleanupList();
afterEach(() => cleanups.run());

const proposal: Proposal = {
  goal: "Explain the greeting",
  roles: [{ name: "explorer", brief: "Report facts.", mode: "plan", tools: ["read_files"] }],
  tasks: [
    { key: "a", title: "A", description: "Look at a.", role: "explorer", dependsOn: [], acceptance: "Reported." },
    { key: "b", title: "B", description: "Look at b.", role: "explorer", dependsOn: ["a"], acceptance: "Reported." },
  ],
  synthesis: { role: "explorer", inputs: ["a", "b"], output: "Merged." },
  budget: { tokens: 100_000, usd: 1, maxParallel: 1, wallMs: 60_000 },
};

function setup(opts: { failFactory?: boolean } = {}) {
  const ws = tempWs({ "src/greet.ts": "export const greet = () => 'Hello';\n" });
  cleanups.add(ws.cleanup);
  const d = deps(ws);
  let ends = 0;
  const orch = new Orchestrations(
    async () => {
      if (opts.failFactory) throw new Error("no model configured");
      return modedChildFactory({ deps: d, workspaceId: "w", model: (spec) => scripted([{ text: spec.key === "synthesis" ? "SYNTHESIS done" : `report of ${spec.key}` }]) });
    },
    () => ends++,
  );
  let versions = 0;
  orch.subscribe(() => versions++);
  const parent = createModedSession(
    { deps: d, workspaceId: "w", mode: "orchestrate", model: scripted([{ toolCalls: [{ name: "propose_orchestration", args: proposal }] }, { text: "Revised." }]) },
    undefined,
    { proposals: orch.sink(), cap: () => DEFAULT_ORCHESTRATION_CAP },
  );
  const proposalId = () => {
    for (const m of parent.state.messages) if (m.role === "tool") for (const r of m.content) if (r.toolName === "propose_orchestration") return r.ui?.data?.proposalId as string;
    throw new Error("no proposal in the transcript");
  };
  const callId = () => {
    for (const m of parent.state.messages) if (m.role === "tool") for (const r of m.content) if (r.toolName === "propose_orchestration") return r.toolCallId;
    throw new Error("no proposal call");
  };
  return { orch, parent, d, proposalId, callId, versions: () => versions, ends: () => ends };
}

describe("Orchestrations (the panel's inbox and teams)", () => {
  it("holds a proposal until approve(), then runs the team and posts the synthesis to the parent", async () => {
    const h = setup();
    await h.parent.run("Explain with a team");
    const id = h.proposalId();
    expect(h.orch.status(id)).toBe("pending");
    expect(h.orch.teamFor(h.callId())).toBeUndefined();
    const before = h.versions();
    const team = await h.orch.approve(h.parent, id);
    expect(h.orch.status(id)).toBe("approved");
    expect(h.orch.teamFor(h.callId())).toBe(team);
    expect(h.versions()).toBeGreaterThan(before);
    const final = await team.start();
    expect(final.status).toBe("done");
    expect(final.tasks.map((t) => t.state)).toEqual(["done", "done"]);
    const notices = h.parent.state.messages.filter((m) => m.role === "user" && m.kind === "notice").map((m) => JSON.stringify(m.content));
    expect(notices.some((n) => n.includes("The user approved the team proposal: 2 tasks"))).toBe(true);
    expect(notices.at(-1)).toContain("SYNTHESIS done");
    expect(h.ends()).toBe(1);
    // The whole orchestration is undone in one step: to the earliest checkpoint of any member.
    const first = team.firstCheckpoint()!;
    expect(first.ref).toBe(`refs/tabula/checkpoints/${id}t1/1`);
    const restored = await h.orch.restoreBefore(h.parent, team);
    expect(h.d.cp.restored.map((r) => r.ref)).toEqual([first.ref]);
    expect(restored).toEqual({ txid: "tx1", changed: 1 });
    expect(h.ends()).toBe(2);
    // An answered proposal cannot be answered again.
    expect(() => h.orch.reject(id, "late")).toThrow(/approved, not pending/);
  });

  it("reject() settles the proposal and words the feedback for the agent; nothing runs", async () => {
    const h = setup();
    await h.parent.run("Explain with a team");
    const id = h.proposalId();
    const notice = h.orch.reject(id, "  one task only ");
    expect(notice).toContain("Their feedback: one task only");
    expect(h.orch.status(id)).toBe("rejected");
    expect(h.orch.feedback(id)).toBe("one task only");
    expect(h.orch.teamFor(h.callId())).toBeUndefined();
    await expect(h.orch.approve(h.parent, id)).rejects.toThrow(/rejected, not pending/);
  });

  it("a child factory that cannot be made leaves the proposal pending", async () => {
    const h = setup({ failFactory: true });
    await h.parent.run("Explain with a team");
    const id = h.proposalId();
    await expect(h.orch.approve(h.parent, id)).rejects.toThrow("no model configured");
    expect(h.orch.status(id)).toBe("pending");
  });

  it("runs a plan as a team under its card's call id", async () => {
    const h = setup();
    const plan = { goal: "Greet", nodes: [{ key: "y", title: "Y", description: "second", dependsOn: ["x"] }, { key: "x", title: "X", description: "first", dependsOn: [] }] };
    const team = await h.orch.runPlan(h.parent, "plan-call-1", plan);
    expect(h.orch.teamFor("plan-call-1")).toBe(team);
    const final = await team.start();
    expect(final.tasks.map((t) => `${t.key}:${t.state}`)).toEqual(["x:done", "y:done"]);
  });
});

describe("taskDepths", () => {
  it("indents each task one level below the deepest task it depends on", () => {
    const d = taskDepths([
      { key: "c", dependsOn: ["a", "b"] },
      { key: "a", dependsOn: [] },
      { key: "b", dependsOn: ["a"] },
      { key: "d", dependsOn: [] },
    ]);
    expect(Object.fromEntries(d)).toEqual({ a: 0, b: 1, c: 2, d: 0 });
  });
  it("stops on a cycle instead of recursing forever", () => {
    const d = taskDepths([
      { key: "a", dependsOn: ["b"] },
      { key: "b", dependsOn: ["a"] },
    ]);
    expect(d.size).toBe(2);
  });
});

describe("Orchestrations across a reload (records beside the parent session)", () => {
  // A second panel over the same IndexedDB is the page after a reload: same parent data, a new inbox.
  async function reloadedPanel(h: ReturnType<typeof setupKept>) {
    await h.orch.flush();
    const orch = new Orchestrations(async () => modedChildFactory({ deps: h.d, workspaceId: "w", model: (spec) => scripted([{ text: `again ${spec.key}` }]) }), undefined, h.store);
    const parent = createModedSession({ deps: h.d, workspaceId: "w", mode: "orchestrate", model: scripted([{ text: "ok" }]) }, h.parent.toJSON(), { proposals: orch.sink(), cap: () => DEFAULT_ORCHESTRATION_CAP });
    await orch.restore(parent);
    return { orch, parent };
  }

  function setupKept(childTurns?: (key: string) => { text: string; delayMs?: number }[]) {
    const ws = tempWs({ "src/greet.ts": "export const greet = () => 'Hello';\n" });
    cleanups.add(ws.cleanup);
    const d = deps(ws);
    const store = new SessionStore(new IDBFactory());
    const orch = new Orchestrations(
      async () => modedChildFactory({ deps: d, workspaceId: "w", model: (spec) => scripted(childTurns?.(spec.key) ?? [{ text: spec.key === "synthesis" ? "SYNTHESIS done" : `report of ${spec.key}` }]) }),
      undefined,
      store,
    );
    const parent = createModedSession(
      { deps: d, workspaceId: "w", mode: "orchestrate", model: scripted([{ toolCalls: [{ name: "propose_orchestration", args: proposal }] }]) },
      undefined,
      { proposals: orch.sink(), cap: () => DEFAULT_ORCHESTRATION_CAP },
    );
    const ids = () => {
      for (const m of parent.state.messages) if (m.role === "tool") for (const r of m.content) if (r.toolName === "propose_orchestration") return { proposalId: r.ui?.data?.proposalId as string, callId: r.toolCallId };
      throw new Error("no proposal in the transcript");
    };
    return { orch, parent, d, store, ids };
  }

  it("a pending proposal is still pending after a reload, and the operator can approve it there", async () => {
    const h = setupKept();
    await h.parent.run("Explain with a team");
    const { proposalId, callId } = h.ids();
    const after = await reloadedPanel(h);
    expect(after.orch.status(proposalId)).toBe("pending");
    expect(after.orch.teamFor(callId)).toBeUndefined();
    const team = await after.orch.approve(after.parent, proposalId);
    expect((await team.start()).status).toBe("done");
    expect(after.orch.status(proposalId)).toBe("approved");
  });

  it("a rejection and its feedback, and a finished team with its costs and first checkpoint, come back as they were", async () => {
    const h = setupKept();
    await h.parent.run("Explain with a team");
    const { proposalId, callId } = h.ids();
    const team = await h.orch.approve(h.parent, proposalId);
    const final = await team.start();
    const first = team.firstCheckpoint()!;
    const after = await reloadedPanel(h);
    expect(after.orch.status(proposalId)).toBe("approved");
    const back = after.orch.teamFor(callId)!;
    expect(back.state).toEqual(JSON.parse(JSON.stringify(final)));
    expect(back.firstCheckpoint()).toEqual({ ref: first.ref, createdAt: first.createdAt });
    expect(back.session("a")).toBeUndefined(); // read from storage by session id, not live
    // Nothing was posted again: the team had ended before the reload.
    const notices = after.parent.state.messages.filter((m) => m.role === "user" && m.kind === "notice");
    expect(notices.filter((m) => JSON.stringify(m.content).includes("page was reloaded"))).toEqual([]);
    // An approved record cannot be approved again: it is not an approval the inbox issued.
    await expect(after.orch.approve(after.parent, proposalId)).rejects.toThrow(/approved, not pending/);
    // Undo the whole orchestration from the record, as from the live team.
    const r = await after.orch.restoreBefore(after.parent, back);
    expect(r.changed).toBeGreaterThanOrEqual(0);

    const h2 = setupKept();
    await h2.parent.run("Explain with a team");
    const ids2 = h2.ids();
    h2.orch.reject(ids2.proposalId, "Use one task");
    const after2 = await reloadedPanel(h2);
    expect(after2.orch.status(ids2.proposalId)).toBe("rejected");
    expect(after2.orch.feedback(ids2.proposalId)).toBe("Use one task");
  });

  it("a team the reload cut short shows as stopped, keeps what was done, and tells the parent once", async () => {
    // Task a answers at once; b hangs (its answer never completes before the "reload").
    const h = setupKept((key) => (key === "a" ? [{ text: "A-REPORT" }] : [{ text: "slow", delayMs: 60_000 }]));
    await h.parent.run("Explain with a team");
    const { proposalId, callId } = h.ids();
    const team = await h.orch.approve(h.parent, proposalId);
    void team.start();
    await vi.waitFor(() => expect(team.state.tasks.map((t) => t.state)).toEqual(["done", "running"]));
    const after = await reloadedPanel(h);
    const back = after.orch.teamFor(callId)!;
    expect(back.state.status).toBe("stopped");
    expect(back.state.tasks.map((t) => [t.key, t.state])).toEqual([["a", "done"], ["b", "failed"]]);
    expect(back.state.tasks[1]!.reason).toBe(INTERRUPTED_REASON);
    expect(back.state.synthesis.state).toBe("blocked");
    const told = () => after.parent.state.messages.filter((m) => m.role === "user" && m.kind === "notice" && JSON.stringify(m.content).includes("page was reloaded"));
    expect(told()).toHaveLength(1);
    expect(JSON.stringify(told()[0]!.content)).toContain("A-REPORT");
    // A second reload finds it settled: no second note.
    const again = await reloadedPanel({ ...h, orch: after.orch, parent: after.parent });
    expect(again.orch.teamFor(callId)!.state.status).toBe("stopped");
    expect(again.parent.state.messages.filter((m) => m.role === "user" && m.kind === "notice" && JSON.stringify(m.content).includes("page was reloaded"))).toHaveLength(1);
    team.stopAll();
  });

  it("skips a damaged record and keeps the others", async () => {
    const h = setupKept();
    await h.parent.run("Explain with a team");
    const { proposalId } = h.ids();
    await h.store.saveAttachment(h.parent.id, "orchestration:forged", { version: 1, toolCallId: "forged", proposal: { id: "x", status: "approved" } });
    const after = await reloadedPanel(h);
    expect(after.orch.status(proposalId)).toBe("pending");
    expect(after.orch.teamFor("forged")).toBeUndefined();
  });
});
