import { describe, expect, it } from "vitest";
import { countProblems, formatProblems, groupProblems, problemFromMarker, ProblemsStore, FILE_NOTIFY_MS, type Problem } from "../../lib/editor/problems";
import { flattenMessage, markerFromDiagnostic } from "../../lib/editor/ts-diagnostics";

const p = (path: string, line: number, severity: Problem["severity"], message = "m"): Problem => ({ path, line, column: 1, endLine: line, endColumn: 2, severity, message });

describe("problems", () => {
  it("groups by file in path order, each file's by line, with its counts", () => {
    const groups = groupProblems([p("src/b.ts", 9, "warning"), p("src/a.ts", 7, "error"), p("src/b.ts", 2, "error"), p("src/a.ts", 1, "info")]);
    expect(groups.map((g) => [g.path, g.problems.map((x) => x.line), g.errors, g.warnings])).toEqual([
      ["src/a.ts", [1, 7], 1, 0],
      ["src/b.ts", [2, 9], 1, 1],
    ]);
  });

  it("counts errors, warnings and infos", () => {
    expect(countProblems([p("a", 1, "error"), p("a", 2, "error"), p("b", 1, "warning"), p("c", 1, "info")])).toEqual({ errors: 2, warnings: 1, infos: 1 });
  });

  it("reads Monaco markers: severities by number, hints are not problems", () => {
    const marker = { owner: "typescript", severity: 8, message: "Type 'string' is not assignable to type 'number'.", code: "2322", startLineNumber: 3, startColumn: 7, endLineNumber: 3, endColumn: 10 };
    expect(problemFromMarker("src/x.ts", marker)).toEqual({ path: "src/x.ts", line: 3, column: 7, endLine: 3, endColumn: 10, severity: "error", message: marker.message, code: "2322", source: "typescript" });
    expect(problemFromMarker("src/x.ts", { ...marker, severity: 4 })?.severity).toBe("warning");
    expect(problemFromMarker("src/x.ts", { ...marker, severity: 1 })).toBeUndefined();
    expect(problemFromMarker("src/x.ts", { ...marker, code: { value: "6133" } })?.code).toBe("6133");
  });

  it("formats them one per line for a prompt", () => {
    expect(formatProblems([])).toBe("No problems.");
    expect(formatProblems([{ ...p("src/b.ts", 2, "error", "Bad.\nmore"), code: "2322", source: "typescript" }, p("src/a.ts", 4, "warning", "Hmm.")])).toBe(
      "src/a.ts:4:1 warning: Hmm.\nsrc/b.ts:2:1 error TS2322: Bad.",
    );
  });

  it("a store replaces problems file by file and tells its subscribers of each burst once", async () => {
    const store = new ProblemsStore();
    let calls = 0;
    const off = store.subscribe(() => calls++);
    const settle = () => new Promise((r) => setTimeout(r, FILE_NOTIFY_MS + 20));
    store.setFile("b.ts", [p("b.ts", 1, "error")]);
    store.setFile("a.ts", [p("a.ts", 1, "warning")]);
    const before = store.list(); // read at once, before anyone is told
    expect(before.map((x) => x.path)).toEqual(["a.ts", "b.ts"]);
    expect(store.list()).toBe(before); // stable until a change
    await settle();
    expect(calls).toBe(1);
    store.setFile("b.ts", []);
    expect(store.counts()).toEqual({ errors: 0, warnings: 1, infos: 0 });
    store.setFile("c.ts", []); // nothing there before, nothing now: no change
    await settle();
    expect(calls).toBe(2);
    store.setChecking(true); // told at once
    expect(store.checking).toBe(true);
    expect(calls).toBe(3);
    store.setNotices(["tsconfig.json: unknown target"]);
    expect(store.notices()).toEqual(["tsconfig.json: unknown target"]);
    store.clear();
    expect([store.list(), store.checking, store.notices()]).toEqual([[], false, []]);
    expect(calls).toBe(5);
    off();
    store.setFile("a.ts", [p("a.ts", 1, "error")]);
    await settle();
    expect(calls).toBe(5);
  });

  it("thousands of file reports cost one rebuild of the list per burst, not one each", async () => {
    const store = new ProblemsStore();
    let rebuilt = 0;
    let last: unknown;
    // A subscriber that reads the list on each notice, as React's useSyncExternalStore does.
    store.subscribe(() => {
      const list = store.list();
      if (list !== last) rebuilt++;
      last = list;
    });
    for (let i = 0; i < 3000; i++) store.setFile(`src/f${i}.ts`, [p(`src/f${i}.ts`, 1, "error"), p(`src/f${i}.ts`, 2, "warning")]);
    await new Promise((r) => setTimeout(r, FILE_NOTIFY_MS + 20));
    expect(rebuilt).toBe(1);
    expect(store.counts()).toEqual({ errors: 3000, warnings: 3000, infos: 0 });
  });
});

describe("TypeScript diagnostics as markers", () => {
  it("converts like Monaco's adapter: positions, severity, code, tags, chained messages", () => {
    const text = "let a: number = 'x';\nfoo();\n";
    const positionAt = (offset: number) => {
      const before = text.slice(0, offset).split("\n");
      return { lineNumber: before.length, column: before[before.length - 1].length + 1 };
    };
    const m = markerFromDiagnostic({ category: 1, code: 2322, start: 4, length: 1, messageText: { messageText: "Outer.", next: [{ messageText: "Inner." }] } }, positionAt);
    expect(m).toEqual({ severity: 8, startLineNumber: 1, startColumn: 5, endLineNumber: 1, endColumn: 6, message: "Outer.\n  Inner.", code: "2322", tags: [] });
    const unused = markerFromDiagnostic({ category: 2, code: 6133, start: 21, length: 3, messageText: "unused", reportsUnnecessary: {} }, positionAt);
    expect([unused.severity, unused.startLineNumber, unused.startColumn, unused.tags]).toEqual([1, 2, 1, [1]]);
    expect(flattenMessage({ messageText: "a", next: [{ messageText: "b", next: [{ messageText: "c" }] }] })).toBe("a\n  b\n    c");
  });
});
