/**
 * Where team proposals wait for the operator. `propose_orchestration` gets only `inbox.sink()`
 * (one method: submit); `approve` and `reject` are on the inbox, which the UI holds and which is
 * never handed to a tool, a hook or a session. A proposal is not a session approval either:
 * `session.approve(id)`, the approval events plugins see and the auto-approve settings have no
 * entry for it, so none of them can settle it.
 *
 * The cooldown: the agent may not submit again within `cooldownMs` (two minutes) of its
 * previous submission; the refusal asks it to fold its changes into one proposal. An answer
 * from the operator ends the cooldown (a proposal revised after a rejection responds to the
 * user, and is not a second proposal in a row).
 *
 * Framework-free.
 */
import { proposalSchema, type Proposal, type ProposalSink, type SubmitOutcome } from "./proposal";

export const PROPOSAL_COOLDOWN_MS = 2 * 60_000;

/** The approvals `approve()` handed out: a look-alike object made elsewhere is not one of them. */
const issuedApprovals = new WeakSet<object>();

/** True only for an object returned by `ProposalInbox.approve`: a team starts from nothing else. */
export function isIssuedApproval(p: unknown): boolean {
  return typeof p === "object" && p !== null && issuedApprovals.has(p);
}

export type ProposalStatus = "pending" | "approved" | "rejected" | "superseded";

export type PendingProposal = {
  id: string;
  sessionId: string;
  toolCallId: string;
  proposal: Proposal;
  submittedAt: number;
  status: ProposalStatus;
  feedback?: string;
};

export type InboxEvent = { type: "submitted" | "approved" | "rejected" | "superseded"; proposal: PendingProposal };

export class ProposalInbox {
  private readonly now: () => number;
  private readonly cooldownMs: number;
  private readonly items = new Map<string, PendingProposal>();
  /** Per session: when the agent last submitted, while the operator has not answered. */
  private readonly lastSubmitted = new Map<string, number>();
  private readonly listeners = new Set<(e: InboxEvent) => void>();
  private seq = 0;

  constructor(opts: { now?: () => number; cooldownMs?: number } = {}) {
    this.now = opts.now ?? (() => Date.now());
    this.cooldownMs = opts.cooldownMs ?? PROPOSAL_COOLDOWN_MS;
  }

  /** What a tool is given: submitting only (a new object, so the inbox itself is never reachable). */
  sink(): ProposalSink {
    return Object.freeze({ submit: (req: Parameters<ProposalSink["submit"]>[0]) => this.submit(req) });
  }

  private submit(req: { sessionId: string; toolCallId: string; proposal: Proposal }): SubmitOutcome {
    const at = this.now();
    const last = this.lastSubmitted.get(req.sessionId);
    if (last !== undefined && at - last < this.cooldownMs) {
      const wait = Math.ceil((this.cooldownMs - (at - last)) / 1000);
      return {
        ok: false,
        reason: `A proposal was already submitted ${Math.floor((at - last) / 1000)} s ago: a new one is refused for two minutes after the previous one (${wait} s left). Fold every change into one proposal and wait for the user's answer.`,
      };
    }
    for (const p of this.items.values()) {
      if (p.sessionId === req.sessionId && p.status === "pending") {
        p.status = "superseded";
        this.emit({ type: "superseded", proposal: p });
      }
    }
    const id = `prop${(++this.seq).toString(36)}${at.toString(36)}`;
    const item: PendingProposal = { id, sessionId: req.sessionId, toolCallId: req.toolCallId, proposal: structuredClone(req.proposal), submittedAt: at, status: "pending" };
    this.items.set(id, item);
    this.lastSubmitted.set(req.sessionId, at);
    this.emit({ type: "submitted", proposal: item });
    return { ok: true, proposalId: id };
  }

  /** Copies: changing what is handed out changes nothing here. */
  get(id: string): PendingProposal | undefined {
    const p = this.items.get(id);
    return p && structuredClone(p);
  }

  /** Proposals waiting for the operator (of one session, or all). */
  pending(sessionId?: string): PendingProposal[] {
    return [...this.items.values()].filter((p) => p.status === "pending" && (sessionId === undefined || p.sessionId === sessionId))
      .map((p) => structuredClone(p));
  }

  /** The operator approved, in the UI: returns the proposal to materialise. Throws when it is not pending. */
  approve(id: string): PendingProposal {
    const p = this.answerable(id);
    p.status = "approved";
    this.lastSubmitted.delete(p.sessionId);
    this.emit({ type: "approved", proposal: p });
    const approval = Object.freeze(structuredClone(p));
    issuedApprovals.add(approval);
    return approval;
  }

  /**
   * A proposal the operator made and approved in one gesture (a Plan card's "Approve & run as a
   * team": the plan's graph compiled by `proposalFromPlan`). Called by UI code only, like
   * `approve`; validated like any proposal. Returns the approval a team starts from.
   */
  approveOwn(sessionId: string, proposal: Proposal): PendingProposal {
    const parsed = proposalSchema.safeParse(proposal);
    if (!parsed.success) throw new Error(`The proposal is not valid: ${parsed.error.issues.map((i) => i.message).join(" ")}`);
    const at = this.now();
    const id = `prop${(++this.seq).toString(36)}${at.toString(36)}`;
    const item: PendingProposal = { id, sessionId, toolCallId: "", proposal: structuredClone(parsed.data), submittedAt: at, status: "pending" };
    this.items.set(id, item);
    return this.approve(id);
  }

  /**
   * Put back a proposal as it was kept before a reload (its id, status and answer), so its card
   * shows the same state and a pending one can still be answered. Returns false when the inbox
   * already has it or it is not a valid proposal. Restoring approves nothing: an approval is only
   * what `approve` issues, and a restored "approved" proposal cannot be approved again.
   */
  restore(item: PendingProposal): boolean {
    if (this.items.has(item.id) || !proposalSchema.safeParse(item.proposal).success) return false;
    const copy = structuredClone(item);
    this.items.set(copy.id, copy);
    if (copy.status === "pending") {
      const last = this.lastSubmitted.get(copy.sessionId);
      if (last === undefined || last < copy.submittedAt) this.lastSubmitted.set(copy.sessionId, copy.submittedAt);
    }
    return true;
  }

  /** The operator rejected, in the UI, with optional feedback for the agent. */
  reject(id: string, feedback?: string): PendingProposal {
    const p = this.answerable(id);
    p.status = "rejected";
    const f = feedback?.trim();
    if (f) p.feedback = f;
    this.lastSubmitted.delete(p.sessionId);
    this.emit({ type: "rejected", proposal: p });
    return structuredClone(p);
  }

  subscribe(listener: (e: InboxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private answerable(id: string): PendingProposal {
    const p = this.items.get(id);
    if (!p) throw new Error(`No proposal "${id}"`);
    if (p.status !== "pending") throw new Error(`Proposal "${id}" is ${p.status}, not pending`);
    return p;
  }

  private emit(e: InboxEvent): void {
    for (const l of [...this.listeners]) l({ type: e.type, proposal: structuredClone(e.proposal) });
  }
}

/** The app's inbox (the panel renders its pending proposals; the default mode tools submit to it). */
export const defaultProposalInbox = new ProposalInbox();
