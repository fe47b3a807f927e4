import { describe, expect, it } from "vitest";
import { ReadCache } from "../../lib/fs/read-cache";

const old = Date.now() - 60_000;
const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

describe("ReadCache", () => {
  it("returns a copy while the stat matches", () => {
    const c = new ReadCache(1000);
    c.set("a", { mtimeMs: old, size: 3, ino: 7 }, new Uint8Array([1, 2, 3]));
    const got = c.get("a", { mtimeMs: old, size: 3, ino: 7 })!;
    expect([...got]).toEqual([1, 2, 3]);
    got[0] = 9; // mutating the copy must not corrupt the cache
    expect([...c.get("a", { mtimeMs: old, size: 3, ino: 7 })!]).toEqual([1, 2, 3]);
  });

  it("misses (and drops the entry) when mtime, size or ino differ", () => {
    const c = new ReadCache(1000);
    for (const changed of [{ mtimeMs: old + 1 }, { size: 4 }, { ino: 8 }]) {
      c.set("a", { mtimeMs: old, size: 3, ino: 7 }, bytes(3));
      expect(c.get("a", { mtimeMs: old, size: 3, ino: 7, ...changed })).toBeUndefined();
      expect(c.size).toBe(0);
    }
  });

  it("does not trust entries whose file was modified just before caching (racy clean)", () => {
    const c = new ReadCache(1000);
    const now = Date.now();
    c.set("a", { mtimeMs: now, size: 1 }, bytes(1), now);
    expect(c.get("a", { mtimeMs: now, size: 1 })).toBeUndefined();
  });

  it("evicts least recently used entries beyond the byte budget", () => {
    const c = new ReadCache(100);
    const st = { mtimeMs: old, size: 20 };
    for (const k of ["a", "b", "c", "d", "e"]) c.set(k, st, bytes(20));
    expect(c.totalBytes).toBe(100);
    c.get("a", st); // a is now most recent
    c.set("f", st, bytes(20));
    expect(c.get("b", st)).toBeUndefined();
    expect(c.get("a", st)).toBeDefined();
    expect(c.totalBytes).toBeLessThanOrEqual(100);
  });

  it("skips files larger than a quarter of the budget", () => {
    const c = new ReadCache(100);
    c.set("big", { mtimeMs: old, size: 30 }, bytes(30));
    expect(c.size).toBe(0);
  });

  it("deletePrefix drops a directory's entries only", () => {
    const c = new ReadCache(1000);
    const st = { mtimeMs: old, size: 1 };
    for (const k of ["d/a", "d/e/f", "d", "dx/a", "other"]) c.set(k, st, bytes(1));
    c.deletePrefix("d");
    expect(c.get("dx/a", st)).toBeDefined();
    expect(c.get("other", st)).toBeDefined();
    expect(c.size).toBe(2);
    c.deletePrefix("");
    expect(c.size).toBe(0);
    expect(c.totalBytes).toBe(0);
  });
});
