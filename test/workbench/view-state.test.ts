import { describe, expect, it } from "vitest";
import { forgetViewState, MAX_REMEMBERED_POSITIONS, MAX_REMEMBERED_TERMINALS, MAX_REMEMBERED_TABS, readViewState, rememberPosition, updateViewState, viewStateKey } from "../../lib/workbench/view-state";

function memoryStorage(quota = Infinity) {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (v.length > quota) throw new DOMException("full", "QuotaExceededError");
      items.set(k, v);
    },
    removeItem: (k: string) => void items.delete(k),
  };
}

const at = (line: number) => ({ line, column: 1, scrollTop: line * 19, scrollLeft: 0 });

describe("view state", () => {
  it("remembers each part without overwriting the others, per workspace", () => {
    const storage = memoryStorage();
    updateViewState("w1", (s) => ((s.tabs = ["a.ts", "b.ts"]), (s.active = "b.ts")), storage);
    updateViewState("w1", (s) => void (s.expanded = ["src"]), storage);
    updateViewState("w1", (s) => rememberPosition(s, "a.ts", at(12)), storage);
    updateViewState("w2", (s) => void (s.tabs = ["other.md"]), storage);
    expect(readViewState("w1", storage)).toEqual({ tabs: ["a.ts", "b.ts"], active: "b.ts", expanded: ["src"], positions: { "a.ts": at(12) } });
    expect(readViewState("w2", storage).tabs).toEqual(["other.md"]);
    forgetViewState("w1", storage);
    expect(readViewState("w1", storage)).toEqual({ tabs: [], expanded: [], positions: {} });
    expect(readViewState("w2", storage).tabs).toEqual(["other.md"]);
  });

  it("reads a missing, corrupt or wrongly shaped entry as nothing remembered", () => {
    const storage = memoryStorage();
    const empty = { tabs: [], expanded: [], positions: {} };
    expect(readViewState("w", storage)).toEqual(empty);
    for (const raw of ["{not json", "null", "[1,2]", JSON.stringify({ tabs: "a.ts" }), JSON.stringify({ positions: { "a.ts": { line: 0, column: 1, scrollTop: 0, scrollLeft: 0 } } })]) {
      storage.items.set(viewStateKey("w"), raw);
      expect(readViewState("w", storage), raw).toEqual(empty);
    }
    // Fields added by a later version are dropped, known ones kept; a broken part does not take the others along.
    storage.items.set(viewStateKey("w"), JSON.stringify({ tabs: ["x"], future: 1, expanded: "src" }));
    expect(readViewState("w", storage)).toEqual({ tabs: ["x"], expanded: [], positions: {} });
  });

  it("keeps the most recent positions and tabs within bounds, and a full quota loses only the remembering", () => {
    const storage = memoryStorage();
    updateViewState(
      "w",
      (s) => {
        for (let i = 0; i < MAX_REMEMBERED_POSITIONS + 5; i++) rememberPosition(s, `f${i}.ts`, at(i + 1));
        rememberPosition(s, "f0.ts", at(99)); // left again: the most recent now
        s.tabs = Array.from({ length: MAX_REMEMBERED_TABS + 3 }, (_, i) => `t${i}`);
      },
      storage,
    );
    const s = readViewState("w", storage);
    expect(Object.keys(s.positions)).toHaveLength(MAX_REMEMBERED_POSITIONS);
    expect(s.positions["f0.ts"]).toEqual(at(99));
    expect(s.positions["f1.ts"]).toBeUndefined();
    expect(s.positions[`f${MAX_REMEMBERED_POSITIONS + 4}.ts`]).toEqual(at(MAX_REMEMBERED_POSITIONS + 5));
    expect(s.tabs).toHaveLength(MAX_REMEMBERED_TABS);
    expect(s.tabs.at(-1)).toBe(`t${MAX_REMEMBERED_TABS + 2}`);

    const full = memoryStorage(40);
    expect(() => updateViewState("w", (v) => void (v.tabs = ["a-long-file-name-that-does-not-fit.ts"]), full)).not.toThrow();
    expect(readViewState("w", full).tabs).toEqual([]);
  });

  it("remembers the terminals, bounded, and reads a broken terminals entry as none", () => {
    const storage = memoryStorage();
    updateViewState("w", (s) => void (s.terminals = { open: true, cwds: Array.from({ length: 14 }, (_, i) => `d${i}`), active: 12 }), storage);
    expect(readViewState("w", storage).terminals).toEqual({ open: true, cwds: Array.from({ length: MAX_REMEMBERED_TERMINALS }, (_, i) => `d${i}`), active: MAX_REMEMBERED_TERMINALS - 1 });
    storage.items.set(viewStateKey("w"), JSON.stringify({ tabs: ["a"], terminals: { open: true, cwds: [], active: 0 } }));
    expect(readViewState("w", storage)).toEqual({ tabs: ["a"], expanded: [], positions: {} });
  });
});
