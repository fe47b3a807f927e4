/**
 * AgentSession: one conversation with the agent on one workspace.
 *
 * The surface, in full:
 *   run(prompt) · stop() · steer(text)                 a turn (or a slash command), stopping it, a note for the model
 *   subscribe(listener)                                every event (./events.ts): the UI renders from these
 *   approve(id) · reject(id, feedback) · answer(id, text)   what a run waits for from the user
 *   setMode(mode) · configure(settings)                mode; title, approvals, budget, model, prices
 *   fork(messageId) · toJSON() · AgentSession.fromJSON(data) · close()
 *   state                                              read-only: conversation, usage, checkpoints, settings, pending requests
 *   history                                            rewind, restore files, edit & resend, compact, clear (./history.ts)
 *   extensions                                         tools, builders, rules, commands, hidden paths (./extensions.ts)
 *   hooks                                              the hook registry shared with plugins and the mode guard (./hooks.ts)
 *
 * Behind it, one collaborator per concern: the run loop (./run-loop.ts), the tool pipeline
 * (./tool-pipeline.ts), interactions (./interactions.ts), slash commands (./slash-commands.ts),
 * retries (./model-retry.ts), persistence (./persistence.ts), and the session's own policies,
 * registered at the hook points like any plugin's: the budget (./budget.ts), the loop guard
 * (./loop-guard.ts) and the checkpoint wait (./run-checkpoints.ts). See ./index.ts for the wiring.
 */
import { Budget } from "./budget";
import { checkImages, type ImageAttachment } from "./images";
import type { AgentEventListener } from "./events";
import { SessionExtensions } from "./extensions";
import type { HookRegistry } from "./hooks";
import { forkData, SessionHistory } from "./history";
import { Interactions } from "./interactions";
import { loopGuardHooks } from "./loop-guard";
import { assertSessionData, restoreSessionData, toSessionData } from "./persistence";
import { RunCheckpoints } from "./run-checkpoints";
import { RunLoop } from "./run-loop";
import { SessionCore } from "./session-core";
import type { AgentSessionOptions, FindingStatus, SessionData, SessionParent, SessionSettingsPatch, SessionState } from "./session-types";
import { SlashCommands } from "./slash-commands";
import { ToolPipeline } from "./tool-pipeline";
import type { AgentDeps, AgentMode, RunResult } from "./types";

export { ALL_TOOLS_SURFACE } from "./session-core";
export { toolSpec } from "./run-loop";
export type { SlashCommand, SlashCommandResult } from "./slash-commands";
export type {
  AgentSessionOptions,
  ApprovalSettingsPatch,
  ConversationSnapshot,
  RunRecord,
  SessionData,
  SessionParent,
  SessionSettingsPatch,
  SessionState,
  ToolSurface,
} from "./session-types";

export class AgentSession {
  readonly id: string;
  readonly workspaceId: string;
  /** Shared with plugins and the mode guard (a fork may get its own). */
  readonly hooks: HookRegistry;
  readonly deps: AgentDeps;
  /** Rewind, restore files, edit & resend, compact, clear. */
  readonly history: SessionHistory;
  /** Tools, message builders, rules, slash commands, hidden paths (plugins add these). */
  readonly extensions: SessionExtensions;

  private readonly core: SessionCore;
  private readonly interactions: Interactions;
  private readonly commands: SlashCommands;
  private readonly loop: RunLoop;

  constructor(options: AgentSessionOptions) {
    const core = new SessionCore(options);
    this.core = core;
    this.id = core.id;
    this.workspaceId = core.workspaceId;
    this.hooks = core.hooks;
    this.deps = core.deps;
    this.interactions = new Interactions(core);
    this.commands = new SlashCommands(core);
    const checkpoints = new RunCheckpoints(core);
    const budget = new Budget(core);
    core.policyHooks.register(budget.hooks());
    core.policyHooks.register(loopGuardHooks(core, this.interactions));
    core.policyHooks.register(checkpoints.hooks());
    const pipeline = new ToolPipeline(core, this.interactions, budget);
    this.loop = new RunLoop(core, { pipeline, interactions: this.interactions, checkpoints, budget });
    this.history = new SessionHistory(core, checkpoints, budget, (prompt, opts) => this.run(prompt, opts));
    this.extensions = new SessionExtensions(core, this.commands);
  }

  /** Rebuild a persisted session (resume after reload). */
  static fromJSON(data: SessionData, options: Omit<AgentSessionOptions, "id" | "workspaceId" | "title" | "mode">): AgentSession {
    assertSessionData(data);
    const s = new AgentSession({
      ...options,
      id: data.id,
      workspaceId: data.workspaceId,
      title: data.title,
      mode: data.mode,
      approvals: data.approvals,
      budgetUsd: data.budgetUsd ?? options.budgetUsd,
    });
    restoreSessionData(s.core, data);
    return s;
  }

  /** A child session's parent (a sub-agent's, a team member's); undefined for a top-level session. */
  get parent(): SessionParent | undefined {
    return this.core.parent ? { ...this.core.parent } : undefined;
  }

  /** The persisted form (lib/sessions stores it); no secrets. */
  toJSON(): SessionData {
    return toSessionData(this.core);
  }

  /** The session as it is now (its arrays are the live ones, read-only); change it through the methods. */
  get state(): SessionState {
    const c = this.core;
    const state: SessionState = {
      title: c.title,
      mode: c.mode,
      modeLabel: c.modeLabel(),
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      messages: c.messages,
      checkpoints: c.checkpoints,
      usage: { ...c.usage },
      runs: c.runs,
      running: c.running,
      approvals: { autoApprove: { ...c.approvals.autoApprove }, allowedCommandPrefixes: [...c.approvals.allowedCommandPrefixes] },
      pending: this.interactions.pending(),
      findingStatus: c.findingStatus,
    };
    if (c.budgetUsd !== undefined) state.budgetUsd = c.budgetUsd;
    if (c.compaction) state.compaction = c.compaction;
    return state;
  }

  /** The user's decision on a review finding: resolved, dismissed, or `undefined` to reopen it. */
  setFindingStatus(findingId: string, status: FindingStatus | undefined): void {
    const c = this.core;
    if (typeof findingId !== "string" || !findingId) throw new Error("A finding id is required");
    if (status !== undefined && status !== "resolved" && status !== "dismissed") throw new Error(`A finding is resolved or dismissed, not ${JSON.stringify(status)}`);
    const next = { ...c.findingStatus };
    if (status) next[findingId] = status;
    else delete next[findingId];
    c.findingStatus = next;
    c.touch();
    c.emit({ type: "session-updated", what: "review" });
  }

  subscribe(listener: AgentEventListener): () => void {
    return this.core.subscribe(listener);
  }

  /**
   * Run one user turn (or a slash command). Resolves with the result; failures end as status
   * "failed" with a reason. Rejects only when a run is already in progress.
   */
  async run(prompt: string, opts: { signal?: AbortSignal; images?: readonly ImageAttachment[] } = {}): Promise<RunResult> {
    if (this.core.running) throw new Error("A run is already in progress in this session; stop it or wait for it to finish");
    const images = checkImages(opts.images); // an ImageError says what is wrong, before anything starts
    const command = images.length ? undefined : this.commands.match(prompt);
    if (command) return this.commands.run(this, command.name, command.args, (submitted) => this.loop.runTurn(submitted, { signal: opts.signal }));
    return this.loop.runTurn(prompt, { signal: opts.signal, images });
  }

  /** Stop the current run at once: the stream is aborted, a running command is cancelled. */
  stop(): void {
    this.core.active?.controller.abort();
  }

  /**
   * Steer a note into the conversation (a background task ended, …): the model reads it with its
   * next request. During a run it waits for the next model call, so it never lands between a
   * tool call and its result.
   */
  steer(text: string): void {
    if (typeof text !== "string" || !text.trim()) return;
    if (this.core.active) this.core.pendingNotices.push(text);
    else this.core.addNotice(text);
  }

  /** Approve a pending call. `alwaysAllowPrefix` adds a command prefix to the session's allow list. */
  approve(approvalId: string, opts: { alwaysAllowPrefix?: string } = {}): boolean {
    return this.interactions.approve(approvalId, opts.alwaysAllowPrefix);
  }

  /** Reject a pending call; the model reads the feedback. */
  reject(approvalId: string, feedback?: string): boolean {
    return this.interactions.reject(approvalId, feedback);
  }

  /** Answer an ask_question. */
  answer(questionId: string, text: string): boolean {
    return this.interactions.answer(questionId, text);
  }

  /** Switch mode. Mid-run, the very next tool call is checked against the new mode. */
  setMode(mode: AgentMode): void {
    this.core.setMode(mode);
  }

  /** Change settings; only the keys given change (`budgetUsd: undefined` removes the cap). */
  configure(patch: SessionSettingsPatch): void {
    const core = this.core;
    if ("budgetUsd" in patch) {
      const usd = patch.budgetUsd;
      if (usd !== undefined && (!Number.isFinite(usd) || usd < 0)) throw new Error("The budget must be a non-negative number of dollars");
    }
    if (patch.model) core.modelSource = patch.model;
    if (patch.prices) core.prices = patch.prices;
    if (patch.approvals) core.setApprovals(patch.approvals);
    if ("budgetUsd" in patch) {
      core.budgetUsd = patch.budgetUsd;
      core.touch();
      core.emit({ type: "session-updated", what: "settings" });
    }
    if (typeof patch.title === "string") {
      core.title = patch.title.trim().slice(0, 200);
      core.touch();
      core.emit({ type: "session-updated", what: "title" });
    }
  }

  /**
   * A new session holding this one's conversation up to and including `messageId` (with that
   * message's tool results), its checkpoints up to that run, same mode and settings.
   */
  fork(messageId: string, overrides: Partial<AgentSessionOptions> = {}): AgentSession {
    const c = this.core;
    const data = forkData(c, messageId, { title: overrides.title, mode: overrides.mode });
    const { id: _id, workspaceId: _ws, title: _title, mode: _mode, ...rest } = { ...c.opts, onEvent: undefined, ...overrides };
    const fork = AgentSession.fromJSON(data, {
      ...rest,
      hooks: overrides.hooks ?? c.hooks,
      model: overrides.model ?? c.modelSource,
      tools: overrides.tools ?? c.tools,
      surface: overrides.surface ?? c.surface,
      messageBuilders: overrides.messageBuilders ?? c.builders,
      prices: overrides.prices ?? c.prices,
      budgetUsd: c.budgetUsd,
    });
    this.commands.copyTo(fork.commands);
    for (const [k, r] of c.extraRules) fork.core.extraRules.set(k, r);
    return fork;
  }

  /** The UI is leaving this session: tell hooks (plugins' SessionShutdown). A run, if any, is stopped by whoever switches. */
  close(): void {
    this.core.emit({ type: "session-closed" });
  }
}
