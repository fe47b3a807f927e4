/**
 * One model request with retries: 429 / 5xx / network errors are retried with backoff (and the
 * provider's Retry-After), unless output already reached the user (a transparent retry would
 * duplicate it). Streams text and reasoning as events; the run's checkpoint starts as the
 * request leaves. A request stopped or failed after the provider began to answer is charged.
 */
import type { Budget } from "./budget";
import { abortError, classifyError, isAbortError, retryDelay, sleep } from "./errors";
import { AgentError } from "./events";
import type { ModelHandle } from "./model-handle";
import { emptyStep, StreamFailure, streamModelStep, type StreamedStep } from "./model-stream";
import type { RunCheckpoints } from "./run-checkpoints";
import type { RunState, SessionCore } from "./session-core";

export type ModelRequest = Parameters<typeof streamModelStep>[1];

export async function requestWithRetry(
  deps: { core: SessionCore; budget: Budget; checkpoints: RunCheckpoints },
  state: RunState,
  handle: ModelHandle,
  messageId: string,
  options: ModelRequest,
  estimatedInput: number,
): Promise<StreamedStep> {
  const { core, budget, checkpoints } = deps;
  const model = handle.model;
  const signal = state.controller.signal;
  const ctx = { provider: handle.providerLabel ?? model.provider, modelId: model.modelId, baseURL: handle.baseURL };
  for (let attempt = 1; ; attempt++) {
    core.emit({ type: "model-request", runId: state.runId, step: state.iteration + 1, attempt, modelId: model.modelId, provider: ctx.provider });
    state.partialText = "";
    state.partialMessageId = messageId;
    const step = emptyStep();
    try {
      return await streamModelStep(
        model,
        options,
        signal,
        {
          onRequestStarted: () => checkpoints.ensure(state),
          onText: (delta) => {
            state.partialText += delta;
            core.emit({ type: "text-delta", runId: state.runId, messageId, delta });
          },
          onReasoning: (delta) => core.emit({ type: "reasoning-delta", runId: state.runId, messageId, delta }),
        },
        step,
      );
    } catch (err) {
      const aborted = isAbortError(err) || signal.aborted;
      // A request the provider began to answer, or one stopped on its way, was billed for its
      // input: the meter and the budget count it (estimated: no usage report came).
      if (step.streamOpened || aborted) budget.chargeUnfinished(state, model.modelId, estimatedInput, step);
      if (aborted) throw abortError();
      const failure = err instanceof StreamFailure ? err : new StreamFailure(err, step);
      const aerr = classifyError(failure.error, ctx);
      // Output already reached the user: a transparent retry would duplicate it.
      const delay = failure.partial.receivedContent ? undefined : retryDelay(aerr, attempt, core.retry);
      if (delay === undefined) {
        if (failure.partial.receivedContent && aerr.code === "network") {
          throw new AgentError("network", `${aerr.message}. The partial answer was kept; send a message to continue.`, { cause: aerr });
        }
        throw attempt > 1 && aerr.retryable ? new AgentError(aerr.code, `${aerr.message} (gave up after ${attempt} attempts)`, { cause: aerr }) : aerr;
      }
      core.emit({ type: "retry", runId: state.runId, attempt: attempt + 1, delayMs: delay, code: aerr.code, message: core.redact(aerr.message) });
      await sleep(delay, signal);
      // The retry is billed again: it must still fit the budget.
      budget.check(state, model.modelId, estimatedInput, options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS);
    }
  }
}

export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;
