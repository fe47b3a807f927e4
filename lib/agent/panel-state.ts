/**
 * What the agent panel shows of a session while it lives, as a pure reducer over the session's
 * events: `reducePanel(state, event) → state`. The conversation itself stays in the session
 * (`session.messages`, `runs`, `usage`); this is only what the events say and the session does not
 * keep: text still streaming, tool calls still running, the run's notices, and what the run waits
 * for. The panel picks its view from `phase`, one value.
 *
 * States are never mutated: every event returns a new object (the panel re-renders on identity),
 * and the maps and arrays inside are copied when they change.
 */
import type { AgentEvent, AgentEventOf } from "./events";
import type { ToolResultPart } from "./messages";

export type ApprovalRequested = AgentEventOf<"approval-requested">;
export type QuestionAsked = AgentEventOf<"question-asked">;
export type ToolCallStarted = AgentEventOf<"tool-call-started">;
type ToolCallFinished = AgentEventOf<"tool-call-finished">;

/** The notices a run shows inline, in order: checkpoints, retries, errors, hook failures, compactions, restores, slash commands' replies. */
export type PanelNotice = AgentEventOf<"checkpoint-created" | "retry" | "error" | "hook-error" | "compaction" | "files-restored" | "command">;

/**
 * Where the session is, as the panel shows it. A run waiting for the user is not "running" for the
 * cards, but is for everything a run locks (the composer shows Stop, history edits are hidden).
 */
export type PanelPhase =
  | { kind: "idle" }
  | { kind: "running"; runId?: string }
  | { kind: "awaitingApproval"; runId?: string; approvals: readonly ApprovalRequested[] }
  | { kind: "awaitingAnswer"; runId?: string; questions: readonly QuestionAsked[] };

export interface PanelState {
  phase: PanelPhase;
  /** Assistant text being streamed, by message id (dropped when the message is added). */
  streaming: ReadonlyMap<string, string>;
  /** Tool calls started and not finished yet, by call id. */
  runningTools: ReadonlyMap<string, ToolCallStarted>;
  /**
   * How this run's finished calls ended, by call id, as their result parts: the session adds
   * the tool message only when the whole batch is done, and a call refused at once (Plan
   * mode's policy) should say so at once, not look stopped until then.
   */
  finishedTools: ReadonlyMap<string, ToolResultPart>;
  /** The current run's notices (a new run starts with none). */
  notices: readonly PanelNotice[];
  /** Requests the run waits on, in the order asked; the phase shows the first kind that has any. */
  pending: { approvals: readonly ApprovalRequested[]; questions: readonly QuestionAsked[] };
  /**
   * Requests answered before the panel saw them asked: a listener before this one may answer from
   * inside the request event, so its answer reaches this reducer first. Kept until the run ends.
   */
  settled: ReadonlySet<string>;
  /** Events seen: changes on every event, so anything read from the session is read again. */
  revision: number;
}

/** What a session is doing when the panel starts following it (a panel can mount mid-run). */
export interface PanelSeed {
  running: boolean;
  pending: { approvals: readonly AgentEvent[]; questions: readonly AgentEvent[] };
}

const isApproval = (e: AgentEvent): e is ApprovalRequested => e.type === "approval-requested";
const isQuestion = (e: AgentEvent): e is QuestionAsked => e.type === "question-asked";

export function initialPanelState(seed?: PanelSeed): PanelState {
  const pending = { approvals: seed?.pending.approvals.filter(isApproval) ?? [], questions: seed?.pending.questions.filter(isQuestion) ?? [] };
  const runId = pending.approvals[0]?.runId ?? pending.questions[0]?.runId;
  return { phase: phaseOf(seed?.running ?? false, runId, pending), streaming: new Map(), runningTools: new Map(), finishedTools: new Map(), notices: [], pending, settled: new Set(), revision: 0 };
}

/** The phase for a run state and what it waits on: an approval first, then a question. */
export function phaseOf(running: boolean, runId: string | undefined, pending: PanelState["pending"]): PanelPhase {
  if (pending.approvals.length > 0) return { kind: "awaitingApproval", runId, approvals: pending.approvals };
  if (pending.questions.length > 0) return { kind: "awaitingAnswer", runId, questions: pending.questions };
  return running ? { kind: "running", runId } : { kind: "idle" };
}

/** True while a run is going, waiting for the user included. */
export function isBusy(phase: PanelPhase): boolean {
  return phase.kind !== "idle";
}

/** A finished call's event as the result part the transcript will hold once the batch is saved. */
function resultPartOf(e: ToolCallFinished): ToolResultPart {
  const failed = e.status !== "ok";
  return {
    type: "tool-result",
    toolCallId: e.toolCallId,
    toolName: e.toolName,
    output: { type: failed ? "error-text" : "text", value: e.output },
    ui: { status: e.status, summary: e.summary, ...(e.blockedByPolicy ? { blockedByPolicy: true } : {}), ...(e.data ? { data: e.data } : {}), durationMs: e.durationMs },
  };
}

export function reducePanel(state: PanelState, event: AgentEvent): PanelState {
  const revision = state.revision + 1;
  const running = isBusy(state.phase);
  const runId = state.phase.kind === "idle" ? undefined : state.phase.runId;
  switch (event.type) {
    case "run-started": {
      const pending = { approvals: [], questions: [] };
      return { ...state, revision, notices: [], pending, settled: new Set(), finishedTools: new Map(), phase: phaseOf(true, event.runId, pending) };
    }
    case "run-finished": {
      // Whatever was still waiting was settled by the end of the run.
      const pending = { approvals: [], questions: [] };
      return { ...state, revision, streaming: new Map(), runningTools: new Map(), finishedTools: new Map(), pending, settled: new Set(), phase: phaseOf(false, undefined, pending) };
    }
    case "text-delta": {
      const streaming = new Map(state.streaming);
      streaming.set(event.messageId, (streaming.get(event.messageId) ?? "") + event.delta);
      return { ...state, revision, streaming };
    }
    case "message-added": {
      if (!state.streaming.has(event.message.id)) return { ...state, revision };
      const streaming = new Map(state.streaming);
      streaming.delete(event.message.id);
      return { ...state, revision, streaming };
    }
    case "tool-call-started": {
      const runningTools = new Map(state.runningTools);
      runningTools.set(event.toolCallId, event);
      return { ...state, revision, runningTools };
    }
    case "tool-call-finished": {
      const runningTools = new Map(state.runningTools);
      runningTools.delete(event.toolCallId);
      const finishedTools = new Map(state.finishedTools);
      finishedTools.set(event.toolCallId, resultPartOf(event));
      // A call that ended no longer waits: a question is dropped without an event when the run is stopped.
      const pending = without(state.pending, (e) => e.toolCallId === event.toolCallId);
      return { ...state, revision, runningTools, finishedTools, pending, phase: phaseOf(running, runId, pending) };
    }
    case "approval-requested":
    case "question-asked": {
      if (state.settled.has(event.type === "approval-requested" ? event.approvalId : event.questionId)) return { ...state, revision };
      const pending =
        event.type === "approval-requested"
          ? { ...state.pending, approvals: [...state.pending.approvals, event] }
          : { ...state.pending, questions: [...state.pending.questions, event] };
      return { ...state, revision, pending, phase: phaseOf(running, runId ?? event.runId, pending) };
    }
    case "approval-resolved":
    case "question-answered": {
      const id = event.type === "approval-resolved" ? event.approvalId : event.questionId;
      const pending = without(state.pending, (e) => (e.type === "approval-requested" ? e.approvalId : e.questionId) === id);
      if (pending === state.pending) return { ...state, revision, settled: new Set(state.settled).add(id) };
      return { ...state, revision, pending, phase: phaseOf(running, runId, pending) };
    }
    case "error":
    case "retry":
    case "checkpoint-created":
    case "hook-error":
    case "compaction":
    case "files-restored":
    case "command":
      return { ...state, revision, notices: [...state.notices, event] };
    default:
      return { ...state, revision };
  }
}

function without(pending: PanelState["pending"], drop: (e: ApprovalRequested | QuestionAsked) => boolean): PanelState["pending"] {
  const approvals = pending.approvals.filter((e) => !drop(e));
  const questions = pending.questions.filter((e) => !drop(e));
  if (approvals.length === pending.approvals.length && questions.length === pending.questions.length) return pending;
  return { approvals, questions };
}
