/**
 * Model providers behind one interface: a provider config becomes a ModelHandle wrapping a
 * LanguageModelV4 (the AI SDK spec), which is all the agent loop ever sees.
 *
 *   Anthropic            @ai-sdk/anthropic, with the browser-access header      (lazy)
 *   OpenAI               @ai-sdk/openai, Chat Completions (or Responses)        (lazy)
 *   OpenAI-compatible    @ai-sdk/openai-compatible: OpenRouter, Ollama, LM Studio, any base URL (lazy)
 *   Demo (scripted)      ScriptedLanguageModel replaying DEMO_TURNS, no key, no network
 *
 * Settings (providers, the model per mode, prices) persist through ProviderSettingsStore over
 * an injected storage; keys are stored apart and never leave it except in provider requests.
 */
export * from "./types";
export { PROVIDER_PRESETS, DEFAULT_BASE_URLS, baseURLOf } from "./catalog";
export { createModel, guardedFetch, ANTHROPIC_BROWSER_HEADER, type CreateModelOptions, type FetchLike } from "./create";
export { listModels, listModelDetails, modelFactsFromListing } from "./models";
export { ProviderSettingsStore, defaultProviderSettings, memoryStorage, providerPrices, SETTINGS_KEY, KEYS_KEY } from "./settings";
export {
  ScriptedLanguageModel,
  scriptContext,
  turnParts,
  type Script,
  type ScriptContext,
  type ScriptedModelOptions,
  type ScriptedToolCall,
  type ScriptedTurn,
} from "./scripted";
export { createDemoModel, demoScript, DEMO_TURNS, DEMO_MODEL_ID, DEMO_LABEL } from "./demo-script";
export { corsHint, isLocalURL } from "../agent/errors";
