/**
 * Token usage and cost. Prices are US dollars per million tokens. A price comes from, in order:
 * the table the session is given (the user's custom prices over the provider's own figures, from
 * the settings), then the bundled catalog (./model-catalog). Unknown models have no cost (shown as
 * "unknown price"), never a guess.
 */
import type { LanguageModelV4Usage } from "@ai-sdk/provider";
import { catalogFacts, lookupById, type ModelPrice } from "./model-catalog";
import { emptyUsage, type UsageTotals } from "./types";

export type { ModelPrice } from "./model-catalog";

export type PriceTable = Record<string, ModelPrice>;

export type PriceSource = "custom" | "provider" | "catalog";

/** The price of `modelId` and where it came from: the user's table, the provider's figures, the catalog. */
export function resolvePrice(modelId: string, layers: { custom?: PriceTable; provider?: PriceTable } = {}): { price: ModelPrice; source: PriceSource } | undefined {
  const custom = lookupById(layers.custom, modelId);
  if (custom && isPrice(custom)) return { price: custom, source: "custom" };
  const provider = lookupById(layers.provider, modelId);
  if (provider && isPrice(provider)) return { price: provider, source: "provider" };
  const cat = catalogFacts(modelId)?.price;
  return cat ? { price: cat, source: "catalog" } : undefined;
}

/** The price the session charges for `modelId`: its table first, then the catalog. */
export function priceFor(table: PriceTable | undefined, modelId: string): ModelPrice | undefined {
  return resolvePrice(modelId, { custom: table })?.price;
}

export function isPrice(p: unknown): p is ModelPrice {
  const x = p as ModelPrice | undefined;
  const ok = (n: unknown) => typeof n === "number" && Number.isFinite(n) && n >= 0;
  return !!x && ok(x.input) && ok(x.output) && (x.cacheRead === undefined || ok(x.cacheRead)) && (x.cacheWrite === undefined || ok(x.cacheWrite));
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
