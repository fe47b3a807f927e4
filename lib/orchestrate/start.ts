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
  opts: { parent: Pick<AgentSession, "steer">; createChild: ChildFactory } & Pick<TeamOptions, "setTimer" | "clearTimer">,
): Team {
  // Only the operator's answer in the UI (ProposalInbox.approve) yields an approval.
  if (!isIssuedApproval(approved)) throw new Error(`Proposal "${approved.id}" was not approved by the operator: only an approval from the inbox becomes a team`);
  const plan = materialise(approved.proposal, approved.id);
  return new Team({ plan, createChild: opts.createChild, post: (text) => opts.parent.steer(text), setTimer: opts.setTimer, clearTimer: opts.clearTimer });
}
