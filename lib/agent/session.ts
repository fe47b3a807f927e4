/**
 * AgentSession: one conversation with the agent on one workspace, and the run loop.
 *
 * run(prompt) executes one user turn:
 *   slash command? (handled here, no model) →
 *   beforeRun → loop {
 *     message builders (compaction, plugins) → safety pass → beforeModel → provider stream
 *     (retries; the run's checkpoint starts in parallel with the first request) → afterModel →
 *     for each tool call: unknown? → on the mode's surface? → valid arguments? → beforeTool
 *     hooks (skip | stop; fail closed) → loop guard → plan (diff / commands) → approval →
 *     await the checkpoint (mutating calls) → execute → afterTool → events
 *   } → afterRun(completed | aborted | failed)
 *
 * The session talks to the UI only through events (subscribe) and commands (approve, reject,
 * answer, stop, setMode, …). See ./index.ts for the wiring.
 */
import type { LanguageModelV4FunctionTool } from "@ai-sdk/provider";
import { z } from "zod";
import {
  callApproval,
  callEffects,
  DEFAULT_TOOL_LIMITS,
  isMutating,
  isToolResult,
  type ApprovalCategory,
  type ApprovalPreview,
  type QuestionRequest,
  type ToolContext,
  type ToolDefinition,
  type ToolLimits,
  type ToolPlan,
  type ToolResult,
} from "../tools/define";
import type { HiddenPathRule } from "../fs/hidden-view";
import type { WorkspaceFs } from "../fs/workspace-fs";
import { builtinTools } from "../tools/index";
import { headTail } from "../tools/util";
import { isAutoApproved, suggestPrefix } from "./approvals";
import { applyCompaction, compactionBuilder, compactNow, type CompactionState, type MessageBuilder, type MessageBuilderContext } from "./compaction";
import { abortError, classifyError, DEFAULT_RETRY, isAbortError, retryDelay, sleep, type RetryOptions } from "./errors";
import { AgentError, type AgentEvent, type AgentEventBody, type AgentEventListener } from "./events";
import { HookRegistry, type AfterModelDecision, type AfterToolDecision, type BeforeModelDecision, type BeforeToolDecision, type HookFailure, type HookSnapshot, type StopDecision } from "./hooks";
import { localId, newSessionId, stableStringify } from "./ids";
import {
  estimateTokens,
  sanitizeForModel,
  toModelPrompt,
  toolCallsOf,
  type AgentMessage,
  type AssistantMessage,
  type ToolCallStatus,
  type ToolMessage,
  type ToolResultPart,
  type UserMessage,
} from "./messages";
import { contextWindowFor, resolveModel, type ModelHandle, type ModelSource } from "./model-handle";
import { emptyStep, StreamFailure, streamModelStep, type StreamedStep } from "./model-stream";
import { uniqueToolCallIds, usedToolCallIds } from "./tool-call-ids";
import { addUsage, costOf, priceFor, usageFromProvider, type PriceTable } from "./pricing";
import { buildSystemPrompt, loadWorkspaceRules, type RuleSource } from "./prompt";
import {
  AGENT_MODES,
  DEFAULT_APPROVALS,
  emptyUsage,
  type AgentDeps,
  type AgentMode,
  type ApprovalSettings,
  type CheckpointEntry,
  type RunResult,
  type RunStatus,
  type ShellLike,
  type UsageTotals,
} from "./types";

/** A partial update of the approval settings (auto-approve switches merge one by one). */
export type ApprovalSettingsPatch = { autoApprove?: Partial<ApprovalSettings["autoApprove"]>; allowedCommandPrefixes?: string[] };

/** Which tools a mode offers. The modes issue injects one computed from the mode profiles. */
export type ToolSurface = (mode: AgentMode, tools: readonly ToolDefinition[]) => readonly ToolDefinition[];
export const ALL_TOOLS_SURFACE: ToolSurface = (_mode, tools) => tools;

/** A slash command (`/name args`) handled before the model. */
export type SlashCommandResult = string | { reply?: string; submitPrompt?: string } | void;
export type SlashCommand = {
  name: string;
  description?: string;
  handler(args: string, session: AgentSession): SlashCommandResult | Promise<SlashCommandResult>;
};

export type RunRecord = { run: number; runId: string; status: RunStatus; reason?: string; usage: UsageTotals; startedAt: number; durationMs: number };

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
};

export type AgentSessionOptions = {
  deps: AgentDeps;
  model: ModelSource;
  workspaceId: string;
  id?: string;
  title?: string;
  mode?: AgentMode;
  /** Default: builtinTools(). */
  tools?: ToolDefinition[];
  /** Default: every tool in every mode. */
  surface?: ToolSurface;
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
  /** Refuse to run mutating tools when the run's checkpoint failed (default true). */
  requireCheckpoint?: boolean;
  /** Modes whose worktree is read-only: tools get a read-only workspace and shell (default plan, review). */
  isReadOnlyMode?: (mode: AgentMode) => boolean;
  /** The mode's name in messages to the model and the user (the mode profiles' label). */
  modeLabel?: (mode: AgentMode) => string;
  /** Mode paragraph of the system prompt (lib/modes generates it from the mode profile). */
  modePreamble?: (mode: AgentMode, tools: readonly ToolDefinition[]) => string | undefined;
  systemPromptAppendix?: string;
  toolLimits?: Partial<ToolLimits>;
  /** Characters of a tool result the model reads (head + tail beyond; default 40 000). */
  maxToolOutputChars?: number;
  /** Scrub secrets from any text that leaves the loop (error messages). */
  redact?: (text: string) => string;
  onEvent?: AgentEventListener;
  /** Clock for tests. */
  now?: () => number;
};

/** The conversation as it was, to undo a rewind. */
export type ConversationSnapshot = { messages: AgentMessage[]; compaction?: CompactionState };

type Pending<T> = { resolve(v: T): void; reject(e: unknown): void; runId: string; event?: AgentEvent };

type ApprovalAnswer = { approved: boolean; feedback?: string; alwaysAllowPrefix?: string };

type RunState = {
  runId: string;
  run: number;
  prompt: string;
  promptMessageId: string;
  controller: AbortController;
  startedAt: number;
  iteration: number;
  usage: UsageTotals;
  checkpoint?: Promise<CheckpointEntry | AgentError>;
  rules?: RuleSource[];
  loopKey?: string;
  loopCount: number;
  /** Text streamed for the assistant message being received (kept if the stream is cut). */
  partialText: string;
  partialMessageId?: string;
  summary?: string;
  budgetWarned?: boolean;
  /** A request of this run had its output tokens lowered to stay within the budget. */
  outputCappedByBudget?: boolean;
};

type ToolCallIn = { toolCallId: string; toolName: string; input: string };
type CallOutcome = { part: ToolResultPart; stop?: string; completion?: string; rejected?: boolean; aborted?: boolean };

const DEFAULT_MAX_STEPS = 50;
const DEFAULT_MAX_OUTPUT_TOKENS = 8192;
const DEFAULT_TOOL_OUTPUT_CHARS = 40_000;
const EVENT_OUTPUT_CHARS = 20_000;
const STOPPED_BY_USER = "Stopped by the user";
/** The smallest answer worth requesting under a budget (tokens). */
const MIN_BUDGET_OUTPUT_TOKENS = 256;

const toolSpecCache = new WeakMap<ToolDefinition, LanguageModelV4FunctionTool>();

/** The function-tool spec the model sees (JSON Schema from the zod schema), cached per tool. */
export function toolSpec(tool: ToolDefinition): LanguageModelV4FunctionTool {
  let spec = toolSpecCache.get(tool);
  if (!spec) {
    const schema = z.toJSONSchema(tool.inputSchema, { target: "draft-7", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
    delete schema.$schema;
    spec = { type: "function", name: tool.name, description: tool.description, inputSchema: schema as LanguageModelV4FunctionTool["inputSchema"] };
    toolSpecCache.set(tool, spec);
  }
  return spec;
}

export class AgentSession {
  readonly id: string;
  readonly workspaceId: string;
  readonly hooks: HookRegistry;
  readonly deps: AgentDeps;
  title: string;
  readonly createdAt: number;
  updatedAt: number;

  private _mode: AgentMode;
  private _messages: AgentMessage[] = [];
  private _checkpoints: CheckpointEntry[] = [];
  private _usage: UsageTotals = emptyUsage();
  private _runs: RunRecord[] = [];
  private runCount = 0;
  private approvals: ApprovalSettings;
  private budgetUsd?: number;
  private compaction?: CompactionState;
  private lastModel?: { provider?: string; modelId: string };
  private forkedFrom?: { sessionId: string; messageId: string };

  private modelSource: ModelSource;
  private tools: ToolDefinition[];
  private surface: ToolSurface;
  private builders: MessageBuilder[];
  private prices: PriceTable;
  private readonly retry: RetryOptions;
  private readonly opts: AgentSessionOptions;
  private readonly commands = new Map<string, SlashCommand>();
  private readonly extraRules = new Map<string, RuleSource>();
  private readonly listeners = new Set<AgentEventListener>();
  private readonly pendingApprovals = new Map<string, Pending<ApprovalAnswer>>();
  private readonly pendingQuestions = new Map<string, Pending<string>>();
  private readonly checkpointsInFlight = new Set<Promise<unknown>>();
  /** Input tokens per request character, per model, from the last usage report (budget estimates). */
  private readonly tokensPerChar = new Map<string, number>();
  /** Notes steered in during a run, added before the next model call. */
  private pendingNotices: string[] = [];
  private active?: RunState;
  private commandRunning = false;
  private seq = 0;
  private commandCount = 0;
  private readonly now: () => number;

  constructor(options: AgentSessionOptions) {
    this.opts = options;
    this.deps = options.deps;
    this.now = options.now ?? options.deps.now ?? (() => Date.now());
    this.id = options.id ?? newSessionId(this.now());
    this.workspaceId = options.workspaceId;
    this.title = options.title ?? "";
    this._mode = options.mode ?? "act";
    this.createdAt = this.now();
    this.updatedAt = this.createdAt;
    this.hooks = options.hooks ?? new HookRegistry();
    this.modelSource = options.model;
    this.tools = options.tools ?? builtinTools();
    this.surface = options.surface ?? ALL_TOOLS_SURFACE;
    this.builders = options.messageBuilders ?? [compactionBuilder()];
    this.prices = options.prices ?? {};
    this.budgetUsd = options.budgetUsd;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.approvals = {
      autoApprove: { ...DEFAULT_APPROVALS.autoApprove, ...options.approvals?.autoApprove },
      allowedCommandPrefixes: [...(options.approvals?.allowedCommandPrefixes ?? DEFAULT_APPROVALS.allowedCommandPrefixes)],
    };
    if (options.onEvent) this.listeners.add(options.onEvent);
    for (const c of builtinCommands()) this.commands.set(c.name, c);
  }

  /** Rebuild a persisted session (resume after reload). */
  static fromJSON(data: SessionData, options: Omit<AgentSessionOptions, "id" | "workspaceId" | "title" | "mode">): AgentSession {
    if (!data || data.version !== 1) throw new Error("Unsupported session data");
    const s = new AgentSession({
      ...options,
      id: data.id,
      workspaceId: data.workspaceId,
      title: data.title,
      mode: data.mode,
      approvals: data.approvals,
      budgetUsd: data.budgetUsd ?? options.budgetUsd,
    });
    (s as { createdAt: number }).createdAt = data.createdAt;
    s.updatedAt = data.updatedAt;
    s._messages = clone(data.messages);
    s._checkpoints = clone(data.checkpoints);
    s._usage = { ...data.usage };
    s._runs = clone(data.runs ?? []);
    s.runCount = data.runCount;
    s.compaction = data.compaction;
    s.lastModel = data.model;
    s.forkedFrom = data.forkedFrom;
    return s;
  }

  toJSON(): SessionData {
    const data: SessionData = {
      version: 1,
      id: this.id,
      workspaceId: this.workspaceId,
      title: this.title,
      mode: this._mode,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      messages: clone(this._messages),
      checkpoints: clone(this._checkpoints),
      usage: { ...this._usage },
      runs: clone(this._runs),
      runCount: this.runCount,
      approvals: clone(this.approvals),
    };
    if (this.budgetUsd !== undefined) data.budgetUsd = this.budgetUsd;
    if (this.compaction) data.compaction = { ...this.compaction };
    if (this.lastModel) data.model = { ...this.lastModel };
    if (this.forkedFrom) data.forkedFrom = { ...this.forkedFrom };
    return data;
  }

  // ---- read-only views ----------------------------------------------------------------------

  get mode(): AgentMode {
    return this._mode;
  }
  get messages(): readonly AgentMessage[] {
    return this._messages;
  }
  get checkpoints(): readonly CheckpointEntry[] {
    return this._checkpoints;
  }
  get usage(): UsageTotals {
    return { ...this._usage };
  }
  get runs(): readonly RunRecord[] {
    return this._runs;
  }
  get running(): boolean {
    return this.active !== undefined || this.commandRunning;
  }
  get approvalSettings(): ApprovalSettings {
    return clone(this.approvals);
  }
  get budget(): number | undefined {
    return this.budgetUsd;
  }
  get compactionState(): CompactionState | undefined {
    return this.compaction;
  }
  /** Requests waiting for the user (a UI mounting mid-run renders these). */
  get pending(): { approvals: AgentEvent[]; questions: AgentEvent[] } {
    const events = (m: Map<string, Pending<unknown>>) => [...m.values()].map((p) => p.event).filter((e): e is AgentEvent => !!e);
    return { approvals: events(this.pendingApprovals as Map<string, Pending<unknown>>), questions: events(this.pendingQuestions as Map<string, Pending<unknown>>) };
  }
  /** The name of a mode as the user and the model read it. */
  modeLabel(mode: AgentMode = this._mode): string {
    return (this.opts.modeLabel ?? defaultModeLabel)(mode);
  }
  /** The tools offered in the current mode. */
  get surfaceTools(): readonly ToolDefinition[] {
    return this.surface(this._mode, this.tools);
  }
  get allTools(): readonly ToolDefinition[] {
    return this.tools;
  }

  // ---- subscription -------------------------------------------------------------------------

  subscribe(listener: AgentEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- commands from the UI -----------------------------------------------------------------

  /** Approve a pending call. `alwaysAllowPrefix` adds a command prefix to the session's allow list. */
  approve(approvalId: string, opts: { alwaysAllowPrefix?: string } = {}): boolean {
    const p = this.pendingApprovals.get(approvalId);
    if (!p) return false;
    this.pendingApprovals.delete(approvalId);
    p.resolve({ approved: true, alwaysAllowPrefix: opts.alwaysAllowPrefix });
    return true;
  }

  /** Reject a pending call; the model reads the feedback. */
  reject(approvalId: string, feedback?: string): boolean {
    const p = this.pendingApprovals.get(approvalId);
    if (!p) return false;
    this.pendingApprovals.delete(approvalId);
    p.resolve({ approved: false, feedback: feedback?.trim() || undefined });
    return true;
  }

  /** Answer an ask_question. */
  answer(questionId: string, text: string): boolean {
    const p = this.pendingQuestions.get(questionId);
    if (!p) return false;
    this.pendingQuestions.delete(questionId);
    p.resolve(text);
    return true;
  }

  /** Stop the current run at once: the stream is aborted, a running command is cancelled. */
  /**
   * Steer a note into the conversation (a background task ended, …): the model reads it with its
   * next request. During a run it waits for the next model call, so it never lands between a
   * tool call and its result.
   */
  steer(text: string): void {
    if (typeof text !== "string" || !text.trim()) return;
    if (this.active) {
      this.pendingNotices.push(text);
      return;
    }
    this.addMessage({ id: localId("m"), role: "user", kind: "notice", content: [{ type: "text", text }], createdAt: this.now() });
  }

  /** The UI is leaving this session: tell hooks (plugins' SessionShutdown). A run, if any, is stopped by whoever switches. */
  close(): void {
    this.emit({ type: "session-closed" });
  }

  stop(): void {
    this.active?.controller.abort();
  }

  /** Switch mode. Mid-run, the very next tool call is checked against the new mode. */
  setMode(mode: AgentMode): void {
    if (!AGENT_MODES.includes(mode)) throw new Error(`Unknown mode "${mode}"`);
    if (mode === this._mode) return;
    const from = this._mode;
    this._mode = mode;
    this.touch();
    this.emit({ type: "mode-changed", from, to: mode, runId: this.active?.runId });
  }

  setApprovalSettings(settings: ApprovalSettingsPatch): void {
    this.approvals = {
      autoApprove: { ...this.approvals.autoApprove, ...settings.autoApprove },
      allowedCommandPrefixes: settings.allowedCommandPrefixes ? [...settings.allowedCommandPrefixes] : this.approvals.allowedCommandPrefixes,
    };
    this.touch();
    this.emit({ type: "session-updated", what: "settings" });
  }

  allowCommandPrefix(prefix: string): void {
    const p = prefix.trim();
    if (!p || this.approvals.allowedCommandPrefixes.includes(p)) return;
    this.approvals.allowedCommandPrefixes.push(p);
    this.touch();
    this.emit({ type: "session-updated", what: "settings" });
  }

  setBudget(usd: number | undefined): void {
    if (usd !== undefined && (!Number.isFinite(usd) || usd < 0)) throw new Error("The budget must be a non-negative number of dollars");
    this.budgetUsd = usd;
    this.touch();
    this.emit({ type: "session-updated", what: "settings" });
  }

  setTitle(title: string): void {
    this.title = title.trim().slice(0, 200);
    this.touch();
    this.emit({ type: "session-updated", what: "title" });
  }

  setModel(source: ModelSource): void {
    this.modelSource = source;
  }
  setPrices(prices: PriceTable): void {
    this.prices = prices;
  }
  setTools(tools: ToolDefinition[]): void {
    this.tools = [...tools];
  }
  setSurface(surface: ToolSurface): void {
    this.surface = surface;
  }
  /** Add (or replace by name) a tool; returns the function that removes it. */
  addTool(tool: ToolDefinition): () => void {
    this.tools = [...this.tools.filter((t) => t.name !== tool.name), tool];
    return () => {
      this.tools = this.tools.filter((t) => t !== tool);
    };
  }
  /** Add a message builder after the existing ones (plugins, in registration order). */
  addMessageBuilder(builder: MessageBuilder): () => void {
    this.builders = [...this.builders, builder];
    return () => {
      this.builders = this.builders.filter((b) => b !== builder);
    };
  }
  /** Replace all message builders (e.g. the custom-compaction plugin instead of the built-in). */
  setMessageBuilders(builders: MessageBuilder[]): void {
    this.builders = [...builders];
  }
  registerCommand(command: SlashCommand): () => void {
    const name = command.name.replace(/^\//, "");
    if (!/^[a-z][\w-]*$/i.test(name)) throw new Error(`Invalid command name "${command.name}"`);
    this.commands.set(name, { ...command, name });
    return () => this.commands.delete(name);
  }
  get slashCommands(): { name: string; description?: string }[] {
    return [...this.commands.values()].map((c) => ({ name: c.name, description: c.description }));
  }
  /** System-prompt text from a plugin. */
  registerRule(id: string, text: string): () => void {
    this.extraRules.set(id, { source: id, text });
    return () => this.extraRules.delete(id);
  }

  /**
   * The workspace as the agent's tools see it: without the paths hidden by policy (env-blocker's
   * `.env` files). Plugin tools read and write through this view too, never around it.
   */
  get workspaceView(): WorkspaceFs {
    return this.deps.wsfs;
  }
  /**
   * Hide paths from the agent while a policy is on (the env-blocker plugin's `.env` files): they
   * become absent from the file view the tools and the shell use (AgentDeps.hiddenPaths, see
   * lib/fs/hidden-view). Returns the function that shows them again. Deps without a
   * HiddenPathSet (test fakes) hide nothing.
   */
  hidePaths(rule: HiddenPathRule): () => void {
    return this.deps.hiddenPaths?.add(rule) ?? (() => undefined);
  }

  // ---- history operations -------------------------------------------------------------------

  /** Clear the conversation (checkpoints and usage stay). */
  clear(): void {
    this.assertIdle("clear the conversation");
    this._messages = [];
    this.compaction = undefined;
    this.touch();
    this.emit({ type: "session-updated", what: "cleared" });
  }

  /** Fold the conversation so far into a summary for the model (/compact). */
  compact(): { summarized: number } {
    this.assertIdle("compact");
    const before = estimateTokens(this._messages);
    const r = compactNow(this._messages, this.now());
    if (!r) return { summarized: 0 };
    this.compaction = r.state;
    const after = applyCompaction(this._messages, r.state);
    this.touch();
    this.emit({ type: "compaction", reason: "manual", summarizedMessages: r.summarized, tokensBefore: before, tokensAfter: after ? estimateTokens(after.messages) : before });
    return { summarized: r.summarized };
  }

  /** Restore the files to the last run's checkpoint (/undo). */
  async undoLastRun(): Promise<{ ref: string; txid: string; changed: { path: string; change: string }[] } | undefined> {
    this.assertIdle("undo");
    await this.checkpointsSettled();
    const last = this._checkpoints[this._checkpoints.length - 1];
    if (!last) return undefined;
    return this.restoreFiles(last);
  }

  /** Undo a restore (files back to how they were before it). */
  async undoRestore(txid: string): Promise<{ changed: { path: string; change: string }[] }> {
    this.assertIdle("undo the restore");
    const r = await this.deps.checkpoints.undoRestore(txid);
    this.emit({ type: "files-restored", ref: `refs/tabula/restore/${txid}`, txid: r.txid, changed: r.changed });
    return { changed: r.changed };
  }

  /**
   * Put the files back as they were at a checkpoint (any ref or oid the engine resolves: a run,
   * a save point, a restore's saved state). Transactional; `undoRestore(txid)` reverses it.
   */
  async restoreFilesTo(ref: string): Promise<{ ref: string; txid: string; changed: { path: string; change: string }[]; savedRef?: string }> {
    this.assertIdle("restore files");
    await this.checkpointsSettled();
    const r = await this.deps.checkpoints.restore(ref);
    const out = { ref, txid: r.txid, changed: r.changed, savedRef: r.savedRef };
    this.emit({ type: "files-restored", ref, txid: r.txid, changed: r.changed });
    return out;
  }

  /**
   * Cut the conversation back to its first `keep` messages (checkpoints, usage and run records
   * stay). Returns what `restoreConversation` needs to undo it.
   */
  rewindConversation(keep: number): ConversationSnapshot {
    this.assertIdle("restore the conversation");
    if (!Number.isInteger(keep) || keep < 0) throw new Error("keep must be a non-negative integer");
    const snapshot: ConversationSnapshot = { messages: clone(this._messages), compaction: this.compaction ? { ...this.compaction } : undefined };
    this._messages = this._messages.slice(0, keep);
    if (this.compaction && !this._messages.some((m) => m.id === this.compaction!.throughId)) this.compaction = undefined;
    this.touch();
    this.emit({ type: "session-updated", what: "messages" });
    return snapshot;
  }

  /** Put back a conversation saved by `rewindConversation`. */
  restoreConversation(snapshot: ConversationSnapshot): void {
    this.assertIdle("restore the conversation");
    this._messages = clone(snapshot.messages);
    this.compaction = snapshot.compaction ? { ...snapshot.compaction } : undefined;
    this.touch();
    this.emit({ type: "session-updated", what: "messages" });
  }

  /** Resolves when every checkpoint being taken has landed (and is recorded on the session). */
  async checkpointsSettled(): Promise<void> {
    while (this.checkpointsInFlight.size > 0) await Promise.all([...this.checkpointsInFlight]);
  }

  /**
   * A new session holding this one's conversation up to and including `messageId` (with that
   * message's tool results), its checkpoints up to that run, same mode and settings.
   */
  fork(messageId: string, overrides: Partial<AgentSessionOptions> = {}): AgentSession {
    const idx = this._messages.findIndex((m) => m.id === messageId);
    if (idx === -1) throw new Error(`No message ${messageId} in this session`);
    let end = idx;
    if (this._messages[idx]!.role === "assistant") while (end + 1 < this._messages.length && this._messages[end + 1]!.role === "tool") end++;
    const kept = this._messages.slice(0, end + 1);
    const maxRun = Math.max(0, ...kept.map((m) => m.run ?? 0));
    const fork = new AgentSession({
      ...this.opts,
      onEvent: undefined,
      ...overrides,
      id: undefined,
      hooks: overrides.hooks ?? this.hooks,
      model: overrides.model ?? this.modelSource,
      tools: overrides.tools ?? this.tools,
      surface: overrides.surface ?? this.surface,
      messageBuilders: overrides.messageBuilders ?? this.builders,
      prices: overrides.prices ?? this.prices,
      workspaceId: this.workspaceId,
      title: overrides.title ?? `Fork of ${this.title || "session"}`,
      mode: overrides.mode ?? this._mode,
      approvals: this.approvals,
      budgetUsd: this.budgetUsd,
    });
    fork._messages = clone(kept);
    fork._checkpoints = clone(this._checkpoints.filter((c) => c.run <= maxRun));
    fork.runCount = this.runCount; // run numbers stay unique across the fork's checkpoint refs
    fork.forkedFrom = { sessionId: this.id, messageId };
    if (this.compaction && kept.some((m) => m.id === this.compaction!.throughId)) fork.compaction = { ...this.compaction };
    for (const c of this.commands.values()) fork.commands.set(c.name, c);
    for (const [k, r] of this.extraRules) fork.extraRules.set(k, r);
    return fork;
  }

  /**
   * Edit a past prompt and send it again: the conversation is cut back to before that prompt;
   * with `restoreFiles`, the workspace first goes back to that turn's checkpoint.
   */
  async editAndResend(messageId: string, text: string, opts: { restoreFiles?: boolean; signal?: AbortSignal } = {}): Promise<RunResult> {
    this.assertIdle("edit a prompt");
    const idx = this._messages.findIndex((m) => m.id === messageId);
    const msg = this._messages[idx];
    if (!msg || msg.role !== "user" || (msg.kind ?? "prompt") !== "prompt") throw new Error("Only a prompt you sent can be edited");
    if (opts.restoreFiles) {
      await this.checkpointsSettled();
      const entry = this._checkpoints.find((c) => c.messageId === messageId) ?? this._checkpoints.find((c) => c.run === msg.run);
      if (!entry) throw new Error("That turn has no checkpoint to restore the files to");
      await this.restoreFiles(entry);
    }
    this._messages = this._messages.slice(0, idx);
    if (this.compaction && !this._messages.some((m) => m.id === this.compaction!.throughId)) this.compaction = undefined;
    this.touch();
    this.emit({ type: "session-updated", what: "messages" });
    return this.run(text, { signal: opts.signal });
  }

  private async restoreFiles(entry: CheckpointEntry) {
    const r = await this.deps.checkpoints.restore(entry.ref);
    const out = { ref: entry.ref, txid: r.txid, changed: r.changed };
    this.emit({ type: "files-restored", ...out });
    return out;
  }

  // ---- running ------------------------------------------------------------------------------

  /**
   * Run one user turn (or a slash command). Resolves with the result; failures end as status
   * "failed" with a reason. Rejects only when a run is already in progress.
   */
  async run(prompt: string, opts: { signal?: AbortSignal } = {}): Promise<RunResult> {
    if (this.active || this.commandRunning) throw new Error("A run is already in progress in this session; stop it or wait for it to finish");
    const slash = /^\/([a-z][\w-]*)(?:\s+([\s\S]*))?$/i.exec(prompt.trim());
    if (slash && this.commands.has(slash[1]!)) return this.runCommand(slash[1]!, (slash[2] ?? "").trim(), opts);
    return this.runTurn(prompt, opts);
  }

  private async runCommand(name: string, args: string, opts: { signal?: AbortSignal }): Promise<RunResult> {
    const started = this.now();
    const cmd = this.commands.get(name)!;
    const runId = `${this.id}-c${++this.commandCount}`;
    let output = "";
    let ok = true;
    let submit: string | undefined;
    this.commandRunning = true;
    try {
      const r = await cmd.handler(args, this);
      if (typeof r === "string") output = r;
      else if (r) {
        output = r.reply ?? "";
        submit = r.submitPrompt;
      }
    } catch (err) {
      ok = false;
      output = this.redact(err instanceof Error ? err.message : String(err));
    } finally {
      this.commandRunning = false;
    }
    this.emit({ type: "command", name, args, output, ok });
    if (submit !== undefined) return this.runTurn(submit, opts);
    return { runId, run: this.runCount, status: ok ? "completed" : "failed", reason: ok ? undefined : output, summary: output, usage: emptyUsage(), command: name, durationMs: this.now() - started };
  }

  private async runTurn(prompt: string, opts: { signal?: AbortSignal }): Promise<RunResult> {
    const startedAt = this.now();
    const run = ++this.runCount;
    const runId = `${this.id}-r${run}`;
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort();
    if (opts.signal?.aborted) controller.abort();
    opts.signal?.addEventListener("abort", onOuterAbort, { once: true });

    const userMsg: UserMessage = { id: localId("m"), role: "user", kind: "prompt", content: [{ type: "text", text: prompt }], run, createdAt: startedAt };
    const state: RunState = { runId, run, prompt, promptMessageId: userMsg.id, controller, startedAt, iteration: 0, usage: emptyUsage(), loopCount: 0, partialText: "" };
    this.active = state;
    if (!this.title) {
      this.title = prompt.replace(/\s+/g, " ").trim().slice(0, 80);
      this.emit({ type: "session-updated", what: "title" });
    }
    this.emit({ type: "run-started", runId, run, prompt, mode: this._mode });
    this.addMessage(userMsg);

    let status: RunStatus = "completed";
    let reason: string | undefined;
    try {
      let stop: string | undefined;
      await this.hooks.runChain<unknown, StopDecision>(
        "beforeRun",
        () => ({ snapshot: this.snapshot(state), prompt }),
        (r) => {
          if (r?.stop) stop = r.reason ?? "Stopped by a beforeRun hook";
          return !!r?.stop;
        },
        (f) => this.reportHookFailure(f, state),
      );
      if (stop) {
        status = "aborted";
        reason = stop;
      } else {
        const out = await this.loop(state);
        status = out.status;
        reason = out.reason;
      }
    } catch (err) {
      if (isAbortError(err) || controller.signal.aborted) {
        status = "aborted";
        reason = STOPPED_BY_USER;
      } else {
        const e = err instanceof AgentError ? err : new AgentError("internal", `Internal error: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
        status = e.code === "budget" ? "aborted" : "failed";
        reason = this.redact(e.message);
        this.emit({ type: "error", runId, code: e.code, message: reason, fatal: true, retryable: e.retryable });
      }
    } finally {
      opts.signal?.removeEventListener("abort", onOuterAbort);
      this.settlePending(runId);
      this.keepPartialText(state);
      this.closeDanglingCalls(state, reason === STOPPED_BY_USER ? "Not executed: the user stopped the run." : "Not executed: the run ended before this tool call ran.");
    }
    // A checkpoint still being taken (a run that changed nothing) does not hold the run open:
    // it is recorded and announced when it lands (checkpointsSettled() waits for it).
    if (this.opts.checkpointRunEnd && state.checkpoint) await this.checkpointRunEnd(state);

    const durationMs = this.now() - startedAt;
    const result: RunResult = { runId, run, status, usage: state.usage, durationMs };
    if (reason) result.reason = reason;
    if (state.summary) result.summary = state.summary;
    this._runs.push({ run, runId, status, reason, usage: state.usage, startedAt, durationMs });
    await this.hooks.runChain<unknown, void>(
      "afterRun",
      () => ({ snapshot: this.snapshot(state), result }),
      () => false,
      (f) => this.reportHookFailure(f, state),
    );
    this.active = undefined;
    this.touch();
    this.emit({ type: "run-finished", runId, run, status, reason, summary: state.summary, usage: state.usage, durationMs });
    return result;
  }

  private async loop(state: RunState): Promise<{ status: RunStatus; reason?: string }> {
    const maxSteps = this.opts.maxSteps ?? DEFAULT_MAX_STEPS;
    const signal = state.controller.signal;
    for (;;) {
      if (signal.aborted) throw abortError();
      for (const text of this.pendingNotices.splice(0)) this.addMessage({ id: localId("m"), role: "user", kind: "notice", content: [{ type: "text", text }], run: state.run, createdAt: this.now() });
      if (state.iteration >= maxSteps) return { status: "completed", reason: `Stopped after ${maxSteps} model calls (the step limit of a run). Send a message to continue.` };

      let handle: ModelHandle;
      try {
        handle = await resolveModel(this.modelSource, this._mode);
      } catch (err) {
        throw err instanceof AgentError
          ? err
          : new AgentError("provider", `No model available for ${this.modeLabel(this._mode)} mode: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      const model = handle.model;
      this.lastModel = { provider: model.provider, modelId: model.modelId };
      const surfaceTools = this.surface(this._mode, this.tools);
      state.rules ??= await loadWorkspaceRules(this.deps.wsfs);
      let system = buildSystemPrompt({
        mode: this._mode,
        tools: surfaceTools.map((t) => t.name),
        workspaceRules: state.rules,
        extraRules: [...this.extraRules.values()],
        modePreamble: this.opts.modePreamble?.(this._mode, surfaceTools),
        appendix: this.opts.systemPromptAppendix,
      });
      const contextWindow =
        handle.contextWindow ?? (typeof this.opts.contextWindow === "function" ? this.opts.contextWindow(model.modelId) : this.opts.contextWindow) ?? contextWindowFor(model.modelId);
      let messages = await this.buildMessages(state, system, model.modelId, contextWindow);

      // beforeModel: may rewrite the request or stop the run.
      let offered = surfaceTools.map((t) => t.name);
      let stop: string | undefined;
      await this.hooks.runChain<unknown, BeforeModelDecision>(
        "beforeModel",
        () => ({ snapshot: this.snapshot(state), request: { system, messages, tools: offered } }),
        (r) => {
          if (!r) return false;
          if (typeof r.system === "string") system = r.system;
          if (Array.isArray(r.messages)) messages = r.messages;
          if (Array.isArray(r.tools)) offered = r.tools.filter((n) => surfaceTools.some((t) => t.name === n));
          if (r.stop) stop = r.reason ?? "Stopped by a beforeModel hook";
          return !!r.stop;
        },
        (f) => this.reportHookFailure(f, state),
      );
      if (stop) return { status: "aborted", reason: stop };

      const wantedOutputTokens = handle.maxOutputTokens ?? this.opts.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
      const finalMessages = sanitizeForModel(messages);
      const tools = surfaceTools.filter((t) => offered.includes(t.name)).map(toolSpec);
      const prompt = toModelPrompt(system, finalMessages);
      // The request as it will be sent (conversation, system prompt, tool schemas) is what is billed.
      const requestChars = JSON.stringify(prompt).length + (tools.length ? JSON.stringify(tools).length : 0);
      const estimatedInput = this.estimateInputTokens(model.modelId, requestChars);
      const maxOutputTokens = this.checkBudget(state, model.modelId, estimatedInput, wantedOutputTokens);

      const messageId = localId("m");
      const step = await this.callModel(
        state,
        handle,
        messageId,
        {
          prompt,
          tools: tools.length ? tools : undefined,
          toolChoice: tools.length ? { type: "auto" } : undefined,
          maxOutputTokens,
        },
        estimatedInput,
      );
      this.calibrate(model.modelId, requestChars, step);
      state.iteration++;
      // Ids clashing with earlier calls (or each other) are re-keyed, so results never cross.
      step.toolCalls = uniqueToolCallIds(step.toolCalls, usedToolCallIds(this._messages)).calls;

      // The assistant message.
      const content: AssistantMessage["content"] = [];
      if (step.reasoning) content.push({ type: "reasoning", text: step.reasoning });
      if (step.text) content.push({ type: "text", text: step.text });
      for (const c of step.toolCalls) content.push({ type: "tool-call", toolCallId: c.toolCallId, toolName: c.toolName, input: parseLoose(c.input) });
      const assistant: AssistantMessage = { id: messageId, role: "assistant", content, run: state.run, createdAt: this.now(), modelId: model.modelId, finishReason: step.finishReason };
      state.partialText = "";
      state.partialMessageId = undefined;
      this.addMessage(assistant);

      // Usage and cost.
      const stepUsage = usageFromProvider(step.usage, priceFor(this.prices, model.modelId));
      state.usage = addUsage(state.usage, stepUsage);
      this._usage = addUsage(this._usage, stepUsage);
      this.emit({ type: "usage", runId: state.runId, step: stepUsage, run: state.usage, session: this.usage });

      let nudge: string | undefined;
      await this.hooks.runChain<unknown, AfterModelDecision>(
        "afterModel",
        () => ({ snapshot: this.snapshot(state), message: assistant, finishReason: step.finishReason, usage: stepUsage }),
        (r) => {
          if (typeof r?.continueWith === "string" && r.continueWith.trim() && nudge === undefined) nudge = r.continueWith;
          if (r?.stop) stop = r.reason ?? "Stopped by an afterModel hook";
          return !!r?.stop;
        },
        (f) => this.reportHookFailure(f, state),
      );
      if (stop) return { status: "aborted", reason: stop };

      if (step.toolCalls.length === 0 && nudge !== undefined) {
        // A hook wants one more turn (e.g. Plan mode: "no plan was submitted yet").
        this.addMessage({ id: localId("m"), role: "user", kind: "notice", content: [{ type: "text", text: nudge }], run: state.run, createdAt: this.now() });
        continue;
      }
      if (step.toolCalls.length === 0) {
        state.summary = step.text.trim() || undefined;
        if (step.finishReason === "length") {
          return {
            status: "completed",
            reason: state.outputCappedByBudget
              ? "The answer was cut short to stay within the session's budget. Raise the budget to continue."
              : "The model hit its output limit (max tokens) before finishing.",
          };
        }
        if (step.finishReason === "content-filter") return { status: "failed", reason: "The provider's content filter stopped the response." };
        return { status: "completed" };
      }

      // Tool calls, in order.
      const results: ToolResultPart[] = [];
      let endReason: string | undefined;
      let completion: string | undefined;
      let rejected = false;
      let aborted = false;
      let fatal: unknown;
      for (const call of step.toolCalls) {
        if (aborted || signal.aborted) {
          aborted = true;
          results.push(this.skipCall(state, call, "Not executed: the user stopped the run.", "aborted"));
          continue;
        }
        if (endReason !== undefined || completion !== undefined || rejected) {
          const why =
            fatal !== undefined
              ? "Not executed: the run failed before this call."
              : endReason !== undefined
                ? `Not executed: the run was stopped (${endReason}).`
                : completion !== undefined
                  ? "Not executed: the task was already completed by an earlier call in this message."
                  : "Not executed: the user rejected an earlier call in this message. Take their feedback into account first.";
          results.push(this.skipCall(state, call, why));
          continue;
        }
        try {
          const out = await this.processToolCall(state, call);
          results.push(out.part);
          if (out.aborted) aborted = true;
          if (out.stop !== undefined) endReason = out.stop;
          if (out.completion !== undefined) completion = out.completion;
          if (out.rejected) rejected = true;
        } catch (err) {
          if (isAbortError(err) || signal.aborted) {
            aborted = true;
            results.push(this.skipCall(state, call, "Stopped by the user before this call ran.", "aborted"));
            continue;
          }
          // A fatal error (the checkpoint failed): this and the remaining calls are not executed.
          fatal = err;
          endReason = "a fatal error";
          results.push(this.skipCall(state, call, `Not executed: ${err instanceof Error ? err.message : String(err)}`, "error"));
        }
      }
      this.addMessage({ id: localId("m"), role: "tool", content: results, run: state.run, createdAt: this.now() });
      if (fatal !== undefined) throw fatal;
      if (aborted) throw abortError();
      if (endReason !== undefined) return { status: "aborted", reason: endReason };
      if (completion !== undefined) {
        state.summary = completion;
        return { status: "completed" };
      }
    }
  }

  /** One model request with retries (429/5xx/network, backoff, Retry-After). */
  private async callModel(state: RunState, handle: ModelHandle, messageId: string, options: Parameters<typeof streamModelStep>[1], estimatedInput: number): Promise<StreamedStep> {
    const model = handle.model;
    const signal = state.controller.signal;
    const ctx = { provider: handle.providerLabel ?? model.provider, modelId: model.modelId, baseURL: handle.baseURL };
    for (let attempt = 1; ; attempt++) {
      this.emit({ type: "model-request", runId: state.runId, step: state.iteration + 1, attempt, modelId: model.modelId, provider: ctx.provider });
      state.partialText = "";
      state.partialMessageId = messageId;
      const step = emptyStep();
      try {
        return await streamModelStep(
          model,
          options,
          signal,
          {
            onRequestStarted: () => this.ensureCheckpoint(state),
            onText: (delta) => {
              state.partialText += delta;
              this.emit({ type: "text-delta", runId: state.runId, messageId, delta });
            },
            onReasoning: (delta) => this.emit({ type: "reasoning-delta", runId: state.runId, messageId, delta }),
          },
          step,
        );
      } catch (err) {
        const aborted = isAbortError(err) || signal.aborted;
        // A request the provider began to answer, or one stopped on its way, was billed for its
        // input: the meter and the budget count it (estimated: no usage report came).
        if (step.streamOpened || aborted) this.chargeUnfinished(state, model.modelId, estimatedInput, step);
        if (aborted) throw abortError();
        const failure = err instanceof StreamFailure ? err : new StreamFailure(err, step);
        const aerr = classifyError(failure.error, ctx);
        // Output already reached the user: a transparent retry would duplicate it.
        const delay = failure.partial.receivedContent ? undefined : retryDelay(aerr, attempt, this.retry);
        if (delay === undefined) {
          if (failure.partial.receivedContent && aerr.code === "network") {
            throw new AgentError("network", `${aerr.message}. The partial answer was kept; send a message to continue.`, { cause: aerr });
          }
          throw attempt > 1 && aerr.retryable ? new AgentError(aerr.code, `${aerr.message} (gave up after ${attempt} attempts)`, { cause: aerr }) : aerr;
        }
        this.emit({ type: "retry", runId: state.runId, attempt: attempt + 1, delayMs: delay, code: aerr.code, message: this.redact(aerr.message) });
        await sleep(delay, signal);
        // The retry is billed again: it must still fit the budget.
        this.checkBudget(state, model.modelId, estimatedInput, options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS);
      }
    }
  }

  /** Tokens a request of `chars` characters holds: measured on this model's last answer, else a conservative 1 per 3. */
  private estimateInputTokens(modelId: string, chars: number): number {
    const measured = this.tokensPerChar.get(modelId);
    return Math.ceil(chars * (measured !== undefined ? measured * 1.05 : 1 / 3));
  }

  /** Learn how many tokens this model counts per character of request, from its usage report. */
  private calibrate(modelId: string, chars: number, step: StreamedStep): void {
    const u = step.usage?.inputTokens;
    const total = u?.total ?? (u?.noCache !== undefined ? u.noCache + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0) : undefined);
    if (total && total > 0 && chars > 0) this.tokensPerChar.set(modelId, total / chars);
  }

  /** Count a request that ended without a usage report: its input, and the output that arrived. */
  private chargeUnfinished(state: RunState, modelId: string, inputTokens: number, step: StreamedStep): void {
    const usage = emptyUsage();
    usage.requests = 1;
    usage.inputTokens = inputTokens;
    usage.outputTokens = Math.ceil(step.outputChars / 3);
    const price = priceFor(this.prices, modelId);
    usage.costUsd = price ? costOf(usage, price) : undefined;
    state.usage = addUsage(state.usage, usage);
    this._usage = addUsage(this._usage, usage);
    this.emit({ type: "usage", runId: state.runId, step: usage, run: state.usage, session: this.usage, estimated: true });
  }

  /**
   * Enforce the budget before a request: refuse it when its input alone (plus a minimal answer)
   * would pass the cap, and otherwise cap its output tokens so that even a full-length answer
   * stays within what is left. Returns the max output tokens to request.
   */
  private checkBudget(state: RunState, modelId: string, inputTokens: number, maxOutputTokens: number): number {
    if (this.budgetUsd === undefined) return maxOutputTokens;
    const price = priceFor(this.prices, modelId);
    if (!price) {
      if (!state.budgetWarned) {
        state.budgetWarned = true;
        this.emit({ type: "error", runId: state.runId, code: "budget", message: `The budget cap cannot be enforced: model "${modelId}" has an unknown price. Enter its price in Models.`, fatal: false });
      }
      return maxOutputTokens;
    }
    const spent = this._usage.costUsd ?? 0;
    const left = this.budgetUsd - spent;
    const inputCost = costOf({ inputTokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, price);
    const floor = Math.min(maxOutputTokens, MIN_BUDGET_OUTPUT_TOKENS);
    const least = inputCost + (floor * price.output) / 1_000_000;
    if (least > left) {
      throw new AgentError(
        "budget",
        `Budget reached: this session has spent $${spent.toFixed(4)} of its $${this.budgetUsd.toFixed(2)} cap, and the next request (about ${inputTokens.toLocaleString("en-US")} tokens of input) would cost at least $${least.toFixed(4)}. Raise the budget to continue.`,
      );
    }
    if (price.output <= 0) return maxOutputTokens;
    const affordable = Math.floor(((left - inputCost) * 1_000_000) / price.output);
    if (affordable < maxOutputTokens) {
      state.outputCappedByBudget = true;
      return Math.max(floor, affordable);
    }
    return maxOutputTokens;
  }

  /** Message builders (compaction, plugins) then the safety pass. */
  private async buildMessages(state: RunState, system: string, modelId: string, contextWindow: number): Promise<AgentMessage[]> {
    let messages = [...this._messages];
    const ctx: MessageBuilderContext = {
      sessionId: this.id,
      runId: state.runId,
      modelId,
      contextWindow,
      system,
      compaction: this.compaction,
      setCompaction: (s) => {
        this.compaction = s;
        ctx.compaction = s;
      },
      report: (info) => this.emit({ type: "compaction", ...info }),
      now: this.now,
    };
    for (const b of this.builders) {
      try {
        const out = await b.build(messages, ctx);
        if (Array.isArray(out)) messages = out;
      } catch (err) {
        this.emit({ type: "hook-error", point: "messageBuilder", hook: b.name, message: this.redact(err instanceof Error ? err.message : String(err)), runId: state.runId });
      }
    }
    return sanitizeForModel(messages);
  }

  // ---- tool calls ---------------------------------------------------------------------------

  private async processToolCall(state: RunState, call: ToolCallIn): Promise<CallOutcome> {
    const started = this.now();
    const tool = this.tools.find((t) => t.name === call.toolName);
    const parsed = parseJson(call.input);
    let input: unknown = parsed.ok ? parsed.value : call.input;
    // The loop guard's streak counts every call the model makes, as the model made it: a call
    // refused on the way (unknown, invalid, blocked by a hook) breaks a run of identical calls.
    const loopKey = `${call.toolName}\u0000${stableStringify(input)}`;
    state.loopCount = state.loopKey === loopKey ? state.loopCount + 1 : 1;
    state.loopKey = loopKey;
    this.emit({
      type: "tool-call-started",
      runId: state.runId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input,
      effects: tool ? callEffectsSafe(tool, input) : [],
      category: tool ? callApprovalSafe(tool, input) : "none",
    });
    const finish = (status: ToolCallStatus, result: ToolResult, extra: { blockedByPolicy?: boolean; blockReason?: string; stop?: string; rejected?: boolean } = {}): CallOutcome => {
      const part = this.resultPart(state, call, status, result, this.now() - started, extra);
      return { part, stop: extra.stop, completion: status === "ok" ? result.completion?.summary : undefined, rejected: extra.rejected };
    };

    // 1. Unknown tool.
    if (!tool) {
      const names = this.surface(this._mode, this.tools).map((t) => t.name);
      return finish("error", { output: `Unknown tool "${call.toolName}". Available tools: ${names.join(", ")}.`, isError: true, summary: `Unknown tool ${call.toolName}` });
    }
    // 2. On the current mode's surface?
    if (!this.surface(this._mode, this.tools).some((t) => t.name === tool.name)) {
      const reason = `The tool "${tool.name}" is not available in ${this.modeLabel(this._mode)} mode, so the call was refused. Use the tools offered in this mode.`;
      return finish("blocked", { output: reason, isError: true, summary: `Not available in ${this.modeLabel(this._mode)} mode` }, { blockedByPolicy: true, blockReason: reason });
    }
    // 3. Valid arguments? (the zod error goes back to the model; the run goes on)
    if (!parsed.ok) {
      return finish("error", {
        output: `Invalid arguments for ${tool.name}: they are not valid JSON (${parsed.error}). Send the arguments as a JSON object matching the tool's schema.`,
        isError: true,
        summary: "Invalid arguments (not JSON)",
      });
    }
    const validated = tool.inputSchema.safeParse(input);
    if (!validated.success) {
      return finish("error", {
        output: `Invalid arguments for ${tool.name}:\n${z.prettifyError(validated.error)}\nFix the arguments and call the tool again.`,
        isError: true,
        summary: "Invalid arguments",
      });
    }
    input = validated.data;

    // 4. beforeTool hooks (mode guard first, then plugins): skip | stop | new input; fail closed.
    let decision: BeforeToolDecision | undefined;
    const failure = await this.hooks.runChain<unknown, BeforeToolDecision>(
      "beforeTool",
      () => ({ snapshot: this.snapshot(state), tool, toolCall: { id: call.toolCallId, name: call.toolName }, input }),
      (r, name) => {
        if (!r) return false;
        if (r.skip || r.stop) {
          decision = { ...r, reason: r.reason ?? `Tool ${tool.name} was blocked by a runtime hook (${name})` };
          return true;
        }
        if (r.input !== undefined) input = r.input;
        return false;
      },
      (f) => this.reportHookFailure(f, state),
      true,
    );
    if (failure) {
      // A check that failed is an error, not a policy decision: the row says what happened.
      const reason = `Refused: the "${failure.hook}" hook failed while checking this call (${failure.message}), and calls are refused when a check fails.`;
      return finish("error", { output: reason, isError: true, summary: "Refused: a check failed" });
    }
    if (decision?.stop) {
      return finish(
        "blocked",
        { output: `Blocked: ${decision.reason}. The run was stopped.`, isError: true, summary: `Stopped: ${decision.reason}` },
        { blockedByPolicy: true, blockReason: decision.reason, stop: decision.reason },
      );
    }
    if (decision?.skip) {
      return finish("blocked", { output: decision.reason!, isError: true, summary: `Blocked: ${firstLine(decision.reason!)}` }, { blockedByPolicy: true, blockReason: decision.reason });
    }
    if (input !== validated.data) {
      const again = tool.inputSchema.safeParse(input);
      if (!again.success) {
        return finish("error", { output: `A hook rewrote the arguments of ${tool.name} into invalid ones:\n${z.prettifyError(again.error)}`, isError: true, summary: "Invalid arguments after a hook" });
      }
      input = again.data;
    }

    // 5. Loop guard: the same call with the same arguments N times in a row (counted above).
    const threshold = this.opts.loopGuardThreshold ?? 3;
    if (state.loopCount >= threshold) {
      const answer = await this.requestApproval(state, {
        kind: "loop-guard",
        toolCallId: call.toolCallId,
        toolName: tool.name,
        category: callApproval(tool, input),
        input,
        message: `The agent called ${tool.name} with the same arguments ${state.loopCount} times in a row. Continue anyway, or stop the run?`,
      });
      if (!answer.approved) {
        const why = "The user stopped the run at the loop guard (the same call repeated)";
        return finish("skipped", { output: `Not executed: ${why}.`, isError: true, summary: "Stopped by the loop guard" }, { stop: why });
      }
      state.loopCount = 0;
    }

    const ctx = this.toolContext(state, call.toolCallId);

    // 6. Plan (an edit's diff, the commands) before asking; a call that can only fail is not asked about.
    let plan: ToolPlan | undefined;
    if (tool.plan) {
      let planned: ToolPlan | ToolResult;
      try {
        planned = await tool.plan(input, ctx);
      } catch (err) {
        if (state.controller.signal.aborted) throw abortError();
        planned = { output: `${tool.name} failed: ${this.redact(err instanceof Error ? err.message : String(err))}`, isError: true };
      }
      if (isToolResult(planned)) return finish(planned.isError ? "error" : "ok", planned);
      plan = planned;
    }

    // 7. Policy and approval.
    const category = callApproval(tool, input);
    const commands = plan?.preview.kind === "command" ? plan.preview.commands : undefined;
    if (!isAutoApproved(category, this.approvals, commands)) {
      const answer = await this.requestApproval(state, {
        kind: "tool",
        toolCallId: call.toolCallId,
        toolName: tool.name,
        category,
        input,
        preview: plan?.preview ?? { kind: "text", text: JSON.stringify(input, null, 2) },
        suggestedPrefix: commands?.length ? suggestPrefix(commands[0]!) : undefined,
      });
      if (!answer.approved) {
        const output = answer.feedback
          ? `The user rejected this ${tool.name} call, so nothing was done. Their feedback: ${answer.feedback}`
          : `The user rejected this ${tool.name} call, so nothing was done. Ask what they want instead, or take a different approach.`;
        return finish("rejected", { output, isError: true, summary: answer.feedback ? `Rejected: ${firstLine(answer.feedback)}` : "Rejected" }, { rejected: true });
      }
      if (answer.alwaysAllowPrefix) this.allowCommandPrefix(answer.alwaysAllowPrefix);
    }

    // 8. Nothing changes before the run's checkpoint exists.
    if (isMutating(callEffects(tool, input))) await this.awaitCheckpoint(state);

    // 9. Execute.
    let result: ToolResult;
    const execStarted = this.now();
    try {
      result = await tool.execute(input, ctx, plan);
    } catch (err) {
      if (state.controller.signal.aborted) throw abortError();
      const message = this.redact(err instanceof Error ? err.message : String(err));
      this.emit({ type: "error", runId: state.runId, code: "tool", message: `${tool.name} failed: ${message}`, fatal: false });
      result = { output: `${tool.name} failed: ${message}`, isError: true, summary: `Failed: ${firstLine(message)}` };
    }
    if (state.controller.signal.aborted) {
      // The call finished (a command resolved with ^C): keep what it did, then stop.
      const part = this.resultPart(state, call, "aborted", { ...result, output: result.output + "\n[The user stopped the run.]" }, this.now() - started, {});
      return { part, aborted: true };
    }

    // 10. afterTool: may replace the result or stop the run.
    let stop: string | undefined;
    const durationMs = this.now() - execStarted;
    await this.hooks.runChain<unknown, AfterToolDecision>(
      "afterTool",
      () => ({ snapshot: this.snapshot(state), tool, toolCall: { id: call.toolCallId, name: call.toolName }, input, result, durationMs }),
      (r) => {
        if (!r) return false;
        if (r.result) result = { ...result, ...r.result };
        if (r.stop) stop = r.reason ?? "Stopped by an afterTool hook";
        return !!r.stop;
      },
      (f) => this.reportHookFailure(f, state),
    );
    return finish(result.isError ? "error" : "ok", result, { stop });
  }

  private toolContext(state: RunState, toolCallId: string): ToolContext {
    const readOnly = (this.opts.isReadOnlyMode ?? ((m: AgentMode) => m !== "act"))(this._mode);
    const wsfs = readOnly ? this.deps.wsfs.readOnlyView() : this.deps.wsfs;
    let shell: Promise<ShellLike> | undefined;
    return {
      wsfs,
      repo: { fs: this.deps.wsfs.fs, dir: this.deps.wsfs.dir },
      signal: state.controller.signal,
      mode: this._mode,
      readOnly,
      sessionId: this.id,
      runId: state.runId,
      toolCallId,
      origin: "agent",
      limits: { ...DEFAULT_TOOL_LIMITS, ...this.opts.toolLimits },
      shell: () => (shell ??= this.deps.shell({ readOnly })),
      ask: (q) => this.askUser(state, toolCallId, q),
      setMode: (mode) => this.setMode(mode as AgentMode),
    };
  }

  private resultPart(
    state: RunState,
    call: { toolCallId: string; toolName: string },
    status: ToolCallStatus,
    result: ToolResult,
    durationMs: number,
    extra: { blockedByPolicy?: boolean; blockReason?: string },
  ): ToolResultPart {
    const cap = this.opts.maxToolOutputChars ?? DEFAULT_TOOL_OUTPUT_CHARS;
    const forModel = headTail(result.output, cap, "tool output").text;
    const isError = status !== "ok" || !!result.isError;
    const summary = result.summary ?? firstLine(result.output);
    const part: ToolResultPart = {
      type: "tool-result",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: isError ? { type: "error-text", value: forModel } : { type: "text", value: forModel },
      ui: { status, summary, durationMs },
    };
    if (extra.blockedByPolicy) part.ui!.blockedByPolicy = true;
    if (result.data) part.ui!.data = result.data;
    this.emit({
      type: "tool-call-finished",
      runId: state.runId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      status,
      summary,
      output: forModel.length > EVENT_OUTPUT_CHARS ? headTail(forModel, EVENT_OUTPUT_CHARS).text : forModel,
      error: isError ? this.redact(firstLine(forModel, 500)) : undefined,
      blockedByPolicy: !!extra.blockedByPolicy,
      blockReason: extra.blockReason,
      data: result.data,
      durationMs,
    });
    return part;
  }

  private skipCall(state: RunState, call: { toolCallId: string; toolName: string }, why: string, status: ToolCallStatus = "skipped"): ToolResultPart {
    return this.resultPart(state, call, status, { output: why, isError: true, summary: firstLine(why) }, 0, {});
  }

  // ---- waiting for the user -----------------------------------------------------------------

  private requestApproval(
    state: RunState,
    req: { kind: "tool" | "loop-guard"; toolCallId: string; toolName: string; category: ApprovalCategory; input: unknown; preview?: ApprovalPreview; suggestedPrefix?: string; message?: string },
  ): Promise<ApprovalAnswer> {
    const approvalId = localId("ap");
    const signal = state.controller.signal;
    if (signal.aborted) return Promise.reject(abortError());
    return new Promise<ApprovalAnswer>((resolve, reject) => {
      const onAbort = () => {
        if (this.pendingApprovals.delete(approvalId)) {
          this.emit({ type: "approval-resolved", runId: state.runId, approvalId, toolCallId: req.toolCallId, decision: "aborted" });
        }
        reject(abortError());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const entry: Pending<ApprovalAnswer> = {
        runId: state.runId,
        resolve: (a) => {
          signal.removeEventListener("abort", onAbort);
          this.emit({ type: "approval-resolved", runId: state.runId, approvalId, toolCallId: req.toolCallId, decision: a.approved ? "approved" : "rejected", feedback: a.feedback });
          resolve(a);
        },
        reject: (e) => {
          signal.removeEventListener("abort", onAbort);
          reject(e);
        },
      };
      // Registered before the event: a listener may answer synchronously from inside it.
      this.pendingApprovals.set(approvalId, entry);
      entry.event = this.emit({ type: "approval-requested", runId: state.runId, approvalId, ...req });
    });
  }

  private askUser(state: RunState, toolCallId: string, q: QuestionRequest): Promise<string> {
    const questionId = localId("q");
    const signal = state.controller.signal;
    if (signal.aborted) return Promise.reject(abortError());
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.pendingQuestions.delete(questionId);
        reject(abortError());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const entry: Pending<string> = {
        runId: state.runId,
        resolve: (answer) => {
          signal.removeEventListener("abort", onAbort);
          this.emit({ type: "question-answered", runId: state.runId, questionId, answer });
          resolve(answer);
        },
        reject: (e) => {
          signal.removeEventListener("abort", onAbort);
          reject(e);
        },
      };
      this.pendingQuestions.set(questionId, entry);
      entry.event = this.emit({ type: "question-asked", runId: state.runId, questionId, toolCallId, question: q.question, choices: q.choices });
    });
  }

  private settlePending(runId: string): void {
    for (const [id, p] of this.pendingApprovals) {
      if (p.runId !== runId) continue;
      this.pendingApprovals.delete(id);
      p.reject(abortError());
    }
    for (const [id, p] of this.pendingQuestions) {
      if (p.runId !== runId) continue;
      this.pendingQuestions.delete(id);
      p.reject(abortError());
    }
  }

  // ---- checkpoint ---------------------------------------------------------------------------

  /** Start the run's checkpoint (once): called as the first model request leaves. */
  private ensureCheckpoint(state: RunState): void {
    if (state.checkpoint) return;
    const t0 = this.now();
    const p = this.deps.checkpoints.create({ sessionId: this.id, run: state.run, label: state.prompt.replace(/\s+/g, " ").slice(0, 120) }).then(
      (rec): CheckpointEntry => {
        const entry: CheckpointEntry = {
          run: state.run,
          runId: state.runId,
          ref: rec.ref,
          oid: rec.oid,
          createdAt: rec.createdAt,
          label: rec.label,
          messageId: state.promptMessageId,
          ms: rec.stats?.ms ?? this.now() - t0,
        };
        this._checkpoints.push(entry);
        this._checkpoints.sort((a, b) => a.run - b.run);
        this.touch();
        this.emit({ type: "checkpoint-created", runId: state.runId, run: state.run, ref: entry.ref, oid: entry.oid, createdAt: entry.createdAt, ms: entry.ms });
        return entry;
      },
      (err: unknown): AgentError => {
        const message = this.redact(err instanceof Error ? err.message : String(err));
        const e = new AgentError("checkpoint", `The run's checkpoint could not be created (${message}), so no file was changed: changes without a checkpoint could not be undone.`, { cause: err });
        // Not fatal by itself: the run fails only if a tool that changes files comes next.
        this.emit({ type: "error", runId: state.runId, code: "checkpoint", message: e.message, fatal: false });
        return e;
      },
    );
    state.checkpoint = p;
    this.checkpointsInFlight.add(p);
    void p.finally(() => this.checkpointsInFlight.delete(p));
  }

  /** The state the run left, for the timeline; a failure here is reported, never fatal. */
  private async checkpointRunEnd(state: RunState): Promise<void> {
    const start = await state.checkpoint!;
    if (start instanceof AgentError) return;
    const label = state.prompt.replace(/\s+/g, " ").slice(0, 120);
    await this.deps.checkpoints.create({ sessionId: this.id, run: `${state.run}-end`, label, kind: "end" }).catch((err: unknown) => {
      const message = this.redact(err instanceof Error ? err.message : String(err));
      this.emit({ type: "error", runId: state.runId, code: "checkpoint", message: `The snapshot of what this run left could not be taken (${message}); the run's changes are still in the working tree.`, fatal: false });
    });
  }

  private async awaitCheckpoint(state: RunState): Promise<void> {
    this.ensureCheckpoint(state);
    const r = await state.checkpoint!;
    if (r instanceof AgentError && (this.opts.requireCheckpoint ?? true)) throw r;
  }

  // ---- helpers ------------------------------------------------------------------------------

  private snapshot(state: RunState): HookSnapshot {
    return { sessionId: this.id, workspaceId: this.workspaceId, runId: state.runId, run: state.run, iteration: state.iteration, mode: this._mode, messages: this._messages };
  }

  private reportHookFailure(f: HookFailure, state?: RunState): void {
    this.emit({ type: "hook-error", point: f.point, hook: f.hook, message: this.redact(f.message), runId: state?.runId });
  }

  private addMessage(message: AgentMessage): void {
    this._messages.push(message);
    this.touch();
    this.emit({ type: "message-added", message });
  }

  /** Keep text that streamed before a stop or an error (marked interrupted). */
  private keepPartialText(state: RunState): void {
    if (!state.partialText || !state.partialMessageId) return;
    if (this._messages.some((m) => m.id === state.partialMessageId)) return;
    this.addMessage({ id: state.partialMessageId, role: "assistant", content: [{ type: "text", text: state.partialText }], run: state.run, createdAt: this.now(), interrupted: true });
    state.partialText = "";
  }

  /** Every tool call of the run gets a result, whatever happened. */
  private closeDanglingCalls(state: RunState, why: string): void {
    const last = this._messages[this._messages.length - 1];
    if (!last || last.role !== "assistant") return;
    const calls = toolCallsOf(last);
    if (calls.length === 0) return;
    const content = calls.map((c) => this.skipCall(state, c, why, state.controller.signal.aborted ? "aborted" : "skipped"));
    const msg: ToolMessage = { id: localId("m"), role: "tool", content, run: state.run, createdAt: this.now() };
    this.addMessage(msg);
  }

  private assertIdle(what: string): void {
    if (this.active) throw new Error(`Cannot ${what} while a run is in progress`);
  }

  private touch(): void {
    this.updatedAt = this.now();
  }

  private redact(text: string): string {
    return this.opts.redact ? this.opts.redact(text) : text;
  }

  private emit(body: AgentEventBody): AgentEvent {
    const event = { ...body, seq: ++this.seq, at: this.now(), sessionId: this.id } as AgentEvent;
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch (err) {
        // A faulty listener must not break the run; rethrow asynchronously so it is reported.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
    const fromOnEvent = body.type === "hook-error" && body.point === "onEvent";
    if (!fromOnEvent && this.hooks.has("onEvent")) {
      this.hooks.dispatchEvent(event, (f) => this.emit({ type: "hook-error", point: f.point, hook: f.hook, message: this.redact(f.message), runId: this.active?.runId }));
    }
    return event;
  }
}

// ---- built-in slash commands ------------------------------------------------------------------

function builtinCommands(): SlashCommand[] {
  return [
    {
      name: "compact",
      description: "Summarise the conversation so far to free context",
      handler: (_args, s) => {
        const r = s.compact();
        return r.summarized ? `Compacted ${r.summarized} messages into a summary.` : "Nothing to compact yet.";
      },
    },
    {
      name: "clear",
      description: "Start the conversation afresh (checkpoints stay)",
      handler: (_args, s) => {
        s.clear();
        return "Conversation cleared.";
      },
    },
    {
      name: "undo",
      description: "Restore the files to the last run's checkpoint",
      handler: async (_args, s) => {
        const r = await s.undoLastRun();
        if (!r) return "There is no checkpoint to restore yet.";
        if (r.changed.length === 0) return `The files already match the last checkpoint (${r.ref}).`;
        return `Restored ${r.changed.length} file${r.changed.length === 1 ? "" : "s"} to ${r.ref}: ${r.changed.map((c) => c.path).join(", ")}. (Restore ${r.txid} can itself be undone.)`;
      },
    },
    {
      name: "mode",
      description: "Switch mode: /mode plan | act | review",
      handler: (args, s) => {
        const m = args.trim().toLowerCase();
        if (!AGENT_MODES.includes(m as AgentMode)) throw new Error(`Usage: /mode ${AGENT_MODES.join(" | ")} (now ${s.mode})`);
        s.setMode(m as AgentMode);
        return `Mode: ${s.modeLabel(m as AgentMode)}.`;
      },
    },
  ];
}

// ---- small helpers ----------------------------------------------------------------------------

/** Without the mode profiles (bare sessions in tests): the mode's own name, capitalised. */
function defaultModeLabel(mode: AgentMode): string {
  return mode.charAt(0).toUpperCase() + mode.slice(1);
}

function firstLine(s: string, max = 160): string {
  const line = s.split("\n", 1)[0] ?? "";
  return line.length > max ? line.slice(0, max - 1) + "…" : line;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Tool-call input for the history: the object when it parses, else {} (the error result explains). */
function parseLoose(text: string): unknown {
  const r = parseJson(text);
  return r.ok && r.value !== null && typeof r.value === "object" && !Array.isArray(r.value) ? r.value : {};
}

function callEffectsSafe(tool: ToolDefinition, input: unknown) {
  try {
    return callEffects(tool, input);
  } catch {
    return tool.effects;
  }
}

function callApprovalSafe(tool: ToolDefinition, input: unknown): ApprovalCategory {
  try {
    return callApproval(tool, input);
  } catch {
    return "edit";
  }
}

function clone<T>(v: T): T {
  return typeof structuredClone === "function" ? structuredClone(v) : (JSON.parse(JSON.stringify(v)) as T);
}
