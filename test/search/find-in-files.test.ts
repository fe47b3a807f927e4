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

  it("streams results in path order as files are read, and ends with what a whole run finds", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`src/f${String(i).padStart(3, "0")}.ts`] = i % 70 === 5 ? `// hit ${i}\nconst needle = ${i};\n` : `const other = ${i};\n`;
    const ws = tempWorkspace(files);
    cleanup = ws.cleanup;
    const snapshots: { matches: number; done: number; total: number }[] = [];
    const r = await findInFiles(ws.wsfs, "needle", {
      onProgress: (p) => snapshots.push({ matches: p.matches.length, done: p.filesDone, total: p.filesTotal }),
    });
    expect(r.matches.map((m) => m.path)).toEqual(["src/f005.ts", "src/f075.ts", "src/f145.ts", "src/f215.ts", "src/f285.ts"]);
    expect(r.matches.every((m) => m.line === 2 && m.column === 7)).toBe(true);
    // The first hit was reported long before the last file was read.
    expect(snapshots[0]!.matches).toBe(1);
    expect(snapshots[0]!.done).toBeLessThan(100);
    expect(snapshots.map((s) => s.matches)).toEqual([...snapshots.map((s) => s.matches)].sort((a, b) => a - b));
    expect(r).toMatchObject({ filesDone: 300, filesTotal: 300, filesSearched: 300, truncated: false, listed: true });
  });

  it("never walks a skipped folder, and keeps path order around a large file read alone", async () => {
    const big = "filler\n".repeat(800_000) + "needle in big\n";
    const ws = tempWorkspace({ "a.txt": "needle a", "b.log": big, "c.txt": "needle c", "node_modules/x/y.js": "needle", "node_modules/z.js": "needle" });
    cleanup = ws.cleanup;
    const walked: string[] = [];
    const readdir = ws.wsfs.readdir.bind(ws.wsfs);
    ws.wsfs.readdir = (path: string) => (walked.push(path), readdir(path));
    const r = await findInFiles(ws.wsfs, "needle", { skipDir: (p) => p === "node_modules" });
    expect(r.matches.map((m) => m.path)).toEqual(["a.txt", "b.log", "c.txt"]);
    expect(walked.some((p) => p.startsWith("node_modules"))).toBe(false);
  });

  it("a literal search finds exactly what the same text escaped as a regex finds, case folding included", async () => {
    // The literal path pre-checks whole files natively; the regex path goes line by line only.
    const alphabet = ["a", "b", "K", "k", "\u212a", "s", "S", "\u017f", "\u00df", "\u1e9e", "\u0130", "i", "\u03c3", "\u03c2", "\u03a3", " ", "\n", "-", "."];
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const word = (len: number) => Array.from({ length: len }, () => alphabet[rnd(alphabet.length)]).join("");
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`f${i}.txt`] = word(200);
    const ws = tempWorkspace(files);
    cleanup = ws.cleanup;
    for (let q = 0; q < 40; q++) {
      const query = word(1 + rnd(3)).replace(/\n/g, "");
      if (!query) continue;
      for (const caseSensitive of [false, true]) {
        const literal = await findInFiles(ws.wsfs, query, { caseSensitive });
        const regex = await findInFiles(ws.wsfs, query.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&"), { caseSensitive, regex: true });
        expect(literal.matches, `${JSON.stringify(query)} caseSensitive=${caseSensitive}`).toEqual(regex.matches);
      }
    }
  });

  it("lists results in the explorer's order: folders first, then files, by name", async () => {
    const ws = tempWorkspace({ "b.txt": "hit", "a/z.txt": "hit", "a/b/y.txt": "hit", "c/x.txt": "hit", "A.md": "hit" });
    cleanup = ws.cleanup;
    const r = await findInFiles(ws.wsfs, "hit");
    expect(r.matches.map((m) => m.path)).toEqual(["a/b/y.txt", "a/z.txt", "c/x.txt", "A.md", "b.txt"]);
  });
});
