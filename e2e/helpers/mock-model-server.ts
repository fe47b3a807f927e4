/**
 * A scripted model server for end-to-end tests: a dependency-free Node http server on
 * 127.0.0.1 (random port) that speaks
 *   - Anthropic Messages streaming:          POST /v1/messages          (SSE)
 *   - OpenAI Chat Completions streaming:     POST /v1/chat/completions  (SSE)
 *   - model listing:                         GET  /v1/models
 * with CORS (preflights answered, origin echoed), so the app in Chromium can call it directly.
 *
 * Each POST consumes the next scripted turn (text deltas and/or tool calls with JSON args);
 * when the script runs out, a short "script exhausted" text answers. Turns can be slow (a delay
 * between chunks, for stop tests) or fail (a status such as 429 with Retry-After, 401, 500, an
 * HTML body, a malformed chunk, a dropped connection). Every request is logged for assertions.
 *
 *   const server = await startMockModelServer();
 *   server.setScript([
 *     { text: "Reading it.", toolCalls: [{ name: "read_files", args: { files: [{ path: "src/a.ts" }] } }] },
 *     { error: { status: 429, headers: { "retry-after": "0" } } },
 *     { text: "Done." },
 *   ]);
 *   // app: Anthropic provider with baseURL `${server.url}/v1` (or OpenAI / OpenAI-compatible)
 *   expect(server.requests[0].body.messages).toHaveLength(1);
 *   await server.close();
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { ScriptedTurn } from "../../lib/providers/scripted";

export type MockTurn = ScriptedTurn & {
  /** Answer with this raw body and content type instead of a stream (e.g. an HTML page). */
  raw?: { status?: number; contentType?: string; body: string; headers?: Record<string, string> };
  /** Send a malformed (non-JSON) data line in the middle of the stream. */
  malformed?: boolean;
  /**
   * The provider's error type for `streamError` (default: Anthropic "overloaded_error", OpenAI
   * "server_error"). With no text and no tool calls, the error comes before any content, right
   * after the stream opened with 200 — as real servers do when they are overloaded.
   */
  streamErrorType?: string;
};

export type MockRequest = {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** "anthropic" | "openai" | "models" | "other" */
  api: string;
  at: number;
  /** Index of the script turn that answered it (-1: none). */
  turn: number;
  /** The client closed the connection before the answer was complete (e.g. Stop). */
  abortedByClient?: boolean;
};

export type MockModelServer = {
  /** http://127.0.0.1:<port> (APIs live under /v1). */
  url: string;
  /** Replace the script and rewind to its first turn. */
  setScript(turns: MockTurn[]): void;
  /** Append turns to the current script. */
  push(...turns: MockTurn[]): void;
  /** Delay between chunks for every turn without its own delayMs (slow mode); 0 turns it off. */
  setSlow(ms: number): void;
  /** Emulate Anthropic's browser gate: 401 for browser requests without the direct-access header. */
  setRequireBrowserHeader(on: boolean): void;
  /** Model ids returned by GET /v1/models. */
  setModels(ids: string[]): void;
  /** Every request received (preflights excluded), oldest first. */
  readonly requests: MockRequest[];
  /** Turns consumed so far. */
  readonly position: number;
  /** Resolves once `n` POST requests have been received. */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  /** Forget the script, the settings and the request log. */
  reset(): void;
  close(): Promise<void>;
};

const EXHAUSTED: MockTurn = { text: "(mock model: the script has no more turns)" };

export async function startMockModelServer(opts: { port?: number; script?: MockTurn[] } = {}): Promise<MockModelServer> {
  let script: MockTurn[] = [...(opts.script ?? [])];
  let position = 0;
  let slowMs = 0;
  let requireBrowserHeader = false;
  let models = ["claude-sonnet-4-5", "gpt-4o-mini", "mock-model"];
  const requests: MockRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();
  const posts = () => requests.filter((r) => r.method === "POST").length;

  const cors = (req: http.IncomingMessage): Record<string, string> => ({
    "access-control-allow-origin": (req.headers.origin as string | undefined) ?? "*",
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": (req.headers["access-control-request-headers"] as string | undefined) ?? "*",
    "access-control-expose-headers": "*",
    "access-control-max-age": "600",
    vary: "origin",
  });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "OPTIONS") {
      res.writeHead(204, cors(req));
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the raw text
    }
    const path = url.pathname.replace(/\/+$/, "");
    const api = path.endsWith("/messages") ? "anthropic" : path.endsWith("/chat/completions") ? "openai" : path.endsWith("/models") ? "models" : "other";
    const entry: MockRequest = { method: req.method ?? "GET", path: url.pathname, headers: { ...req.headers }, body, api, at: Date.now(), turn: -1 };
    requests.push(entry);

    if (api === "models" && req.method === "GET") {
      res.writeHead(200, { ...cors(req), "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model", type: "model", display_name: id, created: 0, owned_by: "mock" })) }));
      return;
    }
    if (req.method !== "POST" || (api !== "anthropic" && api !== "openai")) {
      res.writeHead(404, { ...cors(req), "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "not_found_error", message: `No route ${req.method} ${url.pathname}` } }));
      return;
    }
    for (const w of [...waiters]) {
      if (posts() >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }

    if (requireBrowserHeader && api === "anthropic" && req.headers.origin && !req.headers["anthropic-dangerous-direct-browser-access"]) {
      // What api.anthropic.com does: 401, and no CORS header (so the browser sees a CORS failure).
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "CORS requests must set 'anthropic-dangerous-direct-browser-access' header" } }));
      return;
    }

    const turnIndex = position < script.length ? position : -1;
    const turn = turnIndex >= 0 ? script[turnIndex]! : EXHAUSTED;
    if (turnIndex >= 0) position++;
    entry.turn = turnIndex;
    const b = body as { model?: unknown } | undefined;
    const modelId = b && typeof b === "object" && typeof b.model === "string" ? b.model : "mock-model";

    if (turn.raw) {
      res.writeHead(turn.raw.status ?? 200, { ...cors(req), "content-type": turn.raw.contentType ?? "text/html; charset=utf-8", ...turn.raw.headers });
      res.end(turn.raw.body);
      return;
    }
    if (turn.error) {
      const status = turn.error.status ?? 500;
      const message = turn.error.message ?? defaultErrorMessage(status);
      const payload =
        turn.error.body ??
        (api === "anthropic"
          ? JSON.stringify({ type: "error", error: { type: anthropicErrorType(status), message } })
          : JSON.stringify({ error: { message, type: openaiErrorType(status), code: null } }));
      res.writeHead(status, { ...cors(req), "content-type": turn.error.body && /^\s*</.test(turn.error.body) ? "text/html" : "application/json", ...turn.error.headers });
      res.end(payload);
      return;
    }

    res.writeHead(200, { ...cors(req), "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders?.();
    const events = api === "anthropic" ? anthropicEvents(turn, modelId, requests.length) : openaiEvents(turn, modelId, requests.length);
    const delay = turn.delayMs ?? slowMs;
    let closed = false;
    res.on("close", () => {
      closed = true;
      if (!res.writableEnded) entry.abortedByClient = true;
    });
    for (let i = 0; i < events.length; i++) {
      if (closed) return;
      if (turn.dropAfter !== undefined && i >= turn.dropAfter) {
        res.socket?.destroy();
        return;
      }
      if (turn.malformed && i === Math.floor(events.length / 2)) res.write("data: {this is not json\n\n");
      res.write(events[i]);
      if (delay > 0 && i < events.length - 1) await new Promise((r) => setTimeout(r, delay));
    }
    res.end();
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    setScript(turns) {
      script = [...turns];
      position = 0;
    },
    push(...turns) {
      script.push(...turns);
    },
    setSlow(ms) {
      slowMs = ms;
    },
    setRequireBrowserHeader(on) {
      requireBrowserHeader = on;
    },
    setModels(ids) {
      models = [...ids];
    },
    requests,
    get position() {
      return position;
    },
    waitForRequests(n, timeoutMs = 10_000) {
      if (posts() >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const w = { n, resolve };
        waiters.push(w);
        setTimeout(() => {
          const i = waiters.indexOf(w);
          if (i !== -1) {
            waiters.splice(i, 1);
            reject(new Error(`mock model server: ${n} requests not received within ${timeoutMs} ms`));
          }
        }, timeoutMs).unref?.();
      });
    },
    reset() {
      script = [];
      position = 0;
      slowMs = 0;
      requireBrowserHeader = false;
      requests.length = 0;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function defaultErrorMessage(status: number): string {
  if (status === 401) return "invalid x-api-key";
  if (status === 403) return "permission denied";
  if (status === 404) return "model not found";
  if (status === 429) return "rate limited, slow down";
  if (status === 529) return "overloaded";
  return "internal server error";
}

function anthropicErrorType(status: number): string {
  const types: Record<number, string> = { 400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error", 429: "rate_limit_error", 529: "overloaded_error" };
  return types[status] ?? "api_error";
}

function openaiErrorType(status: number): string {
  const types: Record<number, string> = { 401: "invalid_request_error", 404: "invalid_request_error", 429: "rate_limit_exceeded" };
  return types[status] ?? "server_error";
}

function chunksOf(turn: ScriptedTurn, size = 12): string[] {
  if (turn.chunks) return turn.chunks;
  const out: string[] = [];
  const text = turn.text ?? "";
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function argsOf(tc: NonNullable<ScriptedTurn["toolCalls"]>[number]): string {
  return tc.rawArgs ?? JSON.stringify(tc.args ?? {});
}

function sse(event: string | null, data: unknown): string {
  return `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
}

/** Anthropic Messages SSE for one turn. */
export function anthropicEvents(turn: MockTurn, model: string, n: number): string[] {
  const out: string[] = [];
  const input = turn.usage?.inputTokens ?? 50;
  const chunks = chunksOf(turn);
  out.push(
    sse("message_start", {
      type: "message_start",
      message: { id: `msg_mock_${n}`, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: input, output_tokens: 1 } },
    }),
  );
  let index = 0;
  if (turn.reasoning) {
    out.push(sse("content_block_start", { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } }));
    out.push(sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: turn.reasoning } }));
    out.push(sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "signature_delta", signature: "mock-signature" } }));
    out.push(sse("content_block_stop", { type: "content_block_stop", index }));
    index++;
  }
  if (chunks.length) {
    out.push(sse("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }));
    for (const c of chunks) out.push(sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: c } }));
    out.push(sse("content_block_stop", { type: "content_block_stop", index }));
    index++;
  }
  (turn.toolCalls ?? []).forEach((tc, i) => {
    const id = tc.id ?? `toolu_mock_${n}_${i}`;
    const args = argsOf(tc);
    out.push(sse("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id, name: tc.name, input: {} } }));
    const half = Math.ceil(args.length / 2);
    for (const part of [args.slice(0, half), args.slice(half)]) {
      if (part) out.push(sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } }));
    }
    out.push(sse("content_block_stop", { type: "content_block_stop", index }));
    index++;
  });
  if (turn.streamError) {
    out.push(sse("error", { type: "error", error: { type: turn.streamErrorType ?? "overloaded_error", message: turn.streamError } }));
    return out;
  }
  const stop = turn.finishReason === "length" ? "max_tokens" : turn.toolCalls?.length ? "tool_use" : "end_turn";
  const outputTokens = turn.usage?.outputTokens ?? Math.max(1, Math.ceil((chunks.join("").length + (turn.toolCalls ?? []).map(argsOf).join("").length) / 4));
  out.push(sse("message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: outputTokens } }));
  out.push(sse("message_stop", { type: "message_stop" }));
  return out;
}

/** OpenAI Chat Completions SSE for one turn. */
export function openaiEvents(turn: MockTurn, model: string, n: number): string[] {
  const out: string[] = [];
  const id = `chatcmpl-mock-${n}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: unknown, finish: string | null = null) => sse(null, { id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
  out.push(chunk({ role: "assistant", content: "" }));
  if (turn.reasoning) out.push(chunk({ reasoning_content: turn.reasoning }));
  const chunks = chunksOf(turn);
  for (const c of chunks) out.push(chunk({ content: c }));
  (turn.toolCalls ?? []).forEach((tc, i) => {
    const callId = tc.id ?? `call_mock_${n}_${i}`;
    const args = argsOf(tc);
    out.push(chunk({ tool_calls: [{ index: i, id: callId, type: "function", function: { name: tc.name, arguments: "" } }] }));
    const half = Math.ceil(args.length / 2);
    for (const part of [args.slice(0, half), args.slice(half)]) if (part) out.push(chunk({ tool_calls: [{ index: i, function: { arguments: part } }] }));
  });
  if (turn.streamError) {
    out.push(sse(null, { error: { message: turn.streamError, type: turn.streamErrorType ?? "server_error", code: null } }));
    return out;
  }
  const finish = turn.finishReason === "length" ? "length" : turn.toolCalls?.length ? "tool_calls" : "stop";
  out.push(chunk({}, finish));
  const prompt = turn.usage?.inputTokens ?? 50;
  const completion = turn.usage?.outputTokens ?? Math.max(1, Math.ceil((chunks.join("").length + (turn.toolCalls ?? []).map(argsOf).join("").length) / 4));
  out.push(sse(null, { id, object: "chat.completion.chunk", created, model, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }));
  out.push("data: [DONE]\n\n");
  return out;
}
