/**
 * Turning provider failures into clear messages, and the retry policy (exponential backoff on
 * 429 / 5xx / network errors, honouring Retry-After).
 */
import { APICallError } from "@ai-sdk/provider";
import { AgentError, type AgentErrorCode } from "./events";

export type RetryOptions = {
  /** Retries after the first attempt (0 disables). */
  maxRetries: number;
  initialDelayMs: number;
  factor: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the run fails with the message instead. */
  maxRetryAfterMs: number;
};

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 3, initialDelayMs: 1000, factor: 2, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 };

export type ModelContext = { provider: string; modelId: string; baseURL?: string };

/** Is this an abort (user stop)? */
export function isAbortError(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { name?: unknown; code?: unknown };
  return e.name === "AbortError" || e.name === "ResponseAborted" || e.code === "ABORT_ERR";
}

const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\]|::1|[^.]+\.local)$/i;

export function isLocalURL(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return LOCAL_HOST.test(u.hostname) || u.port === "11434" || u.port === "1234";
  } catch {
    return false;
  }
}

/** How to allow this app's origin on a local model server. */
export function corsHint(baseURL: string | undefined, origin?: string): string {
  const o = origin ?? "this page's origin";
  let port = "";
  try {
    port = baseURL ? new URL(baseURL).port : "";
  } catch {
    // not a URL: give both hints
  }
  const ollama = `Ollama: restart it with OLLAMA_ORIGINS set to ${o} (for example OLLAMA_ORIGINS="${origin ?? "*"}" ollama serve).`;
  const lmstudio = `LM Studio: enable "CORS" in the Developer tab's server settings (or run "lms server start --cors").`;
  if (port === "11434") return ollama;
  if (port === "1234") return lmstudio;
  return `${ollama} ${lmstudio} Other servers must send Access-Control-Allow-Origin for ${o}.`;
}

/** Parse Retry-After / retry-after-ms headers, in ms. */
export function retryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const get = (name: string) => {
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
    return undefined;
  };
  const ms = get("retry-after-ms");
  if (ms !== undefined && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = get("retry-after");
  if (ra !== undefined) {
    if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.max(0, Number(ra) * 1000);
    const date = Date.parse(ra);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return undefined;
}

function looksLikeHtml(body: string | undefined): boolean {
  return !!body && /^\s*(<!doctype html|<html|<head|<body|<\?xml|<)/i.test(body);
}

function providerMessage(err: APICallError): string {
  const data = err.data as { error?: { message?: unknown } | string; message?: unknown } | undefined;
  const fromData =
    typeof data?.error === "object" && typeof data.error?.message === "string"
      ? data.error.message
      : typeof data?.error === "string"
        ? data.error
        : typeof data?.message === "string"
          ? data.message
          : undefined;
  if (fromData) return fromData;
  if (err.responseBody && !looksLikeHtml(err.responseBody)) {
    try {
      const j = JSON.parse(err.responseBody) as { error?: { message?: string } | string; message?: string };
      const m = typeof j.error === "object" ? j.error?.message : typeof j.error === "string" ? j.error : j.message;
      if (m) return m;
    } catch {
      return err.responseBody.slice(0, 300);
    }
  }
  return err.message;
}

/** A clear, user-facing AgentError for anything a provider call can throw. */
export function classifyError(err: unknown, ctx: ModelContext): AgentError {
  if (err instanceof AgentError) return err;
  const where = ctx.baseURL ? ` at ${ctx.baseURL}` : "";
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    const said = providerMessage(err);
    if (looksLikeHtml(err.responseBody)) {
      return new AgentError(
        "bad-response",
        `The server${where} answered with an HTML page${status ? ` (HTTP ${status})` : ""} instead of an API response. The base URL probably points at a website or a proxy, not the model API (OpenAI-compatible URLs usually end in /v1).`,
        { retryable: status !== undefined && status >= 500, cause: err },
      );
    }
    if (status !== undefined && status >= 200 && status < 300) {
      // The request succeeded but the body could not be read: cut off, or not what was expected.
      const cause = err.cause as { message?: string; cause?: { message?: string } } | undefined;
      const why = [cause?.message, cause?.cause?.message].filter(Boolean).join(": ") || err.message;
      if (/terminated|socket|closed|ECONNRESET|aborted|network/i.test(why)) {
        return new AgentError("network", `The connection to ${ctx.provider} dropped while the response was arriving (${why}).`, { retryable: true, cause: err });
      }
      return new AgentError("bad-response", `${ctx.provider} sent a response that could not be read (${why}).`, { cause: err });
    }
    if (status === 401 || status === 403) {
      const corsGate = /CORS|anthropic-dangerous-direct-browser-access/i.test(said);
      return new AgentError(
        "auth",
        corsGate
          ? `${ctx.provider} refused the browser request (HTTP ${status}): ${said}`
          : `${ctx.provider} rejected the API key (HTTP ${status}: ${said}). Check the key in Settings → Models.`,
        { cause: err },
      );
    }
    if (status === 404) {
      return new AgentError(
        "model-not-found",
        `${ctx.provider} does not know the model "${ctx.modelId}" (HTTP 404: ${said}). Pick a model from the list in Settings, or check the base URL${where ? ` (${ctx.baseURL})` : ""}.`,
        { cause: err },
      );
    }
    if (status === 413 || (status === 400 && /context|too long|maximum.*tokens|prompt is too long/i.test(said))) {
      return new AgentError("context-length", `The conversation is too long for ${ctx.modelId}: ${said}. Run /compact or start a new session.`, { cause: err });
    }
    if (status === 429) {
      // OpenAI answers an exhausted quota with 429 too: waiting does not refill it.
      const quota = /insufficient_quota|exceeded your current quota|billing/i.test(`${said} ${err.responseBody ?? ""}`);
      return new AgentError("rate-limit", `${ctx.provider} is rate-limiting requests (HTTP 429: ${said}).`, {
        retryable: !quota,
        retryAfterMs: retryAfterMs(err.responseHeaders),
        cause: err,
      });
    }
    if (status !== undefined && (status >= 500 || status === 408 || status === 409)) {
      return new AgentError("server", `${ctx.provider} had a server error (HTTP ${status}: ${said}).`, {
        retryable: true,
        retryAfterMs: retryAfterMs(err.responseHeaders),
        cause: err,
      });
    }
    if (status === undefined) {
      // No HTTP status: could not connect at all.
      return new AgentError("network", `Could not reach ${ctx.provider}${where}: ${err.message}`, { retryable: err.isRetryable, cause: err });
    }
    return new AgentError("provider", `${ctx.provider} refused the request (HTTP ${status}): ${said}`, { retryable: err.isRetryable, cause: err });
  }
  const streamed = providerStreamError(err);
  if (streamed) return classifyStreamError(streamed, ctx);
  const e = err as { name?: string; message?: string; code?: string } | undefined;
  const message = e?.message ?? String(err);
  // The browser's opaque "TypeError: Failed to fetch": offline, DNS, or a CORS refusal.
  if (e?.name === "TypeError" && /failed to fetch|fetch failed|networkerror|load failed|network request failed/i.test(message)) {
    if (isLocalURL(ctx.baseURL)) {
      return new AgentError(
        "cors",
        `The browser could not call the local model server${where}. Either it is not running, or it refuses this page's origin (CORS). ${corsHint(ctx.baseURL)}`,
        { retryable: false, cause: err },
      );
    }
    return new AgentError(
      "network",
      `Could not reach ${ctx.provider}${where} (${message}). Check the connection${ctx.baseURL ? " and the base URL" : ""}; a server that does not allow browser calls (CORS) fails the same way.`,
      { retryable: true, cause: err },
    );
  }
  if (e?.name === "AI_JSONParseError" || e?.name === "AI_TypeValidationError" || e?.name === "AI_InvalidResponseDataError") {
    return new AgentError("bad-response", `${ctx.provider} sent a malformed response: ${message.slice(0, 300)}`, { cause: err });
  }
  if (e?.name === "StreamInterrupted") {
    return new AgentError("network", `The connection to ${ctx.provider} dropped mid-response: ${message}`, { retryable: true, cause: err });
  }
  if (/terminated|socket hang up|ECONNRESET|network|other side closed/i.test(message)) {
    return new AgentError("network", `The connection to ${ctx.provider} dropped: ${message}`, { retryable: true, cause: err });
  }
  return new AgentError("provider", `${ctx.provider} error: ${message}`, { cause: err });
}

/**
 * An error the provider sent inside a 200 response stream (Anthropic's `event: error` with
 * `overloaded_error`, an OpenAI-style `{"error": {...}}` chunk): the AI SDK hands it on as a
 * plain object with the provider's `type`/`code`, and sometimes its own `statusCode` and
 * `isRetryable` reading of them.
 */
export type ProviderStreamError = { message: string; type?: string; code?: string | number; statusCode?: number; isRetryable?: boolean };

export function providerStreamError(err: unknown): ProviderStreamError | undefined {
  if (!err || typeof err !== "object" || err instanceof Error) return undefined;
  const e = err as Record<string, unknown>;
  if (typeof e.message !== "string") return undefined;
  const type = typeof e.type === "string" ? e.type : undefined;
  const code = typeof e.code === "string" || typeof e.code === "number" ? e.code : undefined;
  const statusCode = typeof e.statusCode === "number" ? e.statusCode : undefined;
  if (type === undefined && code === undefined && statusCode === undefined) return undefined;
  return { message: e.message, type, code, statusCode, isRetryable: typeof e.isRetryable === "boolean" ? e.isRetryable : undefined };
}

/** The HTTP status a stream error's type stands for (the names Anthropic and OpenAI use). */
function statusOfStreamError(kind: string): number | undefined {
  const k = kind.toLowerCase();
  if (/quota|billing/.test(k)) return 402;
  if (/overload/.test(k)) return 529;
  if (/rate_limit|rate-limit|too_many/.test(k)) return 429;
  if (/auth/.test(k)) return 401;
  if (/permission/.test(k)) return 403;
  if (/not_found/.test(k)) return 404;
  if (/too_large|context_length/.test(k)) return 413;
  if (/invalid|bad_request/.test(k)) return 400;
  if (/timeout/.test(k)) return 504;
  if (/api_error|server_error|internal|unavailable/.test(k)) return 500;
  return undefined;
}

function classifyStreamError(se: ProviderStreamError, ctx: ModelContext): AgentError {
  const kind = se.type ?? (se.code !== undefined ? String(se.code) : undefined);
  const status = (kind !== undefined ? statusOfStreamError(kind) : undefined) ?? se.statusCode;
  const what = `${se.message}${kind ? ` (${kind}, in the response stream)` : " (in the response stream)"}`;
  const retryable = se.isRetryable ?? (status !== undefined && (status === 429 || status >= 500));
  if (status === 529) return new AgentError("server", `${ctx.provider} is overloaded: ${what}.`, { retryable: true, cause: se });
  if (status === 429) return new AgentError("rate-limit", `${ctx.provider} is rate-limiting requests: ${what}.`, { retryable, cause: se });
  if (status !== undefined && status >= 500) return new AgentError("server", `${ctx.provider} had a server error: ${what}.`, { retryable, cause: se });
  if (status === 401 || status === 403) return new AgentError("auth", `${ctx.provider} refused the request: ${what}. Check the key in Settings → Models.`, { cause: se });
  if (status === 413 || (status === 400 && /context|too long|maximum.*tokens/i.test(se.message))) {
    return new AgentError("context-length", `The conversation is too long for ${ctx.modelId}: ${what}. Run /compact or start a new session.`, { cause: se });
  }
  return new AgentError("provider", `${ctx.provider} error: ${what}`, { retryable: status === undefined && se.isRetryable === true, cause: se });
}

/** Delay before retry number `attempt` (1-based), or undefined when the error must not be retried. */
export function retryDelay(err: AgentError, attempt: number, opts: RetryOptions): number | undefined {
  if (!err.retryable || attempt > opts.maxRetries) return undefined;
  if (err.retryAfterMs !== undefined) return err.retryAfterMs <= opts.maxRetryAfterMs ? err.retryAfterMs : undefined;
  return Math.min(opts.maxDelayMs, opts.initialDelayMs * opts.factor ** (attempt - 1));
}

/** Wait `ms`, or reject with an AbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function abortError(): Error {
  const e = new Error("The run was stopped");
  e.name = "AbortError";
  return e;
}

export function codeOf(err: unknown): AgentErrorCode {
  return err instanceof AgentError ? err.code : "internal";
}
