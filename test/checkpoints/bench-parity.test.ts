/**
 * The checkpoint bench's native-parity check: a tree that differs from native git's (or a
 * checkpoint native git did not match at all) stops the schedule, and any such error makes
 * the bench run fail instead of printing figures as if nothing happened.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error plain .mjs bench modules (no types)
import { runSchedule, ParityError } from "../../bench/checkpoints/runner.mjs";
// @ts-expect-error plain .mjs bench modules (no types)
import { benchFailures } from "../../bench/failures.mjs";

const driver = (tree: (name: string, rep: number) => string | undefined) => ({
  op: async (name: string, rep: number) => ({ ms: 1, tree: tree(name, rep) }),
});
const schedule = [
  ["cold", 1],
  ["noChange", 2],
  ["restore1", 1],
];

describe("bench native parity", () => {
  it("passes when every checkpoint tree is native git's", async () => {
    const r = await runSchedule(driver((n) => (n === "restore1" ? undefined : "t")), driver((n) => (n === "restore1" ? undefined : "t")), schedule);
    expect(r.treesMatch).toBe(true);
    expect(r.treesCompared).toBe(3);
  });

  it("throws on a differing tree, and on a tree only one side produced", async () => {
    const differs = runSchedule(driver((n, rep) => (n === "noChange" && rep === 1 ? "bad" : "t")), driver(() => "t"), schedule);
    await expect(differs).rejects.toBeInstanceOf(ParityError);
    await expect(differs).rejects.toThrow(/native parity failed.*"op":"noChange","rep":1/);
    await expect(runSchedule(driver(() => "t"), driver(() => undefined), schedule)).rejects.toThrow(/native parity failed/);
    await expect(runSchedule(driver(() => undefined), driver(() => undefined), schedule)).rejects.toThrow(/no checkpoint was compared/);
  });

  it("a target's error anywhere in the results fails the run", () => {
    const ok = { checkpoints: { node: { 1000: { figures: {}, treesMatch: true } }, chromium: { skipped: "no browser" } } };
    expect(benchFailures(ok)).toEqual([]);
    const bad = { checkpoints: { node: { 1000: { error: "exit 1: ParityError: native parity failed: …\nstack" } } }, shell: { failures: ["x"] } };
    expect(benchFailures(bad)).toEqual(["checkpoints.node.1000: exit 1: ParityError: native parity failed: …", "shell: x"]);
  });
});
