/**
 * What a session is given as "the model": any LanguageModelV4 (the loop never knows which
 * provider it is), optionally with facts the loop uses for messages and limits.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { catalogFacts, lookupById, UNKNOWN_CONTEXT_WINDOW } from "./model-catalog";
import type { AgentMode } from "./types";

export type ModelHandle = {
  model: LanguageModelV4;
  /** Shown in messages ("Anthropic", "Ollama (local)", "Demo (scripted)"). */
  providerLabel?: string;
  /** For error messages (CORS hints for local servers). Never contains a key. */
  baseURL?: string;
  contextWindow?: number;
  maxOutputTokens?: number;
};

/** A model, a handle, or a function choosing one per mode (a different model per mode is allowed). */
export type ModelSource =
  | LanguageModelV4
  | ModelHandle
  | ((mode: AgentMode) => LanguageModelV4 | ModelHandle | Promise<LanguageModelV4 | ModelHandle>);

export function isLanguageModel(x: unknown): x is LanguageModelV4 {
  return !!x && typeof x === "object" && typeof (x as LanguageModelV4).doStream === "function" && typeof (x as LanguageModelV4).modelId === "string";
}

export async function resolveModel(source: ModelSource, mode: AgentMode): Promise<ModelHandle> {
  const got = typeof source === "function" ? await source(mode) : source;
  return isLanguageModel(got) ? { model: got } : got;
}

/**
 * The context window (tokens) of `modelId`: the given table first (the user's and the provider's
 * figures), then the catalog; a model nobody describes gets UNKNOWN_CONTEXT_WINDOW, small on
 * purpose, so compaction comes early rather than after the server has cut the prompt.
 */
export function contextWindowFor(modelId: string, table?: Record<string, number>): number {
  const own = lookupById(table, modelId);
  if (typeof own === "number" && Number.isFinite(own) && own > 0) return own;
  return catalogFacts(modelId)?.contextWindow ?? UNKNOWN_CONTEXT_WINDOW;
}
