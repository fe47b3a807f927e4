/**
 * Turn a provider config into a model handle. Each AI SDK provider package is imported only
 * when its kind is chosen (`await import()`), so a user of one provider never downloads the
 * others, and nobody downloads any before picking one.
 */
import { AgentError } from "../agent/events";
import type { ModelHandle } from "../agent/model-handle";
import { baseURLOf } from "./catalog";
import { createDemoModel, DEMO_LABEL } from "./demo-script";
import type { ProviderWithKey } from "./types";

export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export type CreateModelOptions = {
  /** fetch to use (default: globalThis.fetch at call time). */
  fetch?: FetchLike;
  /** Called when a request leaves (url only; never headers, which hold the key). */
  onRequest?(url: string): void;
  contextWindow?: number;
  maxOutputTokens?: number;
};

/** The header Anthropic requires for calls made from a browser page. */
export const ANTHROPIC_BROWSER_HEADER = "anthropic-dangerous-direct-browser-access";

/**
 * A fetch that refuses a successful-looking HTML answer (a base URL pointing at a web page, a
 * captive portal) with a clear error instead of letting the stream parser choke on it.
 */
export function guardedFetch(base: FetchLike | undefined, onRequest?: (url: string) => void): FetchLike {
  return async (input, init) => {
    const f = base ?? (globalThis.fetch as FetchLike | undefined);
    if (!f) throw new AgentError("network", "This environment has no fetch()");
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    onRequest?.(url);
    const res = await f(input, init);
    const type = res.headers.get("content-type") ?? "";
    if (res.ok && /text\/html/i.test(type)) {
      res.body?.cancel().catch(() => undefined);
      throw new AgentError(
        "bad-response",
        `The server at ${new URL(url).origin} answered with an HTML page instead of an API response. The base URL probably points at a website, not the model API (OpenAI-compatible URLs usually end in /v1).`,
      );
    }
    return res;
  };
}

export async function createModel(config: ProviderWithKey, modelId: string, opts: CreateModelOptions = {}): Promise<ModelHandle> {
  if (!modelId) throw new AgentError("model-not-found", `No model selected for ${config.label}`);
  const baseURL = baseURLOf(config);
  const fetch = guardedFetch(opts.fetch, opts.onRequest);
  const common = { contextWindow: opts.contextWindow, maxOutputTokens: opts.maxOutputTokens };
  const needKey = () => {
    if (config.needsKey !== false && !config.apiKey) {
      throw new AgentError("auth", `No API key for ${config.label}. Add one in Settings → Models (it stays in this browser).`);
    }
  };
  switch (config.kind) {
    case "demo":
      return { model: createDemoModel(), providerLabel: DEMO_LABEL, ...common };
    case "anthropic": {
      needKey();
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      const provider = createAnthropic({
        apiKey: config.apiKey,
        baseURL,
        headers: { ...config.headers, [ANTHROPIC_BROWSER_HEADER]: "true" },
        fetch,
      });
      return { model: provider(modelId), providerLabel: config.label, baseURL, ...common };
    }
    case "openai": {
      needKey();
      const { createOpenAI } = await import("@ai-sdk/openai");
      const provider = createOpenAI({ apiKey: config.apiKey, baseURL, headers: config.headers, fetch });
      return { model: config.api === "responses" ? provider.responses(modelId) : provider.chat(modelId), providerLabel: config.label, baseURL, ...common };
    }
    case "openai-compatible": {
      if (config.needsKey) needKey();
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      const provider = createOpenAICompatible({
        name: config.id,
        baseURL: baseURL!,
        apiKey: config.apiKey || undefined,
        headers: config.headers,
        fetch,
        includeUsage: true,
      });
      return { model: provider.chatModel(modelId), providerLabel: config.label, baseURL, ...common };
    }
    default:
      throw new AgentError("provider", `Unknown provider kind "${(config as { kind: string }).kind}"`);
  }
}
