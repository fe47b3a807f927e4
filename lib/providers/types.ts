/**
 * Provider configuration. One shape for every provider: the kind picks the AI SDK package
 * (loaded only when chosen), the rest is data the settings screen edits. API keys live apart
 * from this (ProviderSettingsStore keeps them under their own storage key) so that a config
 * can be shown, logged or exported without a secret in it.
 */
export type ProviderKind = "anthropic" | "openai" | "openai-compatible" | "demo";

export type ProviderConfig = {
  /** Stable id ("anthropic", "openai", "openrouter", "ollama", "lmstudio", "custom-…", "demo"). */
  id: string;
  kind: ProviderKind;
  label: string;
  /** API base URL (…/v1). Default per kind when absent. */
  baseURL?: string;
  /** Extra request headers (never a key: keys go in the key store). */
  headers?: Record<string, string>;
  /** Models known for this provider (listed from the API, or typed by the user). */
  models?: string[];
  /** OpenAI only: "chat" (Chat Completions, default) or "responses". */
  api?: "chat" | "responses";
  /** Whether a key is required (local servers usually need none). */
  needsKey?: boolean;
  /** What the provider's model list said about its models (OpenRouter: prices and context lengths). */
  modelFacts?: Record<string, ProviderModelFacts>;
};

/** A provider's own figures for one model: price ($ per 1M tokens), context window (tokens). */
export type ProviderModelFacts = { price?: { input: number; output: number; cacheRead?: number; cacheWrite?: number }; contextWindow?: number };

/** A config plus its key, in memory only, for creating a model. */
export type ProviderWithKey = ProviderConfig & { apiKey?: string };

export type ModelChoice = { providerId: string; modelId: string };

export type ProviderSettings = {
  version: 1;
  providers: ProviderConfig[];
  /** The model used in each mode (a different model per mode is allowed). */
  modelByMode: { act?: ModelChoice; plan?: ModelChoice; review?: ModelChoice; orchestrate?: ModelChoice };
  /** The user's prices ($ per 1M tokens) by model id: over the provider's figures and the catalog. */
  prices?: Record<string, { input: number; output: number; cacheRead?: number; cacheWrite?: number }>;
  /** The user's context windows (tokens) by model id. */
  contextWindows?: Record<string, number>;
};

/** localStorage-shaped storage, sync or async (localStorage, an IndexedDB KV, a Map in tests). */
export interface SettingsStorage {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}
