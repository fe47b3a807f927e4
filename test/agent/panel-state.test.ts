/**
 * The agent panel's reducer and store, over the events of real sessions (the scripted model, the
 * real loop): after every event, what the store says the run waits for is what the session says.
 */
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../lib/agent/events";
import { initialPanelState, isBusy, reducePanel, type PanelState } from "../../lib/agent/panel-state";
import { PanelStore } from "../../lib/agent/panel-store";
import type { AgentSession } from "../../lib/agent/session";
import { harnessPerTest, nextEvent } from "./helpers";

const { h } = harnessPerTest();

const edit = { name: "editor", args: { command: "str_replace", path: "a.ts", old_str: "const a = 1;", new_str: "const a = 2;" } };

/**
 * A store following `session`, with the state it held at each event and, once the event's call
 * stack has unwound (when a view would render), the state next to what the session reports.
 */
function follow(session: AgentSession) {
  const store = new PanelStore();
  store.follow(session);
  const trace: { event: AgentEvent; state: PanelState }[] = [];
  const settled: { event: AgentEvent; state: PanelState; running: boolean; approvals: string[]; questions: string[] }[] = [];
  session.subscribe((event) => {
    trace.push({ event, state: store.getSnapshot() });
    queueMicrotask(() => {
      const p = session.state.pending;
      settled.push({
        event,
        state: store.getSnapshot(),
        running: session.state.running,
        approvals: p.approvals.map((e) => (e.type === "approval-requested" ? e.approvalId : "")),
        questions: p.questions.map((e) => (e.type === "question-asked" ? e.questionId : "")),
      });
    });
  });
  return { store, trace, settled };
}

/** Whenever a view could render, the store agrees with the session on what the run waits for. */
function expectInStep(f: ReturnType<typeof follow>) {
  expect(f.settled.length).toBe(f.trace.length);
  for (const t of f.settled) {
    expect(t.state.pending.approvals.map((e) => e.approvalId), `approvals after ${t.event.type}`).toEqual(t.approvals);
    expect(t.state.pending.questions.map((e) => e.questionId), `questions after ${t.event.type}`).toEqual(t.questions);
    expect(isBusy(t.state.phase), `busy after ${t.event.type}`).toBe(t.running);
  }
}

const kinds = (trace: { state: PanelState }[]) => trace.map((t) => t.state.phase.kind).filter((k, i, a) => k !== a[i - 1]);

describe("the agent panel's state", () => {
  it("streams text by message, and drops it when the message is added", async () => {
    const t = h([{ text: "Hello there, reader." }]);
    const f = follow(t.session);
    const { store, trace } = f;
    await t.session.run("hi");
    expectInStep(f);
    const deltas = trace.filter((x) => x.event.type === "text-delta");
    expect(deltas.length).toBeGreaterThan(1); // the scripted model streams in chunks of 5
    const id = (deltas[0]!.event as Extract<AgentEvent, { type: "text-delta" }>).messageId;
    expect(deltas.map((d) => d.state.streaming.get(id))).toEqual(deltas.map((_, i) => "Hello there, reader.".slice(0, 5 * (i + 1))));
    const added = trace.find((x) => x.event.type === "message-added" && x.event.message.id === id)!;
    expect(added.state.streaming.has(id)).toBe(false);
    expect(kinds(trace)).toEqual(["idle", "running", "idle"]);
    expect(store.getSnapshot().phase).toEqual({ kind: "idle" });
    // The run's checkpoint is the one notice.
    expect(store.getSnapshot().notices.map((n) => n.type)).toEqual(["checkpoint-created"]);
  });

  it("an edit waits for approval: awaitingApproval with the request, then running, then idle", async () => {
    const t = h([{ toolCalls: [edit] }, { text: "done" }], { files: { "a.ts": "const a = 1;\n" } });
    const f = follow(t.session);
    const { store, trace } = f;
    const asked = nextEvent(t.session, "approval-requested");
    const run = t.session.run("bump a");
    const e = await asked;
    const waiting = store.getSnapshot();
    expect(waiting.phase.kind).toBe("awaitingApproval");
    expect(waiting.phase.kind === "awaitingApproval" && waiting.phase.approvals.map((a) => a.approvalId)).toEqual([e.approvalId]);
    expect(waiting.runningTools.has(e.toolCallId)).toBe(true);
    t.session.approve(e.approvalId);
    await run;
    expectInStep(f);
    expect(kinds(trace)).toEqual(["idle", "running", "awaitingApproval", "running", "idle"]);
    expect(store.getSnapshot().runningTools.size).toBe(0);
  });

  it("a question waits for an answer: awaitingAnswer, then running, then idle", async () => {
    const t = h([{ toolCalls: [{ name: "ask_question", args: { question: "Tabs or spaces?", choices: ["tabs", "spaces"] } }] }, { text: "Spaces it is." }]);
    const f = follow(t.session);
    const { store, trace } = f;
    const asked = nextEvent(t.session, "question-asked");
    const run = t.session.run("format it");
    const q = await asked;
    const phase = store.getSnapshot().phase;
    expect(phase.kind === "awaitingAnswer" && phase.questions.map((x) => x.question)).toEqual(["Tabs or spaces?"]);
    t.session.answer(q.questionId, "spaces");
    await run;
    expectInStep(f);
    expect(kinds(trace)).toEqual(["idle", "running", "awaitingAnswer", "running", "idle"]);
  });

  it("a call refused by policy shows as blocked at once, while its batch still waits on another call", async () => {
    const t = h([{ toolCalls: [{ name: "run_commands", args: { commands: "cat .env" } }, edit] }, { text: "never" }], { files: { "a.ts": "const a = 1;\n" } });
    t.session.hooks.register({ name: "env-blocker", hooks: { beforeTool: ({ input }) => (JSON.stringify(input).includes(".env") ? { skip: true, reason: "Reading .env is not permitted" } : undefined) } });
    const f = follow(t.session);
    const asked = nextEvent(t.session, "approval-requested");
    const run = t.session.run("go");
    const approval = await asked;
    const now = f.store.getSnapshot();
    const blockedId = t.of("tool-call-finished")[0]!.toolCallId;
    // The tool message of the batch is not in the conversation yet...
    expect(t.session.state.messages.some((m) => m.role === "tool")).toBe(false);
    // ...but the panel already knows how the refused call ended.
    expect(now.finishedTools.get(blockedId)).toMatchObject({
      toolName: "run_commands",
      output: { type: "error-text", value: "Reading .env is not permitted" },
      ui: { status: "blocked", blockedByPolicy: true },
    });
    expect(now.phase.kind).toBe("awaitingApproval");
    t.session.reject(approval.approvalId);
    await run;
    expectInStep(f);
    expect(f.store.getSnapshot().finishedTools.size).toBe(0);
  });

  it("stopping while a question waits drops the question (the session sends no event for it)", async () => {
    const t = h([{ toolCalls: [{ name: "ask_question", args: { question: "Which one?" } }] }, { text: "never" }]);
    const f = follow(t.session);
    const { store, trace } = f;
    const asked = nextEvent(t.session, "question-asked");
    const run = t.session.run("go");
    await asked;
    t.session.stop();
    const r = await run;
    expect(r.status).toBe("aborted");
    expectInStep(f);
    const finished = trace.find((x) => x.event.type === "tool-call-finished")!;
    expect(finished.state.pending.questions).toEqual([]);
    expect(finished.state.phase.kind).toBe("running");
    expect(store.getSnapshot().phase.kind).toBe("idle");
  });

  it("stopping while an approval waits settles it, and the run ends idle", async () => {
    const t = h([{ toolCalls: [edit] }, { text: "never" }], { files: { "a.ts": "const a = 1;\n" } });
    const f = follow(t.session);
    const { store, trace } = f;
    const asked = nextEvent(t.session, "approval-requested");
    const run = t.session.run("bump a");
    await asked;
    t.session.stop();
    await run;
    expectInStep(f);
    expect(kinds(trace)).toEqual(["idle", "running", "awaitingApproval", "running", "idle"]);
    expect(store.getSnapshot().pending).toEqual({ approvals: [], questions: [] });
  });

  it("a retry and a fatal error are notices of their run; the next run starts with none", async () => {
    const t = h([{ error: { status: 503 } }, { error: { status: 401, message: "invalid x-api-key" } }, { text: "ok now" }]);
    const f = follow(t.session);
    const { store, trace } = f;
    const r = await t.session.run("first");
    expect(r.status).toBe("failed");
    const notices = store.getSnapshot().notices;
    expect(notices.map((n) => n.type)).toEqual(expect.arrayContaining(["retry", "error"]));
    expect(notices.find((n) => n.type === "error")).toMatchObject({ fatal: true, code: "auth" });
    await t.session.run("second");
    expectInStep(f);
    expect(store.getSnapshot().notices.map((n) => n.type)).toEqual(["checkpoint-created"]);
  });

  it("tool rows run between their start and their end; an approval answered from inside its request event is not left pending", async () => {
    const t = h([{ toolCalls: [{ name: "run_commands", args: { commands: "ls" } }, { name: "run_commands", args: { commands: "pwd" } }] }, { text: "done" }], { approveAll: true });
    // approveAll answers in a listener registered before the store's: the store sees the answer first.
    const f = follow(t.session);
    const { trace } = f;
    await t.session.run("look around");
    expect(t.of("approval-resolved")).toHaveLength(2);
    expectInStep(f);
    for (const x of trace) {
      if (x.event.type === "tool-call-started") expect(x.state.runningTools.get(x.event.toolCallId)).toBe(x.event);
      if (x.event.type === "tool-call-finished") expect(x.state.runningTools.has(x.event.toolCallId)).toBe(false);
    }
    expect(trace.filter((x) => x.event.type === "tool-call-started")).toHaveLength(2);
  });

  it("a store that starts following mid-run starts from what the session waits for", async () => {
    const t = h([{ toolCalls: [edit] }, { text: "done" }], { files: { "a.ts": "const a = 1;\n" } });
    const asked = nextEvent(t.session, "approval-requested");
    const run = t.session.run("bump a");
    const e = await asked;
    const store = new PanelStore();
    store.follow(t.session);
    const phase = store.getSnapshot().phase;
    expect(phase).toMatchObject({ kind: "awaitingApproval", runId: e.runId });
    t.session.approve(e.approvalId);
    await run;
    expect(store.getSnapshot().phase.kind).toBe("idle");
  });

  it("the snapshot keeps its identity between events, changes on each, and follows one session at a time", async () => {
    const a = h([{ text: "from a" }]);
    const b = h([{ text: "from b" }]);
    const store = new PanelStore();
    let notified = 0;
    store.subscribe(() => notified++);
    store.follow(a.session);
    const before = store.getSnapshot();
    expect(store.getSnapshot()).toBe(before);
    await a.session.run("go");
    expect(store.getSnapshot()).not.toBe(before);
    expect(store.getSnapshot().revision).toBe(a.events.length);
    const stop = store.follow(b.session);
    const atB = store.getSnapshot().revision;
    expect(atB).toBe(0);
    await a.session.run("again"); // no longer followed
    expect(store.getSnapshot().revision).toBe(0);
    await b.session.run("go");
    expect(store.getSnapshot().revision).toBe(b.events.length);
    stop();
    const n = notified;
    await b.session.run("once more");
    expect(notified).toBe(n);
  });

  it("the reducer never mutates the state it is given", async () => {
    const t = h([{ text: "streamed text" }, { toolCalls: [{ name: "ask_question", args: { question: "Sure?" } }] }, { text: "ok" }]);
    await t.session.run("one");
    const asked = nextEvent(t.session, "question-asked");
    const run = t.session.run("two");
    t.session.answer((await asked).questionId, "yes");
    await run;
    let state = initialPanelState();
    for (const e of t.events) {
      const frozen = JSON.stringify({ ...state, streaming: [...state.streaming], runningTools: [...state.runningTools] });
      const next = reducePanel(state, e);
      expect(JSON.stringify({ ...state, streaming: [...state.streaming], runningTools: [...state.runningTools] })).toBe(frozen);
      expect(next).not.toBe(state);
      state = next;
    }
    expect(state.phase.kind).toBe("idle");
  });
});
