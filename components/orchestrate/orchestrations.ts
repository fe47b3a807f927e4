/**
 * The panel's side of Orchestrate mode: the proposal inbox — held here, by the UI, and never
 * handed to a session, a tool or a plugin (sessions get only `sink()`) — and the teams the
 * operator's approvals started, found by the tool call that proposed them (a proposal card, or
 * a plan card run as a team). Approving, rejecting and running a plan as a team are methods the
 * panel calls from a click; nothing else reaches them.
 *
 * Each proposal and its team are kept beside the parent session (lib/orchestrate/record.ts says
 * what and why), so after a reload the cards show their answers, a pending proposal can still be
 * approved, and a team shows how it ended (a team the reload cut short is settled as stopped).
 */
import type { AgentSession } from "@/lib/agent";
import type { SessionStore } from "@/lib/sessions";
import type { Plan } from "@/lib/modes";
import {
  DEFAULT_ORCHESTRATION_CAP,
  interruptedNotice,
  parseRecord,
  ProposalInbox,
  recordKey,
  RestoredTeam,
  settleInterrupted,
  proposalApprovedNotice,
  proposalFromPlan,
  proposalRejectedNotice,
  teamFromApproved,
  type ChildFactory,
  type PendingProposal,
  type ProposalSink,
  type OrchestrationRecord,
  type ProposalStatus,
  type Team,
  type TeamHandle,
} from "@/lib/orchestrate";

/** Where records are kept: beside the parent session (SessionStore's attachments). */
export type OrchestrationStore = Pick<SessionStore, "saveAttachment" | "attachments">;

/** A running team's record is written at most this often (and at once when it ends). */
const SAVE_EVERY_MS = 250;

/** Makes the child factory for a team of `parent` (models, prices and approval settings as they are now). */
export type ChildFactoryMaker = (parent: AgentSession) => Promise<ChildFactory>;

export class Orchestrations {
  private readonly inbox = new ProposalInbox();
  /** Teams by the id of the tool call their card belongs to: running here, or read back after a reload. */
  private readonly teams = new Map<string, TeamHandle>();
  /** What is kept of each card's proposal and team, by the card's call id. */
  private readonly records = new Map<string, OrchestrationRecord>();
  private readonly writes = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly restored = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  /** `onTeamEnd`: a team finished (its children may have changed files the workbench shows). */
  constructor(
    private readonly makeChildFactory: ChildFactoryMaker,
    private readonly onTeamEnd?: () => void,
    private readonly store?: OrchestrationStore,
    private readonly onSaveError?: (err: unknown) => void,
  ) {
    this.inbox.subscribe((e) => {
      // A plan run as a team has no proposal call: launch() keeps it under the plan's call.
      if (e.proposal.toolCallId) this.keep(e.proposal.toolCallId, e.proposal);
      this.changed();
    });
  }

  /**
   * Read back what was kept for `parent`'s cards (once per session per page): answers, pending
   * proposals, and teams as they ended. A team the reload cut short is settled as stopped and
   * the parent conversation is told what was done.
   */
  async restore(parent: AgentSession): Promise<void> {
    if (!this.store || this.restored.has(parent.id)) return;
    this.restored.add(parent.id);
    const kept = await this.store.attachments(parent.id);
    for (const { key, value } of kept) {
      const rec = parseRecord(value);
      if (!rec || key !== recordKey(rec.toolCallId) || rec.proposal.sessionId !== parent.id) continue;
      if (this.teams.has(rec.toolCallId)) continue; // running in this page
      this.inbox.restore(rec.proposal);
      this.records.set(rec.toolCallId, rec);
      if (!rec.team) continue;
      const state = settleInterrupted(rec.team.state);
      if (state !== rec.team.state) {
        rec.team = { ...rec.team, state };
        parent.steer(interruptedNotice(state));
        this.save(rec.toolCallId);
      }
      this.teams.set(rec.toolCallId, new RestoredTeam(state, rec.team.firstCheckpoint));
    }
    this.changed();
  }

  /** What the sessions' propose_orchestration tool submits to: submitting only. */
  sink(): ProposalSink {
    return this.inbox.sink();
  }

  status(proposalId: string): ProposalStatus | undefined {
    return this.inbox.get(proposalId)?.status;
  }

  feedback(proposalId: string): string | undefined {
    return this.inbox.get(proposalId)?.feedback;
  }

  teamFor(toolCallId: string): TeamHandle | undefined {
    return this.teams.get(toolCallId);
  }

  /** The operator clicked Approve & run: the proposal becomes a running team of child sessions. */
  async approve(parent: AgentSession, proposalId: string): Promise<Team> {
    // The factory first: if it cannot be made, the proposal stays pending and can be approved again.
    const createChild = await this.makeChildFactory(parent);
    return this.launch(parent, this.inbox.approve(proposalId), createChild);
  }

  /** The operator rejected: returns what the agent is told (the panel sends it as the next prompt, or as a note). */
  reject(proposalId: string, feedback?: string): string {
    const rejected = this.inbox.reject(proposalId, feedback);
    return proposalRejectedNotice(rejected.feedback);
  }

  /** A plan card's Approve & run as a team: the plan's graph, approved by this click, run as a team. */
  async runPlan(parent: AgentSession, planCallId: string, plan: Plan): Promise<Team> {
    const createChild = await this.makeChildFactory(parent);
    const approved = this.inbox.approveOwn(parent.id, proposalFromPlan(plan, DEFAULT_ORCHESTRATION_CAP));
    return this.launch(parent, approved, createChild, planCallId);
  }

  private launch(parent: AgentSession, approved: PendingProposal, createChild: ChildFactory, callId = approved.toolCallId): Team {
    const team = teamFromApproved(approved, { parent, createChild, toolCallId: callId });
    this.teams.set(callId, team);
    this.keep(callId, approved);
    team.subscribe(() => this.saveSoon(callId));
    parent.steer(proposalApprovedNotice(team.plan.tasks.length));
    void team.start().then(() => {
      this.save(callId);
      this.onTeamEnd?.();
    });
    this.changed();
    return team;
  }

  /** Note a proposal's answer (and its team, if it has one) and write the record. */
  private keep(callId: string, proposal: PendingProposal): void {
    this.records.set(callId, { ...this.records.get(callId), version: 1, toolCallId: callId, proposal: structuredClone(proposal) });
    this.save(callId);
  }

  private saveSoon(callId: string): void {
    if (this.timers.has(callId)) return;
    this.timers.set(
      callId,
      setTimeout(() => {
        this.timers.delete(callId);
        this.save(callId);
      }, SAVE_EVERY_MS),
    );
  }

  /** Write a card's record as it is now; writes of one card go one after another. */
  private save(callId: string): void {
    const store = this.store;
    const rec = this.records.get(callId);
    if (!store || !rec) return;
    const team = this.teams.get(callId);
    if (team && !(team instanceof RestoredTeam)) {
      const first = team.firstCheckpoint();
      rec.team = { state: team.state, ...(first ? { firstCheckpoint: { ref: first.ref, createdAt: first.createdAt } } : {}) };
    }
    const snapshot = structuredClone(rec);
    const next = (this.writes.get(callId) ?? Promise.resolve())
      .then(() => store.saveAttachment(snapshot.proposal.sessionId, recordKey(callId), snapshot))
      .catch((e: unknown) => this.onSaveError?.(e));
    this.writes.set(callId, next);
  }

  /** Resolves once every record written so far is stored (tests; the page going away). */
  async flush(): Promise<void> {
    for (const callId of [...this.timers.keys()]) {
      clearTimeout(this.timers.get(callId));
      this.timers.delete(callId);
      this.save(callId);
    }
    await Promise.all([...this.writes.values()]);
  }

  /**
   * Put the files back as they were before the team's first child run (the earliest checkpoint
   * any of its children took): the whole orchestration undone in one step. Through the parent's
   * history, so its transcript notes it and `undoRestore` reverses it.
   */
  async restoreBefore(parent: AgentSession, team: TeamHandle): Promise<{ txid: string; changed: number }> {
    const first = team.firstCheckpoint();
    if (!first) throw new Error("No member of the team has a checkpoint yet: nothing ran that could be undone.");
    const r = await parent.history.restoreFilesTo(first.ref);
    this.onTeamEnd?.();
    return { txid: r.txid, changed: r.changed.length };
  }

  async undoRestore(parent: AgentSession, txid: string): Promise<void> {
    await parent.history.undoRestore(txid);
    this.onTeamEnd?.();
  }

  /** Stop every running team (the panel is going away). */
  stopAll(): void {
    for (const t of this.teams.values()) t.stopAll("Stopped: the agent panel was closed.");
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes on every inbox event and every new team (for useSyncExternalStore). */
  readonly getVersion = (): number => this.version;

  private changed(): void {
    this.version++;
    for (const l of [...this.listeners]) l();
  }
}
