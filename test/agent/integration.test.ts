/**
 * The agent on the real engines: lib/checkpoints (a checkpoint per run, /undo) and lib/shell
 * (just-bash) over a node:fs workspace made from the sample project, driven by the Demo
 * (scripted) provider and by scripted turns.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession } from "../../lib/agent/session";
import { createWorkspaceAgentDeps } from "../../lib/agent/workspace-deps";
import type { AgentEvent } from "../../lib/agent/events";
import { listCheckpoints } from "../../lib/checkpoints";
import { ChangeJournal, WorkspaceFs, type IsoFs } from "../../lib/fs";
import { createDemoModel } from "../../lib/providers";
import { SAMPLE_PROJECT } from "../../lib/workspaces/sample";
import { populateWorkspace } from "../../lib/workspaces/create";
import { cleanupList, scripted } from "./helpers";
import { testDefenseInDepth } from "../helpers/defense-in-depth";

const cleanups = cleanupList();
afterEach(() => cleanups.run());

async function sampleWorkspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-agent-int-"));
  cleanups.add(() => fs.rmSync(dir, { recursive: true, force: true }));
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal: new ChangeJournal() });
  await populateWorkspace(wsfs, Object.entries(SAMPLE_PROJECT).map(([p, data]) => ({ path: p, data })), { message: "Sample project" });
  return { dir, wsfs, read: (rel: string) => fs.readFileSync(path.join(dir, rel), "utf8") };
}

type Finished = Extract<AgentEvent, { type: "tool-call-finished" }>;

function record(session: AgentSession, approve = true) {
  const events: AgentEvent[] = [];
  session.subscribe((e) => {
    events.push(e);
    if (approve && e.type === "approval-requested") session.approve(e.approvalId);
  });
  return events;
}

describe("agent on the real checkpoint engine and shell", () => {
  it("the Demo provider shows the product on the sample workspace: read, edit, command, complete; /undo restores", async () => {
    const ws = await sampleWorkspace();
    const original = ws.read("src/greet.ts");
    const session = new AgentSession({ deps: createWorkspaceAgentDeps({ wsfs: ws.wsfs, defenseInDepth: testDefenseInDepth }), model: createDemoModel(), workspaceId: "sample" });
    const events = record(session);
    const r = await session.run("Show me what you can do");
    expect(r.status, r.reason).toBe("completed");
    expect(r.summary).toContain("Changed `greet()`");
    expect(ws.read("src/greet.ts")).toContain("Hello, ${name}! Welcome to Tabula.");
    const finished = events.filter((e): e is Finished => e.type === "tool-call-finished");
    expect(finished.map((e) => `${e.toolName}:${e.status}`)).toEqual(["read_files:ok", "editor:ok", "run_commands:ok", "attempt_completion:ok"]);
    const cmd = finished[2]!.output;
    expect(cmd).toContain("src/greet.ts:2:");
    expect(cmd).toContain("Welcome to Tabula");
    expect(cmd).toMatch(/M src\/greet\.ts/);
    expect(events.filter((e) => e.type === "approval-requested").map((e) => (e as { category: string }).category)).toEqual(["edit", "command"]);

    // The run's checkpoint exists in the repository, taken before the edit.
    const cps = await listCheckpoints({ fs: ws.wsfs.fs, dir: ws.dir }, { sessionId: session.id });
    expect(cps.map((c) => c.ref)).toEqual([session.state.checkpoints[0]!.ref]);
    expect(session.state.checkpoints[0]!.ref).toBe(`refs/tabula/checkpoints/${session.id}/1`);

    const undo = await session.run("/undo");
    expect(undo.summary).toContain("Restored 1 file");
    expect(ws.read("src/greet.ts")).toBe(original);

    // A second prompt gets the pointer to the settings.
    const again = await session.run("more!");
    expect(again.summary).toContain("end of the demo script");
  });

  it("plan mode: the shell runs read-only, so a write trick cannot change the workspace", async () => {
    const ws = await sampleWorkspace();
    const session = new AgentSession({
      deps: createWorkspaceAgentDeps({ wsfs: ws.wsfs, defenseInDepth: testDefenseInDepth }),
      model: scripted([{ toolCalls: [{ name: "run_commands", args: { commands: ["echo pwned > README.md", "cat README.md | head -1"] } }] }, { text: "ok" }]),
      workspaceId: "sample",
      mode: "plan",
    });
    const events = record(session);
    await session.run("look around");
    expect(ws.read("README.md")).toBe(SAMPLE_PROJECT["README.md"]);
    const out = events.find((e): e is Finished => e.type === "tool-call-finished")!.output;
    expect(out).toMatch(/Read-only file system|read-only/);
    expect(out).toContain("# Sample project");
  });

  it("stop cancels a running command through the shell's signal", async () => {
    const ws = await sampleWorkspace();
    const deps = createWorkspaceAgentDeps({ wsfs: ws.wsfs, defenseInDepth: testDefenseInDepth });
    await deps.shell({ readOnly: false }); // load just-bash up front so the timing below is the command's
    const session = new AgentSession({
      deps,
      model: scripted([{ toolCalls: [{ name: "run_commands", args: { commands: ["sleep 30"] } }] }, { text: "never" }]),
      workspaceId: "sample",
      approvals: { autoApprove: { command: true } },
    });
    const events = record(session);
    // The command starts right after the checkpoint lands (it is a mutating call).
    session.subscribe((e) => {
      if (e.type === "checkpoint-created") setTimeout(() => session.stop(), 300);
    });
    const t0 = Date.now();
    const r = await session.run("wait");
    expect(r.status).toBe("aborted");
    expect(Date.now() - t0).toBeLessThan(10_000);
    const f = events.find((e): e is Finished => e.type === "tool-call-finished")!;
    expect(f.status).toBe("aborted");
    expect(f.output).toContain("exit code 130");
  });
});
