import { afterEach, describe, expect, it } from "vitest";
import { findInFiles } from "../../lib/search/find-in-files";
import { tempWorkspace } from "../helpers/node-workspace";

describe("find in files", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("finds plain, case-insensitive matches with 1-based line and column", async () => {
    const ws = tempWorkspace({ "a.ts": "const Greet = 1;\nnothing here\n  greet();\n", "b/c.md": "no match" });
    cleanup = ws.cleanup;
    const r = await findInFiles(ws.wsfs, "greet");
    expect(r.matches.map((m) => [m.path, m.line, m.column])).toEqual([
      ["a.ts", 1, 7],
      ["a.ts", 3, 3],
    ]);
    expect(r.filesSearched).toBe(2);
  });

  it("honours case, whole word and regex options, and reports bad regexes clearly", async () => {
    const ws = tempWorkspace({ "a.txt": "foo foobar Foo\nbar42\n" });
    cleanup = ws.cleanup;
    expect((await findInFiles(ws.wsfs, "Foo", { caseSensitive: true })).matches).toHaveLength(1);
    expect((await findInFiles(ws.wsfs, "foo", { wholeWord: true })).matches[0].column).toBe(1);
    expect((await findInFiles(ws.wsfs, "bar\\d+", { regex: true })).matches[0].line).toBe(2);
    await expect(findInFiles(ws.wsfs, "(", { regex: true })).rejects.toThrow(/Invalid regular expression/);
    // Without regex, special characters are literal.
    expect((await findInFiles(ws.wsfs, "ar4", {})).matches).toHaveLength(1);
  });

  it("skips binary files, the skip predicate and .git, and caps the results", async () => {
    const ws = tempWorkspace({
      "bin.dat": new Uint8Array([0, 1, 2, 120, 120, 120]),
      "ignored.log": "xxx",
      "many.txt": "xxx\n".repeat(50),
      ".git/config": "xxx",
    });
    cleanup = ws.cleanup;
    const r = await findInFiles(ws.wsfs, "xxx", { maxResults: 10, skip: (p) => p.endsWith(".log") });
    expect(r.truncated).toBe(true);
    expect(r.matches).toHaveLength(10);
    expect(new Set(r.matches.map((m) => m.path))).toEqual(new Set(["many.txt"]));
  });

  it("runs a catastrophic pattern in linear time and says why a backreference is refused", async () => {
    const ws = tempWorkspace({ "a.txt": ("x".repeat(3000) + "\n").repeat(10) + "xxy\n" });
    cleanup = ws.cleanup;
    const t = Date.now();
    const r = await findInFiles(ws.wsfs, "(x+x+)+y", { regex: true });
    expect(Date.now() - t).toBeLessThan(5000);
    expect(r.matches.map((m) => [m.line, m.column, m.length])).toEqual([[11, 1, 3]]);
    await expect(findInFiles(ws.wsfs, "(a)\\1", { regex: true })).rejects.toThrow(/Backreferences .* not supported/);
  });

  it("searches text files over 5 MB, line by line, and still skips binary ones", async () => {
    const big = "filler line of text\n".repeat(300_000) + "needle at the end\n";
    const bin = new Uint8Array(6 * 1024 * 1024);
    bin.set(new TextEncoder().encode("needle"), 100);
    const ws = tempWorkspace({ "big.log": big, "big.bin": bin });
    cleanup = ws.cleanup;
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const r = await findInFiles(ws.wsfs, "needle");
    expect(r.matches.map((m) => [m.path, m.line, m.column])).toEqual([["big.log", 300_001, 1]]);
    expect(r.filesSearched).toBe(1);
  });
});
