/**
 * A session wired to the mode profiles, on the real shell and checkpoint engine: in Plan mode an
 * edit and a writing command are refused before any approval is asked, the workspace is unchanged,
 * and a switch to Act mid-session is seen by the very next tool call.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession } from "../../lib/agent/session";
import { createWorkspaceAgentDeps } from "../../lib/agent/workspace-deps";
import type { AgentEvent } from "../../lib/agent/events";
import { ChangeJournal, WorkspaceFs, type IsoFs } from "../../lib/fs";
import { createModedSession, forkModedSession, installModeHooks, modeSessionOptions } from "../../lib/modes";
import { populateWorkspace } from "../../lib/workspaces/create";
import { scripted } from "../agent/helpers";
import { testDefenseInDepth } from "../helpers/defense-in-depth";

let dir = "";
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("mode profiles wired into a session", () => {
  it("Plan refuses edits and writing commands without asking; Act runs them after approval", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-modes-wiring-"));
    const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal: new ChangeJournal() });
    await populateWorkspace(wsfs, [{ path: "f.txt", data: "original\n" }], { message: "init" });
    const model = scripted([
      { toolCalls: [{ name: "editor", args: { command: "create", path: "new.txt", file_text: "x" } }] },
      { toolCalls: [{ name: "run_commands", args: { commands: ["echo x > f.txt"] } }] },
      { toolCalls: [{ name: "run_commands", args: { commands: ["cat f.txt"] } }] },
      { text: "The file says original." },
      // The loop nudges once when a Plan run ends without submit_plan; an honest answer ends it.
      { text: "No plan is needed for this question." },
      { toolCalls: [{ name: "run_commands", args: { commands: ["echo changed > f.txt"] } }] },
      { text: "Done." },
    ]);
    const session = new AgentSession({ deps: createWorkspaceAgentDeps({ wsfs, defenseInDepth: testDefenseInDepth }), model, workspaceId: "w", mode: "plan", ...modeSessionOptions() });
    installModeHooks(session);
    const events: AgentEvent[] = [];
    session.subscribe((e) => {
      events.push(e);
      if (e.type === "approval-requested") session.approve(e.approvalId);
    });

    await session.run("What does f.txt say?");
    const finished = events.filter((e): e is Extract<AgentEvent, { type: "tool-call-finished" }> => e.type === "tool-call-finished");
    expect(finished.map((e) => `${e.toolName}:${e.status}`)).toEqual(["editor:blocked", "run_commands:blocked", "run_commands:ok"]);
    expect(finished[0].blockedByPolicy && finished[1].blockedByPolicy).toBe(true);
    expect(finished[1].blockReason).toMatch(/Plan mode/);
    // The user is asked only about the allowed read command, never about a call that would only fail.
    const asked = events.filter((e): e is Extract<AgentEvent, { type: "approval-requested" }> => e.type === "approval-requested");
    expect(asked.map((e) => e.toolCallId)).toEqual([finished[2].toolCallId]);
    expect(fs.readFileSync(path.join(dir, "f.txt"), "utf8")).toBe("original\n");
    expect(fs.existsSync(path.join(dir, "new.txt"))).toBe(false);

    session.setMode("act");
    await session.run("Now change it");
    // The switch was announced to the model in its next request, once.
    const promptText = (i: number) => JSON.stringify(model.calls[i].prompt);
    const firstActRequest = model.calls.length - 2;
    expect(promptText(firstActRequest)).toContain("from Plan mode to Act mode");
    expect(promptText(firstActRequest + 1)).not.toContain("from Plan mode to Act mode");
    expect(events.filter((e) => e.type === "approval-requested")).toHaveLength(2);
    expect(fs.readFileSync(path.join(dir, "f.txt"), "utf8")).toBe("changed\n");
  });
});

describe("the app's session factory", () => {
  it("new, restored and forked sessions all carry the mode guard", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-modes-factory-"));
    const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal: new ChangeJournal() });
    await populateWorkspace(wsfs, [{ path: "f.txt", data: "original\n" }], { message: "init" });
    const deps = createWorkspaceAgentDeps({ wsfs, defenseInDepth: testDefenseInDepth });
    const write = { toolCalls: [{ name: "run_commands", args: { commands: ["echo x > f.txt"] } }] };
    const refusedWithoutAsking = async (s: AgentSession) => {
      const events: AgentEvent[] = [];
      const off = s.subscribe((e) => events.push(e));
      await s.run("write it");
      off();
      expect(events.filter((e) => e.type === "approval-requested")).toEqual([]);
      const done = events.find((e) => e.type === "tool-call-finished" && e.toolName === "run_commands");
      expect(done && done.type === "tool-call-finished" && done.status).toBe("blocked");
      expect(fs.readFileSync(path.join(dir, "f.txt"), "utf8")).toBe("original\n");
    };

    const fresh = createModedSession({ deps, model: scripted([write, { text: "ok" }, { text: "No plan needed." }]), workspaceId: "w", mode: "plan" });
    await refusedWithoutAsking(fresh);

    const restored = createModedSession({ deps, model: scripted([write, { text: "ok" }, { text: "No plan needed." }]), workspaceId: "w" }, fresh.toJSON());
    expect(restored.state.mode).toBe("plan");
    await refusedWithoutAsking(restored);

    const firstPrompt = fresh.state.messages.find((m) => m.role === "user")!;
    const forked = forkModedSession(fresh, firstPrompt.id);
    forked.configure({ model: scripted([write, { text: "ok" }, { text: "No plan needed." }]) });
    await refusedWithoutAsking(forked);
  });
});

describe("the policy in the session's tool pipeline", () => {
  const setup = async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-modes-policy-"));
    const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal: new ChangeJournal() });
    await populateWorkspace(wsfs, [{ path: "f.txt", data: "original\n" }], { message: "init" });
    return createWorkspaceAgentDeps({ wsfs, defenseInDepth: testDefenseInDepth });
  };

  it("a call the mode refuses never reaches a plugin's beforeTool; one the mode admits does, once", async () => {
    const deps = await setup();
    const model = scripted([
      { toolCalls: [{ name: "editor", args: { command: "create", path: "n.txt", file_text: "x" } }] },
      { toolCalls: [{ name: "run_commands", args: { commands: ["cat f.txt"] } }] },
      { text: "No plan is needed." },
    ]);
    const session = createModedSession({ deps, model, workspaceId: "w", mode: "plan", approvals: { autoApprove: { command: true } } });
    const seen: string[] = [];
    session.hooks.register({ name: "probe", hooks: { beforeTool: ({ toolCall }) => void seen.push(toolCall.name) } });
    const events: AgentEvent[] = [];
    session.subscribe((e) => events.push(e));
    await session.run("look");
    const finished = events.filter((e): e is Extract<AgentEvent, { type: "tool-call-finished" }> => e.type === "tool-call-finished");
    expect(finished.map((e) => `${e.toolName}:${e.status}`)).toEqual(["editor:blocked", "run_commands:ok"]);
    expect(finished[0]!.blockReason).toBe("Plan mode is read-only: editor would change files. Submit a plan with submit_plan instead.");
    expect(seen).toEqual(["run_commands"]);
    // The user's auto-approve choice still applies to what the mode admits.
    expect(events.filter((e) => e.type === "approval-requested")).toEqual([]);
    expect(session.hooks.list().map((r) => r.name)).not.toContain("mode-guard");
  });

  it("a hook that rewrites a read into a write meets the policy again, and the write is refused", async () => {
    const deps = await setup();
    const model = scripted([{ toolCalls: [{ name: "run_commands", args: { commands: ["cat f.txt"] } }] }, { text: "No plan is needed." }]);
    const session = createModedSession({ deps, model, workspaceId: "w", mode: "plan", approvals: { autoApprove: { command: true } } });
    session.hooks.register({ name: "rewriter", hooks: { beforeTool: () => ({ input: { commands: ["echo x > f.txt"] } }) } });
    const events: AgentEvent[] = [];
    session.subscribe((e) => events.push(e));
    await session.run("look");
    const done = events.find((e): e is Extract<AgentEvent, { type: "tool-call-finished" }> => e.type === "tool-call-finished")!;
    expect(done).toMatchObject({ status: "blocked", blockedByPolicy: true });
    expect(done.blockReason).toMatch(/^Plan mode is read-only: `echo x > f.txt` would change files/);
    expect(fs.readFileSync(path.join(dir, "f.txt"), "utf8")).toBe("original\n");
  });
});
