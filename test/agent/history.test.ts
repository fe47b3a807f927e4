import { describe, expect, it } from "vitest";
import { applyCompaction, compactionBuilder } from "../../lib/agent/compaction";
import { sanitizeForModel, type AgentMessage } from "../../lib/agent/messages";
import { formatCost } from "../../lib/agent/pricing";
import { AgentSession } from "../../lib/agent/session";
import { scripted, toolResultsSent, harnessPerTest } from "./helpers";

const { h } = harnessPerTest();

describe("usage, cost and budget", () => {
  it("counts tokens and cost per turn and per session from the price table", async () => {
    const prices = { "test-model": { input: 3, output: 15, cacheRead: 0.3 } };
    const t = h(
      [
        { toolCalls: [{ name: "list_files", args: {} }], usage: { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 2000 } },
        { text: "a", usage: { inputTokens: 1500, outputTokens: 50 } },
        { text: "b", usage: { inputTokens: 10_000, outputTokens: 1000 } },
      ],
      { session: { prices } },
    );
    const r1 = await t.session.run("one");
    expect(r1.usage).toMatchObject({ inputTokens: 2500, outputTokens: 150, cacheReadTokens: 2000, requests: 2 });
    // (2500*3 + 150*15 + 2000*0.3) / 1e6
    expect(r1.usage.costUsd).toBeCloseTo(0.01035, 6);
    const u = t.of("usage");
    expect(u).toHaveLength(2);
    expect(u[0]!.step.costUsd).toBeCloseTo((1000 * 3 + 100 * 15 + 2000 * 0.3) / 1e6, 8);
    const r2 = await t.session.run("two");
    expect(r2.usage.costUsd).toBeCloseTo(0.045, 6);
    expect(t.session.state.usage.costUsd).toBeCloseTo(0.05535, 6);
    expect(t.session.state.usage.requests).toBe(3);
    expect(t.session.state.runs.map((r) => r.status)).toEqual(["completed", "completed"]);
  });

  it("an unpriced model has no cost, never a guess", async () => {
    const t = h([{ text: "x" }], { modelId: "mystery-model" });
    const r = await t.session.run("go");
    expect(r.usage.costUsd).toBeUndefined();
    expect(formatCost(r.usage.costUsd)).toBe("—");
  });

  it("stops before a request would exceed the budget", async () => {
    const prices = { "test-model": { input: 10, output: 10 } };
    const t = h([{ text: "first", usage: { inputTokens: 50_000, outputTokens: 1000 } }, { text: "second" }], { session: { prices, budgetUsd: 0.52 } });
    const r1 = await t.session.run("one");
    expect(r1.status).toBe("completed");
    expect(t.session.state.usage.costUsd).toBeCloseTo(0.51, 6);
    const r2 = await t.session.run("two");
    expect(r2.status).toBe("aborted");
    expect(r2.reason).toMatch(/^Budget reached: this session has spent \$0\.5100 of its \$0\.52 cap/);
    expect(t.model.calls).toHaveLength(1); // the second request never left
    t.session.configure({ budgetUsd: 5 });
    expect((await t.session.run("three")).status).toBe("completed");
  });
});

describe("compaction", () => {
  it("compacts automatically near the context limit: first prompt + summary + recent window", async () => {
    const long = "x".repeat(4000);
    const turns = [];
    for (let i = 0; i < 6; i++) turns.push({ text: `step ${i} ${long}`, toolCalls: [{ name: "list_files", args: { max_entries: i + 1 } }] });
    turns.push({ text: "done" });
    const t = h(turns, { session: { contextWindow: 8000, messageBuilders: [compactionBuilder({ ratio: 0.5, recentRatio: 0.3 })], modelSummaries: false } });
    const r = await t.session.run("first prompt: please explore");
    expect(r.status).toBe("completed");
    const ev = t.of("compaction");
    expect(ev.length).toBeGreaterThan(0);
    expect(ev[0]!.reason).toBe("auto");
    expect(ev[0]!.tokensAfter).toBeLessThan(ev[0]!.tokensBefore);
    const lastPrompt = t.model.calls[t.model.calls.length - 1]!.prompt;
    const texts = lastPrompt.map((m) => JSON.stringify(m.content));
    expect(texts[1]).toContain("first prompt: please explore");
    expect(texts[2]).toContain("Context summary");
    expect(texts[2]).toContain("Tools used: list_files");
    // The full history stays in the session for the transcript.
    expect(t.session.state.messages.length).toBe(1 + 7 + 6);
    // Every tool call sent still has its result right after it.
    for (let i = 0; i < lastPrompt.length; i++) {
      const m = lastPrompt[i]!;
      if (m.role === "assistant" && m.content.some((p) => p.type === "tool-call")) expect(lastPrompt[i + 1]!.role).toBe("tool");
      if (m.role === "tool") expect(lastPrompt[i - 1]!.role).toBe("assistant");
    }
  });

  it("/compact folds the conversation on demand (mechanical summary)", async () => {
    const t = h([{ toolCalls: [{ name: "list_files", args: {} }] }, { text: "one" }, { text: "two" }, { text: "three" }], { session: { modelSummaries: false } });
    await t.session.run("a");
    await t.session.run("b");
    const r = await t.session.run("/compact");
    expect(r.command).toBe("compact");
    expect(t.of("compaction")[0]).toMatchObject({ reason: "manual", by: "mechanical" });
    expect(t.of("command")[0]!.output).toMatch(/^Compacted 3 earlier messages into a summary: about \d+ → \d+ tokens\.$/);
    await t.session.run("c");
    const prompt = t.model.calls[t.model.calls.length - 1]!.prompt;
    expect(prompt.map((m) => m.role)).toEqual(["system", "user", "user", "user", "assistant", "user"]);
    expect(JSON.stringify(prompt[2])).toContain("Context summary");
    expect(JSON.stringify(prompt[3])).toContain('"b"');
  });

  it("never cuts between a tool call and its result", () => {
    const msgs: AgentMessage[] = [
      { id: "u1", role: "user", content: [{ type: "text", text: "go" }], createdAt: 0 },
      { id: "a1", role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "list_files", input: {} }], createdAt: 0 },
      { id: "t1", role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "list_files", output: { type: "text", value: "x" } }], createdAt: 0 },
      { id: "a2", role: "assistant", content: [{ type: "tool-call", toolCallId: "c2", toolName: "list_files", input: {} }], createdAt: 0 },
      { id: "t2", role: "tool", content: [{ type: "tool-result", toolCallId: "c2", toolName: "list_files", output: { type: "text", value: "y" } }], createdAt: 0 },
    ];
    // A boundary at a2 (whose result follows) moves back so the kept part starts at a2.
    const r = applyCompaction(msgs, { throughId: "a2", reason: "auto", at: 0 })!;
    expect(r.messages.map((m) => m.id)).toEqual(["u1", "compaction:a2", "a2", "t2"]);
  });

  it("the safety pass gives every tool call a result", () => {
    const msgs: AgentMessage[] = [
      { id: "u1", role: "user", content: [{ type: "text", text: "go" }], createdAt: 0 },
      { id: "a1", role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "x", input: {} }], createdAt: 0 },
      { id: "u2", role: "user", content: [{ type: "text", text: "again" }], createdAt: 0 },
    ];
    expect(sanitizeForModel(msgs).map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
  });
});

describe("re-run in a fork", () => {
  it("plans a re-run: the message before the prompt, the prompt, its turn's checkpoint", async () => {
    const t = h([{ text: "one" }, { toolCalls: [{ name: "list_files", args: {} }] }, { text: "two" }]);
    await t.session.run("first");
    await t.session.run("second");
    const msgs = t.session.state.messages;
    const first = t.session.history.rerunPlan(msgs[0]!.id);
    expect(first).toEqual({ prompt: "first", checkpointRef: t.session.state.checkpoints[0]!.ref });
    const secondIdx = msgs.findIndex((m) => m.role === "user" && m.run === 2);
    const second = t.session.history.rerunPlan(msgs[secondIdx]!.id);
    expect(second.forkAt).toBe(msgs[secondIdx - 1]!.id);
    expect(second.prompt).toBe("second");
    expect(second.checkpointRef).toBe(t.session.state.checkpoints[1]!.ref);
    expect(() => t.session.history.rerunPlan(msgs[1]!.id)).toThrow("Only a prompt you sent can be run again");
  });
});

describe("review decisions", () => {
  it("a finding's status is kept on the session, through its saved form and a fork; reopen clears it", async () => {
    const t = h([{ text: "ok" }]);
    await t.session.run("go");
    const updates: string[] = [];
    t.session.subscribe((e) => e.type === "session-updated" && updates.push(e.what));
    t.session.setFindingStatus("f1", "resolved");
    t.session.setFindingStatus("f2", "dismissed");
    expect(t.session.state.findingStatus).toEqual({ f1: "resolved", f2: "dismissed" });
    expect(updates).toEqual(["review", "review"]);
    const data = t.session.toJSON();
    expect(data.findingStatus).toEqual({ f1: "resolved", f2: "dismissed" });
    const again = AgentSession.fromJSON(data, { deps: t.deps, model: scripted([]) });
    expect(again.state.findingStatus).toEqual({ f1: "resolved", f2: "dismissed" });
    expect(t.session.fork(t.session.state.messages.at(-1)!.id).state.findingStatus).toEqual({ f1: "resolved", f2: "dismissed" });
    t.session.setFindingStatus("f1", undefined);
    expect(t.session.state.findingStatus).toEqual({ f2: "dismissed" });
    expect(() => t.session.setFindingStatus("f3", "fixed" as never)).toThrow('not "fixed"');
    expect(() => t.session.setFindingStatus("", "resolved")).toThrow("A finding id is required");
  });
});

describe("slash commands, fork, edit and resend", () => {
  it("/mode switches mode; /clear clears; unknown commands go to the model", async () => {
    const t = h([{ text: "about /usr/bin" }]);
    expect((await t.session.run("/mode plan")).command).toBe("mode");
    expect(t.session.state.mode).toBe("plan");
    const bad = await t.session.run("/mode sideways");
    expect(bad.status).toBe("failed");
    expect(t.of("command")[1]).toMatchObject({ ok: false });
    await t.session.run("/usr/bin is what?");
    expect(t.model.calls).toHaveLength(1);
    expect(t.session.state.messages).toHaveLength(2);
    await t.session.history.checkpointsSettled();
    await t.session.run("/clear");
    expect(t.session.state.messages).toHaveLength(0);
    expect(t.session.state.checkpoints).toHaveLength(1);
  });

  // On fake checkpoints: what the session asks for and how it words the result. The files
  // themselves are checked on the real engine in history-real.test.ts.
  it("/undo restores the last checkpoint", async () => {
    const t = h([{ text: "a" }, { text: "b" }]);
    expect((await t.session.run("/undo")).summary).toContain("no checkpoint");
    await t.session.run("one");
    await t.session.run("two");
    const r = await t.session.run("/undo");
    expect(t.deps.cp.restored).toEqual([{ ref: `refs/tabula/checkpoints/${t.session.id}/2`, paths: undefined }]);
    expect(r.summary).toContain("Restored 1 file");
    expect(t.of("files-restored")[0]).toMatchObject({ txid: "tx1" });
  });

  it("plugins can register slash commands, including ones that submit a prompt", async () => {
    const t = h([{ text: "reviewed" }]);
    t.session.extensions.registerCommand({ name: "review", handler: (args) => ({ submitPrompt: `Review ${args}` }) });
    t.session.extensions.registerCommand({ name: "hello", handler: () => "hi!" });
    expect((await t.session.run("/hello")).summary).toBe("hi!");
    const r = await t.session.run("/review src/a.ts");
    expect(r.status).toBe("completed");
    expect(t.session.state.messages[0]).toMatchObject({ role: "user", content: [{ text: "Review src/a.ts" }] });
    expect(t.session.extensions.slashCommands.map((c) => c.name)).toEqual(["compact", "clear", "undo", "mode", "review", "hello"]);
  });

  it("forks a session from any message", async () => {
    const t = h([{ toolCalls: [{ name: "list_files", args: {} }] }, { text: "first answer" }, { text: "second answer" }, { text: "fork answer" }]);
    await t.session.run("one");
    await t.session.run("two");
    await t.session.history.checkpointsSettled();
    const firstAssistant = t.session.state.messages[1]!;
    const fork = t.session.fork(firstAssistant.id);
    expect(fork.id).not.toBe(t.session.id);
    expect(fork.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(fork.state.checkpoints.map((c) => c.run)).toEqual([1]);
    expect(fork.state.title).toBe("Fork of one");
    expect(fork.toJSON().forkedFrom).toEqual({ sessionId: t.session.id, messageId: firstAssistant.id });
    const r = await fork.run("continue in the fork");
    expect(r.status).toBe("completed");
    expect(r.run).toBe(3); // run numbers stay unique for the checkpoint refs
    expect(t.session.state.messages).toHaveLength(6); // the original is untouched
  });

  it("edits a past prompt and resends it, optionally restoring that turn's files", async () => {
    const t = h([{ text: "answer one" }, { text: "answer two" }, { text: "answer edited" }]);
    await t.session.run("one");
    await t.session.run("two");
    const second = t.session.state.messages[2]!;
    const r = await t.session.history.editAndResend(second.id, "two, edited", { restoreFiles: true });
    expect(r.status).toBe("completed");
    expect(t.deps.cp.restored[0]!.ref).toBe(`refs/tabula/checkpoints/${t.session.id}/2`);
    expect(t.session.state.messages.map((m) => (m.role === "user" ? m.content[0]!.text : m.role))).toEqual(["one", "assistant", "two, edited", "assistant"]);
    await expect(t.session.history.editAndResend(t.session.state.messages[1]!.id, "x")).rejects.toThrow(/Only a prompt/);
  });

  it("persists and resumes: toJSON / fromJSON continue the conversation", async () => {
    const t = h([{ text: "remember: 42" }, { text: "it was 42" }]);
    await t.session.run("remember a number");
    t.session.setMode("plan");
    await t.session.history.checkpointsSettled();
    const data = JSON.parse(JSON.stringify(t.session.toJSON()));
    const model = scripted([{ text: "it was 42" }]);
    const resumed = AgentSession.fromJSON(data, { deps: t.deps, model });
    expect(resumed.id).toBe(t.session.id);
    expect(resumed.state.mode).toBe("plan");
    expect(resumed.state.messages).toHaveLength(2);
    expect(resumed.state.checkpoints).toHaveLength(1);
    const r = await resumed.run("what was it?");
    expect(r.run).toBe(2);
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain("remember: 42");
    expect(toolResultsSent(model, 0)).toEqual([]);
  });
});
