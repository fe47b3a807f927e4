import { describe, expect, it } from "vitest";
import { rowWindow, scrollToReveal } from "../../lib/workbench/row-window";

describe("row window", () => {
  it("renders the rows under the viewport and an overscan on each side, never past the ends", () => {
    // 24 px rows, a 240 px viewport scrolled to row 100: rows 100..109 show.
    expect(rowWindow(10_000, 24, 2400, 240, 5)).toEqual({ first: 95, end: 115 });
    expect(rowWindow(10_000, 24, 0, 240, 5)).toEqual({ first: 0, end: 15 });
    expect(rowWindow(12, 24, 0, 240, 5)).toEqual({ first: 0, end: 12 });
    // Scrolled to the end of a list that shrank under it: the last rows, not an empty window.
    expect(rowWindow(30, 24, 5000, 240, 5)).toEqual({ first: 25, end: 30 });
    // Half a row scrolled: the partly visible rows count.
    expect(rowWindow(100, 24, 12, 24, 0)).toEqual({ first: 0, end: 2 });
  });

  it("assumes a first screenful before the viewport is measured", () => {
    const w = rowWindow(10_000, 24, 0, 0, 10);
    expect(w.first).toBe(0);
    expect(w.end).toBe(50);
  });

  it("the window stays bounded however long the list is", () => {
    for (const count of [100, 10_000, 1_000_000]) {
      const w = rowWindow(count, 24, (count / 2) * 24, 600, 10);
      expect(w.end - w.first).toBeLessThanOrEqual(600 / 24 + 1 + 20);
      expect(w.first).toBeGreaterThan(0);
    }
  });

  it("scrolls only as far as needed to show a row, and not at all when it shows", () => {
    expect(scrollToReveal(5, 24, 0, 240)).toBeNull();
    expect(scrollToReveal(9, 24, 0, 240)).toBeNull(); // 216..240, the last full row
    expect(scrollToReveal(10, 24, 0, 240)).toBe(24); // one row down
    expect(scrollToReveal(3, 24, 240, 240)).toBe(72); // up to its top
    expect(scrollToReveal(500, 24, 0, 240)).toBe(500 * 24 + 24 - 240);
    expect(scrollToReveal(-1, 24, 0, 240)).toBeNull();
    expect(scrollToReveal(3, 24, 0, 0)).toBeNull();
  });
});
