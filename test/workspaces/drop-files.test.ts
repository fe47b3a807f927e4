import { describe, expect, it } from "vitest";
import { describeDrop, planDrop } from "../../lib/workspaces/drop-files";
import { readDropped, takeDropped, type EntryLike } from "../../lib/workspaces/dropped-entries";

const text = (s: string) => new TextEncoder().encode(s);

describe("planDrop", () => {
  it("puts dropped files under the target folder and never overwrites: a taken name becomes 'name copy'", async () => {
    const existing = new Set(["src", "src/a.ts", "src/a copy.ts", "notes"]);
    const plan = await planDrop("src", [
      { path: "a.ts", data: "x" },
      { path: "b.ts", data: "y" },
    ], async (p) => existing.has(p));
    expect(plan.writes.map((w) => w.path)).toEqual(["src/a copy 2.ts", "src/b.ts"]);
    expect(plan.renamed).toEqual([["a.ts", "a copy 2.ts"]]);
    const root = await planDrop("", [{ path: "notes/one.md", data: "1" }, { path: "notes/two.md", data: "2" }, { path: "README", data: "r" }], async (p) => existing.has(p));
    // A taken folder name renames the whole folder, its files with it.
    expect(root.writes.map((w) => w.path)).toEqual(["notes copy/one.md", "notes copy/two.md", "README"]);
    expect(describeDrop("", root)).toBe("Added 3 files to the workspace; notes as notes copy (the name was taken).");
  });

  it("leaves out git's own files and paths that escape, and refuses a drop over the size limit", async () => {
    const plan = await planDrop("", [
      { path: "proj/.git/config", data: "[core]" },
      { path: "proj/src/x.ts", data: "x" },
      { path: "../evil", data: "e" },
    ], async () => false);
    expect(plan.writes.map((w) => w.path)).toEqual(["proj/src/x.ts"]);
    expect(plan.skipped.map((s) => s.path)).toEqual(["proj/.git/config", "../evil"]);
    const big = new Uint8Array(1);
    Object.defineProperty(big, "byteLength", { value: 300 * 1024 * 1024 });
    await expect(planDrop("", [{ path: "big.bin", data: big }], async () => false)).rejects.toThrow(/limit for one drop is 256 MB/);
  });
});

describe("readDropped", () => {
  const file = (name: string, body: string): EntryLike => ({
    name,
    isFile: true,
    isDirectory: false,
    file: (ok) => ok({ name, arrayBuffer: async () => text(body).buffer as ArrayBuffer }),
  });
  const dir = (name: string, children: EntryLike[]): EntryLike => ({
    name,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      // Answers in chunks of 2, then nothing, as Chromium does in chunks of 100.
      let at = 0;
      return { readEntries: (ok) => ok(children.slice(at, (at += 2))) };
    },
  });

  it("walks dropped folders to every file, through readEntries' chunks, and reads plain files", async () => {
    const items = [
      { kind: "file", webkitGetAsEntry: () => dir("site", [file("index.html", "<p>"), dir("css", [file("a.css", "a"), file("b.css", "b"), file("c.css", "c")]), dir("empty", [])]) },
      { kind: "file", webkitGetAsEntry: () => null, getAsFile: () => ({ name: "notes.md", arrayBuffer: async () => text("# n").buffer as ArrayBuffer }) },
      { kind: "string", getAsFile: () => null },
    ];
    const entries = await readDropped(takeDropped(items as never));
    expect(entries.map((e) => [e.path, new TextDecoder().decode(e.data as Uint8Array)])).toEqual([
      ["site/index.html", "<p>"],
      ["site/css/a.css", "a"],
      ["site/css/b.css", "b"],
      ["site/css/c.css", "c"],
      ["notes.md", "# n"],
    ]);
  });
});
