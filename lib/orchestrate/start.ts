/**
 * From the operator's approval to a team: the approved proposal is materialised under its own id
 * (so the same approval always gives the same tasks and child session ids) and handed to a Team
 * that posts its result into the parent session's conversation.
 *
 * Framework-free.
 */
import type { AgentSession } from "../agent/session";
import { isIssuedApproval, type PendingProposal } from "./inbox";
import { materialise } from "./materialise";
import { Team, type ChildFactory, type TeamOptions } from "./team";

/** A team for a proposal the operator approved (`inbox.approve(id)`'s result); call `start()` on it. */
export function teamFromApproved(
  approved: PendingProposal,
  opts: { parent: Pick<AgentSession, "steer" | "id">; createChild: ChildFactory; toolCallId?: string } & Pick<TeamOptions, "setTimer" | "clearTimer">,
): Team {
  // Only the operator's answer in the UI (ProposalInbox.approve) yields an approval.
  if (!isIssuedApproval(approved)) throw new Error(`Proposal "${approved.id}" was not approved by the operator: only an approval from the inbox becomes a team`);
  const plan = materialise(approved.proposal, approved.id);
  const parent = { sessionId: opts.parent.id, toolCallId: opts.toolCallId ?? approved.toolCallId };
  return new Team({ plan, createChild: opts.createChild, post: (text) => opts.parent.steer(text), parent, setTimer: opts.setTimer, clearTimer: opts.clearTimer });
}

/** What the agent is told when the operator rejected its proposal (steer it into the parent session). */
export function proposalRejectedNotice(feedback?: string): string {
  return feedback?.trim()
    ? `The user rejected the team proposal. Their feedback: ${feedback.trim()}\nRevise it and propose again with propose_orchestration, folding every change into one proposal.`
    : "The user rejected the team proposal. Ask what they want changed, or answer without a team.";
}

/** What the agent is told when the operator approved its proposal and the team started. */
export function proposalApprovedNotice(taskCount: number): string {
  return `The user approved the team proposal: ${taskCount} task${taskCount === 1 ? "" : "s"} are running as child sessions. The synthesis will be posted here when the team is done; do not start the work yourself.`;
}
