/**
 * Which rows of a long list of equal-height rows to put in the page, and where to scroll to show
 * one. The explorer keeps only these rows in the DOM, so a tree with thousands of open folders
 * costs what the screen shows, not what the repository holds.
 */

export type RowWindow = {
  /** First row rendered (inclusive) and the row after the last rendered (exclusive). */
  first: number;
  end: number;
};

/**
 * The rows under the viewport plus `overscan` on each side (so a fast scroll does not show a gap
 * before the next frame). Before the viewport is measured (height 0) a first screenful is assumed.
 */
export function rowWindow(count: number, rowHeight: number, scrollTop: number, viewportHeight: number, overscan = 10): RowWindow {
  const height = viewportHeight > 0 ? viewportHeight : 40 * rowHeight;
  const top = Math.max(0, Math.floor(scrollTop / rowHeight));
  const bottom = Math.ceil((scrollTop + height) / rowHeight);
  const first = Math.max(0, Math.min(count, top) - overscan);
  const end = Math.min(count, Math.max(bottom, first) + overscan);
  return { first, end };
}

/**
 * The scrollTop that brings row `index` fully into view with the least movement, or null when it
 * is in view already (a click on a visible row never scrolls the list).
 */
export function scrollToReveal(index: number, rowHeight: number, scrollTop: number, viewportHeight: number): number | null {
  if (index < 0 || viewportHeight <= 0) return null;
  const rowTop = index * rowHeight;
  const rowBottom = rowTop + rowHeight;
  if (rowTop < scrollTop) return rowTop;
  if (rowBottom > scrollTop + viewportHeight) return Math.max(0, rowBottom - viewportHeight);
  return null;
}
