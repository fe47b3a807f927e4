import { describe, expect, it } from "vitest";
import { MAX_QUEUED, dequeue, emptyQueue, enqueue, onRunEnded, resume } from "../../lib/agent/prompt-queue";

describe("prompt queue", () => {
  it("keeps messages in order and sends one per completed run", () => {
    let s = enqueue(enqueue(emptyQueue, "  first  "), "second");
    expect(s.items.map((q) => q.text)).toEqual(["first", "second"]);
    expect(enqueue(s, "   ")).toBe(s);
    let step = onRunEnded(s, "completed");
    expect(step.send).toBe("first");
    s = step.state;
    expect(s.items.map((q) => q.text)).toEqual(["second"]);
    step = onRunEnded(s, "completed");
    expect(step.send).toBe("second");
    expect(step.state.items).toEqual([]);
    expect(onRunEnded(step.state, "completed").send).toBeUndefined();
  });

  it("pauses after a stopped or failed run, saying why, until the user resumes", () => {
    const s = enqueue(emptyQueue, "next");
    const stopped = onRunEnded(s, "aborted", "Stopped by the user");
    expect(stopped.send).toBeUndefined();
    expect(stopped.state.paused).toBe("Stopped by the user");
    // A later completed run (a message sent by hand) does not unpause it.
    expect(onRunEnded(stopped.state, "completed").send).toBeUndefined();
    const failed = onRunEnded(s, "failed", "401 Unauthorized");
    expect(failed.state.paused).toBe("The run failed: 401 Unauthorized");
    const go = resume(failed.state);
    expect(go.send).toBe("next");
    expect(go.state).toEqual({ items: [], nextId: 2 });
  });

  it("drops or takes back one message by id; an empty queue is never paused", () => {
    let s = enqueue(enqueue(enqueue(emptyQueue, "a"), "b"), "c");
    const b = s.items[1]!.id;
    s = dequeue(s, b);
    expect(s.items.map((q) => q.text)).toEqual(["a", "c"]);
    expect(dequeue(s, 999)).toBe(s);
    s = onRunEnded(s, "aborted").state;
    expect(s.paused).toBe("The run was stopped");
    for (const q of s.items) s = dequeue(s, q.id);
    expect(s.paused).toBeUndefined();
    // Ids stay unique after removals.
    s = enqueue(s, "d");
    expect(s.items[0]!.id).toBeGreaterThan(b);
  });

  it("refuses more than the cap with a clear message", () => {
    let s = emptyQueue;
    for (let i = 0; i < MAX_QUEUED; i++) s = enqueue(s, `m${i}`);
    expect(() => enqueue(s, "one more")).toThrow(`At most ${MAX_QUEUED} messages can wait`);
    expect(s.items).toHaveLength(MAX_QUEUED);
  });
});
