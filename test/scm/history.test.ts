import { describe, expect, it } from "vitest";
import { HISTORY_FORMAT, layoutGraph, parseHistory, type HistoryCommit } from "../../lib/scm/history";

const c = (oid: string, ...parents: string[]): HistoryCommit => ({ oid, parents, author: "A", time: 0, subject: oid, refs: [] });

describe("history graph lanes", () => {
  it("keeps a linear history in one column", () => {
    const rows = layoutGraph([c("c", "b"), c("b", "a"), c("a")]);
    expect(rows.map((r) => r.column)).toEqual([0, 0, 0]);
    expect(rows.map((r) => r.after)).toEqual([["b"], ["a"], []]);
  });

  it("a merge opens a lane for its second parent, which joins back where the branches met", () => {
    // m merges f into main: m -> (b, f); f -> a; b -> a; a root
    const rows = layoutGraph([c("m", "b", "f"), c("f", "a"), c("b", "a"), c("a")]);
    expect(rows.map((r) => [r.oid, r.column])).toEqual([["m", 0], ["f", 1], ["b", 0], ["a", 0]]);
    expect(rows[0]!.after).toEqual(["b", "f"]);
    expect(rows[1]!.after).toEqual(["b", "a"]);
    expect(rows[2]!.after).toEqual(["a", "a"]); // both lanes wait for a
    expect(rows[3]!.before).toEqual(["a", "a"]);
    expect(rows[3]!.after).toEqual([]);
  });

  it("a branch tip that no lane waits for gets a free column; freed columns are reused", () => {
    const rows = layoutGraph([c("x", "a"), c("y", "a"), c("a")]);
    expect(rows.map((r) => r.column)).toEqual([0, 1, 0]);
    expect(rows[1]!.before).toEqual(["a", null]);
  });

  it("reads the records the format prints, refs and empty parents included", () => {
    expect(HISTORY_FORMAT).toContain("%x1e");
    const text = "aaa\0bbb ccc\0Ann\x001700000000\0HEAD -> main, origin/main\0Merge it\x1e\nbbb\0\0Bob\x001600000000\0\0root\x1e\n";
    expect(parseHistory(text)).toEqual([
      { oid: "aaa", parents: ["bbb", "ccc"], author: "Ann", time: 1700000000, refs: ["HEAD -> main", "origin/main"], subject: "Merge it" },
      { oid: "bbb", parents: [], author: "Bob", time: 1600000000, refs: [], subject: "root" },
    ]);
  });
});
