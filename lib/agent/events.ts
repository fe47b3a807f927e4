/**
 * Everything a session tells the outside world, as one typed union. The UI renders these; the
 * `onEvent` hook sees every one of them. Events are plain JSON (structured-cloneable), carry no
 * secrets (API keys never reach the loop; error texts are redacted before they are emitted),
 * and each has `seq` (per session, increasing), `at` (ms) and `sessionId`.
 *
 * A run, as events:
 *   run-started → message-added(prompt)
 *     → (model-request → text-delta* / reasoning-delta* → message-added(assistant) → usage)
 *     → (tool-call-started → [approval-requested → approval-resolved] → tool-call-finished)*
 *     → message-added(tool results) → … → run-finished(status)
 * with checkpoint-created once per run, taken in parallel with the first model request and
 * always before the first tool that can change the workspace (a run that changes nothing may
 * see it arrive after run-finished).
 *
 * The UI answers through the session's commands, never by mutating state:
 *   approval-requested → session.approve(approvalId, { alwaysAllowPrefix? }) | session.reject(approvalId, feedback?)
 *   question-asked     → session.answer(questionId, text)
 *   anything           → session.stop(), session.setMode(mode)
 */
import type { AgentMessage, ToolCallStatus } from "./messages";
import type { CompactionReport } from "./compaction";
import type { AgentMode, RunStatus, UsageTotals } from "./types";
import type { ApprovalCategory, ApprovalPreview, EffectClass } from "../tools/define";

/** Error codes of `error` events (and of AgentError). */
export type AgentErrorCode =
  | "auth" // 401/403: the key is missing or wrong
  | "model-not-found" // 404: unknown model (or wrong base URL)
  | "rate-limit" // 429 after the retries
  | "server" // 5xx after the retries
  | "network" // could not connect / connection dropped
  | "cors" // the browser refused the call (a local server without CORS)
  | "bad-response" // HTML instead of an API response, malformed stream
  | "context-length" // the prompt is over the model's limit
  | "budget" // the session's budget cap would be exceeded
  | "checkpoint" // the run's checkpoint could not be taken
  | "hook" // a hook failed
  | "tool" // a tool threw (the model gets the error, the run goes on)
  | "provider" // anything else the provider said
  | "internal";

export type ModelRequestInfo = { runId: string; step: number; attempt: number; modelId: string; provider: string };

export type AgentEventBody =
  /** A user turn began (`prompt` is the text as typed). */
  | { type: "run-started"; runId: string; run: number; prompt: string; mode: AgentMode }
  /** The turn ended. `reason` says why when not simply completed; `summary` is the completion summary. */
  | { type: "run-finished"; runId: string; run: number; status: RunStatus; reason?: string; summary?: string; usage: UsageTotals; durationMs: number }
  /** A message was added to the conversation (user prompt, finished assistant message, tool results, notices). */
  | { type: "message-added"; message: AgentMessage }
  /** A model request is leaving (`attempt` > 1 on a retry). */
  | ({ type: "model-request" } & ModelRequestInfo)
  /** Streamed assistant text for message `messageId`. */
  | { type: "text-delta"; runId: string; messageId: string; delta: string }
  /** Streamed reasoning (models that expose it). */
  | { type: "reasoning-delta"; runId: string; messageId: string; delta: string }
  /** A retryable failure; the request is sent again after `delayMs`. */
  | { type: "retry"; runId: string; attempt: number; delayMs: number; code: AgentErrorCode; message: string }
  /** The model asked for a tool call (before any check). */
  | { type: "tool-call-started"; runId: string; toolCallId: string; toolName: string; input: unknown; effects: readonly EffectClass[]; category: ApprovalCategory }
  /**
   * A tool call ended. `blockedByPolicy`: refused by the mode surface or a beforeTool hook
   * (`status` "blocked"); the model read `blockReason`. `output` is what the model read, cut
   * for the UI.
   */
  | {
      type: "tool-call-finished";
      runId: string;
      toolCallId: string;
      toolName: string;
      status: ToolCallStatus;
      summary: string;
      output: string;
      error?: string;
      blockedByPolicy: boolean;
      blockReason?: string;
      data?: Record<string, unknown>;
      durationMs: number;
    }
  /**
   * The run waits for the user. kind "tool": approve or reject this call (preview = the diff of
   * an edit or the commands); kind "loop-guard": the same call came three times in a row —
   * approve to continue, reject to stop the run.
   */
  | {
      type: "approval-requested";
      runId: string;
      approvalId: string;
      kind: "tool" | "loop-guard";
      toolCallId: string;
      toolName: string;
      category: ApprovalCategory;
      input: unknown;
      preview?: ApprovalPreview;
      /** For commands: the prefix "always allow" would add (the command's first word(s)). */
      suggestedPrefix?: string;
      message?: string;
    }
  /** An approval was settled. */
  | { type: "approval-resolved"; runId: string; approvalId: string; toolCallId: string; decision: "approved" | "rejected" | "aborted"; feedback?: string }
  /** ask_question: the run waits for `session.answer(questionId, text)`. */
  | { type: "question-asked"; runId: string; questionId: string; toolCallId: string; question: string; choices?: string[] }
  | { type: "question-answered"; runId: string; questionId: string; answer: string }
  /** The run's checkpoint exists (refs/tabula/checkpoints/<session>/<run>). */
  | { type: "checkpoint-created"; runId: string; run: number; ref: string; oid: string; createdAt: number; ms?: number }
  /** Token usage of one model call, with the run and session totals (cost in USD when priced).
   * `estimated`: a request stopped or failed without a usage report, counted from its size. */
  | { type: "usage"; /** Absent for a request outside a run (/compact's summary). */ runId?: string; step: UsageTotals; run: UsageTotals; session: UsageTotals; estimated?: boolean }
  /** Something went wrong. `fatal`: the run ends. */
  | { type: "error"; runId?: string; code: AgentErrorCode; message: string; fatal: boolean; retryable?: boolean }
  | { type: "mode-changed"; from: AgentMode; to: AgentMode; runId?: string }
  /** The conversation sent to the model was compacted (auto: near the context limit; manual: /compact). */
  | ({ type: "compaction" } & CompactionReport)
  /** A hook threw or timed out (for beforeTool: the call was refused). */
  | { type: "hook-error"; point: string; hook: string; message: string; runId?: string }
  /** A slash command ran (/compact, /clear, /undo, /mode, plugin commands). */
  | { type: "command"; name: string; args: string; output: string; ok: boolean }
  /** Files were restored to a checkpoint (/undo, edit & resend); `txid` undoes it. */
  | { type: "files-restored"; ref: string; txid: string; changed: { path: string; change: string }[] }
  /** Title, settings or the message list changed outside a run (clear, edit, fork). */
  | { type: "session-updated"; what: "title" | "messages" | "settings" | "cleared" | "runs" | "review" }
  /** The UI left this session (another one opened, the page closed): the last event it sends. */
  | { type: "session-closed" };

export type AgentEvent = AgentEventBody & { seq: number; at: number; sessionId: string };
export type AgentEventType = AgentEvent["type"];
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
export type AgentEventListener = (event: AgentEvent) => void;

/** An error carrying an AgentErrorCode (what run-finished's reason and error events are made from). */
export class AgentError extends Error {
  readonly code: AgentErrorCode;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  constructor(code: AgentErrorCode, message: string, opts: { retryable?: boolean; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AgentError";
    this.code = code;
    this.retryable = opts.retryable ?? false;
    this.retryAfterMs = opts.retryAfterMs;
  }
}
