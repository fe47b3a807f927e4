import { describe, expect, it } from "vitest";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import { AgentSession } from "../../lib/agent/session";
import { deps, nextEvent, tempWs, toolResultsSent, harnessPerTest } from "./helpers";

const { h, cleanups } = harnessPerTest();

describe("run loop", () => {
  it("runs a text-only turn and emits the events in order", async () => {
    const t = h([{ text: "Hello there, friend." }]);
    const r = await t.session.run("hi");
    expect(r.status).toBe("completed");
    expect(r.summary).toBe("Hello there, friend.");
    const types = t.types().filter((x) => x !== "text-delta" && x !== "session-updated");
    expect(types).toEqual(["run-started", "message-added", "model-request", "checkpoint-created", "message-added", "usage", "run-finished"]);
    expect(t.of("text-delta").map((e) => e.delta).join("")).toBe("Hello there, friend.");
    expect(t.session.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(t.session.state.title).toBe("hi");
    const seqs = t.events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it("executes a tool call and sends its result back to the model", async () => {
    const t = h(
      [
        { text: "Reading.", toolCalls: [{ name: "read_files", args: { files: [{ path: "a.txt" }] } }] },
        { text: "It says hello." },
      ],
      { files: { "a.txt": "hello\nworld\n" } },
    );
    const r = await t.session.run("what is in a.txt?");
    expect(r.status).toBe("completed");
    const finished = t.of("tool-call-finished");
    expect(finished).toHaveLength(1);
    expect(finished[0]!.status).toBe("ok");
    expect(finished[0]!.summary).toBe("Read a.txt");
    const sent = toolResultsSent(t.model, 1);
    expect(sent[0]).toContain("1\thello");
    expect(sent[0]).toContain("2\tworld");
    // The tool spec the model got is JSON schema from zod.
    const tools = t.model.calls[0]!.tools!;
    expect(tools.map((x) => x.name)).toContain("read_files");
    const rf = tools.find((x) => x.name === "read_files")!;
    expect(rf.type === "function" && (rf.inputSchema as { properties: object }).properties).toHaveProperty("files");
  });

  it("works with MockLanguageModelV4 from ai/test", async () => {
    const ws = tempWs({ "a.txt": "alpha\n" });
    cleanups.add(ws.cleanup);
    const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
    const model = new MockLanguageModelV4({
      doStream: [
        {
          stream: convertArrayToReadableStream([
            { type: "stream-start", warnings: [] },
            { type: "tool-call", toolCallId: "c1", toolName: "read_files", input: JSON.stringify({ files: [{ path: "a.txt" }] }) },
            { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage },
          ]),
        },
        {
          stream: convertArrayToReadableStream([
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "It contains alpha." },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
          ]),
        },
      ],
    });
    const session = new AgentSession({ deps: deps(ws), model, workspaceId: "w" });
    const r = await session.run("read a.txt");
    expect(r.status).toBe("completed");
    expect(model.doStreamCalls).toHaveLength(2);
    const toolMsg = model.doStreamCalls[1]!.prompt.find((m) => m.role === "tool")!;
    expect(JSON.stringify(toolMsg)).toContain("alpha");
    expect(r.usage.inputTokens).toBe(20);
    expect(r.usage.outputTokens).toBe(10);
  });

  it("returns invalid arguments to the model as a zod error and goes on", async () => {
    const t = h([
      { toolCalls: [{ name: "read_files", args: { files: [{ path: 42 }] } }] },
      { toolCalls: [{ name: "read_files", rawArgs: "{not json" }] },
      { text: "ok, giving up" },
    ]);
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    const [a, b] = t.of("tool-call-finished");
    expect(a!.status).toBe("error");
    expect(a!.output).toContain("Invalid arguments for read_files");
    expect(a!.output).toContain("files[0].path");
    expect(b!.output).toContain("not valid JSON");
    expect(toolResultsSent(t.model, 1)[0]).toContain("expected string");
    expect(t.model.calls).toHaveLength(3);
  });

  it("answers an unknown tool with the list of tools and goes on", async () => {
    const t = h([{ toolCalls: [{ name: "delete_everything", args: {} }] }, { text: "sorry" }]);
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    const f = t.of("tool-call-finished")[0]!;
    expect(f.status).toBe("error");
    expect(f.output).toMatch(/Unknown tool "delete_everything". Available tools: read_files, list_files/);
  });

  it("ends the turn with attempt_completion and skips later calls of the same message", async () => {
    const t = h([
      {
        toolCalls: [
          { name: "attempt_completion", args: { summary: "All done." } },
          { name: "read_files", args: { files: [{ path: "x" }] } },
        ],
      },
      { text: "never asked" },
    ]);
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(r.summary).toBe("All done.");
    expect(t.model.calls).toHaveLength(1);
    expect(t.of("tool-call-finished").map((e) => e.status)).toEqual(["ok", "skipped"]);
    // Every call has its result in the history.
    const tool = t.session.state.messages.find((m) => m.role === "tool")!;
    expect(tool.content).toHaveLength(2);
  });

  it("asks the user a question and sends the answer back", async () => {
    const t = h([{ toolCalls: [{ name: "ask_question", args: { question: "Tabs or spaces?", choices: ["tabs", "spaces"] } }] }, { text: "Spaces it is." }]);
    const asked = nextEvent(t.session, "question-asked");
    const run = t.session.run("format it");
    const q = await asked;
    expect(q.choices).toEqual(["tabs", "spaces"]);
    expect(t.session.state.pending.questions).toHaveLength(1);
    expect(t.session.answer(q.questionId, "spaces")).toBe(true);
    const r = await run;
    expect(r.status).toBe("completed");
    expect(toolResultsSent(t.model, 1)[0]).toBe("The user answered: spaces");
    expect(t.of("question-answered")[0]!.answer).toBe("spaces");
  });

  it("truncates huge tool output for the model with a note", async () => {
    const big = Array.from({ length: 30_000 }, (_, i) => `line ${i}`).join("\n");
    const t = h([{ toolCalls: [{ name: "run_commands", args: { commands: "cat big" } }] }, { text: "done" }], {
      approveAll: true,
      session: { maxToolOutputChars: 5000, toolLimits: { commandOutputChars: 1_000_000 } },
    });
    t.deps.sh.responses.set("cat big", { stdout: big });
    await t.session.run("go");
    const sent = toolResultsSent(t.model, 1)[0]!;
    expect(sent.length).toBeLessThan(5200);
    expect(sent).toMatch(/characters \(\d+ lines\) of tool output omitted/);
    expect(sent).toContain("line 0");
    expect(sent).toContain("line 29999");
  });

  it("includes AGENTS.md and .tabula/rules/*.md in the system prompt", async () => {
    const t = h([{ text: "ok" }], { files: { "AGENTS.md": "Always use tabs.", ".tabula/rules/b.md": "Rule B.", ".tabula/rules/a.md": "Rule A.", ".tabula/rules/x.txt": "not a rule" } });
    t.session.extensions.registerRule("plugin:style", "Plugin rule P.");
    await t.session.run("hi");
    const system = t.model.calls[0]!.prompt[0]!;
    expect(system.role).toBe("system");
    const text = system.content as string;
    expect(text).toContain('<rules source="AGENTS.md">\nAlways use tabs.');
    expect(text.indexOf("Rule A.")).toBeLessThan(text.indexOf("Rule B."));
    expect(text).toContain("Plugin rule P.");
    expect(text).not.toContain("not a rule");
    expect(text).toContain("ACT mode");
  });

  it("refuses a second concurrent run", async () => {
    const t = h([{ text: "slow", delayMs: 30 }]);
    const first = t.session.run("a");
    await expect(t.session.run("b")).rejects.toThrow(/already in progress/);
    await first;
  });
});

describe("stop", () => {
  it("aborts mid-stream: partial text kept, no tool runs", async () => {
    const t = h([{ text: "This is a long answer that streams slowly", delayMs: 20, toolCalls: [{ name: "run_commands", args: { commands: "touch x" } }] }], { approveAll: true });
    const run = t.session.run("go");
    await nextEvent(t.session, "text-delta");
    await nextEvent(t.session, "text-delta");
    t.session.stop();
    const r = await run;
    expect(r.status).toBe("aborted");
    expect(r.reason).toBe("Stopped by the user");
    expect(t.deps.sh.commands).toHaveLength(0);
    const last = t.session.state.messages[t.session.state.messages.length - 1]!;
    expect(last.role).toBe("assistant");
    expect(last.role === "assistant" && last.interrupted).toBe(true);
    expect(t.of("run-finished")[0]!.status).toBe("aborted");
  });

  it("aborts mid-command: the shell's signal fires and the run ends", async () => {
    const t = h([{ toolCalls: [{ name: "run_commands", args: { commands: ["sleep 100", "echo after"] } }] }, { text: "never" }], { approveAll: true });
    t.deps.sh.hang.add("sleep 100");
    const run = t.session.run("go");
    await nextEvent(t.session, "tool-call-started");
    while (t.deps.sh.commands.length === 0) await new Promise((r) => setTimeout(r, 2));
    t.session.stop();
    const r = await run;
    expect(r.status).toBe("aborted");
    expect(t.deps.sh.commands.map((c) => c.command)).toEqual(["sleep 100"]);
    expect(t.deps.sh.commands[0]!.aborted).toBe(true);
    const f = t.of("tool-call-finished")[0]!;
    expect(f.status).toBe("aborted");
    expect(f.output).toContain("[exit code 130: interrupted");
    expect(f.output).toContain("$ echo after\n[not run: stopped by the user]");
    expect(t.model.calls).toHaveLength(1);
  });

  it("aborts while an approval is pending", async () => {
    const t = h([{ toolCalls: [{ name: "run_commands", args: { commands: "ls" } }] }]);
    const run = t.session.run("go");
    await nextEvent(t.session, "approval-requested");
    t.session.stop();
    const r = await run;
    expect(r.status).toBe("aborted");
    expect(t.of("approval-resolved")[0]!.decision).toBe("aborted");
    expect(t.deps.sh.commands).toHaveLength(0);
    expect(t.session.state.pending.approvals).toHaveLength(0);
    // The history stays valid: the call has a result.
    const tool = t.session.state.messages[t.session.state.messages.length - 1]!;
    expect(tool.role).toBe("tool");
  });

  it("an outer AbortSignal stops the run too", async () => {
    const t = h([{ text: "slow slow slow slow slow", delayMs: 20 }]);
    const ac = new AbortController();
    const run = t.session.run("go", { signal: ac.signal });
    await nextEvent(t.session, "text-delta");
    ac.abort();
    expect((await run).status).toBe("aborted");
  });
});
