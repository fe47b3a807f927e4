/**
 * The panel's side of Orchestrate mode: the proposal inbox — held here, by the UI, and never
 * handed to a session, a tool or a plugin (sessions get only `sink()`) — and the teams the
 * operator's approvals started, found by the tool call that proposed them (a proposal card, or
 * a plan card run as a team). Approving, rejecting and running a plan as a team are methods the
 * panel calls from a click; nothing else reaches them.
 */
import type { AgentSession } from "@/lib/agent";
import type { Plan } from "@/lib/modes";
import {
  DEFAULT_ORCHESTRATION_CAP,
  ProposalInbox,
  proposalApprovedNotice,
  proposalFromPlan,
  proposalRejectedNotice,
  teamFromApproved,
  type ChildFactory,
  type PendingProposal,
  type ProposalSink,
  type ProposalStatus,
  type Team,
} from "@/lib/orchestrate";

/** Makes the child factory for a team of `parent` (models, prices and approval settings as they are now). */
export type ChildFactoryMaker = (parent: AgentSession) => Promise<ChildFactory>;

export class Orchestrations {
  private readonly inbox = new ProposalInbox();
  /** Teams by the id of the tool call their card belongs to. */
  private readonly teams = new Map<string, Team>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  /** `onTeamEnd`: a team finished (its children may have changed files the workbench shows). */
  constructor(
    private readonly makeChildFactory: ChildFactoryMaker,
    private readonly onTeamEnd?: () => void,
  ) {
    this.inbox.subscribe(() => this.changed());
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

  teamFor(toolCallId: string): Team | undefined {
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
    parent.steer(proposalApprovedNotice(team.plan.tasks.length));
    void team.start().then(() => this.onTeamEnd?.());
    this.changed();
    return team;
  }

  /**
   * Put the files back as they were before the team's first child run (the earliest checkpoint
   * any of its children took): the whole orchestration undone in one step. Through the parent's
   * history, so its transcript notes it and `undoRestore` reverses it.
   */
  async restoreBefore(parent: AgentSession, team: Team): Promise<{ txid: string; changed: number }> {
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
