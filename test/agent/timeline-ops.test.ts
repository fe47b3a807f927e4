import { describe, expect, it } from "vitest";
import { harnessPerTest } from "./helpers";

const { h } = harnessPerTest();

describe("what the timeline needs from a session", () => {
  it("snapshots the state each run leaves when checkpointRunEnd is on, after the run's own checkpoint", async () => {
    const t = h([{ text: "one" }, { text: "two" }], { session: { checkpointRunEnd: true } });
    const doneAtFinish: number[] = [];
    t.session.subscribe((e) => {
      if (e.type === "run-finished") doneAtFinish.push(t.deps.cp.created.filter((c) => c.doneAt !== undefined).length);
    });
    await t.session.run("first");
    await t.session.run("second");
    expect(t.deps.cp.created.map((c) => [c.run, c.kind ?? "run", c.label])).toEqual([
      [1, "run", "first"],
      ["1-end", "end", "first"],
      [2, "run", "second"],
      ["2-end", "end", "second"],
    ]);
    // The end snapshot has landed when the run is announced as finished.
    expect(doneAtFinish).toEqual([2, 4]);
  });

  it("takes no end snapshot by default, and none when the run's own checkpoint failed", async () => {
    const t = h([{ text: "one" }]);
    await t.session.run("first");
    expect(t.deps.cp.created.map((c) => c.run)).toEqual([1]);
    const u = h([{ text: "one" }], { session: { checkpointRunEnd: true } });
    u.deps.cp.fail = "disk full";
    await u.session.run("first");
    expect(u.deps.cp.created.map((c) => c.run)).toEqual([1]);
  });

  it("rewinds the conversation and puts it back exactly", async () => {
    const t = h([{ text: "one" }, { text: "two" }]);
    await t.session.run("first");
    await t.session.run("second");
    const before = JSON.stringify(t.session.state.messages);
    const keep = t.session.state.messages.findIndex((m) => m.role === "user" && m.run === 2);
    const snap = t.session.history.rewindConversation(keep);
    expect(t.session.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(t.session.state.runs).toHaveLength(2); // run records and usage stay
    t.session.history.restoreConversation(snap);
    expect(JSON.stringify(t.session.state.messages)).toBe(before);
    expect(() => t.session.history.rewindConversation(-1)).toThrow(/non-negative/);
  });

  it("restores files to any ref through the engine and announces it", async () => {
    const t = h([{ text: "one" }]);
    await t.session.run("first");
    const r = await t.session.history.restoreFilesTo("refs/tabula/checkpoints/x/save-1");
    expect(t.deps.cp.restored).toEqual([{ ref: "refs/tabula/checkpoints/x/save-1", paths: undefined }]);
    expect(r.txid).toBe("tx1");
    expect(t.of("files-restored").at(-1)).toMatchObject({ ref: "refs/tabula/checkpoints/x/save-1", txid: "tx1" });
  });
});
