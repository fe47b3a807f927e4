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
import type { ProviderWithKey } from "./types";

export async function listModels(config: ProviderWithKey, opts: { fetch?: FetchLike; signal?: AbortSignal } = {}): Promise<string[]> {
  if (config.kind === "demo") return [DEMO_MODEL_ID];
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
  const ids = data
    .map((m) => (typeof m === "string" ? m : typeof (m as { id?: unknown })?.id === "string" ? (m as { id: string }).id : (m as { name?: string })?.name))
    .filter((x): x is string => typeof x === "string" && x.length > 0);
  return [...new Set(ids)].sort();
}
