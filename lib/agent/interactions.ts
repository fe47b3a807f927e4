/**
 * What a run waits for from the user: approvals (a tool call, the loop guard) and answers to
 * ask_question. Each request is an event; the UI answers through the session (approve, reject,
 * answer). A stopped run rejects what it was waiting for with an abort error.
 */
import type { QuestionRequest } from "../tools/define";
import { abortError } from "./errors";
import type { AgentEvent } from "./events";
import { localId } from "./ids";
import type { RunState, SessionCore } from "./session-core";

/** What the pipeline asks the user: the approval event without its envelope (type, run, ids, sequence, time). */
export type ApprovalRequest = Omit<Extract<AgentEvent, { type: "approval-requested" }>, "type" | "runId" | "approvalId" | "seq" | "at" | "sessionId">;

export type ApprovalAnswer = { approved: boolean; feedback?: string; alwaysAllowPrefix?: string };

type Pending<T> = { resolve(v: T): void; reject(e: unknown): void; runId: string; event?: AgentEvent };

export class Interactions {
  private readonly approvals = new Map<string, Pending<ApprovalAnswer>>();
  private readonly questions = new Map<string, Pending<string>>();

  constructor(private readonly core: SessionCore) {}

  /** Ask the user to approve; resolves with their answer, rejects when the run is stopped. */
  requestApproval(state: RunState, req: ApprovalRequest): Promise<ApprovalAnswer> {
    const approvalId = localId("ap");
    const signal = state.controller.signal;
    if (signal.aborted) return Promise.reject(abortError());
    return new Promise<ApprovalAnswer>((resolve, reject) => {
      const onAbort = () => {
        if (this.approvals.delete(approvalId)) {
          this.core.emit({ type: "approval-resolved", runId: state.runId, approvalId, toolCallId: req.toolCallId, decision: "aborted" });
        }
        reject(abortError());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const entry: Pending<ApprovalAnswer> = {
        runId: state.runId,
        resolve: (a) => {
          signal.removeEventListener("abort", onAbort);
          this.core.emit({ type: "approval-resolved", runId: state.runId, approvalId, toolCallId: req.toolCallId, decision: a.approved ? "approved" : "rejected", feedback: a.feedback });
          resolve(a);
        },
        reject: (e) => {
          signal.removeEventListener("abort", onAbort);
          reject(e);
        },
      };
      // Registered before the event: a listener may answer synchronously from inside it.
      this.approvals.set(approvalId, entry);
      entry.event = this.core.emit({ type: "approval-requested", runId: state.runId, approvalId, ...req });
    });
  }

  /** ask_question: resolves with the user's answer, rejects when the run is stopped. */
  askUser(state: RunState, toolCallId: string, q: QuestionRequest): Promise<string> {
    const questionId = localId("q");
    const signal = state.controller.signal;
    if (signal.aborted) return Promise.reject(abortError());
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.questions.delete(questionId);
        reject(abortError());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const entry: Pending<string> = {
        runId: state.runId,
        resolve: (answer) => {
          signal.removeEventListener("abort", onAbort);
          this.core.emit({ type: "question-answered", runId: state.runId, questionId, answer });
          resolve(answer);
        },
        reject: (e) => {
          signal.removeEventListener("abort", onAbort);
          reject(e);
        },
      };
      this.questions.set(questionId, entry);
      entry.event = this.core.emit({ type: "question-asked", runId: state.runId, questionId, toolCallId, question: q.question, choices: q.choices });
    });
  }

  approve(approvalId: string, alwaysAllowPrefix?: string): boolean {
    return this.settle(this.approvals, approvalId, { approved: true, alwaysAllowPrefix });
  }

  reject(approvalId: string, feedback?: string): boolean {
    return this.settle(this.approvals, approvalId, { approved: false, feedback: feedback?.trim() || undefined });
  }

  answer(questionId: string, text: string): boolean {
    return this.settle(this.questions, questionId, text);
  }

  /** The requests still waiting, as the events that asked. */
  pending(): { approvals: AgentEvent[]; questions: AgentEvent[] } {
    const events = (m: Map<string, Pending<never>>) => [...m.values()].map((p) => p.event).filter((e): e is AgentEvent => !!e);
    return { approvals: events(this.approvals as Map<string, Pending<never>>), questions: events(this.questions as Map<string, Pending<never>>) };
  }

  /** The run ended: whatever it still waited for is rejected. */
  settleRun(runId: string): void {
    for (const map of [this.approvals, this.questions] as Map<string, Pending<unknown>>[]) {
      for (const [id, p] of map) {
        if (p.runId !== runId) continue;
        map.delete(id);
        p.reject(abortError());
      }
    }
  }

  private settle<T>(map: Map<string, Pending<T>>, id: string, value: T): boolean {
    const p = map.get(id);
    if (!p) return false;
    map.delete(id);
    p.resolve(value);
    return true;
  }
}
