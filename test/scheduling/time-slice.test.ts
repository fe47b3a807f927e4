import { describe, expect, it } from "vitest";
import { timeSlicer, yieldToPage } from "../../lib/scheduling/time-slice";

describe("time slicing", () => {
  it("yieldToPage lets a task queued before it run first", async () => {
    const order: string[] = [];
    setImmediate(() => order.push("queued task"));
    await yieldToPage();
    order.push("after the turn");
    expect(order).toEqual(["queued task", "after the turn"]);
  });

  it("a microtask-only walk gives other tasks a turn once per slice, and concurrent callers share it", async () => {
    const slicer = timeSlicer(5);
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    let steps = 0;
    const start = performance.now();
    // A walk answering in microtasks only (like an in-memory fs): without turns, the interval never fires.
    const walk = async (): Promise<void> => {
      while (performance.now() - start < 60) {
        await Promise.all([slicer.maybeYield(), slicer.maybeYield(), slicer.maybeYield()]);
        for (let i = 0; i < 1000; i++) steps += await Promise.resolve(1);
      }
    };
    await walk();
    clearInterval(ticker);
    expect(steps).toBeGreaterThan(0);
    expect(turns).toBeGreaterThan(2);
    // Nothing to give when the slice is not used up.
    expect(timeSlicer(1000).maybeYield()).toBeUndefined();
  });
});
