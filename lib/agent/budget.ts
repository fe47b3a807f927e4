/**
 * Usage metering and the budget cap. The meter estimates a request's input tokens from its
 * characters (calibrated on each model's usage reports) and charges requests that ended without
 * a report. The cap is a beforeModel hook of the session's own, after the plugins' (it sees the
 * request as it will be sent): it refuses a request whose input alone would pass the cap, and
 * lowers the output tokens so that even a full-length answer stays within what is left. A retry
 * is billed again, so the retry checks the cap too (`check`).
 */
import { AgentError } from "./events";
import { SESSION_POLICY_PRIORITY, type HookRegistration } from "./hooks";
import type { StreamedStep } from "./model-stream";
import { addUsage, costOf, priceFor } from "./pricing";
import type { RunState, SessionCore } from "./session-core";
import { emptyUsage, type UsageTotals } from "./types";

/** The smallest answer worth requesting under a budget (tokens). */
const MIN_BUDGET_OUTPUT_TOKENS = 256;

export class Budget {
  /** Input tokens per request character, per model, from the last usage report. */
  private readonly tokensPerChar = new Map<string, number>();
  /** The run already told that the cap cannot be enforced (unknown price). */
  private warnedRun?: string;

  constructor(private readonly core: SessionCore) {}

  /** Tokens a request of `chars` characters holds: measured on this model's last answer, else a conservative 1 per 3. */
  estimateInputTokens(modelId: string, chars: number): number {
    const measured = this.tokensPerChar.get(modelId);
    return Math.ceil(chars * (measured !== undefined ? measured * 1.05 : 1 / 3));
  }

  /** Learn how many tokens this model counts per character of request, from its usage report. */
  calibrate(modelId: string, chars: number, step: StreamedStep): void {
    const u = step.usage?.inputTokens;
    const total = u?.total ?? (u?.noCache !== undefined ? u.noCache + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0) : undefined);
    if (total && total > 0 && chars > 0) this.tokensPerChar.set(modelId, total / chars);
  }

  /** Add a request's usage to the run (none: a request outside a run, such as /compact's summary) and the session, and tell the UI. */
  charge(state: RunState | undefined, usage: UsageTotals, estimated?: boolean): void {
    if (state) state.usage = addUsage(state.usage, usage);
    this.core.usage = addUsage(this.core.usage, usage);
    this.core.emit({ type: "usage", ...(state ? { runId: state.runId } : {}), step: usage, run: state ? state.usage : usage, session: { ...this.core.usage }, ...(estimated ? { estimated: true } : {}) });
  }

  /** Count a request that ended without a usage report: its input, and the output that arrived. */
  chargeUnfinished(state: RunState, modelId: string, inputTokens: number, step: StreamedStep): void {
    const usage = emptyUsage();
    usage.requests = 1;
    usage.inputTokens = inputTokens;
    usage.outputTokens = Math.ceil(step.outputChars / 3);
    const price = priceFor(this.core.prices, modelId);
    usage.costUsd = price ? costOf(usage, price) : undefined;
    this.charge(state, usage, true);
  }

  /**
   * Enforce the cap before a request: throws (budget) when its input plus a minimal answer would
   * pass it; otherwise returns the max output tokens that keep a full answer within it.
   */
  check(state: RunState, modelId: string, inputTokens: number, maxOutputTokens: number): number {
    const core = this.core;
    if (core.budgetUsd === undefined) return maxOutputTokens;
    const price = priceFor(core.prices, modelId);
    if (!price) {
      if (this.warnedRun !== state.runId) {
        this.warnedRun = state.runId;
        core.emit({ type: "error", runId: state.runId, code: "budget", message: `The budget cap cannot be enforced: model "${modelId}" has an unknown price. Enter its price in Models.`, fatal: false });
      }
      return maxOutputTokens;
    }
    const spent = core.usage.costUsd ?? 0;
    const left = core.budgetUsd - spent;
    const inputCost = costOf({ inputTokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, price);
    const floor = Math.min(maxOutputTokens, MIN_BUDGET_OUTPUT_TOKENS);
    const least = inputCost + (floor * price.output) / 1_000_000;
    if (least > left) {
      throw new AgentError(
        "budget",
        `Budget reached: this session has spent $${spent.toFixed(4)} of its $${core.budgetUsd.toFixed(2)} cap, and the next request (about ${inputTokens.toLocaleString("en-US")} tokens of input) would cost at least $${least.toFixed(4)}. Raise the budget to continue.`,
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

  /** beforeModel: the cap on the request as it will be sent. */
  hooks(): HookRegistration {
    return {
      name: "budget",
      priority: SESSION_POLICY_PRIORITY,
      timeoutMs: Infinity,
      propagateErrors: true,
      hooks: {
        beforeModel: ({ request }) => {
          const state = this.core.active;
          if (!state || this.core.budgetUsd === undefined) return;
          const max = this.check(state, request.modelId, request.estimatedInputTokens, request.maxOutputTokens);
          return max < request.maxOutputTokens ? { maxOutputTokens: max } : undefined;
        },
      },
    };
  }
}
