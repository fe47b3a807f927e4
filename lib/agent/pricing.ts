/**
 * Token usage and cost. Prices are US dollars per million tokens, per model id, in an editable
 * table (the settings screen edits a copy; sessions take it as an option). A model id matches
 * its exact entry, else the longest entry that is a prefix of it ("claude-sonnet-4-5" covers
 * "claude-sonnet-4-5-20250929"). Unknown models have no cost (shown as "—"), never a guess.
 */
import type { LanguageModelV4Usage } from "@ai-sdk/provider";
import { emptyUsage, type UsageTotals } from "./types";

export type ModelPrice = {
  /** $ per 1M input tokens (not cached). */
  input: number;
  /** $ per 1M output tokens (reasoning included). */
  output: number;
  /** $ per 1M cached input tokens read (default: input). */
  cacheRead?: number;
  /** $ per 1M input tokens written to the cache (default: input). */
  cacheWrite?: number;
};

export type PriceTable = Record<string, ModelPrice>;

/** List prices at the time of writing; edit them in settings when they change. */
export const DEFAULT_PRICES: PriceTable = {
  "claude-opus-4-1": { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  "claude-opus-4": { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  "claude-sonnet-4-5": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-sonnet-4": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-3-7-sonnet": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-haiku-4-5": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  "claude-3-5-haiku": { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  "gpt-5": { input: 1.25, output: 10, cacheRead: 0.125 },
  "gpt-5-mini": { input: 0.25, output: 2, cacheRead: 0.025 },
  "gpt-5-nano": { input: 0.05, output: 0.4, cacheRead: 0.005 },
  "gpt-4.1": { input: 2, output: 8, cacheRead: 0.5 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cacheRead: 0.1 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cacheRead: 0.025 },
  "gpt-4o": { input: 2.5, output: 10, cacheRead: 1.25 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cacheRead: 0.075 },
  o3: { input: 2, output: 8, cacheRead: 0.5 },
  "o4-mini": { input: 1.1, output: 4.4, cacheRead: 0.275 },
  // The scripted demo costs nothing.
  "demo-scripted": { input: 0, output: 0 },
};

export function priceFor(table: PriceTable, modelId: string): ModelPrice | undefined {
  if (table[modelId]) return table[modelId];
  // OpenRouter-style ids ("anthropic/claude-sonnet-4-5") match on the part after the slash too.
  const candidates = [modelId, modelId.includes("/") ? modelId.slice(modelId.lastIndexOf("/") + 1) : ""].filter(Boolean);
  let best: { key: string; price: ModelPrice } | undefined;
  for (const id of candidates) {
    if (table[id]) return table[id];
    for (const [key, price] of Object.entries(table)) {
      if (id.startsWith(key) && (!best || key.length > best.key.length)) best = { key, price };
    }
  }
  return best?.price;
}

/** Normalise a provider's usage report into totals for one call, priced. */
export function usageFromProvider(u: LanguageModelV4Usage | undefined, price: ModelPrice | undefined): UsageTotals {
  const out = emptyUsage();
  out.requests = 1;
  if (u) {
    const input = u.inputTokens?.total ?? 0;
    out.cacheReadTokens = u.inputTokens?.cacheRead ?? 0;
    out.cacheWriteTokens = u.inputTokens?.cacheWrite ?? 0;
    out.inputTokens = u.inputTokens?.noCache ?? Math.max(0, input - out.cacheReadTokens - out.cacheWriteTokens);
    out.outputTokens = u.outputTokens?.total ?? 0;
    out.reasoningTokens = u.outputTokens?.reasoning ?? 0;
  }
  out.costUsd = price ? costOf(out, price) : undefined;
  return out;
}

export function costOf(u: Pick<UsageTotals, "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens">, p: ModelPrice): number {
  return (
    (u.inputTokens * p.input + u.outputTokens * p.output + u.cacheReadTokens * (p.cacheRead ?? p.input) + u.cacheWriteTokens * (p.cacheWrite ?? p.input)) /
    1_000_000
  );
}

/** a + b (cost stays undefined once any part was unpriced). */
export function addUsage(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    costUsd: a.costUsd === undefined || b.costUsd === undefined ? undefined : a.costUsd + b.costUsd,
    requests: a.requests + b.requests,
  };
}

/** "$0.0123" / "—". */
export function formatCost(usd: number | undefined): string {
  if (usd === undefined) return "—";
  if (usd === 0) return "$0";
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}
