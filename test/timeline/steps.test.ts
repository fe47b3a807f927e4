/**
 * A checkpoint per file-changing tool call, over the real engine: the ticks it adds to the
 * timeline (one per step that changed something, the turn's end not repeated), their labels,
 * and undoing one step alone (only its files, the rest of the turn kept), itself undoable.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as engine from "../../lib/checkpoints";
import { cleanupList } from "../agent/helpers";
import { threeTurnSession } from "./three-turns";

const cleanups = cleanupList();
afterEach(() => cleanups.run());

describe("a checkpoint per tool call", () => {
  it("adds a tick per step that changed files, labelled with the call, and none for the repeated end", async () => {
    const t = await threeTurnSession(cleanups, { checkpointEachCall: true });
    const all = await engine.listCheckpoints(t.ws, { sessionId: t.session.id });
    expect(all.filter((c) => c.kind === "call").map((c) => [c.run, c.label])).toEqual([
      ["1-c1", "editor a.txt"],
      ["2-c1", "editor c.txt"],
      ["3-c1", "run_commands rm b.txt"],
      ["3-c2", "editor a.txt"],
    ]);
    const ticks = await t.timeline.ticks(t.session);
    expect(ticks.map((k) => [k.title, k.detail, k.since?.by ?? null])).toEqual([
      ["Turn 1", "first", null],
      ["Turn 1 · step 1", "editor a.txt", "agent"],
      ["Turn 2", "second", "agent"],
      ["Turn 2 · step 1", "editor c.txt", "agent"],
      ["Turn 3", "third", "agent"],
      ["Turn 3 · step 1", "run_commands rm b.txt", "agent"],
      ["Turn 3 · step 2", "editor a.txt", "agent"],
    ]);
    expect(ticks[6]).toMatchObject({ kind: "call", run: 3, step: 2 });
  });

  it("undoes one step alone: only its files go back; the undo brings them again", async () => {
    const t = await threeTurnSession(cleanups, { checkpointEachCall: true });
    const ticks = await t.timeline.ticks(t.session);
    const rm = ticks.find((k) => k.title === "Turn 3 · step 1")!;
    const out = await t.timeline.undoStep(t.session, rm);
    expect(out.changed).toEqual([{ path: "b.txt", change: "added" }]);
    expect(out.summary).toBe("Undid turn 3 · step 1 (run_commands rm b.txt)");
    expect(t.read("b.txt")).toBe("beta\n");
    expect(t.read("a.txt")).toBe("alpha three\n"); // step 2 of the same turn stays
    expect(t.read("c.txt")).toBe("gamma\n");
    await t.timeline.undo(t.session, out);
    expect(fs.existsSync(path.join(t.dir, "b.txt"))).toBe(false);
    expect(t.read("a.txt")).toBe("alpha three\n");
    await expect(t.timeline.undoStep(t.session, ticks[0]!)).rejects.toThrow("Only a step of a turn");
  });

  it("without the option a turn has no step checkpoints", async () => {
    const t = await threeTurnSession(cleanups);
    const all = await engine.listCheckpoints(t.ws, { sessionId: t.session.id });
    expect(all.some((c) => c.kind === "call")).toBe(false);
  });
});
