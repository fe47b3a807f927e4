import { describe, expect, it } from "vitest";
import { pushesToARemote } from "../../lib/tools/run-commands";
import { harnessPerTest } from "../agent/helpers";

/** The agent's `git push` asks in Act mode even when commands are auto-approved or its prefix is allowed. */
const { h } = harnessPerTest();

describe("approval of the agent's git push", () => {
  it("asks for a push whatever the switches say, and not for other commands they approve", async () => {
    const t = h(
      [
        { toolCalls: [{ name: "run_commands", args: { commands: "git status" } }] },
        { toolCalls: [{ name: "run_commands", args: { commands: ["echo hi", "git push origin main"] } }] },
        { text: "done" },
      ],
      { session: { approvals: { autoApprove: { command: true }, allowedCommandPrefixes: ["git push"] } } },
    );
    const asked: { category: string; commands: string[] }[] = [];
    t.session.subscribe((e) => {
      if (e.type !== "approval-requested") return;
      asked.push({ category: e.category, commands: e.preview?.kind === "command" ? e.preview.commands : [] });
      t.session.reject(e.approvalId);
    });
    await t.session.run("push it");
    expect(asked).toEqual([{ category: "always", commands: ["echo hi", "git push origin main"] }]);
    expect(t.deps.sh.commands.map((c) => c.command)).toEqual(["git status"]); // the rejected push never ran
  });

  it("recognises a push however the line is put together, and nothing else", () => {
    for (const line of ["git push", "git -C sub push -u origin x", "cd a && git push", "sh -c 'git push'", "/usr/bin/git push --tags", "echo x | git push", "$(git push)"])
      expect(pushesToARemote(line), line).toBe(true);
    for (const line of ["git status", "git pull", "echo git", "npm run push", "git log | grep pushed"]) expect(pushesToARemote(line), line).toBe(false);
    // Over-approximated on purpose: asking once too often is the safe side.
    expect(pushesToARemote("git commit -m push")).toBe(true);
  });
});
