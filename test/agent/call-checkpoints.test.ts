import { describe, expect, it } from "vitest";
import { callLabel } from "../../lib/agent/run-checkpoints";
import { harnessPerTest } from "./helpers";

const { h } = harnessPerTest();

describe("a checkpoint after each file-changing call", () => {
  const turns = [
    { toolCalls: [{ name: "read_files", args: { files: [{ path: "a.txt" }] } }] },
    { toolCalls: [{ name: "editor", args: { command: "create", path: "b.txt", file_text: "b\n" } }] },
    { toolCalls: [{ name: "run_commands", args: { commands: ["echo hi > c.txt"] } }] },
    { text: "done" },
  ];

  it("follows each mutating call (not reads), before the next call starts, labelled with what it worked on", async () => {
    const t = h(turns, { files: { "a.txt": "a\n" }, approveAll: true, checkpointDelayMs: 20, session: { checkpointEachCall: true } });
    const asked: number[] = [];
    t.session.subscribe((e) => e.type === "approval-requested" && asked.push(performance.now()));
    expect((await t.session.run("go")).status).toBe("completed");
    const created = t.deps.cp.created;
    expect(created.map((c) => [c.run, c.kind ?? "run", c.label])).toEqual([
      [1, "run", "go"],
      ["1-c1", "call", "editor b.txt"],
      ["1-c2", "call", "run_commands echo hi > c.txt"],
    ]);
    // The editor's snapshot (20 ms) landed before the next call was even put to the user.
    expect(asked).toHaveLength(2);
    expect(created[1]!.doneAt!).toBeLessThanOrEqual(asked[1]!);
  });

  it("is off by default", async () => {
    const t = h(turns, { files: { "a.txt": "a\n" }, approveAll: true });
    await t.session.run("go");
    expect(t.deps.cp.created.map((c) => c.kind ?? "run")).toEqual(["run"]);
  });

  it("a failed step snapshot is reported and the run goes on", async () => {
    const t = h(turns, { files: { "a.txt": "a\n" }, approveAll: true, session: { checkpointEachCall: true } });
    const original = t.deps.checkpoints.create.bind(t.deps.checkpoints);
    t.deps.checkpoints.create = async (opts) => {
      if (opts.kind === "call") throw new Error("disk full");
      return original(opts);
    };
    expect((await t.session.run("go")).status).toBe("completed");
    const errors = t.of("error").filter((e) => e.code === "checkpoint");
    expect(errors).toHaveLength(2);
    expect(errors[0]!.message).toMatch(/^The snapshot after editor could not be taken \(disk full\)/);
    expect(errors.every((e) => !e.fatal)).toBe(true);
    expect(t.ws.read("b.txt")).toBe("b\n");
  });

  it("labels a call by its path, file or command", () => {
    expect(callLabel("editor", { command: "str_replace", path: "src/a.ts" })).toBe("editor src/a.ts");
    expect(callLabel("write_files", { files: [{ path: "x.md", content: "..." }] })).toBe("write_files x.md");
    expect(callLabel("run_commands", { commands: "npm   test" })).toBe("run_commands npm test");
    expect(callLabel("custom", {})).toBe("custom");
    expect(callLabel("custom", null)).toBe("custom");
  });
});
