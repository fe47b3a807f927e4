/**
 * Long walks that give the page a turn. An in-memory file system (lightning-fs holds its tree in
 * memory) answers in microtasks, and a chain of microtasks never lets the page render or take
 * input: a status or a search over 10,000 files would run as one task of seconds.
 *
 * The turn is a new macrotask queued behind the ones already waiting (a MessageChannel message,
 * as React's scheduler uses; setImmediate in Node) — not scheduler.yield(), whose continuation
 * jumps ahead of other waiting tasks such as React's render, nor setTimeout, which browsers
 * clamp to 4 ms once nested.
 */

let channel: MessageChannel | undefined;
const waiting: (() => void)[] = [];

/** Resolve in a later macrotask, after the tasks already queued. */
export function yieldToPage(): Promise<void> {
  const setImmediateFn = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
  if (setImmediateFn) return new Promise((resolve) => void setImmediateFn(resolve));
  if (typeof MessageChannel === "undefined") return new Promise((resolve) => setTimeout(resolve, 0));
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
  }
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel!.port2.postMessage(null);
  });
}

/**
 * A clock for one long job: `maybeYield()` gives the page a turn once `sliceMs` of work went by
 * since the last one, and is a no-op otherwise (cheap enough to call per entry).
 */
export function timeSlicer(sliceMs = 8): { maybeYield(): Promise<void> | undefined } {
  let since = performance.now();
  // Concurrent callers (a walk mapping many entries at once) share one turn.
  let turn: Promise<void> | undefined;
  return {
    maybeYield() {
      if (turn) return turn;
      if (performance.now() - since < sliceMs) return undefined;
      turn = yieldToPage().then(() => {
        since = performance.now();
        turn = undefined;
      });
      return turn;
    },
  };
}
