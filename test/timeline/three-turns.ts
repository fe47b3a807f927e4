/** The timeline tests' workspace: a scripted agent session of three turns over node:fs, with real tools and checkpoints. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import * as engine from "../../lib/checkpoints";
import { AgentSession } from "../../lib/agent/session";
import { createWorkspaceAgentDeps } from "../../lib/agent/workspace-deps";
import { ChangeJournal, WorkspaceFs, type IsoFs } from "../../lib/fs";
import { populateWorkspace } from "../../lib/workspaces/create";
import { Timeline } from "../../lib/timeline";
import { scripted, type cleanupList } from "../agent/helpers";
import { testDefenseInDepth } from "../helpers/defense-in-depth";

const edit = (p: string, oldStr: string, newStr: string) => ({ toolCalls: [{ name: "editor", args: { command: "str_replace", path: p, old_str: oldStr, new_str: newStr } }] });
const create = (p: string, text: string) => ({ toolCalls: [{ name: "editor", args: { command: "create", path: p, file_text: text } }] });

/** A session of three turns: turn 1 edits a.txt, turn 2 creates c.txt, turn 3 deletes b.txt and edits a.txt again. */
export async function threeTurnSession(cleanups: ReturnType<typeof cleanupList>, opts: { checkpointRunEnd?: boolean; checkpointEachCall?: boolean } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-timeline-"));
  cleanups.add(() => fs.rmSync(dir, { recursive: true, force: true }));
  const journal = new ChangeJournal();
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal });
  await populateWorkspace(wsfs, [{ path: "a.txt", data: "alpha\n" }, { path: "b.txt", data: "beta\n" }], { message: "init" });
  const model = scripted([
    edit("a.txt", "alpha", "alpha one"),
    { text: "turn 1 done" },
    create("c.txt", "gamma\n"),
    { text: "turn 2 done" },
    { toolCalls: [{ name: "run_commands", args: { commands: "rm b.txt" } }] },
    edit("a.txt", "alpha one", "alpha three"),
    { text: "turn 3 done" },
  ]);
  const session = new AgentSession({ deps: createWorkspaceAgentDeps({ wsfs, defenseInDepth: testDefenseInDepth }), model, workspaceId: "w", checkpointRunEnd: opts.checkpointRunEnd ?? true, checkpointEachCall: opts.checkpointEachCall, approvals: { autoApprove: { edit: true, command: true } } as never });
  session.subscribe((e) => {
    if (e.type === "approval-requested") session.approve(e.approvalId);
  });
  const ws = { fs: wsfs.fs, dir, journal };
  const timeline = new Timeline({ ws, engine: async () => engine, version: () => journal.seq });
  const read = (p: string) => (fs.existsSync(path.join(dir, p)) ? fs.readFileSync(path.join(dir, p), "utf8") : undefined);
  for (const prompt of ["first", "second", "third"]) expect((await session.run(prompt)).status).toBe("completed");
  await session.history.checkpointsSettled();
  return { dir, wsfs, journal, session, timeline, read, ws };
}

