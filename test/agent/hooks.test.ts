import { describe, expect, it } from "vitest";
import { z } from "zod";
import { HookRegistry, MODE_GUARD_PRIORITY, type AgentHooks } from "../../lib/agent/hooks";
import type { AgentMode } from "../../lib/agent/types";
import { builtinTools, defineTool, type ToolDefinition } from "../../lib/tools";
import { nextEvent, toolResultsSent, harnessPerTest } from "./helpers";

const { h } = harnessPerTest();

describe("hook pipeline", () => {
  it("fires all seven points in order over one scripted run", async () => {
    const t = h(
      [
        { text: "reading", toolCalls: [{ name: "read_files", args: { files: [{ path: "a.txt" }] } }] },
        { text: "done" },
      ],
      { files: { "a.txt": "x\n" } },
    );
    const log: string[] = [];
    const eventTypes: string[] = [];
    t.session.hooks.register({
      name: "recorder",
      hooks: {
        beforeRun: ({ snapshot, prompt }) => void log.push(`beforeRun:${prompt}:${snapshot.iteration}`),
        beforeModel: ({ snapshot, request }) => void log.push(`beforeModel:${snapshot.iteration}:${request.tools.length > 0}`),
        afterModel: ({ finishReason }) => void log.push(`afterModel:${finishReason}`),
        beforeTool: ({ toolCall, input }) => void log.push(`beforeTool:${toolCall.name}:${JSON.stringify(input)}`),
        afterTool: ({ toolCall, result }) => void log.push(`afterTool:${toolCall.name}:${result.isError ? "err" : "ok"}`),
        afterRun: ({ result }) => void log.push(`afterRun:${result.status}`),
        onEvent: (e) => void eventTypes.push(e.type),
      },
    });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(log).toEqual([
      "beforeRun:go:0",
      "beforeModel:0:true",
      "afterModel:tool-calls",
      'beforeTool:read_files:{"files":[{"path":"a.txt"}]}',
      "afterTool:read_files:ok",
      "beforeModel:1:true",
      "afterModel:stop",
      "afterRun:completed",
    ]);
    // onEvent saw every event the subscribers saw.
    expect(eventTypes).toEqual(t.types());
    expect(eventTypes).toContain("run-finished");
  });

  it("orders hooks by priority, then registration order (mode guard first)", async () => {
    const t = h([{ toolCalls: [{ name: "list_files", args: {} }] }, { text: "ok" }]);
    const order: string[] = [];
    const mk = (name: string): AgentHooks => ({ beforeTool: () => void order.push(name) });
    t.session.hooks.register({ name: "plugin-a", hooks: mk("plugin-a") });
    t.session.hooks.register({ name: "plugin-b", hooks: mk("plugin-b") });
    t.session.hooks.register({ name: "mode-guard", hooks: mk("mode-guard"), priority: MODE_GUARD_PRIORITY });
    t.session.hooks.register({ name: "late", hooks: mk("late"), priority: 10 });
    await t.session.run("go");
    expect(order).toEqual(["mode-guard", "plugin-a", "plugin-b", "late"]);
  });

  it("skip: the model reads the reason, the call is recorded as a policy block, the run goes on", async () => {
    const t = h([{ toolCalls: [{ name: "run_commands", args: { commands: "cat .env" } }] }, { text: "understood" }], { approveAll: true });
    let later = 0;
    t.session.hooks.register({ name: "env-blocker", hooks: { beforeTool: ({ input }) => (JSON.stringify(input).includes(".env") ? { skip: true, reason: "Reading .env is not permitted" } : undefined) } });
    t.session.hooks.register({ name: "after", hooks: { beforeTool: () => void later++ } });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(later).toBe(0); // skip short-circuits the chain
    expect(t.deps.sh.commands).toHaveLength(0);
    expect(t.of("approval-requested")).toHaveLength(0); // never asked to approve a blocked call
    const f = t.of("tool-call-finished")[0]!;
    expect(f.status).toBe("blocked");
    expect(f.blockedByPolicy).toBe(true);
    expect(f.blockReason).toBe("Reading .env is not permitted");
    expect(toolResultsSent(t.model, 1)[0]).toBe("Reading .env is not permitted");
  });

  it("stop: the run ends with the reason", async () => {
    const t = h([{ toolCalls: [{ name: "run_commands", args: { commands: "git push" } }, { name: "list_files", args: {} }] }, { text: "never" }], { approveAll: true });
    t.session.hooks.register({ name: "protected-branch", hooks: { beforeTool: () => ({ stop: true, reason: "Blocked git push on protected branch" }) } });
    const r = await t.session.run("go");
    expect(r.status).toBe("aborted");
    expect(r.reason).toBe("Blocked git push on protected branch");
    expect(t.model.calls).toHaveLength(1);
    expect(t.deps.sh.commands).toHaveLength(0);
    expect(t.of("tool-call-finished").map((e) => e.status)).toEqual(["blocked", "skipped"]);
  });

  it("fails closed when a beforeTool hook throws or times out", async () => {
    const t = h(
      [
        { toolCalls: [{ name: "run_commands", args: { commands: "ls" } }] },
        { toolCalls: [{ name: "run_commands", args: { commands: "pwd" } }] },
        { text: "ok" },
      ],
      { approveAll: true },
    );
    let n = 0;
    t.session.hooks.register({
      name: "flaky",
      timeoutMs: 30,
      hooks: {
        beforeTool: () => {
          n++;
          if (n === 1) throw new Error("boom");
          return new Promise(() => undefined); // never settles
        },
      },
    });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(t.deps.sh.commands).toHaveLength(0);
    const f = t.of("tool-call-finished");
    expect(f.map((e) => e.status)).toEqual(["error", "error"]); // a failed check is an error, not a policy block
    expect(f.map((e) => e.blockedByPolicy)).toEqual([false, false]);
    expect(f[0]!.output).toContain('"flaky" hook failed');
    expect(f[0]!.output).toContain("boom");
    expect(f[1]!.output).toContain("timed out after 30 ms");
    expect(t.of("hook-error").map((e) => e.point)).toEqual(["beforeTool", "beforeTool"]);
  });

  it("other hooks failing are reported and the run goes on", async () => {
    const t = h([{ text: "hello" }]);
    t.session.hooks.register({
      name: "broken",
      hooks: {
        beforeRun: () => {
          throw new Error("br");
        },
        beforeModel: () => {
          throw new Error("bm");
        },
        afterModel: () => {
          throw new Error("am");
        },
        afterRun: () => {
          throw new Error("ar");
        },
        onEvent: (e) => {
          if (e.type === "run-started") throw new Error("oe");
        },
      },
    });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(t.of("hook-error").map((e) => `${e.point}:${e.message}`)).toEqual(["onEvent:oe", "beforeRun:br", "beforeModel:bm", "afterModel:am", "afterRun:ar"]);
  });

  it("beforeTool may rewrite the input; afterTool may replace the result", async () => {
    const t = h([{ toolCalls: [{ name: "read_files", args: { files: [{ path: "wrong.txt" }] } }] }, { text: "ok" }], { files: { "right.txt": "RIGHT\n" } });
    t.session.hooks.register({ name: "rewrite", hooks: { beforeTool: () => ({ input: { files: [{ path: "right.txt" }] } }) } });
    t.session.hooks.register({ name: "annotate", hooks: { afterTool: ({ result }) => ({ result: { output: result.output + "\n[annotated]" } }) } });
    await t.session.run("go");
    const sent = toolResultsSent(t.model, 1)[0]!;
    expect(sent).toContain("RIGHT");
    expect(sent).toContain("[annotated]");
  });

  it("beforeModel can rewrite the request and beforeRun can stop the run", async () => {
    const t = h([{ text: "ok" }]);
    t.session.hooks.register({ name: "sys", hooks: { beforeModel: ({ request }) => ({ system: request.system + "\nEXTRA RULE", tools: ["read_files"] }) } });
    await t.session.run("go");
    expect(t.model.calls[0]!.prompt[0]!.content).toContain("EXTRA RULE");
    expect(t.model.calls[0]!.tools!.map((x) => x.name)).toEqual(["read_files"]);

    const u = h([{ text: "never" }]);
    u.session.hooks.register({ name: "gate", hooks: { beforeRun: () => ({ stop: true, reason: "Not now" }) } });
    const r = await u.session.run("go");
    expect(r).toMatchObject({ status: "aborted", reason: "Not now" });
    expect(u.model.calls).toHaveLength(0);
  });

  it("afterModel continueWith nudges the model once more instead of ending the run", async () => {
    const t = h([{ text: "Here is my plan in prose." }, { text: "Submitting properly now." }]);
    let nudged = false;
    t.session.hooks.register({
      name: "plan-nudge",
      hooks: {
        afterModel: () => {
          if (nudged) return;
          nudged = true;
          return { continueWith: "No plan was submitted yet: call submit_plan, or say that no plan is needed." };
        },
      },
    });
    const r = await t.session.run("plan it");
    expect(r.status).toBe("completed");
    expect(r.summary).toBe("Submitting properly now.");
    expect(t.model.calls).toHaveLength(2);
    expect(t.session.state.messages.map((m) => (m.role === "user" ? m.kind : m.role))).toEqual(["prompt", "assistant", "notice", "assistant"]);
    expect(JSON.stringify(t.model.calls[1]!.prompt)).toContain("No plan was submitted yet");
  });

  it("a tool with approval 'always' asks even with every auto-approve on, and may switch the mode", async () => {
    const exitPlan = defineTool({
      name: "exit_plan_mode",
      description: "Ask the user to switch to Act mode.",
      inputSchema: z.object({}),
      effects: ["user-interaction"],
      approval: "always",
      async execute(_i, ctx) {
        ctx.setMode?.("act");
        return { output: "Switched to Act mode." };
      },
    }) as ToolDefinition;
    const t = h([{ toolCalls: [{ name: "exit_plan_mode", args: {} }] }, { text: "ok" }], {
      session: { mode: "plan", tools: [...builtinTools(), exitPlan], approvals: { autoApprove: { read: true, edit: true, command: true } } },
    });
    const asked = nextEvent(t.session, "approval-requested");
    const run = t.session.run("go");
    const e = await asked;
    expect(e.category).toBe("always");
    expect(t.session.state.mode).toBe("plan");
    t.session.approve(e.approvalId);
    await run;
    expect(t.session.state.mode).toBe("act");
  });

  it("unregisters and validates registrations", () => {
    const reg = new HookRegistry();
    const off = reg.register({ name: "a", hooks: { onEvent: () => undefined } });
    expect(reg.has("onEvent")).toBe(true);
    off();
    expect(reg.has("onEvent")).toBe(false);
    expect(() => reg.register({ name: "b", hooks: { beforeEverything: () => undefined } as never })).toThrow(/Unknown hook point/);
  });
});

describe("modes and the tool surface", () => {
  const planSurface = (mode: AgentMode, tools: readonly ToolDefinition[]) => (mode === "act" ? tools : tools.filter((t) => t.name !== "editor" && t.name !== "apply_patch"));

  it("refuses a tool that is not on the mode's surface, as a policy block, without asking", async () => {
    const t = h([{ toolCalls: [{ name: "editor", args: { command: "create", path: "x.txt", file_text: "x" } }] }, { text: "ok" }], { session: { mode: "plan", surface: planSurface } });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(t.ws.exists("x.txt")).toBe(false);
    expect(t.of("approval-requested")).toHaveLength(0);
    const f = t.of("tool-call-finished")[0]!;
    expect(f).toMatchObject({ status: "blocked", blockedByPolicy: true });
    expect(f.output).toContain("not available in Plan mode");
    expect(t.model.calls[0]!.tools!.map((x) => x.name)).not.toContain("editor");
    expect(t.model.calls[0]!.prompt[0]!.content).toContain("PLAN mode");
  });

  it("a mode switch mid-run is seen by the very next tool call", async () => {
    const t = h(
      [
        { toolCalls: [{ name: "list_files", args: {} }] },
        { toolCalls: [{ name: "editor", args: { command: "create", path: "x.txt", file_text: "x" } }] },
        { toolCalls: [{ name: "run_commands", args: { commands: "ls" } }] },
        { text: "ok" },
      ],
      { approveAll: true, session: { surface: planSurface } },
    );
    const modes: string[] = [];
    t.session.hooks.register({
      name: "probe",
      hooks: {
        beforeTool: ({ snapshot }) => {
          modes.push(snapshot.mode);
          if (snapshot.mode === "act") t.session.setMode("plan");
        },
      },
    });
    await t.session.run("go");
    // The editor call is refused by the surface before any hook; the command sees plan mode.
    expect(modes).toEqual(["act", "plan"]);
    expect(t.ws.exists("x.txt")).toBe(false);
    expect(t.of("tool-call-finished").map((e) => e.status)).toEqual(["ok", "blocked", "ok"]);
    expect(t.deps.sh.commands[0]!.readOnly).toBe(true);
    expect(t.of("mode-changed")[0]).toMatchObject({ from: "act", to: "plan" });
    expect(t.model.calls[1]!.prompt[0]!.content).toContain("PLAN mode");
  });

  it("read-only modes give tools a read-only workspace and shell", async () => {
    const t = h([{ toolCalls: [{ name: "editor", args: { command: "create", path: "x.txt", file_text: "x" } }, { name: "run_commands", args: { commands: "ls" } }] }, { text: "ok" }], {
      approveAll: true,
      session: { mode: "plan" },
    });
    await t.session.run("go");
    expect(t.ws.exists("x.txt")).toBe(false);
    expect(t.of("tool-call-finished")[0]!.output).toContain("read-only in plan mode");
    expect(t.deps.sh.commands[0]!.readOnly).toBe(true);
  });
});

describe("loop guard", () => {
  it("pauses on the third identical call; reject stops the run", async () => {
    const call = { name: "list_files", args: { path: "" } };
    const t = h([{ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { text: "never" }]);
    const asked = nextEvent(t.session, "approval-requested", (e) => e.kind === "loop-guard");
    const run = t.session.run("go");
    const e = await asked;
    expect(e.message).toContain("3 times in a row");
    t.session.reject(e.approvalId);
    const r = await run;
    expect(r.status).toBe("aborted");
    expect(r.reason).toContain("loop guard");
    expect(t.model.calls).toHaveLength(3);
  });

  it("continue: the call runs and the counter starts over", async () => {
    const call = { name: "list_files", args: { path: "" } };
    const t = h([{ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { text: "done" }], { approveAll: true });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(t.of("approval-requested").filter((e) => e.kind === "loop-guard")).toHaveLength(1);
    expect(t.of("tool-call-finished").map((e) => e.status)).toEqual(["ok", "ok", "ok", "ok"]);
  });

  it("a call refused on the way (a hook, an unknown tool) breaks the streak", async () => {
    const call = { name: "list_files", args: { path: "" } };
    const t = h([{ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [{ name: "search_codebase", args: { query: "x" } }] }, { toolCalls: [{ name: "no_such_tool", args: {} }] }, { toolCalls: [call] }, { text: "done" }]);
    t.session.hooks.register({ name: "refuse-search", hooks: { beforeTool: ({ toolCall }) => (toolCall.name === "search_codebase" ? { skip: true, reason: "no searching" } : undefined) } });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(t.of("approval-requested").filter((e) => e.kind === "loop-guard")).toHaveLength(0);
    expect(t.of("tool-call-finished").map((e) => `${e.toolName}:${e.status}`)).toEqual(["list_files:ok", "list_files:ok", "search_codebase:blocked", "no_such_tool:error", "list_files:ok"]);
  });

  it("different arguments do not trip it", async () => {
    const turns = [1, 2, 3, 4].map((i) => ({ toolCalls: [{ name: "list_files", args: { max_entries: i } }] }));
    const t = h([...turns, { text: "ok" }]);
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(t.of("approval-requested")).toHaveLength(0);
  });
});
