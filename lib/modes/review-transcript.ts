/**
 * The review a session produced, read back from its transcript: every successful
 * `add_review_node` call is a finding, the last `finalize_review` is the verdict. Derived, so the
 * findings survive a reload with the session and need no store of their own; what the user
 * decided about each (resolved, dismissed) is kept on the session and applied here.
 */
import type { AgentMessage, ToolResultPart } from "../agent/messages";
import { reviewToMarkdown, verdictFloor, type ReviewFinding, type ReviewVerdict } from "./review";
import { ADD_REVIEW_NODE, FINALIZE_REVIEW } from "./tools";

export type ReviewState = {
  findings: ReviewFinding[];
  /** The published verdict (already escalated by the findings), once finalize_review ran. */
  verdict?: { verdict: ReviewVerdict; requested?: ReviewVerdict; reason?: string; summary?: string };
  /** The verdict the findings still open allow now (resolving a blocker lowers it). */
  floorNow: ReviewVerdict;
  open: number;
};

export function reviewFromMessages(messages: readonly AgentMessage[], decided: Readonly<Record<string, "resolved" | "dismissed">> = {}): ReviewState {
  const results = new Map<string, ToolResultPart>();
  for (const m of messages) if (m.role === "tool") for (const r of m.content) results.set(r.toolCallId, r);
  const state: ReviewState = { findings: [], floorNow: "ship", open: 0 };
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const part of m.content) {
      if (part.type !== "tool-call") continue;
      const result = results.get(part.toolCallId);
      if (result?.ui?.status !== "ok") continue;
      const data = result.ui.data ?? {};
      if (part.toolName === ADD_REVIEW_NODE && data.finding) {
        const f = data.finding as ReviewFinding;
        state.findings.push(decided[f.id] ? { ...f, status: decided[f.id] } : f);
      }
      if (part.toolName === FINALIZE_REVIEW && typeof data.verdict === "string") {
        state.verdict = {
          verdict: data.verdict as ReviewVerdict,
          requested: data.requested as ReviewVerdict | undefined,
          reason: typeof data.reason === "string" ? data.reason : undefined,
          summary: typeof data.summary === "string" ? data.summary : undefined,
        };
      }
    }
  }
  state.floorNow = verdictFloor(state.findings);
  state.open = state.findings.filter((f) => (f.status ?? "open") === "open").length;
  return state;
}

export const EMPTY_REVIEW: ReviewState = { findings: [], floorNow: "ship", open: 0 };

export function reviewMarkdown(state: ReviewState): string {
  return reviewToMarkdown({ findings: state.findings, verdict: state.verdict?.verdict ?? verdictFloor(state.findings), summary: state.verdict?.summary });
}
