import { describe, expect, it } from "vitest";
import { isAutoApproved, matchesAllowedPrefix, suggestPrefix } from "../../lib/agent/approvals";
import { DEFAULT_APPROVALS } from "../../lib/agent/types";
import { nextEvent, toolResultsSent, harnessPerTest } from "./helpers";

const { h } = harnessPerTest();

const edit = { name: "editor", args: { command: "str_replace", path: "a.ts", old_str: "const a = 1;", new_str: "const a = 2;" } };

describe("approvals", () => {
  it("an edit asks first, with the diff computed before anything is written; approve writes it", async () => {
    const t = h([{ toolCalls: [edit] }, { text: "done" }], { files: { "a.ts": "const a = 1;\nexport { a };\n" } });
    const asked = nextEvent(t.session, "approval-requested");
    const run = t.session.run("bump a");
    const e = await asked;
    expect(e.kind).toBe("tool");
    expect(e.category).toBe("edit");
    expect(e.preview?.kind).toBe("diff");
    const file = e.preview?.kind === "diff" ? e.preview.files[0]! : undefined;
    expect(file).toMatchObject({ path: "a.ts", change: "modify", added: 1, removed: 1 });
    expect(file!.diff).toContain("-const a = 1;\n+const a = 2;");
    expect(t.ws.read("a.ts")).toBe("const a = 1;\nexport { a };\n"); // nothing written yet
    expect(t.session.state.pending.approvals).toHaveLength(1);
    t.session.approve(e.approvalId);
    const r = await run;
    expect(r.status).toBe("completed");
    expect(t.ws.read("a.ts")).toBe("const a = 2;\nexport { a };\n");
    expect(t.of("approval-resolved")[0]).toMatchObject({ decision: "approved" });
    expect(t.of("tool-call-finished")[0]!.data).toMatchObject({ path: "a.ts", change: "modify" });
  });

  it("reject with feedback: nothing written, the model reads the feedback, later calls of the message are skipped", async () => {
    const t = h([{ toolCalls: [edit, { name: "run_commands", args: { commands: "ls" } }] }, { text: "ok, I will" }], { files: { "a.ts": "const a = 1;\n" } });
    const asked = nextEvent(t.session, "approval-requested");
    const run = t.session.run("bump a");
    t.session.reject((await asked).approvalId, "Use 3, not 2");
    const r = await run;
    expect(r.status).toBe("completed");
    expect(t.ws.read("a.ts")).toBe("const a = 1;\n");
    const sent = toolResultsSent(t.model, 1);
    expect(sent[0]).toContain("The user rejected this editor call");
    expect(sent[0]).toContain("Their feedback: Use 3, not 2");
    expect(sent[1]).toContain("the user rejected an earlier call");
    expect(t.deps.sh.commands).toHaveLength(0);
    expect(t.of("tool-call-finished").map((e) => e.status)).toEqual(["rejected", "skipped"]);
  });

  it("a command asks with the command shown; always-allow adds the prefix for the session", async () => {
    const t = h([
      { toolCalls: [{ name: "run_commands", args: { commands: "npm test" } }] },
      { toolCalls: [{ name: "run_commands", args: { commands: "npm test -- --watch=false" } }] },
      { toolCalls: [{ name: "run_commands", args: { commands: "npm test; rm -rf /" } }] },
      { text: "done" },
    ]);
    const seen: string[][] = [];
    t.session.subscribe((e) => {
      if (e.type !== "approval-requested") return;
      seen.push(e.preview?.kind === "command" ? e.preview.commands : []);
      if (seen.length === 1) {
        expect(e.suggestedPrefix).toBe("npm test");
        t.session.approve(e.approvalId, { alwaysAllowPrefix: e.suggestedPrefix });
      } else t.session.reject(e.approvalId);
    });
    await t.session.run("test it");
    // Asked for the first and the third (not a simple command), not the second.
    expect(seen).toEqual([["npm test"], ["npm test; rm -rf /"]]);
    expect(t.session.state.approvals.allowedCommandPrefixes).toEqual(["npm test"]);
    expect(t.deps.sh.commands.map((c) => c.command)).toEqual(["npm test", "npm test -- --watch=false"]);
  });

  it("auto-approve per category", async () => {
    const t = h([{ toolCalls: [edit] }, { toolCalls: [{ name: "run_commands", args: { commands: "ls" } }] }, { text: "done" }], {
      files: { "a.ts": "const a = 1;\n" },
      session: { approvals: { autoApprove: { edit: true } } },
    });
    const asked: string[] = [];
    t.session.subscribe((e) => {
      if (e.type === "approval-requested") {
        asked.push(e.category);
        t.session.approve(e.approvalId);
      }
    });
    await t.session.run("go");
    expect(asked).toEqual(["command"]);
    expect(t.ws.read("a.ts")).toBe("const a = 2;\n");

    const u = h([{ toolCalls: [{ name: "read_files", args: { files: [{ path: "a.ts" }] } }] }, { text: "done" }], {
      files: { "a.ts": "x\n" },
      session: { approvals: { autoApprove: { read: false } } },
    });
    const q = nextEvent(u.session, "approval-requested");
    const run = u.session.run("go");
    const e = await q;
    expect(e.category).toBe("read");
    u.session.approve(e.approvalId);
    expect((await run).status).toBe("completed");

    // Switches can change mid-session.
    t.session.configure({ approvals: { autoApprove: { command: true } } });
    expect(t.session.state.approvals.autoApprove).toEqual({ read: true, edit: true, command: true });
  });

  it("a call that can only fail is not shown for approval", async () => {
    const t = h([{ toolCalls: [{ name: "editor", args: { command: "str_replace", path: "missing.ts", old_str: "a", new_str: "b" } }] }, { text: "ok" }]);
    await t.session.run("go");
    expect(t.of("approval-requested")).toHaveLength(0);
    expect(t.of("tool-call-finished")[0]!.output).toContain("does not exist");
  });

  it("an edit is not applied over a change made while the approval was pending", async () => {
    const t = h([{ toolCalls: [edit] }, { text: "ok" }], { files: { "a.ts": "const a = 1;\n" } });
    const asked = nextEvent(t.session, "approval-requested");
    const run = t.session.run("go");
    const e = await asked;
    t.ws.write("a.ts", "const a = 1;\n// the user typed this\n");
    t.session.approve(e.approvalId);
    await run;
    expect(t.ws.read("a.ts")).toBe("const a = 1;\n// the user typed this\n");
    expect(t.of("tool-call-finished")[0]!.output).toContain("changed after this edit was proposed");
  });

  it("policy helpers", () => {
    expect(matchesAllowedPrefix("git status", ["git status"])).toBe(true);
    expect(matchesAllowedPrefix("git statusx", ["git status"])).toBe(false);
    expect(matchesAllowedPrefix("git status && rm x", ["git status"])).toBe(false);
    expect(matchesAllowedPrefix("git status $(rm x)", ["git status"])).toBe(false);
    expect(matchesAllowedPrefix("git status > out", ["git status"])).toBe(false);
    expect(suggestPrefix("npm run build --prod")).toBe("npm run");
    expect(suggestPrefix("ls -la")).toBe("ls");
    expect(isAutoApproved("read", DEFAULT_APPROVALS)).toBe(true);
    expect(isAutoApproved("edit", DEFAULT_APPROVALS)).toBe(false);
    expect(isAutoApproved("command", DEFAULT_APPROVALS, ["ls"])).toBe(false);
    expect(isAutoApproved("none", DEFAULT_APPROVALS)).toBe(true);
    expect(isAutoApproved("always", { autoApprove: { read: true, edit: true, command: true }, allowedCommandPrefixes: [] })).toBe(false);
    expect(isAutoApproved("command", { ...DEFAULT_APPROVALS, allowedCommandPrefixes: ["ls"] }, ["ls -l", "ls src"])).toBe(true);
    expect(isAutoApproved("command", { ...DEFAULT_APPROVALS, allowedCommandPrefixes: ["ls"] }, ["ls -l", "cat x"])).toBe(false);
  });
});

describe("checkpoint per run", () => {
  it("is started with the first model request and awaited before the first mutating tool", async () => {
    const t = h([{ toolCalls: [edit] }, { text: "done" }], { files: { "a.ts": "const a = 1;\n" }, approveAll: true, checkpointDelayMs: 60 });
    let writtenAt = 0;
    t.ws.wsfs.journal.subscribe(() => (writtenAt = performance.now()));
    let requestAt = 0;
    t.session.subscribe((e) => {
      if (e.type === "model-request" && !requestAt) requestAt = performance.now();
    });
    const r = await t.session.run("bump");
    expect(r.status).toBe("completed");
    const cp = t.deps.cp.created;
    expect(cp).toHaveLength(1);
    expect(cp[0]!.run).toBe(1);
    expect(cp[0]!.sessionId).toBe(t.session.id);
    // Started right after the request left (in parallel), not before it.
    expect(cp[0]!.at).toBeGreaterThanOrEqual(requestAt);
    // The write happened after the checkpoint existed.
    expect(writtenAt).toBeGreaterThan(cp[0]!.doneAt!);
    // Recorded on the session and emitted.
    expect(t.session.state.checkpoints).toHaveLength(1);
    expect(t.session.state.checkpoints[0]).toMatchObject({ run: 1, ref: `refs/tabula/checkpoints/${t.session.id}/1`, messageId: t.session.state.messages[0]!.id });
    expect(t.types().indexOf("checkpoint-created")).toBeLessThan(t.events.findIndex((e) => e.type === "tool-call-finished"));
  });

  it("read-only calls do not wait for the checkpoint, nor does the end of a run that changed nothing", async () => {
    const t = h([{ toolCalls: [{ name: "list_files", args: {} }] }, { text: "done" }], { checkpointDelayMs: 200 });
    const run = t.session.run("go");
    const f = await nextEvent(t.session, "tool-call-finished");
    expect(t.session.state.checkpoints).toHaveLength(0); // still being taken
    expect(f.status).toBe("ok");
    const r = await run;
    expect(r.status).toBe("completed");
    await t.session.history.checkpointsSettled();
    expect(t.session.state.checkpoints).toHaveLength(1); // recorded when it lands
  });

  it("one checkpoint per run, numbered", async () => {
    const t = h([{ text: "one" }, { text: "two" }]);
    await t.session.run("a");
    await t.session.run("b");
    await t.session.history.checkpointsSettled();
    expect(t.deps.cp.created.map((c) => c.run)).toEqual([1, 2]);
    expect(t.of("checkpoint-created").map((e) => e.run)).toEqual([1, 2]);
  });

  it("when the checkpoint fails, nothing is changed and the run fails clearly", async () => {
    const t = h([{ toolCalls: [edit, { name: "list_files", args: {} }] }, { text: "never" }], { files: { "a.ts": "const a = 1;\n" }, approveAll: true });
    t.deps.cp.fail = "disk full";
    const r = await t.session.run("bump");
    expect(r.status).toBe("failed");
    expect(r.reason).toContain("checkpoint could not be created (disk full)");
    expect(t.ws.read("a.ts")).toBe("const a = 1;\n");
    expect(t.of("tool-call-finished").map((e) => e.status)).toEqual(["error", "skipped"]);
    expect(t.of("error").some((e) => e.code === "checkpoint")).toBe(true);
  });
});
