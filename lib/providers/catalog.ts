/** Built-in provider presets the settings screen offers. */
import { DEMO_LABEL, DEMO_MODEL_ID } from "./demo-script";
import type { ProviderConfig, ProviderKind } from "./types";

export const DEFAULT_BASE_URLS: Record<Exclude<ProviderKind, "demo">, string> = {
  anthropic: "https://api.anthropic.com/v1",
  openai: "https://api.openai.com/v1",
  "openai-compatible": "http://localhost:11434/v1",
};

export const PROVIDER_PRESETS: ProviderConfig[] = [
  { id: "demo", kind: "demo", label: DEMO_LABEL, models: [DEMO_MODEL_ID], needsKey: false },
  {
    id: "anthropic",
    kind: "anthropic",
    label: "Anthropic",
    baseURL: DEFAULT_BASE_URLS.anthropic,
    models: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1"],
    needsKey: true,
  },
  { id: "openai", kind: "openai", label: "OpenAI", baseURL: DEFAULT_BASE_URLS.openai, models: ["gpt-5", "gpt-5-mini", "gpt-4.1", "gpt-4o-mini"], needsKey: true },
  {
    id: "openrouter",
    kind: "openai-compatible",
    label: "OpenRouter",
    baseURL: "https://openrouter.ai/api/v1",
    models: ["anthropic/claude-sonnet-4.5", "openai/gpt-5", "qwen/qwen3-coder"],
    needsKey: true,
  },
  { id: "ollama", kind: "openai-compatible", label: "Ollama (local)", baseURL: "http://localhost:11434/v1", models: [], needsKey: false },
  { id: "lmstudio", kind: "openai-compatible", label: "LM Studio (local)", baseURL: "http://localhost:1234/v1", models: [], needsKey: false },
];

export function baseURLOf(config: ProviderConfig): string | undefined {
  if (config.kind === "demo") return undefined;
  return (config.baseURL ?? DEFAULT_BASE_URLS[config.kind]).replace(/\/+$/, "");
}
