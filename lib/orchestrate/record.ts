/**
 * What is kept of a proposal and its team across a reload: the proposal as the operator answered
 * it (pending, approved, rejected, superseded), and the team's last state with the earliest
 * checkpoint its children took. A team does not resume after a reload — its children's runs died
 * with the page — so a team that was running is settled as stopped, with what was done kept and
 * a note for the parent conversation; its Team view shows the record (tasks, reasons, costs,
 * each child's transcript from storage) and still restores the files to before the team.
 *
 * A record never starts anything: a restored "approved" proposal is not an approval the inbox
 * issued (only `ProposalInbox.approve` makes those), and a restored pending one still waits for
 * the operator's click. Records read back are validated; a damaged one is skipped.
 *
 * Framework-free.
 */
import { z } from "zod";
import type { AgentSession } from "../agent/session";
import type { CheckpointEntry } from "../agent/types";
import type { PendingProposal } from "./inbox";
import { proposalSchema } from "./proposal";
import type { TeamHandle, TeamState, TeamTaskView } from "./team";

export type OrchestrationRecord = {
  version: 1;
  /** The call the card belongs to (a propose_orchestration call, or the submit_plan call run as a team). */
  toolCallId: string;
  proposal: PendingProposal;
  team?: { state: TeamState; firstCheckpoint?: { ref: string; createdAt: number } };
};

const cost = z.object({ tokens: z.number().nonnegative(), usd: z.number().nonnegative() });
const taskView = z.object({
  key: z.string(),
  title: z.string(),
  role: z.string(),
  mode: z.enum(["act", "plan", "review"]),
  writes: z.boolean(),
  dependsOn: z.array(z.string()),
  state: z.enum(["waiting", "running", "done", "failed", "blocked"]),
  reason: z.string().optional(),
  output: z.string().optional(),
  sessionId: z.string().optional(),
  cost,
});
const teamState = z.object({
  teamId: z.string(),
  goal: z.string(),
  status: z.enum(["idle", "running", "done", "stopped", "failed"]),
  reason: z.string().optional(),
  tasks: z.array(taskView),
  synthesis: taskView,
  cost,
  budget: z.object({ tokens: z.number(), usd: z.number(), maxParallel: z.number(), wallMs: z.number() }),
});
const recordSchema = z.object({
  version: z.literal(1),
  toolCallId: z.string().min(1),
  proposal: z.object({
    id: z.string().min(1),
    sessionId: z.string().min(1),
    toolCallId: z.string(),
    proposal: proposalSchema,
    submittedAt: z.number(),
    status: z.enum(["pending", "approved", "rejected", "superseded"]),
    feedback: z.string().optional(),
  }),
  team: z.object({ state: teamState, firstCheckpoint: z.object({ ref: z.string().min(1), createdAt: z.number() }).optional() }).optional(),
});

/** The key a record is kept under beside its parent session. */
export function recordKey(toolCallId: string): string {
  return `orchestration:${toolCallId}`;
}

/** A record read back from storage, or undefined when it is damaged or from another version. */
export function parseRecord(value: unknown): OrchestrationRecord | undefined {
  const r = recordSchema.safeParse(value);
  return r.success ? (r.data as OrchestrationRecord) : undefined;
}

export const INTERRUPTED_REASON = "Stopped: the page was reloaded while the team ran.";

/**
 * A team that was running when the page went away, as it stands now: the tasks that ran are
 * stopped, those that waited are blocked, what was done is kept. Settled states stay as they are.
 */
export function settleInterrupted(state: TeamState): TeamState {
  if (state.status !== "running" && state.status !== "idle") return state;
  const settle = (t: TeamTaskView): TeamTaskView =>
    t.state === "running" ? { ...t, state: "failed", reason: INTERRUPTED_REASON } : t.state === "waiting" ? { ...t, state: "blocked", reason: INTERRUPTED_REASON } : t;
  return { ...state, status: "stopped", reason: INTERRUPTED_REASON, tasks: state.tasks.map(settle), synthesis: settle(state.synthesis) };
}

/** What the parent conversation is told about a team the reload stopped. */
export function interruptedNotice(state: TeamState): string {
  const done = state.tasks.filter((t) => t.state === "done");
  const lines = [`The team for "${state.goal}" was stopped: the page was reloaded while it ran.`];
  for (const t of state.tasks) lines.push(`- ${t.key}: ${t.state}`);
  if (done.length) {
    lines.push("", "What was done is kept:");
    for (const t of done) lines.push("", `### ${t.title} (\`${t.key}\`)`, t.output ?? "");
  }
  return lines.join("\n");
}

/** A team read back from its record: its last state, for the Team view; it runs nothing. */
export class RestoredTeam implements TeamHandle {
  constructor(
    readonly state: TeamState,
    private readonly first?: { ref: string; createdAt: number },
  ) {}

  subscribe(): () => void {
    return () => undefined;
  }

  /** No live session: the transcripts are read back from storage by session id. */
  session(): AgentSession | undefined {
    return undefined;
  }

  stop(): void {}

  stopAll(): void {}

  firstCheckpoint(): Pick<CheckpointEntry, "ref" | "createdAt"> | undefined {
    return this.first;
  }
}
