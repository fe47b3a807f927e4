/**
 * Compaction summaries written by the model: used in place of the folded messages (auto and
 * /compact), charged like a request, kept on the session (a reloaded session does not ask
 * again), built on the previous summary when the boundary moves on, and the mechanical summary
 * whenever the model cannot write one — a run never fails for it.
 */
import { describe, expect, it } from "vitest";
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { compactionBuilder } from "../../lib/agent/compaction";
import { SUMMARY_SYSTEM, transcriptForSummary } from "../../lib/agent/compaction-summary";
import { AgentSession } from "../../lib/agent/session";
import type { AgentMessage } from "../../lib/agent/messages";
import type { Script, ScriptContext, ScriptedTurn } from "../../lib/providers/scripted";
import { harnessPerTest, scripted } from "./helpers";

const { h } = harnessPerTest();

const isSummaryRequest = (prompt: LanguageModelV4Prompt) => prompt[0]?.role === "system" && prompt[0].content === SUMMARY_SYSTEM;
const userTextOf = (prompt: LanguageModelV4Prompt) => JSON.stringify(prompt.filter((m) => m.role === "user").at(-1)?.content ?? "");

/** The main turns in order; summary requests answered by `summary` (their order among the main turns does not matter). */
function withSummaries(main: ScriptedTurn[], summary: (ctx: ScriptContext, n: number) => ScriptedTurn): Script {
  let i = 0;
  let n = 0;
  return (ctx) => (isSummaryRequest(ctx.prompt) ? summary(ctx, n++) : main[i++]);
}

const long = "x".repeat(4000);
const exploring = (k: number): ScriptedTurn[] => [
  ...Array.from({ length: k }, (_, i) => ({ text: `step ${i} ${long}`, toolCalls: [{ name: "list_files", args: { max_entries: i + 1 } }] })),
  { text: "done" },
];
const small = { contextWindow: 8000, messageBuilders: [compactionBuilder({ ratio: 0.5, recentRatio: 0.3 })] };

describe("compaction summaries written by the model", () => {
  it("auto: the model's summary replaces the folded messages, and its request is charged", async () => {
    const prices = { "test-model": { input: 1, output: 1 } };
    const t = h(withSummaries(exploring(6), () => ({ text: "## Goal\nExplore the workspace.\n## Done so far\nListed files six times.", usage: { inputTokens: 900, outputTokens: 40 } })), {
      session: { ...small, prices },
    });
    const r = await t.session.run("first prompt: please explore");
    expect(r.status).toBe("completed");
    const ev = t.of("compaction");
    expect(ev.length).toBeGreaterThan(0);
    expect(ev[0]).toMatchObject({ reason: "auto", by: "model" });
    expect(ev[0]!.fallback).toBeUndefined();
    const summaryCalls = t.model.calls.filter((c) => isSummaryRequest(c.prompt));
    expect(summaryCalls.length).toBe(ev.length);
    // It was asked with the folded messages as one transcript, no tools.
    expect(userTextOf(summaryCalls[0]!.prompt)).toContain("Summarise this part of the conversation");
    expect(userTextOf(summaryCalls[0]!.prompt)).toContain("step 0");
    expect(summaryCalls[0]!.tools).toBeUndefined();
    const last = t.model.calls.at(-1)!.prompt;
    const texts = last.map((m) => JSON.stringify(m.content));
    expect(texts[1]).toContain("first prompt: please explore");
    expect(texts[2]).toContain("Context summary");
    expect(texts[2]).toContain("Listed files six times.");
    expect(texts[2]).not.toContain("Tools used: list_files"); // not the mechanical one
    // Charged: every request counts, the summary's included.
    expect(t.session.state.usage.requests).toBe(t.model.calls.length);
    expect(t.session.state.usage.inputTokens).toBeGreaterThanOrEqual(900 * summaryCalls.length);
  });

  it("when the boundary moves on, the model gets the previous summary and only the newly folded messages", async () => {
    const t = h(withSummaries(exploring(10), (_ctx, n) => ({ text: `SUMMARY-${n}` })), { session: small });
    expect((await t.session.run("first prompt")).status).toBe("completed");
    const summaryCalls = t.model.calls.filter((c) => isSummaryRequest(c.prompt));
    expect(summaryCalls.length).toBeGreaterThanOrEqual(2);
    const second = userTextOf(summaryCalls[1]!.prompt);
    expect(second).toContain("Earlier summary");
    expect(second).toContain("SUMMARY-0");
    expect(second).not.toContain("step 0 "); // folded the first time: carried by SUMMARY-0
    expect(JSON.stringify(t.model.calls.at(-1)!.prompt)).toContain(`SUMMARY-${summaryCalls.length - 1}`);
  });

  it("falls back to the mechanical summary when the model fails, and says why; the run completes", async () => {
    const t = h(withSummaries(exploring(6), () => ({ error: { status: 400, message: "context too long for the summary" } })), { session: small });
    const r = await t.session.run("first prompt");
    expect(r.status).toBe("completed");
    const ev = t.of("compaction")[0]!;
    expect(ev.by).toBe("mechanical");
    expect(ev.fallback).toMatch(/context too long for the summary/);
    expect(JSON.stringify(t.model.calls.at(-1)!.prompt)).toContain("Tools used: list_files");
    expect(t.of("hook-error")).toHaveLength(0);
  });

  it("an empty answer is a failure too, not an empty summary", async () => {
    const t = h(withSummaries(exploring(6), () => ({ text: "   " })), { session: small });
    await t.session.run("first prompt");
    expect(t.of("compaction")[0]).toMatchObject({ by: "mechanical", fallback: expect.stringContaining("no text") });
  });

  it("/compact: the model writes it, the reply says so, and a reloaded session sends the same summary without asking again", async () => {
    const script = withSummaries([{ text: "one" }, { text: "two" }, { text: "three" }, { text: "four" }], () => ({ text: "## Goal\nAnswer a and b." }));
    const t = h(script);
    await t.session.run("a");
    await t.session.run("b");
    const r = await t.session.run("/compact");
    expect(r.command).toBe("compact");
    expect(t.of("command")[0]!.output).toMatch(/^Compacted 1 earlier message into a summary written by the model: about \d+ → \d+ tokens\.$/);
    expect(t.of("compaction")[0]).toMatchObject({ reason: "manual", by: "model" });
    expect(t.session.state.usage.requests).toBe(3); // two turns + the summary
    await t.session.run("c");
    expect(JSON.stringify(t.model.calls.at(-1)!.prompt)).toContain("Answer a and b.");

    const data = t.session.toJSON();
    expect(data.compaction?.summary).toBe("## Goal\nAnswer a and b.");
    const model = scripted([{ text: "after reload" }]);
    const again = AgentSession.fromJSON(data, { deps: t.deps, model });
    await again.run("d");
    expect(model.calls).toHaveLength(1);
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain("Answer a and b.");
  });

  it("stopping the run while the summary is being written stops it, with no error notice", async () => {
    const t = h(withSummaries(exploring(6), () => ({ chunks: Array.from({ length: 200 }, () => "slow "), delayMs: 20 })), { session: small });
    const run = t.session.run("first prompt");
    while (!t.model.calls.some((c) => isSummaryRequest(c.prompt))) await new Promise((r) => setTimeout(r, 5));
    t.session.stop();
    const r = await run;
    expect(r.status).toBe("aborted");
    expect(t.of("hook-error")).toHaveLength(0);
    expect(t.of("compaction")).toHaveLength(0);
  });
});

describe("the transcript sent for summarising", () => {
  const m = (x: Partial<AgentMessage> & Pick<AgentMessage, "role">): AgentMessage => ({ id: Math.random().toString(36), createdAt: 0, content: [], ...x }) as AgentMessage;
  it("reads as a conversation, clips long tool output, and keeps the newest part when too long", () => {
    const msgs = [
      m({ role: "user", content: [{ type: "text", text: "fix the bug" }] }),
      m({ role: "assistant", content: [{ type: "text", text: "Reading it." }, { type: "tool-call", toolCallId: "c1", toolName: "read_files", input: { files: [{ path: "src/a.ts" }] } }] }),
      m({ role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "read_files", output: { type: "text", value: "y".repeat(5000) } }] }),
    ];
    const text = transcriptForSummary(msgs);
    expect(text).toContain("User:\nfix the bug");
    expect(text).toContain('Assistant:\nReading it.\n[tool call read_files {"files":[{"path":"src/a.ts"}]}]');
    expect(text).toContain("[tool result read_files]");
    expect(text).toContain("… [3000 more characters]");
    const cut = transcriptForSummary(msgs, 100);
    expect(cut.startsWith("[… the oldest part is left out …]")).toBe(true);
    expect(cut).not.toContain("fix the bug");
  });
});
