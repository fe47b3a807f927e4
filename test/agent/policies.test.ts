/**
 * The session's own policies (budget, loop guard, checkpoint wait) run at the hook points like a
 * plugin's, after the plugins'; and the session's small surface.
 */
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../lib/agent/session";
import { HookRegistry } from "../../lib/agent/hooks";
import { deps, harnessPerTest, nextEvent, scripted, tempWs } from "./helpers";

const { h, cleanups } = harnessPerTest();

describe("the session's policies are hooks after the plugins'", () => {
  it("the loop guard asks only after every plugin's beforeTool passed the call", async () => {
    const call = { name: "list_files", args: { path: "" } };
    const t = h([{ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { text: "done" }]);
    const order: string[] = [];
    t.session.hooks.register({ name: "plugin", hooks: { beforeTool: () => void order.push("plugin") } });
    t.session.subscribe((e) => {
      if (e.type === "approval-requested" && e.kind === "loop-guard") {
        order.push("loop-guard");
        t.session.approve(e.approvalId);
      }
    });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(order).toEqual(["plugin", "plugin", "plugin", "loop-guard"]);
  });

  it("a plugin that skips a call is never overruled by the loop guard (the guard is not asked)", async () => {
    const call = { name: "list_files", args: { path: "" } };
    const t = h([{ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { text: "done" }]);
    let n = 0;
    t.session.hooks.register({ name: "third-refused", hooks: { beforeTool: () => (++n === 3 ? { skip: true, reason: "enough listing" } : undefined) } });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(t.of("approval-requested")).toHaveLength(0);
    expect(t.of("tool-call-finished").map((e) => e.status)).toEqual(["ok", "ok", "blocked"]);
  });

  it("a mutating call waits for the run's checkpoint before it is planned and asked about", async () => {
    const edit = { name: "editor", args: { command: "str_replace", path: "a.ts", old_str: "const a = 1;", new_str: "const a = 2;" } };
    const t = h([{ toolCalls: [edit] }, { text: "done" }], { files: { "a.ts": "const a = 1;\n" }, checkpointDelayMs: 40 });
    const asked = nextEvent(t.session, "approval-requested");
    const run = t.session.run("write");
    const e = await asked;
    // The checkpoint landed before the user was asked: nothing the user approves can run without it.
    expect(t.deps.cp.created[0]!.doneAt).toBeDefined();
    expect(t.of("checkpoint-created")).toHaveLength(1);
    t.session.approve(e.approvalId);
    expect((await run).status).toBe("completed");
    expect(t.ws.read("a.ts")).toBe("const a = 2;\n");
  });

  it("a beforeModel hook can lower the output tokens (never raise them), as the budget does", async () => {
    const t = h([{ text: "a" }, { text: "b" }]);
    t.session.hooks.register({ name: "cap", hooks: { beforeModel: ({ request }) => ({ maxOutputTokens: Math.min(request.maxOutputTokens, 1000) }) } });
    await t.session.run("one");
    expect(t.model.calls[0]!.maxOutputTokens).toBe(1000);
    const raise = new HookRegistry();
    const u = h([{ text: "a" }], { session: { hooks: raise, maxOutputTokens: 500 } });
    raise.register({ name: "raise", hooks: { beforeModel: () => ({ maxOutputTokens: 100_000 }) } });
    await u.session.run("one");
    expect(u.model.calls[0]!.maxOutputTokens).toBe(500);
  });

  it("the request a beforeModel hook sees carries the model, the input estimate and the output tokens", async () => {
    const t = h([{ text: "a" }], { session: { maxOutputTokens: 777 } });
    const seen: { modelId: string; estimatedInputTokens: number; maxOutputTokens: number }[] = [];
    t.session.hooks.register({ name: "look", hooks: { beforeModel: ({ request }) => void seen.push({ modelId: request.modelId, estimatedInputTokens: request.estimatedInputTokens, maxOutputTokens: request.maxOutputTokens }) } });
    await t.session.run("hello there");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.modelId).toBe("test-model");
    expect(seen[0]!.maxOutputTokens).toBe(777);
    expect(seen[0]!.estimatedInputTokens).toBeGreaterThan(10);
  });

  it("a hook's outcome words the refused call's result (skipped, its own text)", async () => {
    const t = h([{ toolCalls: [{ name: "list_files", args: {} }] }, { text: "never" }]);
    t.session.hooks.register({ name: "quiet", hooks: { beforeTool: () => ({ stop: true, reason: "quiet hours", outcome: { status: "skipped", output: "Not now.", summary: "Quiet hours" } }) } });
    const r = await t.session.run("go");
    expect(r).toMatchObject({ status: "aborted", reason: "quiet hours" });
    const f = t.of("tool-call-finished")[0]!;
    expect(f).toMatchObject({ status: "skipped", summary: "Quiet hours", output: "Not now.", blockedByPolicy: false });
  });

  it("the policies belong to each session, not to the registry it shares with plugins", async () => {
    const shared = new HookRegistry();
    const call = { name: "list_files", args: { path: "" } };
    const script = [{ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { text: "done" }];
    const a = h(script, { session: { hooks: shared }, approveAll: true });
    const b = h(script, { session: { hooks: shared }, approveAll: true });
    expect((await a.session.run("a")).status).toBe("completed");
    expect((await b.session.run("b")).status).toBe("completed");
    expect(a.of("approval-requested").filter((e) => e.kind === "loop-guard")).toHaveLength(1);
    expect(b.of("approval-requested").filter((e) => e.kind === "loop-guard")).toHaveLength(1);
    expect(shared.list()).toHaveLength(0);
  });
});

describe("the surface", () => {
  it("stays small: at most 15 public methods, state read through `state`", () => {
    const ws = tempWs();
    cleanups.add(ws.cleanup);
    const s = new AgentSession({ deps: deps(ws), model: scripted([{ text: "x" }]), workspaceId: "w" });
    const methods = Object.getOwnPropertyNames(AgentSession.prototype).filter((n) => n !== "constructor" && typeof Object.getOwnPropertyDescriptor(AgentSession.prototype, n)!.value === "function");
    const statics = Object.getOwnPropertyNames(AgentSession).filter((n) => typeof (AgentSession as unknown as Record<string, unknown>)[n] === "function");
    expect(methods.length + statics.length).toBeLessThanOrEqual(15);
    expect(s.state).toMatchObject({ mode: "act", modeLabel: "Act", running: false, messages: [], title: "" });
  });
});
