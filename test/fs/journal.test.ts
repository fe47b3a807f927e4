import { describe, expect, it, vi } from "vitest";
import { ChangeJournal } from "../../lib/fs/journal";

describe("ChangeJournal", () => {
  it("assigns increasing seqs, timestamps and the default origin", () => {
    const j = new ChangeJournal();
    expect(j.seq).toBe(0);
    const a = j.record({ kind: "write", path: "a" });
    const b = j.record({ kind: "rename", path: "c", from: "b", origin: "agent" });
    expect(a).toMatchObject({ seq: 1, kind: "write", path: "a", origin: "user" });
    expect(a.at).toBeGreaterThan(0);
    expect(a).not.toHaveProperty("from");
    expect(b).toMatchObject({ seq: 2, from: "b", origin: "agent" });
    expect(j.seq).toBe(2);
  });

  it("notifies subscribers until they unsubscribe", () => {
    const j = new ChangeJournal();
    const seen: number[] = [];
    const off = j.subscribe((e) => seen.push(e.seq));
    j.record({ kind: "write", path: "a" });
    off();
    j.record({ kind: "write", path: "b" });
    expect(seen).toEqual([1]);
  });

  it("a throwing listener does not break recording", async () => {
    const j = new ChangeJournal();
    const errors: unknown[] = [];
    const handler = (err: unknown) => errors.push(err);
    process.on("uncaughtException", handler);
    const good = vi.fn();
    j.subscribe(() => {
      throw new Error("listener bug");
    });
    j.subscribe(good);
    expect(() => j.record({ kind: "write", path: "a" })).not.toThrow();
    expect(good).toHaveBeenCalledOnce();
    await new Promise((r) => setTimeout(r, 10));
    process.off("uncaughtException", handler);
    expect(errors).toHaveLength(1);
  });

  it("since / dirtySince", () => {
    const j = new ChangeJournal();
    j.record({ kind: "write", path: "a" });
    const mark = j.seq;
    j.record({ kind: "rename", path: "dir2", from: "dir1" });
    j.record({ kind: "delete", path: "old" });
    j.record({ kind: "mkdir", path: "new" });
    expect(j.since(mark)?.map((e) => e.kind)).toEqual(["rename", "delete", "mkdir"]);
    expect(j.since(j.seq)).toEqual([]);
    expect(j.dirtySince(mark)).toEqual(new Set(["dir2", "dir1", "old", "new"]));
    expect(j.since(0)?.length).toBe(4);
    expect(j.since(99)).toBeUndefined(); // from another journal / the future
    expect(j.since(-1)).toBeUndefined();
  });

  it("answers undefined once the ring buffer no longer covers the seq", () => {
    const j = new ChangeJournal(5);
    for (let i = 1; i <= 5; i++) j.record({ kind: "write", path: `f${i}` });
    expect(j.since(0)?.length).toBe(5);
    j.record({ kind: "write", path: "f6" });
    expect(j.since(0)).toBeUndefined();
    expect(j.dirtySince(0)).toBeUndefined();
    expect(j.since(1)?.map((e) => e.path)).toEqual(["f2", "f3", "f4", "f5", "f6"]);
    for (let i = 7; i <= 23; i++) j.record({ kind: "write", path: `f${i}` });
    expect(j.since(17)).toBeUndefined();
    expect(j.since(18)?.map((e) => e.seq)).toEqual([19, 20, 21, 22, 23]);
  });

  it("default capacity is about 10k", () => {
    const j = new ChangeJournal();
    for (let i = 0; i < 10_001; i++) j.record({ kind: "write", path: "x" });
    expect(j.since(0)).toBeUndefined();
    expect(j.since(1)?.length).toBe(10_000);
  });

  it("markUnknown makes older seqs unanswerable but later ones fine", () => {
    const j = new ChangeJournal();
    j.record({ kind: "write", path: "a" });
    const before = j.seq;
    j.markUnknown();
    expect(j.since(before)).toBeUndefined();
    expect(j.since(0)).toBeUndefined();
    const after = j.seq; // what a caller reads after its full rescan
    expect(j.since(after)).toEqual([]);
    j.record({ kind: "write", path: "b" });
    expect(j.since(after)?.map((e) => e.path)).toEqual(["b"]);
    expect(j.since(before)).toBeUndefined();
  });
});
