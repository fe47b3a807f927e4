/**
 * What a session is given as "the model": any LanguageModelV4 (the loop never knows which
 * provider it is), optionally with facts the loop uses for messages and limits.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
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

/** Context windows (tokens) by model id prefix; unknown models get 128k. */
const CONTEXT_WINDOWS: [string, number][] = [
  ["claude-", 200_000],
  ["gpt-4.1", 1_000_000],
  ["gpt-5", 400_000],
  ["gpt-4o", 128_000],
  ["o3", 200_000],
  ["o4", 200_000],
  ["demo-scripted", 200_000],
];

export function contextWindowFor(modelId: string): number {
  const id = modelId.includes("/") ? modelId.slice(modelId.lastIndexOf("/") + 1) : modelId;
  for (const [prefix, n] of CONTEXT_WINDOWS) if (id.startsWith(prefix)) return n;
  return 128_000;
}
