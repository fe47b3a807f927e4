/**
 * One tool call, from the model's arguments to the result the model reads. Prepare, then
 * execute (as Cline's prepareToolExecution → executePreparedTool):
 *
 *   prepare:  resolve (a known tool?) → validate (JSON, zod) → admit (the policy: may it run at
 *             all in this mode?) → beforeTool hooks (plugins, then the session's own: loop guard,
 *             checkpoint wait) → plan (diff, commands) → decide (the policy: allow, ask the user,
 *             or deny)
 *   execute:  the tool → afterTool hooks
 *
 * Each step either lets the call go on (returns undefined) or halts it with its outcome; the
 * call's events (tool-call-started / -finished) are emitted here.
 */
import { z } from "zod";
import { callApproval, callEffects, DEFAULT_TOOL_LIMITS, isToolResult, type ApprovalCategory, type ToolContext, type ToolDefinition, type ToolPlan, type ToolResult } from "../tools/define";
import { headTail } from "../tools/util";
import { suggestPrefix } from "./approvals";
import { abortError } from "./errors";
import type { AfterToolDecision, BeforeToolDecision, HookFailure } from "./hooks";
import type { Interactions } from "./interactions";
import type { Budget } from "./budget";
import type { ToolCallStatus, ToolResultPart } from "./messages";
import { firstLine, type RunState, type SessionCore } from "./session-core";
import type { AgentMode, ShellLike } from "./types";

/** A tool call as the model made it (arguments as JSON text). */
export type ToolCallIn = { toolCallId: string; toolName: string; input: string };

/** How a call ended the rest of its message's calls, if it did. */
export type BatchEnd = { kind: "stopped"; reason: string } | { kind: "completed"; summary: string } | { kind: "rejected" } | { kind: "aborted" };

export type CallOutcome = { part: ToolResultPart; end?: BatchEnd };

/** The call on its way through the steps. */
type Call = {
  state: RunState;
  call: ToolCallIn;
  started: number;
  parsed: ReturnType<typeof parseJson>;
  tool?: ToolDefinition;
  input: unknown;
  plan?: ToolPlan;
  ctx?: ToolContext;
};

type Finish = { blockedByPolicy?: boolean; blockReason?: string; end?: BatchEnd };

const DEFAULT_TOOL_OUTPUT_CHARS = 40_000;
const EVENT_OUTPUT_CHARS = 20_000;

export class ToolPipeline {
  constructor(
    private readonly core: SessionCore,
    private readonly interactions: Interactions,
    private readonly budget?: Pick<Budget, "charge">,
  ) {}

  /** Run one call. Throws only an abort (the user stopped the run) or a policy's fatal error. */
  async run(state: RunState, call: ToolCallIn): Promise<CallOutcome> {
    const c = this.start(state, call);
    return (await this.prepare(c)) ?? (await this.execute(c));
  }

  /**
   * The first half of `run`: the call's checks and approval. Gives its outcome when it ends
   * there, or the function that executes it (calls of a `concurrent` tool execute together).
   */
  async prepareCall(state: RunState, call: ToolCallIn): Promise<{ outcome: CallOutcome } | { execute: () => Promise<CallOutcome> }> {
    const c = this.start(state, call);
    const outcome = await this.prepare(c);
    return outcome ? { outcome } : { execute: () => this.execute(c) };
  }

  /** Whether calls of this tool may execute at the same time as their neighbours of the same kind. */
  isConcurrent(call: { toolName: string }): boolean {
    const tool = this.core.pinnedTool(call.toolName) ?? this.core.tools.find((t) => t.name === call.toolName);
    return tool?.concurrent === true;
  }

  /** A call that is not executed (the run ended, an earlier call stopped the message). */
  skip(state: RunState, call: { toolCallId: string; toolName: string }, why: string, status: ToolCallStatus = "skipped"): ToolResultPart {
    return this.resultPart(state, call, status, { output: why, isError: true, summary: firstLine(why) }, 0, {});
  }

  // ---- prepare ------------------------------------------------------------------------------

  private start(state: RunState, call: ToolCallIn): Call {
    // A pinned tool runs its genuine definition, whatever a plugin registered under its name.
    const tool = this.core.pinnedTool(call.toolName) ?? this.core.tools.find((t) => t.name === call.toolName);
    const parsed = parseJson(call.input);
    const c: Call = { state, call, started: this.core.now(), parsed, tool, input: parsed.ok ? parsed.value : call.input };
    this.core.emit({
      type: "tool-call-started",
      runId: state.runId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: c.input,
      effects: tool ? callEffects(tool, c.input) : [],
      category: tool ? callApproval(tool, c.input) : "none",
    });
    return c;
  }

  private async prepare(c: Call): Promise<CallOutcome | undefined> {
    return this.resolve(c) ?? this.validate(c) ?? (await this.admit(c)) ?? (await this.beforeTool(c)) ?? (await this.planCall(c)) ?? (await this.decide(c));
  }

  /** The tool exists (whether the mode offers it is the policy's to say, in `admit`). */
  private resolve(c: Call): CallOutcome | undefined {
    if (!c.tool) {
      const names = this.core.surfaceTools().map((t) => t.name);
      return this.finish(c, "error", { output: `Unknown tool "${c.call.toolName}". Available tools: ${names.join(", ")}.`, isError: true, summary: `Unknown tool ${c.call.toolName}` });
    }
    return undefined;
  }

  /**
   * The policy's first word, before any hook, plan or question: may this call run at all in the
   * current mode (on its surface; in Plan, no edit and no writing command)? The one place a call
   * meets the mode's rules; a deny goes back to the model with its reason.
   */
  private async admit(c: Call): Promise<CallOutcome | undefined> {
    const d = await this.core.policy.admit({ name: c.call.toolName, input: c.input, tool: c.tool }, this.core.mode);
    return d.action === "deny" ? this.blocked(c, d.reason) : undefined;
  }

  private blocked(c: Call, why: string | undefined): CallOutcome {
    const reason = why ?? `${c.call.toolName} is not available in ${this.core.modeLabel()} mode.`;
    return this.finish(c, "blocked", { output: reason, isError: true, summary: `Blocked: ${firstLine(reason)}` }, { blockedByPolicy: true, blockReason: reason });
  }

  /** The arguments are JSON and match the tool's schema (the zod error goes back to the model). */
  private validate(c: Call): CallOutcome | undefined {
    const tool = c.tool!;
    const parsed = c.parsed;
    if (!parsed.ok) {
      return this.finish(c, "error", {
        output: `Invalid arguments for ${tool.name}: they are not valid JSON (${parsed.error}). Send the arguments as a JSON object matching the tool's schema.`,
        isError: true,
        summary: "Invalid arguments (not JSON)",
      });
    }
    const validated = tool.inputSchema.safeParse(c.input);
    if (!validated.success) {
      return this.finish(c, "error", {
        output: `Invalid arguments for ${tool.name}:\n${z.prettifyError(validated.error)}\nFix the arguments and call the tool again.`,
        isError: true,
        summary: "Invalid arguments",
      });
    }
    c.input = validated.data;
    return undefined;
  }

  /** beforeTool hooks in order: skip | stop | new arguments (validated again); a failed check refuses the call. */
  private async beforeTool(c: Call): Promise<CallOutcome | undefined> {
    const tool = c.tool!;
    let decision: BeforeToolDecision | undefined;
    let invalidRewrite: string | undefined;
    let rewritten = false;
    const view = () => ({ snapshot: this.core.snapshot(c.state), tool, toolCall: { id: c.call.toolCallId, name: c.call.toolName }, input: c.input });
    const pinned = this.isPinned(tool);
    if (pinned) await this.observeOnly<BeforeToolDecision>(c.state, "beforeTool", view, (r) => !!(r.skip || r.stop || r.input !== undefined || r.outcome));
    // A pinned call meets only the session's own policies; everything else meets the whole chain.
    const failure = await (pinned ? this.core.policyHooks : this.core.chain).runChain<unknown, BeforeToolDecision>(
      "beforeTool",
      view,
      (r, name) => {
        if (!r) return false;
        if (r.skip || r.stop) {
          decision = { ...r, reason: r.reason ?? `Tool ${tool.name} was blocked by a runtime hook (${name})` };
          return true;
        }
        if (r.input !== undefined) {
          const again = tool.inputSchema.safeParse(r.input);
          if (!again.success) {
            invalidRewrite = z.prettifyError(again.error);
            return true;
          }
          c.input = again.data;
          rewritten = true;
        }
        return false;
      },
      (f) => this.core.reportHookFailure(f, c.state),
      true,
    );
    if (failure) {
      // A check that failed is an error, not a policy decision: the row says what happened.
      const reason = `Refused: the "${failure.hook}" hook failed while checking this call (${failure.message}), and calls are refused when a check fails.`;
      return this.finish(c, "error", { output: reason, isError: true, summary: "Refused: a check failed" });
    }
    if (invalidRewrite !== undefined) {
      return this.finish(c, "error", { output: `A hook rewrote the arguments of ${tool.name} into invalid ones:\n${invalidRewrite}`, isError: true, summary: "Invalid arguments after a hook" });
    }
    // New arguments meet the policy again (a plugin cannot turn a read into a write in Plan).
    if (!decision) return rewritten ? this.admit(c) : undefined;
    const reason = decision.reason!;
    const end: BatchEnd | undefined = decision.stop ? { kind: "stopped", reason } : undefined;
    if (decision.outcome) {
      const { status, output, summary } = decision.outcome;
      return this.finish(c, status, { output, isError: true, summary }, status === "blocked" ? { blockedByPolicy: true, blockReason: reason, end } : { end });
    }
    if (decision.stop) {
      return this.finish(c, "blocked", { output: `Blocked: ${reason}. The run was stopped.`, isError: true, summary: `Stopped: ${reason}` }, { blockedByPolicy: true, blockReason: reason, end });
    }
    return this.finish(c, "blocked", { output: reason, isError: true, summary: `Blocked: ${firstLine(reason)}` }, { blockedByPolicy: true, blockReason: reason });
  }

  /** The tool's plan (an edit's diff, the commands) before asking; a call that can only fail is not asked about. */
  private async planCall(c: Call): Promise<CallOutcome | undefined> {
    const tool = c.tool!;
    c.ctx = this.toolContext(c.state, c.call.toolCallId);
    if (!tool.plan) return undefined;
    let planned: ToolPlan | ToolResult;
    try {
      planned = await tool.plan(c.input, c.ctx);
    } catch (err) {
      if (c.state.controller.signal.aborted) throw abortError();
      planned = { output: `${tool.name} failed: ${this.core.errorText(err)}`, isError: true };
    }
    if (isToolResult(planned)) return this.finish(c, planned.isError ? "error" : "ok", planned);
    c.plan = planned;
    return undefined;
  }

  /**
   * Decide, once the call is planned: the policy allows it (run) or asks the user, who sees the
   * plan's diff or commands (a policy may also deny here).
   */
  private async decide(c: Call): Promise<CallOutcome | undefined> {
    const tool = c.tool!;
    const category = callApproval(tool, c.input);
    const commands = c.plan?.preview.kind === "command" ? c.plan.preview.commands : undefined;
    const d = this.core.policy.decide({ name: tool.name, input: c.input, tool }, this.core.mode, this.core.approvals, commands);
    if (d.action === "deny") return this.blocked(c, d.reason);
    if (d.action === "allow") return undefined;
    const answer = await this.interactions.requestApproval(c.state, {
      kind: "tool",
      toolCallId: c.call.toolCallId,
      toolName: tool.name,
      category,
      input: c.input,
      preview: c.plan?.preview ?? { kind: "text", text: JSON.stringify(c.input, null, 2) },
      suggestedPrefix: commands?.length ? suggestPrefix(commands[0]!) : undefined,
    });
    if (!answer.approved) {
      const output = answer.feedback
        ? `The user rejected this ${tool.name} call, so nothing was done. Their feedback: ${answer.feedback}`
        : `The user rejected this ${tool.name} call, so nothing was done. Ask what they want instead, or take a different approach.`;
      return this.finish(c, "rejected", { output, isError: true, summary: answer.feedback ? `Rejected: ${firstLine(answer.feedback)}` : "Rejected" }, { end: { kind: "rejected" } });
    }
    if (answer.alwaysAllowPrefix) this.core.allowCommandPrefix(answer.alwaysAllowPrefix);
    return undefined;
  }

  // ---- execute ------------------------------------------------------------------------------

  /** Run the prepared call, then the afterTool hooks (which may replace the result or stop the run). */
  private async execute(c: Call): Promise<CallOutcome> {
    const tool = c.tool!;
    const { state } = c;
    let result: ToolResult;
    const execStarted = this.core.now();
    try {
      result = await tool.execute(c.input, c.ctx!, c.plan);
    } catch (err) {
      if (state.controller.signal.aborted) throw abortError();
      const message = this.core.errorText(err);
      this.core.emit({ type: "error", runId: state.runId, code: "tool", message: `${tool.name} failed: ${message}`, fatal: false });
      result = { output: `${tool.name} failed: ${message}`, isError: true, summary: `Failed: ${firstLine(message)}` };
    }
    if (state.controller.signal.aborted) {
      // The call finished (a command resolved with ^C): keep what it did, then stop.
      const part = this.resultPart(state, c.call, "aborted", { ...result, output: result.output + "\n[The user stopped the run.]" }, this.core.now() - c.started, {});
      return { part, end: { kind: "aborted" } };
    }

    let stop: string | undefined;
    const durationMs = this.core.now() - execStarted;
    const view = () => ({ snapshot: this.core.snapshot(state), tool, toolCall: { id: c.call.toolCallId, name: c.call.toolName }, input: c.input, result, durationMs });
    const pinned = this.isPinned(tool);
    if (pinned) await this.observeOnly<AfterToolDecision>(state, "afterTool", view, (r) => !!(r.stop || r.result));
    await (pinned ? this.core.policyHooks : this.core.chain).runChain<unknown, AfterToolDecision>(
      "afterTool",
      view,
      (r) => {
        if (!r) return false;
        if (r.result) result = { ...result, ...r.result };
        if (r.stop) stop = r.reason ?? "Stopped by an afterTool hook";
        return !!r.stop;
      },
      (f) => this.core.reportHookFailure(f, state),
    );
    const status = result.isError ? "error" : "ok";
    const completion = status === "ok" ? result.completion?.summary : undefined;
    const end: BatchEnd | undefined = stop !== undefined ? { kind: "stopped", reason: stop } : completion !== undefined ? { kind: "completed", summary: completion } : undefined;
    return this.finish(c, status, result, { end });
  }

  /** The mode pins this tool (and this is its genuine definition). */
  private isPinned(tool: ToolDefinition): boolean {
    return this.core.pinnedTool(tool.name) === tool;
  }

  /**
   * Plugins' hooks on a pinned call: they see it, but what they answer is ignored (reported as
   * a hook error when it would have refused or changed the call), and their failures are only
   * reported. The mode's own output verb, its gates and ask_question cannot be refused this way.
   */
  private async observeOnly<R>(state: RunState, point: "beforeTool" | "afterTool", view: () => unknown, wouldChange: (r: R) => boolean): Promise<void> {
    const ignored: string[] = [];
    const report = (f: HookFailure) => this.core.reportHookFailure(f, state);
    try {
      await this.core.hooks.runChain<unknown, R>(
        point,
        view,
        (r, name) => {
          if (r && wouldChange(r)) ignored.push(name);
          return false;
        },
        report,
      );
    } catch (err) {
      report({ point, hook: "plugin", message: this.core.errorText(err) });
    }
    for (const hook of ignored) {
      report({ point, hook, message: `The hook's answer was ignored: ${this.core.modeLabel()} mode pins this tool, so no plugin can refuse or change its calls.` });
    }
  }

  private toolContext(state: RunState, toolCallId: string): ToolContext {
    const core = this.core;
    const readOnly = core.isReadOnlyMode();
    const wsfs = readOnly ? core.deps.wsfs.readOnlyView() : core.deps.wsfs;
    let shell: Promise<ShellLike> | undefined;
    return {
      wsfs,
      repo: { fs: core.deps.wsfs.fs, dir: core.deps.wsfs.dir },
      signal: state.controller.signal,
      mode: core.mode,
      readOnly,
      sessionId: core.id,
      runId: state.runId,
      toolCallId,
      origin: "agent",
      limits: { ...DEFAULT_TOOL_LIMITS, ...core.opts.toolLimits },
      shell: () => (shell ??= core.deps.shell({ readOnly })),
      preview: core.deps.preview,
      ask: (q) => this.interactions.askUser(state, toolCallId, q),
      setMode: (mode) => core.setMode(mode as AgentMode),
      chargeUsage: (usage) => this.budget?.charge(state, usage),
      usdLeft: () => (core.budgetUsd === undefined ? undefined : core.budgetUsd - (core.usage.costUsd ?? 0)),
    };
  }

  // ---- results ------------------------------------------------------------------------------

  private finish(c: Call, status: ToolCallStatus, result: ToolResult, extra: Finish = {}): CallOutcome {
    const part = this.resultPart(c.state, c.call, status, result, this.core.now() - c.started, extra);
    return extra.end ? { part, end: extra.end } : { part };
  }

  /** The result the model reads (capped), and the tool-call-finished event the UI shows. */
  private resultPart(
    state: RunState,
    call: { toolCallId: string; toolName: string },
    status: ToolCallStatus,
    result: ToolResult,
    durationMs: number,
    extra: { blockedByPolicy?: boolean; blockReason?: string },
  ): ToolResultPart {
    const cap = this.core.opts.maxToolOutputChars ?? DEFAULT_TOOL_OUTPUT_CHARS;
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
    this.core.emit({
      type: "tool-call-finished",
      runId: state.runId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      status,
      summary,
      output: forModel.length > EVENT_OUTPUT_CHARS ? headTail(forModel, EVENT_OUTPUT_CHARS).text : forModel,
      error: isError ? this.core.redact(firstLine(forModel, 500)) : undefined,
      blockedByPolicy: !!extra.blockedByPolicy,
      blockReason: extra.blockReason,
      data: result.data,
      durationMs,
    });
    return part;
  }
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
