/**
 * The types of a session's options, its persisted form and its read-only state (./session.ts
 * re-exports them).
 */
import type { ToolPolicy } from "../modes/policy";
import type { ToolDefinition, ToolLimits } from "../tools/define";
import type { CompactionState, MessageBuilder } from "./compaction";
import type { RetryOptions } from "./errors";
import type { AgentEvent, AgentEventListener } from "./events";
import type { HookRegistry } from "./hooks";
import type { AgentMessage } from "./messages";
import type { ModelSource } from "./model-handle";
import type { ContextItem } from "./mentions-context";
import type { PriceTable } from "./pricing";
import type { RuleSource } from "./prompt";
import type { AgentDeps, AgentMode, ApprovalSettings, CheckpointEntry, RunStatus, UsageTotals } from "./types";

/** A partial update of the approval settings (auto-approve switches merge one by one). */
export type ApprovalSettingsPatch = { autoApprove?: Partial<ApprovalSettings["autoApprove"]>; allowedCommandPrefixes?: string[] };

/** Which tools a mode offers (lib/modes computes it from the mode profiles). */
export type ToolSurface = (mode: AgentMode, tools: readonly ToolDefinition[]) => readonly ToolDefinition[];

export type RunRecord = {
  run: number;
  runId: string;
  status: RunStatus;
  reason?: string;
  usage: UsageTotals;
  startedAt: number;
  durationMs: number;
  /** The user reviewed the run's changes as a whole: kept them all, or reverted them all. */
  review?: { outcome: "kept" | "reverted"; at: number };
};

/** The persisted form of a session (lib/sessions stores it). Contains no secrets. */
export type SessionData = {
  version: 1;
  id: string;
  workspaceId: string;
  title: string;
  mode: AgentMode;
  createdAt: number;
  updatedAt: number;
  messages: AgentMessage[];
  checkpoints: CheckpointEntry[];
  usage: UsageTotals;
  runs: RunRecord[];
  runCount: number;
  approvals: ApprovalSettings;
  budgetUsd?: number;
  compaction?: CompactionState;
  /** Which model was used last (provider id / model id, never a key). */
  model?: { provider?: string; modelId: string };
  /** Forked from (session id, message id). */
  forkedFrom?: { sessionId: string; messageId: string };
  /** A sub-agent's or team member's session: the session and the tool call that started it. */
  parent?: SessionParent;
  /** What the user decided about review findings, by finding id (absent: open). */
  findingStatus?: Record<string, FindingStatus>;
};

export type FindingStatus = "resolved" | "dismissed";

/** Where a child session came from: its parent session and the call (delegate, a team's proposal or plan) that made it. */
export type SessionParent = { sessionId: string; toolCallId: string };

/** The conversation as it was, to undo a rewind. */
export type ConversationSnapshot = { messages: AgentMessage[]; compaction?: CompactionState };

/** What a session shows of itself (`session.state`): read it, change it through the session's verbs. */
export type SessionState = {
  title: string;
  mode: AgentMode;
  /** The current mode's name as the user and the model read it. */
  modeLabel: string;
  createdAt: number;
  updatedAt: number;
  messages: readonly AgentMessage[];
  checkpoints: readonly CheckpointEntry[];
  usage: UsageTotals;
  runs: readonly RunRecord[];
  /** A run or a slash command is in progress. */
  running: boolean;
  approvals: ApprovalSettings;
  budgetUsd?: number;
  compaction?: CompactionState;
  /** What the user decided about review findings, by finding id. */
  findingStatus: Readonly<Record<string, FindingStatus>>;
  /** Requests waiting for the user (a UI mounting mid-run renders these). */
  pending: { approvals: AgentEvent[]; questions: AgentEvent[] };
};

/** Settings changed with `session.configure` (only the keys given change). */
export type SessionSettingsPatch = {
  title?: string;
  approvals?: ApprovalSettingsPatch;
  /** Dollars; `undefined` removes the cap. */
  budgetUsd?: number;
  model?: ModelSource;
  prices?: PriceTable;
};

export type AgentSessionOptions = {
  deps: AgentDeps;
  model: ModelSource;
  workspaceId: string;
  id?: string;
  title?: string;
  mode?: AgentMode;
  /** A child session's parent (kept with its data; history lists show only top-level sessions). */
  parent?: SessionParent;
  /** Default: builtinTools(). */
  tools?: ToolDefinition[];
  /** Default: every tool in every mode. */
  surface?: ToolSurface;
  /**
   * Which calls run, ask or are refused (lib/modes/policy.ts). Default: a tool off the surface
   * is refused, the rest is decided by the approval settings (`surfacePolicy`); the app's
   * sessions use the mode profiles' table (lib/modes).
   */
  policy?: ToolPolicy;
  /**
   * The mode's pinned tools (its output verbs, gates and ask_question: lib/modes pins them), as
   * their genuine definitions. They stay on the surface whatever the tool list, the surface
   * function or a beforeModel filter says, a call runs the genuine definition even if a plugin
   * replaced the tool by name, and plugins' beforeTool / afterTool hooks see the call but cannot
   * refuse, rewrite or replace it. Default: none.
   */
  pinnedTools?: (mode: AgentMode) => readonly ToolDefinition[];
  /** Share one registry between sessions (plugins register once); default: a new one. */
  hooks?: HookRegistry;
  /** Default: [compactionBuilder()]. */
  messageBuilders?: MessageBuilder[];
  approvals?: ApprovalSettingsPatch;
  /** Prices ($ per 1M tokens) over the bundled catalog: the user's and the provider's (default: none). */
  prices?: PriceTable;
  /** Stop before a model request would take the session's cost past this many dollars. */
  budgetUsd?: number;
  retry?: Partial<RetryOptions>;
  /** Model calls per run (default 50). */
  maxSteps?: number;
  /** Default 8192 (the model handle may say otherwise). */
  maxOutputTokens?: number;
  contextWindow?: number | ((modelId: string) => number);
  /** Identical consecutive calls before the loop guard asks (default 3). */
  loopGuardThreshold?: number;
  /**
   * Also snapshot the state each run leaves (ref `<session>/<run>-end`, kind "end"), so the
   * timeline can tell the agent's changes from edits made by hand before the next run.
   */
  checkpointRunEnd?: boolean;
  /**
   * Also snapshot the workspace after each call that may change files (ref
   * `<session>/<run>-c<k>`, kind "call"): finer points on the timeline, "undo this step".
   */
  checkpointEachCall?: boolean;
  /** Compaction summaries written by the model (default true); false keeps the mechanical summary. */
  modelSummaries?: boolean;
  /** Refuse to run mutating tools when the run's checkpoint failed (default true). */
  requireCheckpoint?: boolean;
  /** Modes whose worktree is read-only: tools get a read-only workspace and shell (default: the mode profiles'). */
  isReadOnlyMode?: (mode: AgentMode) => boolean;
  /** The mode's name in messages to the model and the user (the mode profiles' label). */
  modeLabel?: (mode: AgentMode) => string;
  /** Mode paragraph of the system prompt (lib/modes generates it from the mode profile). */
  modePreamble?: (mode: AgentMode, tools: readonly ToolDefinition[]) => string | undefined;
  systemPromptAppendix?: string;
  /**
   * What a prompt's @-mentions bring along, read as the prompt is sent and attached to its
   * message (lib/agent/mentions-context.ts). Default: files and folders of the agent's view of
   * the workspace (no selection, no diff).
   */
  resolveMentions?: (prompt: string) => Promise<ContextItem[]>;
  /**
   * The workspace's rules for a run, read once at its first model request (lib/agent/rules.ts).
   * Default: the rule files at the workspace root, all on. The app passes the user's choices,
   * the open file's folder chain and the workspace's trust.
   */
  workspaceRules?: () => Promise<RuleSource[]>;
  toolLimits?: Partial<ToolLimits>;
  /** Characters of a tool result the model reads (head + tail beyond; default 40 000). */
  maxToolOutputChars?: number;
  /** Scrub secrets from any text that leaves the loop (error messages). */
  redact?: (text: string) => string;
  onEvent?: AgentEventListener;
  /** Clock for tests. */
  now?: () => number;
};
