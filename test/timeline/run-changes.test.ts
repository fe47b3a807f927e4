/**
 * A turn's changes reviewed as a whole, over the real engine: what each of three turns changed
 * (its checkpoint ↔ what it left), which of those files moved on since, reverting one file or the
 * whole turn (nothing else touched, an undo that brings every byte back), and the review outcome
 * kept on the session's run record.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as engine from "../../lib/checkpoints";
import { cleanupList } from "../agent/helpers";
import { threeTurnSession } from "./three-turns";

const cleanups = cleanupList();
afterEach(() => cleanups.run());

/** Every file of the workspace (outside .git) with its text. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (p === ".git") continue;
      if (e.isDirectory()) walk(p);
      else out[p] = fs.readFileSync(path.join(dir, p), "utf8");
    }
  };
  walk("");
  return out;
}

describe("a turn's changes", () => {
  it("lists what each turn did with line counts, and which files moved on since", async () => {
    const t = await threeTurnSession(cleanups);
    const one = await t.timeline.runChanges(t.session, 1);
    expect(one.files).toEqual([{ path: "a.txt", change: "modified", added: 1, removed: 1, now: "changed-since" }]);
    expect(one.endRef).toMatch(/\/1-end$/);
    const two = await t.timeline.runChanges(t.session, 2);
    expect(two.files).toEqual([{ path: "c.txt", change: "added", added: 1, removed: 0, now: "as-left" }]);
    const three = await t.timeline.runChanges(t.session, 3);
    expect(three.files).toEqual([
      { path: "a.txt", change: "modified", added: 1, removed: 1, now: "as-left" },
      { path: "b.txt", change: "deleted", added: 0, removed: 1, now: "as-left" },
    ]);
    expect(await Promise.all([1, 2, 3, 4].map((n) => t.timeline.runChangeCount(t.session, n)))).toEqual([1, 1, 2, undefined]);
    await expect(t.timeline.runChanges(t.session, 4)).rejects.toThrow("Turn 4 has no checkpoint");

    // An edit by hand after the last turn: its file is no longer as the turn left it.
    await t.wsfs.writeFile("a.txt", "by hand\n");
    expect((await t.timeline.runChanges(t.session, 3)).files[0]).toMatchObject({ path: "a.txt", now: "changed-since" });

    const sides = await t.timeline.runFileDiff(three, "a.txt", async () => undefined);
    expect(sides).toEqual({ before: "alpha one\n", after: "alpha three\n", binary: false });
    const gone = await t.timeline.runFileDiff(three, "b.txt", async () => undefined);
    expect(gone).toEqual({ before: "beta\n", after: "", binary: false });
  });

  it("reverts one file of a turn, touching nothing else, and the undo brings it back", async () => {
    const t = await threeTurnSession(cleanups);
    const before = files(t.dir);
    const two = await t.timeline.runChanges(t.session, 2);
    const r = await t.timeline.revertRunChanges(t.session, two, ["c.txt"]);
    expect(r.changed).toEqual([{ path: "c.txt", change: "deleted" }]);
    expect((await t.timeline.runChanges(t.session, 2)).files).toEqual([{ path: "c.txt", change: "added", added: 1, removed: 0, now: "reverted" }]);
    const { ["c.txt"]: _removed, ...rest } = before;
    expect(files(t.dir)).toEqual(rest);
    // The state the revert replaced is a point on the timeline.
    const ticks = await t.timeline.ticks(t.session);
    expect(ticks.at(-1)).toMatchObject({ kind: "restore", detail: "Before reverting c.txt" });

    await t.timeline.undoFiles(t.session, r.txid);
    expect(files(t.dir)).toEqual(before);
  });

  it("reverts a whole turn, later turns' other files untouched; undo restores every byte", async () => {
    const t = await threeTurnSession(cleanups);
    const before = files(t.dir);
    const three = await t.timeline.runChanges(t.session, 3);
    const r = await t.timeline.revertRunChanges(t.session, three);
    expect(r.changed.map((c) => `${c.change} ${c.path}`).sort()).toEqual(["added b.txt", "modified a.txt"]);
    expect(files(t.dir)).toEqual({ "a.txt": "alpha one\n", "b.txt": "beta\n", "c.txt": "gamma\n" });
    expect((await t.timeline.runChanges(t.session, 3)).files.map((f) => f.now)).toEqual(["reverted", "reverted"]);

    // Reverting turn 1 now undoes its edit of a.txt (which turn 3 also touched); c.txt of turn 2 stays.
    const one = await t.timeline.runChanges(t.session, 1);
    await t.timeline.revertRunChanges(t.session, one);
    expect(files(t.dir)).toEqual({ "a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "gamma\n" });

    await t.timeline.undoFiles(t.session, (await t.timeline.revertRunChanges(t.session, three, ["a.txt"])).txid);
    await t.timeline.undoFiles(t.session, r.txid);
    expect(files(t.dir)).toEqual(before);
  });

  it("refuses a file the turn did not change, and a revert while the agent runs, changing nothing", async () => {
    const t = await threeTurnSession(cleanups);
    const before = files(t.dir);
    const two = await t.timeline.runChanges(t.session, 2);
    await expect(t.timeline.revertRunChanges(t.session, two, ["a.txt"])).rejects.toThrow("Turn 2 did not change a.txt");
    const running = { ...t.session, id: t.session.id, state: { ...t.session.state, messages: t.session.state.messages, running: true }, history: t.session.history };
    await expect(t.timeline.revertRunChanges(running, two)).rejects.toThrow("The agent is running");
    expect(files(t.dir)).toEqual(before);
    expect(await t.timeline.revertRunChanges(t.session, two, [])).toEqual({ txid: "", changed: [] });
  });

  it("compares a turn without an end snapshot with the working tree now", async () => {
    const t = await threeTurnSession(cleanups, { checkpointRunEnd: false });
    const list = await engine.listCheckpoints(t.ws, { sessionId: t.session.id });
    expect(list.some((c) => c.kind === "end")).toBe(false);
    const three = await t.timeline.runChanges(t.session, 3);
    expect(three.endRef).toBeUndefined();
    expect(three.files.map((f) => `${f.change} ${f.path}`)).toEqual(["modified a.txt", "deleted b.txt"]);
    // Turn 1's checkpoint ↔ now holds every later turn's work too: said by the view, not hidden.
    const one = await t.timeline.runChanges(t.session, 1);
    expect(one.files.map((f) => `${f.change} ${f.path}`)).toEqual(["modified a.txt", "deleted b.txt", "added c.txt"]);
    const sides = await t.timeline.runFileDiff(three, "a.txt", async (p) => new Uint8Array(fs.readFileSync(path.join(t.dir, p))));
    expect(sides.after).toBe("alpha three\n");
  });

  it("keeps the review outcome on the run record, through the session's saved form", async () => {
    const t = await threeTurnSession(cleanups);
    const saved: string[] = [];
    t.session.subscribe((e) => {
      if (e.type === "session-updated") saved.push(e.what);
    });
    t.session.history.markReviewed(3, "kept");
    expect(t.session.toJSON().runs.find((r) => r.run === 3)?.review).toMatchObject({ outcome: "kept" });
    t.session.history.markReviewed(3, undefined);
    expect(t.session.toJSON().runs.find((r) => r.run === 3)?.review).toBeUndefined();
    expect(saved).toEqual(["runs", "runs"]);
    expect(() => t.session.history.markReviewed(9, "kept")).toThrow("No run 9");
  });
});
