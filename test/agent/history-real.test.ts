/**
 * /undo, edit & resend with file restore, and fork on the real checkpoint engine
 * (lib/checkpoints over a node:fs git repository) and the real shell, not the fakes of
 * history.test.ts: the files on disk and the refs in the repository are what is checked.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../lib/agent/events";
import { AgentSession } from "../../lib/agent/session";
import { createWorkspaceAgentDeps } from "../../lib/agent/workspace-deps";
import { listCheckpoints } from "../../lib/checkpoints";
import { ChangeJournal, WorkspaceFs, type IsoFs } from "../../lib/fs";
import type { ScriptedTurn } from "../../lib/providers/scripted";
import { populateWorkspace } from "../../lib/workspaces/create";
import { testDefenseInDepth } from "../helpers/defense-in-depth";
import { git } from "../checkpoints/helpers";
import { cleanupList, scripted } from "./helpers";

const cleanups = cleanupList();
afterEach(() => cleanups.run());

const edit = (p: string, from: string, to: string): ScriptedTurn => ({ toolCalls: [{ name: "editor", args: { command: "str_replace", path: p, old_str: from, new_str: to } }] });
const create = (p: string, text: string): ScriptedTurn => ({ toolCalls: [{ name: "editor", args: { command: "create", path: p, file_text: text } }] });

async function realSession(turns: ScriptedTurn[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-history-real-"));
  cleanups.add(() => fs.rmSync(dir, { recursive: true, force: true }));
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal: new ChangeJournal() });
  await populateWorkspace(
    wsfs,
    [
      { path: "a.txt", data: "zero\n" },
      { path: "keep.txt", data: "untouched\n" },
    ],
    { message: "start" },
  );
  const session = new AgentSession({ deps: createWorkspaceAgentDeps({ wsfs, defenseInDepth: testDefenseInDepth }), model: scripted(turns), workspaceId: "w" });
  const events: AgentEvent[] = [];
  session.subscribe((e) => {
    events.push(e);
    if (e.type === "approval-requested") session.approve(e.approvalId);
  });
  const read = (rel: string) => (fs.existsSync(path.join(dir, rel)) ? fs.readFileSync(path.join(dir, rel), "utf8") : undefined);
  return { dir, wsfs, session, events, read, restored: () => events.filter((e): e is Extract<AgentEvent, { type: "files-restored" }> => e.type === "files-restored") };
}

/** Two turns: a.txt zero → one; then a.txt one → two and b.txt created. */
async function twoTurns(extra: ScriptedTurn[] = []) {
  const t = await realSession([edit("a.txt", "zero", "one"), { text: "did one" }, edit("a.txt", "one", "two"), create("b.txt", "bee\n"), { text: "did two" }, ...extra]);
  expect((await t.session.run("one")).status).toBe("completed");
  expect((await t.session.run("two")).status).toBe("completed");
  await t.session.history.checkpointsSettled();
  expect(t.read("a.txt")).toBe("two\n");
  expect(t.read("b.txt")).toBe("bee\n");
  return t;
}

describe("history on the real checkpoint engine", () => {
  it("/undo puts the files back as they were before the last run, and says what it changed", async () => {
    const t = await twoTurns();
    const r = await t.session.run("/undo");
    expect(t.read("a.txt")).toBe("one\n");
    expect(t.read("b.txt")).toBeUndefined();
    expect(t.read("keep.txt")).toBe("untouched\n");
    const [ev] = t.restored();
    expect(ev!.ref).toBe(`refs/tabula/checkpoints/${t.session.id}/2`);
    expect(ev!.changed.map((c) => c.path).sort()).toEqual(["a.txt", "b.txt"]);
    expect(r.summary).toContain("Restored 2 files");
    // The restore is itself undoable: the engine saved the state it replaced.
    await t.session.history.undoRestore(ev!.txid);
    expect(t.read("a.txt")).toBe("two\n");
    expect(t.read("b.txt")).toBe("bee\n");
  });

  it("edit & resend with restoreFiles: that turn's files come back, then the edited prompt runs on them", async () => {
    const t = await twoTurns([edit("a.txt", "one", "one, edited"), { text: "did the edited two" }]);
    const second = t.session.state.messages.find((m) => m.role === "user" && m.run === 2)!;
    const r = await t.session.history.editAndResend(second.id, "two, edited", { restoreFiles: true });
    expect(r.status).toBe("completed");
    // Restored to before turn 2 (b.txt gone), then the resent turn edited a.txt again.
    expect(t.restored().map((e) => e.ref)).toEqual([`refs/tabula/checkpoints/${t.session.id}/2`]);
    expect(t.read("b.txt")).toBeUndefined();
    expect(t.read("a.txt")).toBe("one, edited\n");
    const prompts = t.session.state.messages.filter((m) => m.role === "user").map((m) => (m.content[0] as { text: string }).text);
    expect(prompts).toEqual(["one", "two, edited"]);
    // The resent turn has a checkpoint of its own, taken after the restore.
    await t.session.history.checkpointsSettled();
    const last = t.session.state.checkpoints.at(-1)!;
    expect(last.run).toBe(3);
    expect(git(t.dir, ["show", `${last.ref}:a.txt`])).toBe("one");
    expect(git(t.dir, ["ls-tree", "--name-only", last.ref])).not.toContain("b.txt");
  });

  it("edit & resend without restoreFiles leaves the files alone", async () => {
    const t = await twoTurns([{ text: "answered again" }]);
    const second = t.session.state.messages.find((m) => m.role === "user" && m.run === 2)!;
    await t.session.history.editAndResend(second.id, "two, again");
    expect(t.restored()).toEqual([]);
    expect(t.read("a.txt")).toBe("two\n");
    expect(t.read("b.txt")).toBe("bee\n");
  });

  it("a fork keeps the checkpoints up to its message, restorable in the repository; its runs get new refs", async () => {
    const t = await twoTurns([create("fork.txt", "forked\n"), { text: "fork done" }]);
    const firstAnswer = t.session.state.messages.find((m) => m.role === "assistant" && m.run === 1)!;
    const fork = t.session.fork(firstAnswer.id);
    fork.subscribe((e) => {
      if (e.type === "approval-requested") fork.approve(e.approvalId);
    });
    expect(fork.state.checkpoints.map((c) => c.ref)).toEqual([`refs/tabula/checkpoints/${t.session.id}/1`]);
    // The fork's checkpoint is a real commit: restoring it gives the files before turn 1.
    await fork.history.restoreFilesTo(fork.state.checkpoints[0]!.ref);
    expect(t.read("a.txt")).toBe("zero\n");
    expect(t.read("b.txt")).toBeUndefined();
    expect((await fork.run("continue in the fork")).status).toBe("completed");
    await fork.history.checkpointsSettled();
    expect(t.read("fork.txt")).toBe("forked\n");
    const refs = (await listCheckpoints({ fs: t.wsfs.fs, dir: t.dir }, { sessionId: fork.id })).map((c) => c.ref);
    expect(refs).toEqual([`refs/tabula/checkpoints/${fork.id}/3`]);
    // The original session's checkpoints are untouched by the fork.
    const original = (await listCheckpoints({ fs: t.wsfs.fs, dir: t.dir }, { sessionId: t.session.id })).map((c) => c.ref).sort();
    expect(original).toEqual([`refs/tabula/checkpoints/${t.session.id}/1`, `refs/tabula/checkpoints/${t.session.id}/2`]);
  });
});
