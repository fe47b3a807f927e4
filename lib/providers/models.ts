/**
 * Model listing where the provider supports it: OpenAI-compatible servers (OpenAI, OpenRouter,
 * Ollama, LM Studio) answer GET {baseURL}/models; Anthropic answers GET /v1/models. Failures
 * come back as clear messages (a refused CORS preflight from a local server says how to fix it).
 */
import { APICallError } from "@ai-sdk/provider";
import { classifyError } from "../agent/errors";
import { AgentError } from "../agent/events";
import { baseURLOf } from "./catalog";
import { ANTHROPIC_BROWSER_HEADER, type FetchLike } from "./create";
import { DEMO_MODEL_ID } from "./demo-script";
import type { ProviderModelFacts, ProviderWithKey } from "./types";

export async function listModels(config: ProviderWithKey, opts: { fetch?: FetchLike; signal?: AbortSignal } = {}): Promise<string[]> {
  return (await listModelDetails(config, opts)).ids;
}

/**
 * The model list with what the server says about each model: OpenRouter's prices (dollars per
 * token, as strings) and context lengths; other servers' `context_length` / `context_window` /
 * `max_context_length` where they send one.
 */
export async function listModelDetails(config: ProviderWithKey, opts: { fetch?: FetchLike; signal?: AbortSignal } = {}): Promise<{ ids: string[]; facts: Record<string, ProviderModelFacts> }> {
  if (config.kind === "demo") return { ids: [DEMO_MODEL_ID], facts: {} };
  const baseURL = baseURLOf(config)!;
  const url = `${baseURL}/models${config.kind === "anthropic" ? "?limit=1000" : ""}`;
  const headers: Record<string, string> = { ...config.headers };
  if (config.kind === "anthropic") {
    if (config.apiKey) headers["x-api-key"] = config.apiKey;
    headers["anthropic-version"] = "2023-06-01";
    headers[ANTHROPIC_BROWSER_HEADER] = "true";
  } else if (config.apiKey) {
    headers.authorization = `Bearer ${config.apiKey}`;
  }
  const f = opts.fetch ?? (globalThis.fetch as FetchLike);
  const ctx = { provider: config.label, modelId: "(listing models)", baseURL };
  let res: Response;
  try {
    res = await f(url, { headers, signal: opts.signal });
  } catch (err) {
    throw classifyError(err, ctx);
  }
  const body = await res.text();
  if (!res.ok) {
    if (res.status === 404) {
      throw new AgentError("model-not-found", `${config.label} has no model list at ${url} (HTTP 404). Check the base URL, or type the model id by hand.`);
    }
    const responseHeaders: Record<string, string> = {};
    res.headers.forEach((v, k) => (responseHeaders[k] = v));
    throw classifyError(new APICallError({ message: `HTTP ${res.status}`, url, requestBodyValues: undefined, statusCode: res.status, responseBody: body, responseHeaders }), ctx);
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new AgentError(
      "bad-response",
      /^\s*</.test(body)
        ? `The server at ${baseURL} answered with an HTML page instead of a model list. The base URL probably points at a website, not the API.`
        : `The server at ${baseURL} sent a malformed model list.`,
    );
  }
  const data = (json as { data?: unknown; models?: unknown }).data ?? (json as { models?: unknown }).models;
  if (!Array.isArray(data)) throw new AgentError("bad-response", `The server at ${baseURL} sent a model list in an unknown format.`);
  const facts: Record<string, ProviderModelFacts> = {};
  const ids = data
    .map((m) => {
      const id = typeof m === "string" ? m : typeof (m as { id?: unknown })?.id === "string" ? (m as { id: string }).id : (m as { name?: string })?.name;
      if (typeof id === "string" && id && m && typeof m === "object") {
        const f = modelFactsFromListing(m as Record<string, unknown>);
        if (f) facts[id] = f;
      }
      return id;
    })
    .filter((x): x is string => typeof x === "string" && x.length > 0);
  return { ids: [...new Set(ids)].sort(), facts };
}

/** Price ($ per 1M tokens) and context window from one entry of a /models answer, if it has them. */
export function modelFactsFromListing(m: Record<string, unknown>): ProviderModelFacts | undefined {
  const out: ProviderModelFacts = {};
  const num = (v: unknown): number | undefined => {
    const n = typeof v === "string" && v.trim() !== "" ? Number(v) : typeof v === "number" ? v : NaN;
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  const pricing = m.pricing as Record<string, unknown> | undefined;
  if (pricing && typeof pricing === "object") {
    // OpenRouter: dollars per token. "-1" marks a router whose price depends on the route taken.
    const perM = (v: unknown) => {
      const n = num(v);
      return n === undefined ? undefined : Math.round(n * 1e6 * 1e6) / 1e6;
    };
    const input = perM(pricing.prompt);
    const output = perM(pricing.completion);
    if (input !== undefined && output !== undefined) {
      out.price = { input, output };
      const cr = perM(pricing.input_cache_read);
      const cw = perM(pricing.input_cache_write);
      if (cr !== undefined) out.price.cacheRead = cr;
      if (cw !== undefined) out.price.cacheWrite = cw;
    }
  }
  const top = m.top_provider as Record<string, unknown> | undefined;
  const context = num(m.context_length) ?? num(top?.context_length) ?? num(m.context_window) ?? num(m.max_context_length) ?? num(m.max_input_tokens);
  if (context && context > 0) out.contextWindow = context;
  return out.price || out.contextWindow ? out : undefined;
}
