/**
 * The run loop: one user turn, as model steps until the model stops calling tools.
 *
 *   run-started → beforeRun → loop {
 *     steered notices → request (model for the mode, system prompt, message builders,
 *     beforeModel hooks: plugins, then the budget) → the model, with retries (./model-retry.ts)
 *     → assistant message, usage → afterModel → each tool call through ./tool-pipeline.ts
 *   } → dangling calls closed → run-end checkpoint → afterRun → run-finished
 *
 * A run ends completed, aborted (the user, a hook, the budget) or failed (an error).
 */
import type { LanguageModelV4FunctionTool } from "@ai-sdk/provider";
import { z } from "zod";
import type { ToolDefinition } from "../tools/define";
import type { Budget } from "./budget";
import type { MessageBuilderContext } from "./compaction";
import { sessionSummarizer } from "./compaction-writer";
import type { ImageAttachment } from "./images";
import { catalogFacts } from "./model-catalog";
import { abortError, isAbortError } from "./errors";
import { AgentError } from "./events";
import type { AfterModelDecision, BeforeModelDecision, StopDecision } from "./hooks";
import { localId } from "./ids";
import type { Interactions } from "./interactions";
import { promptChars, sanitizeForModel, toModelPrompt, toolCallsOf, type AgentMessage, type AssistantMessage, type ToolResultPart, type UserMessage } from "./messages";
import { contextWindowFor, resolveModel, type ModelHandle } from "./model-handle";
import { DEFAULT_MAX_OUTPUT_TOKENS, requestWithRetry, type ModelRequest } from "./model-retry";
import { priceFor, usageFromProvider } from "./pricing";
import { resolveMentionsIn } from "./mentions-context";
import { buildSystemPrompt } from "./prompt";
import { loadWorkspaceRules } from "./rules";
import type { RunCheckpoints } from "./run-checkpoints";
import type { RunState, SessionCore } from "./session-core";
import { parseJson, type BatchEnd, type ToolCallIn, type ToolPipeline } from "./tool-pipeline";
import { uniqueToolCallIds, usedToolCallIds } from "./tool-call-ids";
import { emptyUsage, type RunResult, type RunStatus } from "./types";

const DEFAULT_MAX_STEPS = 50;
const STOPPED_BY_USER = "Stopped by the user";

type RunEnd = { status: RunStatus; reason?: string };

/** A request ready to leave: what is sent, and what the meter knows of it. */
type PreparedRequest = { handle: ModelHandle; options: ModelRequest; requestChars: number; estimatedInput: number };

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

export class RunLoop {
  constructor(
    private readonly core: SessionCore,
    private readonly parts: { pipeline: ToolPipeline; interactions: Interactions; checkpoints: RunCheckpoints; budget: Budget },
  ) {}

  /** One user turn. Failures end as status "failed" with a reason; never rejects. */
  async runTurn(prompt: string, opts: { signal?: AbortSignal; images?: ImageAttachment[] }): Promise<RunResult> {
    const core = this.core;
    const startedAt = core.now();
    const run = ++core.runCount;
    const runId = `${core.id}-r${run}`;
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort();
    if (opts.signal?.aborted) controller.abort();
    opts.signal?.addEventListener("abort", onOuterAbort, { once: true });

    const userMsg: UserMessage = { id: localId("m"), role: "user", kind: "prompt", content: [{ type: "text", text: prompt }], run, createdAt: startedAt };
    if (opts.images?.length) userMsg.images = opts.images;
    const state: RunState = { runId, run, prompt, promptMessageId: userMsg.id, controller, startedAt, iteration: 0, usage: emptyUsage(), partialText: "" };
    core.active = state;
    if (!core.title) {
      core.title = prompt.replace(/\s+/g, " ").trim().slice(0, 80);
      core.emit({ type: "session-updated", what: "title" });
    }
    core.emit({ type: "run-started", runId, run, prompt, mode: core.mode });
    const context = await this.mentionContext(prompt, runId);
    if (context.length) userMsg.context = context;
    core.addMessage(userMsg);

    let end: RunEnd;
    try {
      end = await this.beforeRun(state, prompt) ?? (await this.loop(state));
    } catch (err) {
      end = this.failure(state, err);
    } finally {
      opts.signal?.removeEventListener("abort", onOuterAbort);
      this.parts.interactions.settleRun(runId);
      this.keepPartialText(state);
    }
    this.closeDanglingCalls(state, end.reason === STOPPED_BY_USER ? "Not executed: the user stopped the run." : "Not executed: the run ended before this tool call ran.");
    // A checkpoint still being taken (a run that changed nothing) does not hold the run open:
    // it is recorded and announced when it lands (checkpointsSettled() waits for it).
    if (core.opts.checkpointRunEnd && state.checkpoint) await this.parts.checkpoints.takeRunEnd(state);
    return this.finish(state, end);
  }

  /** The prompt's @-mentions, read now. A resolver that fails costs the context, never the run. */
  private async mentionContext(prompt: string, runId: string) {
    const core = this.core;
    if (!prompt.includes("@")) return [];
    try {
      return await (core.opts.resolveMentions ? core.opts.resolveMentions(prompt) : resolveMentionsIn(prompt, { wsfs: core.deps.wsfs }));
    } catch (err) {
      core.emit({ type: "error", runId, code: "internal", message: `The prompt's mentions could not be read: ${core.errorText(err)}`, fatal: false, retryable: false });
      return [];
    }
  }

  /** beforeRun hooks: a stop ends the run before the model is asked. */
  private async beforeRun(state: RunState, prompt: string): Promise<RunEnd | undefined> {
    let stop: string | undefined;
    await this.core.chain.runChain<unknown, StopDecision>(
      "beforeRun",
      () => ({ snapshot: this.core.snapshot(state), prompt }),
      (r) => {
        if (r?.stop) stop = r.reason ?? "Stopped by a beforeRun hook";
        return !!r?.stop;
      },
      (f) => this.core.reportHookFailure(f, state),
    );
    return stop ? { status: "aborted", reason: stop } : undefined;
  }

  /** What an error thrown out of the loop makes of the run. */
  private failure(state: RunState, err: unknown): RunEnd {
    if (isAbortError(err) || state.controller.signal.aborted) return { status: "aborted", reason: STOPPED_BY_USER };
    const e = err instanceof AgentError ? err : new AgentError("internal", `Internal error: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    const reason = this.core.redact(e.message);
    this.core.emit({ type: "error", runId: state.runId, code: e.code, message: reason, fatal: true, retryable: e.retryable });
    return { status: e.code === "budget" ? "aborted" : "failed", reason };
  }

  private async finish(state: RunState, end: RunEnd): Promise<RunResult> {
    const core = this.core;
    const { runId, run, startedAt } = state;
    const { status, reason } = end;
    const durationMs = core.now() - startedAt;
    const result: RunResult = { runId, run, status, usage: state.usage, durationMs };
    if (reason) result.reason = reason;
    if (state.summary) result.summary = state.summary;
    core.runs.push({ run, runId, status, reason, usage: state.usage, startedAt, durationMs });
    await core.chain.runChain<unknown, void>(
      "afterRun",
      () => ({ snapshot: core.snapshot(state), result }),
      () => false,
      (f) => core.reportHookFailure(f, state),
    );
    core.active = undefined;
    core.touch();
    core.emit({ type: "run-finished", runId, run, status, reason, summary: state.summary, usage: state.usage, durationMs });
    return result;
  }

  private async loop(state: RunState): Promise<RunEnd> {
    const maxSteps = this.core.opts.maxSteps ?? DEFAULT_MAX_STEPS;
    for (;;) {
      if (state.controller.signal.aborted) throw abortError();
      this.addSteeredNotices(state);
      if (state.iteration >= maxSteps) return { status: "completed", reason: `Stopped after ${maxSteps} model calls (the step limit of a run). Send a message to continue.` };
      const end = await this.step(state);
      if (end) return end;
    }
  }

  /** One model call and the tool calls it makes; returns how the run ends, or undefined to go on. */
  private async step(state: RunState): Promise<RunEnd | undefined> {
    const core = this.core;
    const request = await this.prepareRequest(state);
    if ("stop" in request) return { status: "aborted", reason: request.stop };
    const { handle, options, requestChars, estimatedInput } = request;
    const modelId = handle.model.modelId;

    const messageId = localId("m");
    const step = await requestWithRetry({ core, budget: this.parts.budget, checkpoints: this.parts.checkpoints }, state, handle, messageId, options, estimatedInput);
    this.parts.budget.calibrate(modelId, requestChars, step);
    state.iteration++;
    // Ids clashing with earlier calls (or each other) are re-keyed, so results never cross.
    step.toolCalls = uniqueToolCallIds(step.toolCalls, usedToolCallIds(core.messages)).calls;

    const content: AssistantMessage["content"] = [];
    if (step.reasoning) content.push({ type: "reasoning", text: step.reasoning });
    if (step.text) content.push({ type: "text", text: step.text });
    for (const c of step.toolCalls) content.push({ type: "tool-call", toolCallId: c.toolCallId, toolName: c.toolName, input: parseLoose(c.input) });
    const assistant: AssistantMessage = { id: messageId, role: "assistant", content, run: state.run, createdAt: core.now(), modelId, finishReason: step.finishReason };
    state.partialText = "";
    state.partialMessageId = undefined;
    core.addMessage(assistant);

    const stepUsage = usageFromProvider(step.usage, priceFor(core.prices, modelId));
    this.parts.budget.charge(state, stepUsage);

    let nudge: string | undefined;
    let stop: string | undefined;
    await core.chain.runChain<unknown, AfterModelDecision>(
      "afterModel",
      () => ({ snapshot: core.snapshot(state), message: assistant, finishReason: step.finishReason, usage: stepUsage }),
      (r) => {
        if (typeof r?.continueWith === "string" && r.continueWith.trim() && nudge === undefined) nudge = r.continueWith;
        if (r?.stop) stop = r.reason ?? "Stopped by an afterModel hook";
        return !!r?.stop;
      },
      (f) => core.reportHookFailure(f, state),
    );
    if (stop) return { status: "aborted", reason: stop };

    if (step.toolCalls.length === 0 && nudge !== undefined) {
      // A hook wants one more turn (e.g. Plan mode: "no plan was submitted yet").
      core.addNotice(nudge, state.run);
      return undefined;
    }
    if (step.toolCalls.length === 0) return this.answered(state, step.text, step.finishReason);
    return this.runToolCalls(state, step.toolCalls);
  }

  /** The model answered without calling a tool: the run ends. */
  private answered(state: RunState, text: string, finishReason: string): RunEnd {
    state.summary = text.trim() || undefined;
    if (finishReason === "length") {
      return {
        status: "completed",
        reason: state.outputCappedByBudget
          ? "The answer was cut short to stay within the session's budget. Raise the budget to continue."
          : "The model hit its output limit (max tokens) before finishing.",
      };
    }
    if (finishReason === "content-filter") return { status: "failed", reason: "The provider's content filter stopped the response." };
    return { status: "completed" };
  }

  /**
   * The request for the next model call: the model for the mode, the system prompt from the
   * mode's tools, the message builders, then the beforeModel hooks (which may rewrite it, stop
   * the run, or lower its output tokens: the budget).
   */
  private async prepareRequest(state: RunState): Promise<PreparedRequest | { stop: string }> {
    const core = this.core;
    let handle: ModelHandle;
    try {
      handle = await resolveModel(core.modelSource, core.mode);
    } catch (err) {
      throw err instanceof AgentError
        ? err
        : new AgentError("provider", `No model available for ${core.modeLabel(core.mode)} mode: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const model = handle.model;
    core.lastModel = { provider: model.provider, modelId: model.modelId };
    const surfaceTools = core.surfaceTools();
    state.rules ??= await (core.opts.workspaceRules ? core.opts.workspaceRules() : loadWorkspaceRules(core.deps.wsfs));
    let system = buildSystemPrompt({
      mode: core.mode,
      tools: surfaceTools.map((t) => t.name),
      workspaceRules: state.rules,
      extraRules: [...core.extraRules.values()],
      modePreamble: core.opts.modePreamble?.(core.mode, surfaceTools),
      appendix: core.opts.systemPromptAppendix,
    });
    const contextWindow = handle.contextWindow ?? (typeof core.opts.contextWindow === "function" ? core.opts.contextWindow(model.modelId) : core.opts.contextWindow) ?? contextWindowFor(model.modelId);
    let messages = await this.buildMessages(state, system, model.modelId, contextWindow);
    if (catalogFacts(model.modelId)?.acceptsImages === false && messages.some((m) => m.role === "user" && m.images?.length)) {
      throw new AgentError("provider", `${model.modelId} does not accept images. Pick a model that does (Models), or send the message without them (Edit the prompt, or start a new session).`);
    }
    let offered = surfaceTools.map((t) => t.name);
    let maxOutputTokens = handle.maxOutputTokens ?? core.opts.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;

    // The request as it will be sent (conversation, system prompt, tool schemas) is what is
    // billed; built again only when a hook rewrote it.
    let built: { system: string; messages: AgentMessage[]; offered: string[]; prompt: ModelRequest["prompt"]; tools: LanguageModelV4FunctionTool[]; chars: number; estimated: number } | undefined;
    const current = () => {
      if (!built || built.system !== system || built.messages !== messages || built.offered !== offered) {
        const tools = surfaceTools.filter((t) => offered.includes(t.name)).map(toolSpec);
        const prompt = toModelPrompt(system, sanitizeForModel(messages));
        const chars = promptChars(prompt) + (tools.length ? JSON.stringify(tools).length : 0);
        built = { system, messages, offered, prompt, tools, chars, estimated: this.parts.budget.estimateInputTokens(model.modelId, chars) };
      }
      return built;
    };

    let stop: string | undefined;
    await core.chain.runChain<unknown, BeforeModelDecision>(
      "beforeModel",
      () => ({
        snapshot: core.snapshot(state),
        request: { system, messages, tools: offered, modelId: model.modelId, estimatedInputTokens: current().estimated, maxOutputTokens },
      }),
      (r) => {
        if (!r) return false;
        if (typeof r.system === "string") system = r.system;
        if (Array.isArray(r.messages)) messages = r.messages;
        if (Array.isArray(r.tools)) {
          // A filter may narrow the offer, never drop the mode's pinned tools.
          const kept = r.tools.filter((n) => surfaceTools.some((t) => t.name === n));
          offered = [...kept, ...surfaceTools.filter((t) => !kept.includes(t.name) && core.pinnedTool(t.name) === t).map((t) => t.name)];
        }
        if (typeof r.maxOutputTokens === "number" && r.maxOutputTokens < maxOutputTokens) maxOutputTokens = r.maxOutputTokens;
        if (r.stop) stop = r.reason ?? "Stopped by a beforeModel hook";
        return !!r.stop;
      },
      (f) => core.reportHookFailure(f, state),
    );
    if (stop) return { stop };

    const { prompt, tools, chars, estimated } = current();
    return {
      handle,
      options: { prompt, tools: tools.length ? tools : undefined, toolChoice: tools.length ? { type: "auto" } : undefined, maxOutputTokens },
      requestChars: chars,
      estimatedInput: estimated,
    };
  }

  /** Message builders (compaction, plugins) then the safety pass. */
  private async buildMessages(state: RunState, system: string, modelId: string, contextWindow: number): Promise<AgentMessage[]> {
    const core = this.core;
    let messages = [...core.messages];
    const ctx: MessageBuilderContext = {
      sessionId: core.id,
      runId: state.runId,
      modelId,
      contextWindow,
      system,
      compaction: core.compaction,
      setCompaction: (s) => {
        core.compaction = s;
        ctx.compaction = s;
      },
      report: (info) => core.emit({ type: "compaction", ...info }),
      summarize: sessionSummarizer(core, { signal: state.controller.signal, charge: (u) => this.parts.budget.charge(state, u) }),
      now: core.now,
    };
    for (const b of core.builders) {
      try {
        const out = await b.build(messages, ctx);
        if (Array.isArray(out)) messages = out;
      } catch (err) {
        if (state.controller.signal.aborted) throw abortError(); // stopped while a summary was being written
        core.emit({ type: "hook-error", point: "messageBuilder", hook: b.name, message: core.errorText(err), runId: state.runId });
      }
    }
    return sanitizeForModel(messages);
  }

  /**
   * The tool calls of one assistant message, in order. A call that stops the run, completes the
   * task or is rejected ends the message: the calls after it are not executed (each gets a
   * result saying why). Returns how the run ends, or undefined to call the model again.
   */
  private async runToolCalls(state: RunState, calls: ToolCallIn[]): Promise<RunEnd | undefined> {
    const { pipeline } = this.parts;
    const signal = state.controller.signal;
    const results: ToolResultPart[] = [];
    let end: BatchEnd | undefined;
    let fatal: { error: unknown } | undefined;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      if (end?.kind === "aborted" || signal.aborted) {
        end = { kind: "aborted" };
        results.push(pipeline.skip(state, call, "Not executed: the user stopped the run.", "aborted"));
        continue;
      }
      if (end || fatal) {
        results.push(pipeline.skip(state, call, fatal ? "Not executed: the run failed before this call." : notExecutedBecause(end!)));
        continue;
      }
      if (pipeline.isConcurrent(call)) {
        const group = [call];
        while (i + 1 < calls.length && pipeline.isConcurrent(calls[i + 1]!)) group.push(calls[++i]!);
        if (group.length > 1) {
          const out = await this.runConcurrent(state, group);
          results.push(...out.parts);
          end = out.end;
          fatal = out.fatal;
          continue;
        }
      }
      try {
        const out = await pipeline.run(state, call);
        results.push(out.part);
        end = out.end;
      } catch (err) {
        if (isAbortError(err) || signal.aborted) {
          end = { kind: "aborted" };
          results.push(pipeline.skip(state, call, "Stopped by the user before this call ran.", "aborted"));
          continue;
        }
        // A fatal error (the checkpoint failed): this and the remaining calls are not executed.
        fatal = { error: err };
        results.push(pipeline.skip(state, call, `Not executed: ${err instanceof Error ? err.message : String(err)}`, "error"));
      }
    }
    this.core.addMessage({ id: localId("m"), role: "tool", content: results, run: state.run, createdAt: this.core.now() });
    if (fatal) throw fatal.error;
    switch (end?.kind) {
      case "aborted":
        throw abortError();
      case "stopped":
        return { status: "aborted", reason: end.reason };
      case "completed":
        state.summary = end.summary;
        return { status: "completed" };
      default:
        return undefined; // rejected, or every call ran: the model reads the results
    }
  }

  /**
   * Consecutive calls of a concurrent tool: checked and approved one by one, in order (a call
   * that ends the message there ends it for the rest), then executed together; the results keep
   * the calls' order.
   */
  private async runConcurrent(state: RunState, group: ToolCallIn[]): Promise<{ parts: ToolResultPart[]; end?: BatchEnd; fatal?: { error: unknown } }> {
    const { pipeline } = this.parts;
    const parts: (ToolResultPart | undefined)[] = new Array(group.length);
    const ready: { index: number; execute: () => Promise<{ part: ToolResultPart; end?: BatchEnd }> }[] = [];
    let end: BatchEnd | undefined;
    let fatal: { error: unknown } | undefined;
    for (let j = 0; j < group.length; j++) {
      const call = group[j]!;
      if (end || fatal || state.controller.signal.aborted) {
        parts[j] = pipeline.skip(state, call, fatal ? "Not executed: the run failed before this call." : end ? notExecutedBecause(end) : "Not executed: the user stopped the run.", end || fatal ? "skipped" : "aborted");
        continue;
      }
      try {
        const p = await pipeline.prepareCall(state, call);
        if ("outcome" in p) {
          parts[j] = p.outcome.part;
          end = p.outcome.end;
        } else ready.push({ index: j, execute: p.execute });
      } catch (err) {
        if (isAbortError(err) || state.controller.signal.aborted) end = { kind: "aborted" };
        else fatal = { error: err };
        parts[j] = pipeline.skip(state, call, fatal ? `Not executed: ${err instanceof Error ? err.message : String(err)}` : "Stopped by the user before this call ran.", fatal ? "error" : "aborted");
      }
    }
    const settled = await Promise.allSettled(ready.map((r) => r.execute()));
    settled.forEach((s, k) => {
      const call = group[ready[k]!.index]!;
      if (s.status === "fulfilled") {
        parts[ready[k]!.index] = s.value.part;
        end ??= s.value.end;
      } else {
        end = { kind: "aborted" };
        parts[ready[k]!.index] = pipeline.skip(state, call, "Stopped by the user while this call ran.", "aborted");
      }
    });
    return { parts: parts as ToolResultPart[], end, fatal };
  }

  /** Notes steered in during the run, added before the next model call. */
  private addSteeredNotices(state: RunState): void {
    for (const text of this.core.pendingNotices.splice(0)) this.core.addNotice(text, state.run);
  }

  /** Keep text that streamed before a stop or an error (marked interrupted). */
  private keepPartialText(state: RunState): void {
    const core = this.core;
    if (!state.partialText || !state.partialMessageId) return;
    if (core.messages.some((m) => m.id === state.partialMessageId)) return;
    core.addMessage({ id: state.partialMessageId, role: "assistant", content: [{ type: "text", text: state.partialText }], run: state.run, createdAt: core.now(), interrupted: true });
    state.partialText = "";
  }

  /** Every tool call of the run gets a result, whatever happened. */
  private closeDanglingCalls(state: RunState, why: string): void {
    const core = this.core;
    const last = core.messages[core.messages.length - 1];
    if (!last || last.role !== "assistant") return;
    const calls = toolCallsOf(last);
    if (calls.length === 0) return;
    const content = calls.map((c) => this.parts.pipeline.skip(state, c, why, state.controller.signal.aborted ? "aborted" : "skipped"));
    core.addMessage({ id: localId("m"), role: "tool", content, run: state.run, createdAt: core.now() });
  }
}

function notExecutedBecause(end: BatchEnd): string {
  switch (end.kind) {
    case "stopped":
      return `Not executed: the run was stopped (${end.reason}).`;
    case "completed":
      return "Not executed: the task was already completed by an earlier call in this message.";
    default:
      return "Not executed: the user rejected an earlier call in this message. Take their feedback into account first.";
  }
}

/** Tool-call input for the history: the object when it parses, else {} (the error result explains). */
function parseLoose(text: string): unknown {
  const r = parseJson(text);
  return r.ok && r.value !== null && typeof r.value === "object" && !Array.isArray(r.value) ? r.value : {};
}
