import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyReplace, planReplace, undoReplace } from "../../lib/search/replace-in-files";
import { tempWorkspace } from "../helpers/node-workspace";

describe("replace in files", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("plans every match of every line (not only the first), shows each changed line, and writes nothing yet", async () => {
    const ws = tempWorkspace({ "a.ts": "greet(); greet();\nno match\r\n  Greet\n", "b/c.md": "nothing", "d.txt": "greet" });
    cleanup = ws.cleanup;
    const plan = await planReplace(ws.wsfs, "greet", "hello");
    expect(plan.files.map((f) => [f.path, f.count])).toEqual([
      ["a.ts", 3],
      ["d.txt", 1],
    ]);
    const a = plan.files[0]!;
    expect(a.lines).toEqual([
      { line: 1, before: "greet(); greet();", after: "hello(); hello();" },
      { line: 3, before: "  Greet", after: "  hello" },
    ]);
    // Line breaks, CRLF included, are kept as they were.
    expect(a.after).toBe("hello(); hello();\nno match\r\n  hello\n");
    expect(fs.readFileSync(path.join(ws.dir, "a.ts"), "utf8")).toBe("greet(); greet();\nno match\r\n  Greet\n");
  });

  it("reads the replacement as String.prototype.replace does with a regex, and literally without one", async () => {
    const lines = ["foo_1 = foo_22;", "x $ y", "bar(baz, qux)", "naïve café Ω"];
    const ws = tempWorkspace({ "a.txt": lines.join("\n") });
    cleanup = ws.cleanup;
    // JavaScript's own replace is the oracle for the substitution rules.
    const cases: [string, string][] = [
      ["(\\w+)_(\\d+)", "$2-$1"],
      ["(?<name>foo)", "[$<name>]"],
      ["\\w+\\(", "$&$&"],
      ["\\$", "$$$$"],
      ["b(a)(z)", "$2$1$3"],
      ["[éΩ]", "<$&>"],
    ];
    for (const [query, replacement] of cases) {
      const plan = await planReplace(ws.wsfs, query, replacement, { regex: true, caseSensitive: true });
      const expected = lines.map((l) => l.replace(new RegExp(query, "gu"), replacement)).join("\n");
      expect(plan.files[0]?.after ?? lines.join("\n"), `${query} → ${replacement}`).toBe(expected);
    }
    const literal = await planReplace(ws.wsfs, "foo_1", "$1$&\\n");
    expect(literal.files[0]!.after.split("\n")[0]).toBe("$1$&\\n = foo_22;");
  });

  it("honours case, whole word, skip; leaves binary, non-UTF-8, large and blocked files out, naming the blocked and large ones", async () => {
    const ws = tempWorkspace({
      "a.txt": "foo foobar Foo\n",
      "bin.dat": new Uint8Array([0, 102, 111, 111]),
      "latin1.txt": new Uint8Array([102, 111, 111, 0xe9, 10]),
      "big.txt": "foo\n".repeat(1_400_000),
      "open.txt": "foo\n",
      "skip.log": "foo\n",
    });
    cleanup = ws.cleanup;
    const plan = await planReplace(ws.wsfs, "foo", "X", {
      wholeWord: true,
      caseSensitive: true,
      skip: (p) => p.endsWith(".log"),
      blocked: (p) => (p === "open.txt" ? "it has unsaved changes in the editor" : undefined),
    });
    expect(plan.files.map((f) => [f.path, f.after])).toEqual([["a.txt", "X foobar Foo\n"]]);
    expect(plan.blocked).toEqual([{ path: "open.txt", reason: "it has unsaved changes in the editor" }]);
    expect(plan.tooLarge).toEqual(["big.txt"]);
  });

  it("refuses patterns that match empty text, and explains invalid ones", async () => {
    const ws = tempWorkspace({ "a.txt": "abc\n" });
    cleanup = ws.cleanup;
    await expect(planReplace(ws.wsfs, "x*", "-", { regex: true })).rejects.toThrow(/matches empty text/);
    await expect(planReplace(ws.wsfs, "(", "-", { regex: true })).rejects.toThrow(/Invalid regular expression/);
    expect((await planReplace(ws.wsfs, "", "-")).files).toEqual([]);
  });

  it("applies only files unchanged since the preview, and undoes only files unchanged since the replace", async () => {
    const ws = tempWorkspace({ "a.txt": "old\n", "b.txt": "old old\n", "c.txt": "old\n" });
    cleanup = ws.cleanup;
    const read = (p: string) => fs.readFileSync(path.join(ws.dir, p), "utf8");
    const plan = await planReplace(ws.wsfs, "old", "new");
    expect(plan.files).toHaveLength(3);
    // Someone edits b.txt after the preview; c.txt is unticked.
    fs.writeFileSync(path.join(ws.dir, "b.txt"), "old, edited\n");
    const outcome = await applyReplace(ws.wsfs, plan, new Set(["a.txt", "b.txt"]));
    expect(outcome.written.map((f) => f.path)).toEqual(["a.txt"]);
    expect(outcome.changedSincePreview).toEqual(["b.txt"]);
    expect([read("a.txt"), read("b.txt"), read("c.txt")]).toEqual(["new\n", "old, edited\n", "old\n"]);

    const again = await applyReplace(ws.wsfs, await planReplace(ws.wsfs, "old", "new"));
    expect(again.written.map((f) => f.path)).toEqual(["b.txt", "c.txt"]);
    fs.writeFileSync(path.join(ws.dir, "c.txt"), "typed after\n");
    expect(await undoReplace(ws.wsfs, again)).toEqual(["c.txt"]);
    expect([read("b.txt"), read("c.txt")]).toEqual(["old, edited\n", "typed after\n"]);
    expect(await undoReplace(ws.wsfs, outcome)).toEqual([]);
    expect(read("a.txt")).toBe("old\n");
  });
});
