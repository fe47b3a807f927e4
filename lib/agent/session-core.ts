/**
 * The state one session holds and the few operations every collaborator needs on it: the
 * conversation, checkpoints, usage and settings; the event stream (emit / subscribe); the run
 * in progress. The session's collaborators (run loop, tool pipeline, interactions, history,
 * slash commands, policies) each get this object; only `AgentSession` is public.
 */
import { modeLabel as profileLabel, shellIsReadOnly } from "../modes/profiles";
import type { ToolPolicy } from "../modes/policy";
import type { ToolDefinition } from "../tools/define";
import { surfacePolicy } from "./approvals";
import { builtinTools } from "../tools/index";
import { compactionBuilder, type CompactionState, type MessageBuilder } from "./compaction";
import { DEFAULT_RETRY, type RetryOptions } from "./errors";
import { AgentError, type AgentEvent, type AgentEventBody, type AgentEventListener } from "./events";
import { HookChain, HookRegistry, type HookFailure, type HookSnapshot } from "./hooks";
import { localId, newSessionId } from "./ids";
import type { AgentMessage } from "./messages";
import type { ModelSource } from "./model-handle";
import type { PriceTable } from "./pricing";
import type { RuleSource } from "./prompt";
import type { AgentSessionOptions, ApprovalSettingsPatch, FindingStatus, RunRecord, SessionParent, ToolSurface } from "./session-types";
import { AGENT_MODES, DEFAULT_APPROVALS, emptyUsage, type AgentDeps, type AgentMode, type ApprovalSettings, type CheckpointEntry, type UsageTotals } from "./types";

export const ALL_TOOLS_SURFACE: ToolSurface = (_mode, tools) => tools;

/** The run in progress: what the loop, the pipeline and the policies share about it. */
export type RunState = {
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
  /** Text streamed for the assistant message being received (kept if the stream is cut). */
  partialText: string;
  partialMessageId?: string;
  summary?: string;
  /** A request of this run had its output tokens lowered to stay within the budget. */
  outputCappedByBudget?: boolean;
  /** Checkpoints taken after this run's mutating calls (checkpointEachCall). */
  callCheckpoints?: number;
};

export class SessionCore {
  readonly id: string;
  readonly workspaceId: string;
  readonly deps: AgentDeps;
  readonly opts: AgentSessionOptions;
  readonly now: () => number;
  readonly retry: RetryOptions;
  /** The registry shared with plugins and the mode guard. */
  readonly hooks: HookRegistry;
  /** The session's own policies (budget, loop guard, checkpoint wait), registered like plugins. */
  readonly policyHooks = new HookRegistry();
  /** Both, as the one ordered chain the loop runs. */
  readonly chain: HookChain;

  title: string;
  createdAt: number;
  updatedAt: number;
  mode: AgentMode;
  messages: AgentMessage[] = [];
  checkpoints: CheckpointEntry[] = [];
  usage: UsageTotals = emptyUsage();
  runs: RunRecord[] = [];
  runCount = 0;
  approvals: ApprovalSettings;
  budgetUsd?: number;
  compaction?: CompactionState;
  lastModel?: { provider?: string; modelId: string };
  forkedFrom?: { sessionId: string; messageId: string };
  parent?: SessionParent;
  findingStatus: Record<string, FindingStatus> = {};

  modelSource: ModelSource;
  prices: PriceTable;
  tools: ToolDefinition[];
  surface: ToolSurface;
  /** Which calls run, ask or are refused. */
  readonly policy: ToolPolicy;
  builders: MessageBuilder[];
  readonly extraRules = new Map<string, RuleSource>();

  active?: RunState;
  commandRunning = false;
  /** Notes steered in during a run, added before the next model call. */
  pendingNotices: string[] = [];
  private readonly listeners = new Set<AgentEventListener>();
  private seq = 0;

  constructor(options: AgentSessionOptions) {
    this.opts = options;
    this.deps = options.deps;
    this.now = options.now ?? options.deps.now ?? (() => Date.now());
    this.id = options.id ?? newSessionId(this.now());
    this.workspaceId = options.workspaceId;
    this.title = options.title ?? "";
    if (options.parent) this.parent = { ...options.parent };
    this.mode = options.mode ?? "act";
    this.createdAt = this.now();
    this.updatedAt = this.createdAt;
    this.hooks = options.hooks ?? new HookRegistry();
    this.chain = new HookChain([this.hooks, this.policyHooks]);
    this.modelSource = options.model;
    this.tools = options.tools ?? builtinTools();
    this.surface = options.surface ?? ALL_TOOLS_SURFACE;
    this.policy =
      options.policy ??
      surfacePolicy(
        (mode, name) => this.surface(mode, this.tools).some((t) => t.name === name),
        (mode) => this.modeLabel(mode),
      );
    this.builders = options.messageBuilders ?? [compactionBuilder()];
    this.prices = options.prices ?? {};
    this.budgetUsd = options.budgetUsd;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.approvals = mergeApprovals(DEFAULT_APPROVALS, options.approvals);
    if (options.onEvent) this.listeners.add(options.onEvent);
  }

  // ---- events -------------------------------------------------------------------------------

  subscribe(listener: AgentEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(body: AgentEventBody): AgentEvent {
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
    if (!fromOnEvent && this.chain.has("onEvent")) {
      this.chain.dispatchEvent(event, (f) => this.emit({ type: "hook-error", point: f.point, hook: f.hook, message: this.redact(f.message), runId: this.active?.runId }));
    }
    return event;
  }

  reportHookFailure(f: HookFailure, state?: RunState): void {
    this.emit({ type: "hook-error", point: f.point, hook: f.hook, message: this.redact(f.message), runId: state?.runId });
  }

  // ---- the conversation and settings --------------------------------------------------------

  addMessage(message: AgentMessage): void {
    this.messages.push(message);
    this.touch();
    this.emit({ type: "message-added", message });
  }

  /** A note for the model, as a user message of kind "notice". */
  addNotice(text: string, run?: number): void {
    const content = [{ type: "text" as const, text }];
    this.addMessage(run === undefined ? { id: localId("m"), role: "user", kind: "notice", content, createdAt: this.now() } : { id: localId("m"), role: "user", kind: "notice", content, run, createdAt: this.now() });
  }

  /** Drop the compaction summary when the message it covered up to is gone. */
  dropStaleCompaction(): void {
    if (this.compaction && !this.messages.some((m) => m.id === this.compaction!.throughId)) this.compaction = undefined;
  }

  setMode(mode: AgentMode): void {
    if (!AGENT_MODES.includes(mode)) throw new Error(`Unknown mode "${mode}"`);
    if (mode === this.mode) return;
    const from = this.mode;
    this.mode = mode;
    this.touch();
    this.emit({ type: "mode-changed", from, to: mode, runId: this.active?.runId });
  }

  setApprovals(patch: ApprovalSettingsPatch): void {
    this.approvals = mergeApprovals(this.approvals, patch);
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

  /** The name of a mode as the user and the model read it (default: the mode profile's label). */
  modeLabel(mode: AgentMode = this.mode): string {
    return (this.opts.modeLabel ?? profileLabel)(mode);
  }

  /** The tools offered in the current mode: the surface, with the mode's pinned tools always on it (genuine definitions). */
  surfaceTools(): readonly ToolDefinition[] {
    const offered = this.surface(this.mode, this.tools);
    const pinned = this.opts.pinnedTools?.(this.mode) ?? [];
    if (pinned.length === 0) return offered;
    const byName = new Map(pinned.map((t) => [t.name, t]));
    const out = offered.map((t) => byName.get(t.name) ?? t);
    for (const t of pinned) if (!out.includes(t)) out.push(t);
    return out;
  }

  /** The genuine definition when `name` is pinned in the current mode. */
  pinnedTool(name: string): ToolDefinition | undefined {
    return this.opts.pinnedTools?.(this.mode).find((t) => t.name === name);
  }

  isReadOnlyMode(): boolean {
    return (this.opts.isReadOnlyMode ?? shellIsReadOnly)(this.mode);
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** What hooks see of the session during a run. */
  snapshot(state: RunState): HookSnapshot {
    return { sessionId: this.id, workspaceId: this.workspaceId, runId: state.runId, run: state.run, iteration: state.iteration, mode: this.mode, messages: this.messages };
  }

  get running(): boolean {
    return this.active !== undefined || this.commandRunning;
  }

  assertIdle(what: string): void {
    if (this.active) throw new Error(`Cannot ${what} while a run is in progress`);
  }

  touch(): void {
    this.updatedAt = this.now();
  }

  /** Scrub secrets from text that leaves the loop (error messages). */
  redact(text: string): string {
    return this.opts.redact ? this.opts.redact(text) : text;
  }

  errorText(err: unknown): string {
    return this.redact(err instanceof Error ? err.message : String(err));
  }
}

/** Auto-approve switches merge one by one; a prefix list replaces the old one. */
function mergeApprovals(base: ApprovalSettings, patch: ApprovalSettingsPatch | undefined): ApprovalSettings {
  return {
    autoApprove: { ...base.autoApprove, ...patch?.autoApprove },
    allowedCommandPrefixes: [...(patch?.allowedCommandPrefixes ?? base.allowedCommandPrefixes)],
  };
}


export function clone<T>(v: T): T {
  return typeof structuredClone === "function" ? structuredClone(v) : (JSON.parse(JSON.stringify(v)) as T);
}

export { firstLine } from "../tools/define";
