/**
 * A session's summarizer for compaction: the session's model for its mode writes the summary
 * (compaction-summary.ts) and its usage is charged like any request (to the run when one is
 * going, to the session for /compact). Off with the session option `modelSummaries: false`.
 */
import type { Summarizer } from "./compaction";
import { requestSummary } from "./compaction-summary";
import { isAbortError } from "./errors";
import { resolveModel } from "./model-handle";
import { priceFor, usageFromProvider } from "./pricing";
import type { SessionCore } from "./session-core";
import type { UsageTotals } from "./types";

export function sessionSummarizer(core: SessionCore, opts: { signal?: AbortSignal; charge: (usage: UsageTotals) => void }): Summarizer | undefined {
  if (core.opts.modelSummaries === false) return undefined;
  return async (middle) => {
    try {
      const handle = await resolveModel(core.modelSource, core.mode);
      const answer = await requestSummary(handle.model, middle, { signal: opts.signal });
      opts.charge(usageFromProvider(answer.usage, priceFor(core.prices, handle.model.modelId)));
      return { summary: answer.text };
    } catch (err) {
      if (isAbortError(err) && opts.signal?.aborted) throw err; // the run was stopped: not a fallback
      return { fallback: core.redact(core.errorText(err)) };
    }
  };
}
