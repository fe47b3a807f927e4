/**
 * Tool-call ids: a provider that reuses an id (within a response, or across responses) must not
 * make results cross; the demo model gives each of its calls its own id even though the settings
 * create a new model instance for every request.
 */
import { describe, expect, it } from "vitest";
import { uniqueToolCallIds } from "../../lib/agent/tool-call-ids";
import { createDemoModel } from "../../lib/providers/demo-script";
import { AgentSession } from "../../lib/agent/session";
import { deps, harnessPerTest, tempWs, toolResultsSent } from "./helpers";
import { toolCallsOf } from "../../lib/agent/messages";

const { h, cleanups } = harnessPerTest();

describe("uniqueToolCallIds", () => {
  it("keeps fresh ids, re-keys repeats against history and within the response", () => {
    let n = 0;
    const used = new Set(["call_0"]);
    const r = uniqueToolCallIds([{ toolCallId: "call_0" }, { toolCallId: "a" }, { toolCallId: "a" }, { toolCallId: "" }], used, () => `new${n++}`);
    expect(r.calls.map((c) => c.toolCallId)).toEqual(["new0", "a", "new1", "new2"]);
    expect(r.rekeyed).toEqual([
      { from: "call_0", to: "new0" },
      { from: "a", to: "new1" },
      { from: "", to: "new2" },
    ]);
    expect([...used].sort()).toEqual(["a", "call_0", "new0", "new1", "new2"]);
  });

  it("a fresh id never collides with one already used", () => {
    const seq = ["x", "x", "y"];
    const r = uniqueToolCallIds([{ toolCallId: "x" }], new Set(["x"]), () => seq.shift()!);
    expect(r.calls[0]!.toolCallId).toBe("y");
  });
});

describe("duplicate ids from a provider", () => {
  it("every call keeps its own result, and the model is sent matching pairs", async () => {
    const t = h(
      [
        { toolCalls: [{ id: "dup", name: "read_files", args: { files: [{ path: "a.txt" }] } }] },
        {
          toolCalls: [
            { id: "dup", name: "read_files", args: { files: [{ path: "b.txt" }] } },
            { id: "dup", name: "read_files", args: { files: [{ path: "c.txt" }] } },
          ],
        },
        { text: "done" },
      ],
      { files: { "a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "gamma\n" }, approveAll: true },
    );
    const r = await t.session.run("read them");
    expect(r.status, r.reason).toBe("completed");
    const calls = t.session.state.messages.flatMap((m) => toolCallsOf(m));
    const ids = calls.map((c) => c.toolCallId);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe("dup");
    const results = new Map(t.session.state.messages.flatMap((m) => (m.role === "tool" ? m.content : [])).map((p) => [p.toolCallId, p.output.value]));
    expect(results.get(ids[0]!)).toContain("alpha");
    expect(results.get(ids[1]!)).toContain("beta");
    expect(results.get(ids[2]!)).toContain("gamma");
    // The third request carries each call right before its own result.
    const prompt = t.model.calls[2]!.prompt;
    const sentCalls = prompt.flatMap((m) => (m.role === "assistant" ? m.content.filter((p) => p.type === "tool-call").map((p) => (p as { toolCallId: string }).toolCallId) : []));
    const sentResults = prompt.flatMap((m) => (m.role === "tool" ? m.content.map((p) => (p as { toolCallId: string }).toolCallId) : []));
    expect(sentCalls).toEqual(ids);
    expect(sentResults).toEqual(ids);
    expect(toolResultsSent(t.model, 2).join("\n")).toMatch(/beta[\s\S]*gamma/);
  });
});

describe("the demo model", () => {
  it("gives every call of the script its own id, with a new model instance per request", async () => {
    const ws = tempWs({ "src/greet.ts": "export function greet(name: string) {\n  return `Hello, ${name}!`;\n}\n", "src/index.ts": "greet('x');\n" });
    cleanups.add(ws.cleanup);
    const d = deps(ws);
    const session = new AgentSession({ deps: d, model: () => createDemoModel(), workspaceId: "w" });
    session.subscribe((e) => {
      if (e.type === "approval-requested") session.approve(e.approvalId);
    });
    const r = await session.run("show me");
    expect(r.status, r.reason).toBe("completed");
    const calls = session.state.messages.flatMap((m) => toolCallsOf(m));
    expect(calls.map((c) => c.toolName)).toEqual(["read_files", "editor", "run_commands", "attempt_completion"]);
    expect(new Set(calls.map((c) => c.toolCallId)).size).toBe(4);
    // The ids are the model's own (no re-keying was needed).
    expect(calls.map((c) => c.toolCallId)).toEqual(["call_0_0", "call_1_0", "call_2_0", "call_3_0"]);
    const results = new Map(session.state.messages.flatMap((m) => (m.role === "tool" ? m.content : [])).map((p) => [p.toolCallId, p]));
    expect(results.get("call_1_0")!.ui?.data).toHaveProperty("diff");
    expect(results.get("call_2_0")!.output.value).toContain("ran: grep");
  });
});
