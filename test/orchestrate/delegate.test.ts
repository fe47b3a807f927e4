/**
 * `delegate` in Agent mode: a read-only explorer child by default, its final answer returned to
 * the parent with its session id; several delegate calls in one message run at the same time;
 * a writing child is asked about like an edit; read-only modes do not offer it.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../lib/agent/events";
import { createModedSession } from "../../lib/modes";
import { createDelegateTool, followPluginHooks, followPluginHooksForRun, modedChildFactory, type ChildSpec } from "../../lib/orchestrate";
import type { ScriptedTurn } from "../../lib/providers/scripted";
import { cleanupList, deps, scripted, tempWs, toolResultsSent } from "../agent/helpers";

const cleanups = cleanupList();
afterEach(() => cleanups.run());

function setup(parentTurns: ScriptedTurn[], childTurns: (spec: ChildSpec) => ScriptedTurn[], opts: { mode?: "act" | "plan"; autoEdit?: boolean } = {}) {
  const ws = tempWs({ "src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 2;\n" });
  cleanups.add(ws.cleanup);
  const d = deps(ws);
  const spans = new Map<string, { start: number; end?: number }>();
  const specs: ChildSpec[] = [];
  const createChild = modedChildFactory({
    deps: d,
    workspaceId: "w",
    approvals: { autoApprove: { edit: true } },
    model: (spec) => {
      specs.push(spec);
      return scripted(childTurns(spec));
    },
    setup: (session) =>
      session.subscribe((e) => {
        if (e.type === "run-started") spans.set(session.id, { start: performance.now() });
        if (e.type === "run-finished") spans.get(session.id)!.end = performance.now();
      }),
  });
  const model = scripted(parentTurns);
  const parent = createModedSession({ deps: d, model, workspaceId: "w", mode: opts.mode ?? "act", approvals: { autoApprove: { edit: opts.autoEdit ?? false } } });
  parent.extensions.addTool(createDelegateTool({ createChild, budgetLeft: () => 0.25 }));
  const events: AgentEvent[] = [];
  parent.subscribe((e) => events.push(e));
  const finished = () => events.filter((e): e is Extract<AgentEvent, { type: "tool-call-finished" }> => e.type === "tool-call-finished");
  return { parent, model, events, finished, spans, specs, ws, d };
}

describe("delegate", () => {
  it("two explorers in one message run at the same time and each answer comes back to the parent", async () => {
    const h = setup(
      [
        {
          toolCalls: [
            { name: "delegate", args: { brief: "What does src/a.ts export?", title: "explore a" } },
            { name: "delegate", args: { brief: "What does src/b.ts export?", title: "explore b" } },
          ],
        },
        { text: "a exports a, b exports b." },
      ],
      (spec) => [
        { toolCalls: [{ name: "read_files", args: { files: [{ path: spec.title.endsWith("a") ? "src/a.ts" : "src/b.ts" }] } }], delayMs: 4 },
        { text: `FOUND(${spec.title})`, delayMs: 4 },
      ],
    );
    const r = await h.parent.run("Find out what a and b export");
    expect(r.status).toBe("completed");
    expect(h.finished().map((e) => `${e.toolName}:${e.status}`)).toEqual(["delegate:ok", "delegate:ok"]);
    expect(toolResultsSent(h.model, 1)).toEqual(["FOUND(explore a)", "FOUND(explore b)"]);
    // No approval was asked: an explorer is read-only.
    expect(h.events.some((e) => e.type === "approval-requested")).toBe(false);
    // The children overlapped in time.
    const [a, b] = [...h.spans.values()];
    expect(b!.start).toBeLessThan(a!.end!);
    expect(a!.start).toBeLessThan(b!.end!);
    // Explorers: read-only mode, read tools; the parent's remaining budget; the transcript's session id in the row.
    expect(h.specs.map((s) => [s.mode, s.tools.join(","), s.budgetUsd])).toEqual([
      ["plan", "read_files,list_files,search_codebase,run_commands", 0.25],
      ["plan", "read_files,list_files,search_codebase,run_commands", 0.25],
    ]);
    // Finished in whichever order the children ended: compare as a set.
    const ids = h.finished().map((e) => e.data?.childSessionId as string);
    expect([...ids].sort()).toEqual([expect.stringMatching(new RegExp(`^${h.parent.id}d1[a-z0-9]{4}$`)), expect.stringMatching(new RegExp(`^${h.parent.id}d2[a-z0-9]{4}$`))]);
    // Each child run was checkpointed under its own session.
    for (const id of ids) expect(h.d.cp.created.some((c) => c.sessionId === id)).toBe(true);
  });

  it("a writing child is asked about like an edit, and writes once approved", async () => {
    const h = setup(
      [{ toolCalls: [{ name: "delegate", args: { brief: "Create NOTES.md saying hi", write: true } }] }, { text: "done" }],
      () => [{ toolCalls: [{ name: "editor", args: { command: "create", path: "NOTES.md", file_text: "hi\n" } }] }, { text: "Created NOTES.md" }],
    );
    h.parent.subscribe((e) => {
      if (e.type === "approval-requested") h.parent.approve(e.approvalId);
    });
    await h.parent.run("delegate a write");
    const asked = h.events.filter((e) => e.type === "approval-requested");
    expect(asked.map((e) => (e as { toolName: string; category: string }).toolName + ":" + (e as { category: string }).category)).toEqual(["delegate:edit"]);
    expect(h.specs[0]!.mode).toBe("act");
    expect(h.ws.read("NOTES.md")).toBe("hi\n");
    expect(toolResultsSent(h.model, 1)).toEqual(["Created NOTES.md"]);
  });

  it("is not offered in Plan mode", async () => {
    const h = setup([{ toolCalls: [{ name: "delegate", args: { brief: "x" } }] }, { text: "No plan is needed." }, { text: "No plan is needed." }], () => [{ text: "never" }], { mode: "plan" });
    await h.parent.run("try");
    expect((h.model.calls[0]!.tools ?? []).map((t) => t.name)).not.toContain("delegate");
    expect(h.finished()[0]!.status).toBe("blocked");
    expect(h.specs).toEqual([]);
  });
});

describe("delegate: the parent pays and the parent's cap holds", () => {
  // $ per 1M tokens: input only, so a request's least cost is its input (no output floor to reason about).
  const prices = { "test-model": { input: 10, output: 0 } };

  function paying(parentBudget: number | undefined, childTurns: ScriptedTurn[]) {
    const ws = tempWs({ "src/a.ts": "export const a = 1;\n" });
    cleanups.add(ws.cleanup);
    const d = deps(ws);
    const children: import("../../lib/agent/session").AgentSession[] = [];
    const createChild = modedChildFactory({ deps: d, workspaceId: "w", prices, model: () => scripted(childTurns), setup: (s) => void children.push(s) });
    const parentModel = scripted([
      {
        toolCalls: [
          { name: "delegate", args: { brief: "Look at a", title: "explore a" } },
          { name: "delegate", args: { brief: "Look at a again", title: "explore b" } },
        ],
        usage: { inputTokens: 2000, outputTokens: 1 },
      },
      { text: "Both answered.", usage: { inputTokens: 2000, outputTokens: 1 } },
    ]);
    const parent = createModedSession({ deps: d, model: parentModel, workspaceId: "w", prices, ...(parentBudget === undefined ? {} : { budgetUsd: parentBudget }) }, undefined, { delegate: { createChild } });
    const events: AgentEvent[] = [];
    parent.subscribe((e) => events.push(e));
    return { parent, children, events };
  }

  it("charges each sub-agent's requests to the parent's meter as they are made, and links the child to the call", async () => {
    const h = paying(undefined, [
      { toolCalls: [{ name: "read_files", args: { files: [{ path: "src/a.ts" }] } }], usage: { inputTokens: 10_000, outputTokens: 5 }, delayMs: 3 },
      { text: "a is 1", usage: { inputTokens: 15_000, outputTokens: 5 }, delayMs: 3 },
    ]);
    const r = await h.parent.run("Ask two sub-agents");
    expect(r.status).toBe("completed");
    expect(h.children).toHaveLength(2);
    // Each child: $0.10 + $0.15; the parent's own two requests: $0.02 each.
    for (const c of h.children) expect(c.state.usage.costUsd).toBeCloseTo(0.25, 6);
    expect(h.parent.state.usage.costUsd).toBeCloseTo(0.04 + 0.5, 6);
    expect(h.parent.state.usage.inputTokens).toBe(4000 + 2 * 25_000);
    // The meter moved while the children ran (a usage event per child request, inside the parent's run).
    const charged = h.events.filter((e) => e.type === "usage" && (e as { step: { inputTokens: number } }).step.inputTokens >= 10_000);
    expect(charged).toHaveLength(4);
    const calls = h.events.filter((e): e is Extract<AgentEvent, { type: "tool-call-finished" }> => e.type === "tool-call-finished");
    expect(h.children.map((c) => c.parent)).toEqual(calls.map((c) => ({ sessionId: h.parent.id, toolCallId: expect.any(String) })));
    expect(new Set(h.children.map((c) => c.parent!.toolCallId))).toEqual(new Set(calls.map((c) => c.toolCallId)));
  });

  it("stops every sub-agent once together they use up the parent's budget, and the parent stops there too", async () => {
    // Each child alone stays under its own cap for three requests; together they pass the parent's at the third.
    const turn = (n: number): ScriptedTurn => ({ toolCalls: [{ name: "list_files", args: { path: "src" } }], usage: { inputTokens: 20_000, outputTokens: 1 }, delayMs: 5 + n });
    const h = paying(0.5, [turn(1), turn(2), turn(3), { text: "never reached", usage: { inputTokens: 20_000, outputTokens: 1 } }]);
    const r = await h.parent.run("Ask two sub-agents");
    const calls = h.events.filter((e): e is Extract<AgentEvent, { type: "tool-call-finished" }> => e.type === "tool-call-finished" && e.toolName === "delegate");
    expect(calls).toHaveLength(2);
    for (const c of calls) expect(c.status).toBe("error");
    const sent = h.parent.state.messages.flatMap((m) => (m.role === "tool" ? m.content : [])).map((c) => JSON.stringify(c.output));
    expect(sent.every((t) => t.includes("budget is used up"))).toBe(true);
    // $0.02 of its own, then $0.20 per child request: stopped at the third ($0.62), the other at its next ($0.82) at most.
    const spent = h.parent.state.usage.costUsd!;
    expect(spent).toBeGreaterThanOrEqual(0.62 - 1e-9);
    expect(spent).toBeLessThanOrEqual(0.82 + 1e-9);
    expect(h.children.reduce((n, c) => n + c.state.usage.costUsd!, 0) + 0.02).toBeCloseTo(spent, 6);
    // The parent does not spend past its cap either: its next request is refused, as any over-budget request ends a run.
    expect(r.status).toBe("aborted");
    expect(r.reason).toMatch(/Budget reached/);
  });
});

describe("a sub-agent runs under its parent's plugin hooks", () => {
  it("a policy plugin of the parent refuses the child's call too, and leaves the child when it unloads", async () => {
    const ws = tempWs({ "src/a.ts": "export const a = 1;\n" });
    cleanups.add(ws.cleanup);
    const d = deps(ws);
    let parent!: ReturnType<typeof createModedSession>;
    const follows: (() => void)[] = [];
    const children: import("../../lib/agent/session").AgentSession[] = [];
    const createChild = modedChildFactory({
      deps: d,
      workspaceId: "w",
      model: () => scripted([{ toolCalls: [{ name: "read_files", args: { files: [{ path: "src/a.ts" }] } }] }, { text: "child done" }]),
      setup: (child) => {
        children.push(child);
        follows.push(followPluginHooks(parent.hooks, child.hooks));
      },
    });
    parent = createModedSession({ deps: d, model: scripted([{ toolCalls: [{ name: "delegate", args: { brief: "read a" } }] }, { text: "ok" }]), workspaceId: "w" }, undefined, { delegate: { createChild } });
    const offGuard = parent.hooks.register({
      name: "plugin:no-src",
      hooks: { beforeTool: ({ input }) => (JSON.stringify(input).includes("src/") ? { skip: true, reason: "The no-src plugin refuses reading src/" } : undefined) },
    });
    parent.hooks.register({ name: "parent-only", hooks: { beforeTool: () => undefined } });
    await parent.run("delegate");
    const child = children[0]!;
    const result = child.state.messages.flatMap((m) => (m.role === "tool" ? m.content : [])).find((c) => c.type === "tool-result");
    expect(JSON.stringify(result?.output)).toContain("The no-src plugin refuses reading src/");
    // Only plugin registrations are followed.
    expect(child.hooks.list().map((r) => r.name)).toEqual(["plugin:no-src"]);
    offGuard();
    expect(child.hooks.list().map((r) => r.name)).toEqual([]);
    follows.forEach((f) => f());
  });

  it("for a child's one run: followed while it runs, let go when it ends", async () => {
    const ws = tempWs({ "a.txt": "a\n" });
    cleanups.add(ws.cleanup);
    const d = deps(ws);
    const parent = createModedSession({ deps: d, model: scripted([]), workspaceId: "w" });
    parent.hooks.register({ name: "plugin:watch", hooks: { beforeTool: () => undefined } });
    const child = modedChildFactory({ deps: d, workspaceId: "w", model: () => scripted([{ text: "done" }]) })({ id: "c1", key: "k", title: "c", mode: "plan", tools: ["read_files"] });
    followPluginHooksForRun(parent, child);
    const during: string[][] = [];
    child.subscribe((e) => {
      if (e.type === "run-started") during.push(child.hooks.list().map((r) => r.name));
    });
    await child.run("go");
    expect(during).toEqual([["plugin:watch"]]);
    expect(child.hooks.list()).toEqual([]);
    parent.hooks.register({ name: "plugin:later", hooks: { beforeTool: () => undefined } });
    expect(child.hooks.list()).toEqual([]);
  });
});

describe("delegate wired through the session factory", () => {
  it("is offered in Act mode only when the factory is given a child factory", async () => {
    const ws = tempWs({ "a.txt": "a\n" });
    cleanups.add(ws.cleanup);
    const d = deps(ws);
    const createChild = modedChildFactory({ deps: d, workspaceId: "w", model: () => scripted([{ text: "child answer" }]) });
    const withIt = createModedSession({ deps: d, model: scripted([{ toolCalls: [{ name: "delegate", args: { brief: "look" } }] }, { text: "ok" }]), workspaceId: "w" }, undefined, { delegate: { createChild } });
    const without = createModedSession({ deps: d, model: scripted([{ text: "ok" }]), workspaceId: "w" });
    expect(withIt.extensions.surfaceTools.map((t) => t.name)).toContain("delegate");
    expect(without.extensions.surfaceTools.map((t) => t.name)).not.toContain("delegate");
    await withIt.run("delegate it");
    const tool = withIt.state.messages.flatMap((m) => (m.role === "tool" ? m.content : [])).find((c) => c.type === "tool-result");
    expect(JSON.stringify(tool?.output)).toContain("child answer");
  });
});
