/**
 * The timeline over the real engines: an agent session of three turns on a node:fs workspace
 * (scripted model, real tools, real checkpoints with end-of-run snapshots), then ticks,
 * previews, restores of files / conversation / both, undo, save points and the history.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as engine from "../../lib/checkpoints";
import { buildTimeline, conversationAt, workspaceHistory } from "../../lib/timeline";
import { AgentSession } from "../../lib/agent/session";
import { cleanupList, scripted } from "../agent/helpers";
import { threeTurnSession } from "./three-turns";

const cleanups = cleanupList();
afterEach(() => cleanups.run());
const threeTurns = () => threeTurnSession(cleanups);

describe("timeline", () => {
  it("has one tick per turn plus the last turn's end, attributed to the agent", async () => {
    const t = await threeTurns();
    const ticks = await t.timeline.ticks(t.session);
    expect(ticks.map((k) => [k.title, k.detail, k.since?.by ?? null])).toEqual([
      ["Turn 1", "first", null],
      ["Turn 2", "second", "agent"],
      ["Turn 3", "third", "agent"],
      ["After turn 3", "third", "agent"],
    ]);
    expect(ticks[0]!.messageId).toBe(t.session.state.messages[0]!.id);
  });

  it("previews what restoring a tick would change, with line counts, without writing a file", async () => {
    const t = await threeTurns();
    const [turn1] = await t.timeline.ticks(t.session);
    const seq = t.journal.seq;
    const before = fs.readdirSync(t.dir).sort();
    const p = await t.timeline.preview(turn1!.ref);
    expect(p.files).toEqual([
      { path: "a.txt", change: "modified", added: 1, removed: 1 },
      { path: "b.txt", change: "added", added: 1, removed: 0 },
      { path: "c.txt", change: "deleted", added: 0, removed: 1 },
    ]);
    expect(t.journal.seq).toBe(seq);
    expect(fs.readdirSync(t.dir).sort()).toEqual(before);
    expect(t.read("a.txt")).toBe("alpha three\n");
    const d = await t.timeline.fileDiff(turn1!.ref, "a.txt", async (p) => new Uint8Array(fs.readFileSync(path.join(t.dir, p))));
    expect(d).toMatchObject({ then: "alpha\n", now: "alpha three\n", binary: false });
    // Cached until the working tree changes.
    expect(await t.timeline.preview(turn1!.ref)).toBe(p);
    await t.wsfs.writeFile("a.txt", "changed by hand\n");
    expect(await t.timeline.preview(turn1!.ref)).not.toBe(p);
  });

  it("restores files only, then undoes the restore", async () => {
    const t = await threeTurns();
    const [turn1] = await t.timeline.ticks(t.session);
    const messages = t.session.state.messages.length;
    const out = await t.timeline.restore(t.session, turn1!, "files");
    expect([t.read("a.txt"), t.read("b.txt"), t.read("c.txt")]).toEqual(["alpha\n", "beta\n", undefined]);
    expect(out.changed.map((c) => `${c.change} ${c.path}`).sort()).toEqual(["added b.txt", "deleted c.txt", "modified a.txt"]);
    expect(t.session.state.messages).toHaveLength(messages);
    expect(out.prompt).toBeUndefined();
    // The replaced state is now a tick.
    const ticks = await t.timeline.ticks(t.session);
    expect(ticks.at(-1)).toMatchObject({ kind: "restore", title: "Before a restore", detail: "Before restoring to turn 1: first" });
    await t.timeline.undo(t.session, out);
    expect([t.read("a.txt"), t.read("b.txt"), t.read("c.txt")]).toEqual(["alpha three\n", undefined, "gamma\n"]);
  });

  it("restores the conversation only (files untouched), returning the turn's prompt; undo puts it back", async () => {
    const t = await threeTurns();
    const ticks = await t.timeline.ticks(t.session);
    const all = t.session.state.messages.map((m) => m.id);
    const out = await t.timeline.restore(t.session, ticks[1]!, "conversation");
    expect(out.prompt).toBe("second");
    expect(t.session.state.messages.map((m) => m.id)).toEqual(all.slice(0, all.indexOf(ticks[1]!.messageId!)));
    expect(t.read("a.txt")).toBe("alpha three\n");
    expect(out.txid).toBeUndefined();
    await t.timeline.undo(t.session, out);
    expect(t.session.state.messages.map((m) => m.id)).toEqual(all);
  });

  it("restores both", async () => {
    const t = await threeTurns();
    const ticks = await t.timeline.ticks(t.session);
    const out = await t.timeline.restore(t.session, ticks[2]!, "both");
    expect(out.prompt).toBe("third");
    expect([t.read("a.txt"), t.read("b.txt"), t.read("c.txt")]).toEqual(["alpha one\n", "beta\n", "gamma\n"]);
    expect(t.session.state.messages.filter((m) => m.role === "user").map((m) => m.run)).toEqual([1, 2]);
  });

  it("shows edits made by hand between turns as yours, not the agent's", async () => {
    const t = await threeTurns();
    await t.wsfs.writeFile("notes.md", "mine\n");
    const model = scripted([{ text: "turn 4 done" }]);
    t.session.configure({ model });
    await t.session.run("fourth");
    const ticks = await t.timeline.ticks(t.session);
    expect(ticks.map((k) => [k.title, k.since?.by ?? null])).toEqual([
      ["Turn 1", null],
      ["Turn 2", "agent"],
      ["Turn 3", "agent"],
      ["After turn 3", "agent"],
      ["Turn 4", "you"],
    ]);
    const mine = await t.timeline.changesBetween(ticks[4]!.since!.ref, ticks[4]!.ref);
    expect(mine.map((e) => `${e.change} ${e.path}`)).toEqual(["added notes.md"]);
  });

  it("save points: create, name, pin, restore to them; prune keeps pinned ones", async () => {
    const t = await threeTurns();
    const sp = await t.timeline.savePoint(t.session.id, "  works   here ");
    expect(sp.label).toBe("works here");
    await t.wsfs.writeFile("a.txt", "broken\n");
    const renamed = await t.timeline.rename(sp.ref, "known good");
    await t.timeline.pin(sp.ref, true);
    let tick = (await t.timeline.ticks(t.session)).find((k) => k.ref === sp.ref)!;
    expect(tick).toMatchObject({ kind: "save", title: "Save point", detail: "known good", pinned: true });
    expect(renamed.tree).toBe(sp.tree);
    await t.timeline.restore(t.session, tick, "files");
    expect(t.read("a.txt")).toBe("alpha three\n");
    await engine.pruneCheckpoints(t.ws, { keepLast: 0 });
    tick = (await t.timeline.ticks(t.session)).find((k) => k.ref === sp.ref)!;
    expect(tick).toBeDefined();
    expect((await t.timeline.ticks(t.session)).map((k) => k.kind)).toEqual(["save"]);
  });

  it("the workspace history merges every session's checkpoints, newest first, naming deleted sessions", async () => {
    const t = await threeTurns();
    await engine.createCheckpoint(t.ws, { sessionId: "gone", run: 1, label: "old work" });
    const h = await workspaceHistory(engine, t.ws, [{ id: t.session.id, title: "My session" }]);
    expect(h[0]).toMatchObject({ sessionId: "gone", sessionTitle: "Deleted session", sessionExists: false, title: "Turn 1", detail: "old work" });
    expect(h.slice(1).map((e) => e.title)).toEqual(["After turn 3", "Turn 3", "After turn 2", "Turn 2", "After turn 1", "Turn 1"]);
    expect(h.every((e, i) => i === 0 || e.at <= h[i - 1]!.at)).toBe(true);
  });
});

describe("a team or a sub-agent on its parent's timeline", () => {
  it("shows the children of one call as one tick, before them; restoring it undoes them all at once, and undo brings them back", async () => {
    const t = await threeTurns();
    const child = (id: string, turns: Parameters<typeof scripted>[0]) => {
      const s = new AgentSession({ deps: t.session.deps, id, model: scripted(turns), workspaceId: "w", parent: { sessionId: t.session.id, toolCallId: "call-team" }, approvals: { autoApprove: { edit: true } } as never });
      return s;
    };
    const a = child("teamAt1", [{ toolCalls: [{ name: "editor", args: { command: "create", path: "d.txt", file_text: "delta\n" } }] }, { text: "made d" }]);
    const b = child("teamAt2", [{ toolCalls: [{ name: "editor", args: { command: "str_replace", path: "a.txt", old_str: "alpha three", new_str: "alpha team" } }] }, { text: "edited a" }]);
    expect((await a.run("make d")).status).toBe("completed");
    expect((await b.run("edit a")).status).toBe("completed");
    await a.history.checkpointsSettled();
    await b.history.checkpointsSettled();

    const ticks = await t.timeline.ticks(t.session, [{ key: "call-team", title: "Team: docs", sessionIds: [a.id, b.id] }]);
    expect(ticks.map((k) => k.title)).toEqual(["Turn 1", "Turn 2", "Turn 3", "After turn 3", "Team: docs"]);
    const team = ticks.at(-1)!;
    expect(team.group).toMatchObject({ key: "call-team", sessions: 2 });
    expect(team.group!.checkpoints).toBeGreaterThanOrEqual(2);
    expect(team.since).toEqual({ ref: ticks[3]!.ref, by: "agent" });
    // Its preview is what restoring it would change: the whole team undone.
    expect((await t.timeline.preview(team.ref)).files.map((f) => `${f.change} ${f.path}`)).toEqual(["modified a.txt", "deleted d.txt"]);

    const out = await t.timeline.restore(t.session, team, "files");
    expect([t.read("a.txt"), t.read("d.txt")]).toEqual(["alpha three\n", undefined]);
    expect(out.changed.map((c) => `${c.change} ${c.path}`).sort()).toEqual(["deleted d.txt", "modified a.txt"]);
    await t.timeline.undo(t.session, out);
    expect([t.read("a.txt"), t.read("d.txt")]).toEqual(["alpha team\n", "delta\n"]);
    // Without groups the parent's own ticks are as before.
    expect((await t.timeline.ticks(t.session)).map((k) => k.title)).not.toContain("Team: docs");
  });
});

describe("timeline model", () => {
  const info = (run: string | number, kind: "run" | "end" | "save" | "restore", at: number, tree: string) => ({ ref: `refs/tabula/checkpoints/s/${run}`, oid: "o", tree, sessionId: "s", run, createdAt: at, kind, skippedLarge: [] });
  it("hides an end tick identical to the next turn, and the last one when the turn changed nothing", () => {
    const ticks = buildTimeline([info(1, "run", 1, "t0"), info("1-end", "end", 2, "t1"), info(2, "run", 3, "t1"), info("2-end", "end", 4, "t1")], []);
    expect(ticks.map((k) => k.title)).toEqual(["Turn 1", "Turn 2"]);
  });
  it("conversation cut: before a turn's prompt, after an end, by time for a save point", () => {
    const msgs = [
      { id: "u1", role: "user", kind: "prompt", run: 1, createdAt: 10, content: [{ type: "text", text: "one" }] },
      { id: "a1", role: "assistant", run: 1, createdAt: 11, content: [{ type: "text", text: "x" }] },
      { id: "u2", role: "user", kind: "prompt", run: 2, createdAt: 20, content: [{ type: "text", text: "two" }] },
      { id: "a2", role: "assistant", run: 2, createdAt: 21, content: [{ type: "text", text: "y" }] },
    ] as never;
    expect(conversationAt({ ref: "r", kind: "run", run: 2, at: 19, tree: "", title: "" }, msgs)).toEqual({ keep: 2, prompt: "two" });
    expect(conversationAt({ ref: "r", kind: "end", run: 1, at: 12, tree: "", title: "" }, msgs)).toEqual({ keep: 2 });
    expect(conversationAt({ ref: "r", kind: "save", at: 20, tree: "", title: "" }, msgs)).toEqual({ keep: 3 });
  });
});
