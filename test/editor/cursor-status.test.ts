import { describe, expect, it } from "vitest";
import { describeCursor, editorCursor } from "../../lib/editor/cursor-status";

describe("cursor status", () => {
  it("says where the cursor is as VS Code's status bar does", () => {
    expect(describeCursor({ line: 12, column: 5, selected: 0, selections: 1 })).toBe("Ln 12, Col 5");
    expect(describeCursor({ line: 1, column: 9, selected: 8, selections: 1 })).toBe("Ln 1, Col 9 (8 selected)");
    expect(describeCursor({ line: 3, column: 1, selected: 0, selections: 3 })).toBe("Ln 3, Col 1 (3 selections)");
    expect(describeCursor({ line: 3, column: 4, selected: 9, selections: 3 })).toBe("Ln 3, Col 4 (3 selections, 9 selected)");
  });

  it("tells its listeners of a move, not of the same place again, and of no editor", () => {
    let calls = 0;
    const off = editorCursor.subscribe(() => calls++);
    editorCursor.set({ line: 1, column: 1, selected: 0, selections: 1 });
    editorCursor.set({ line: 1, column: 1, selected: 0, selections: 1 });
    editorCursor.set({ line: 1, column: 2, selected: 0, selections: 1 });
    editorCursor.set(undefined);
    off();
    editorCursor.set({ line: 9, column: 9, selected: 0, selections: 1 });
    expect(calls).toBe(3);
    expect(editorCursor.get()).toEqual({ line: 9, column: 9, selected: 0, selections: 1 });
    editorCursor.set(undefined);
  });
});
