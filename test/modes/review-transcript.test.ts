import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../lib/agent/messages";
import { reviewFromMessages, reviewMarkdown } from "../../lib/modes";

const call = (id: string, toolName: string, input: unknown): AgentMessage => ({ id: `a${id}`, createdAt: 0, role: "assistant", content: [{ type: "tool-call", toolCallId: id, toolName, input }] });
const result = (id: string, toolName: string, status: "ok" | "error", data?: Record<string, unknown>): AgentMessage => ({
  id: `t${id}`,
  createdAt: 0,
  role: "tool",
  content: [{ type: "tool-result", toolCallId: id, toolName, output: { type: "text", value: "" }, ui: { status, data } }],
});

describe("the review read back from a transcript", () => {
  it("collects successful findings and the last verdict, skipping refused calls", () => {
    const finding = { id: "f1", kind: "bug", priority: "P0", confidence: 0.9, body: "Broken", anchor: { file: "a.ts", startLine: 3, endLine: 4 } };
    const state = reviewFromMessages([
      call("1", "add_review_node", finding),
      result("1", "add_review_node", "ok", { finding }),
      call("2", "add_review_node", { kind: "bug" }),
      result("2", "add_review_node", "error"),
      call("3", "finalize_review", { verdict: "ship" }),
      result("3", "finalize_review", "ok", { verdict: "block", requested: "ship", reason: "an open P0 bug" }),
    ]);
    expect(state.findings.map((f) => f.id)).toEqual(["f1"]);
    expect(state.verdict).toMatchObject({ verdict: "block", requested: "ship" });
    expect(reviewMarkdown(state)).toContain("Broken");
  });

  it("is empty for a session without a review", () => {
    expect(reviewFromMessages([])).toEqual({ findings: [], floorNow: "ship", open: 0 });
  });

  it("applies the user's decisions: a resolved blocker no longer holds the verdict the open findings allow", () => {
    const bug = { id: "f1", kind: "bug", priority: "P0", confidence: 0.9, body: "Broken", anchor: { file: "a.ts", startLine: 3, endLine: 4 } };
    const nit = { id: "f2", kind: "suggestion", priority: "P3", confidence: 0.5, body: "Rename it" };
    const messages = [
      call("1", "add_review_node", bug),
      result("1", "add_review_node", "ok", { finding: bug }),
      call("2", "add_review_node", nit),
      result("2", "add_review_node", "ok", { finding: nit }),
    ];
    expect(reviewFromMessages(messages)).toMatchObject({ floorNow: "block", open: 2 });
    const decided = reviewFromMessages(messages, { f1: "resolved", f2: "dismissed" });
    expect(decided.findings.map((f) => f.status)).toEqual(["resolved", "dismissed"]);
    expect(decided).toMatchObject({ floorNow: "ship", open: 0 });
    expect(reviewMarkdown(decided)).toContain("P0 bug (resolved)");
    // The transcript's own data is not changed by a decision.
    expect((messages[1]!.content[0] as unknown as { ui: { data: { finding: { status?: string } } } }).ui.data.finding.status).toBeUndefined();
  });
});
