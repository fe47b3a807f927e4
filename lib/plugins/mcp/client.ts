/**
 * An MCP client over Streamable HTTP (spec 2025-06-18 / 2025-11-25), written here rather than
 * taken from @modelcontextprotocol/sdk: the SDK's client validates with ajv, which compiles
 * schemas with `new Function` (refused under a strict CSP, and ~63 KB gzipped for what is a
 * few JSON-RPC calls). What the spec asks of a client is all here and tested against the SDK's
 * own server (test/plugins/mcp-sdk.test.ts):
 * - initialize → notifications/initialized; the negotiated protocol version is sent on every
 *   later request, the server's `instructions` are kept for the system prompt;
 * - answers JSON or an SSE stream; server-to-client requests on any stream (`ping` answered,
 *   anything else refused with -32601), notifications dispatched;
 * - a 404 on a request carrying a session id means the session is gone (expired, server
 *   restarted): start a new session once and retry the request;
 * - a stopped call sends `notifications/cancelled`;
 * - the optional GET stream carries `notifications/tools/list_changed`;
 * - `close()` DELETEs the session.
 */
import { createParser } from "eventsource-parser";

export const MCP_PROTOCOL_VERSION = "2025-11-25";
const SUPPORTED_VERSIONS = new Set(["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);

export type McpTool = { name: string; title?: string; description?: string; inputSchema?: Record<string, unknown> };
export type McpContent = { type: string; text?: string; data?: string; mimeType?: string; uri?: string; name?: string; title?: string; description?: string; resource?: { uri?: string; mimeType?: string; text?: string; blob?: string } };
export type McpCallResult = { content?: McpContent[]; isError?: boolean; structuredContent?: unknown };

type JsonRpcId = number | string;
type JsonRpcMessage = { jsonrpc: "2.0"; id?: JsonRpcId; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { code: number; message: string; data?: unknown } };

export class McpHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type McpClientOptions = {
  /** Sent with every request (e.g. Authorization). Never logged, never part of an error message. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Open the GET stream for server notifications (default true). */
  listen?: boolean;
  clientInfo?: { name: string; version: string };
};

export class McpClient {
  private nextId = 1;
  private sessionId?: string;
  private ready?: Promise<void>;
  private closed = false;
  private listener?: AbortController;
  private readonly toolListeners = new Set<() => void>();
  /** The protocol version the server agreed to (known after connect). */
  protocolVersion?: string;
  /** The server's `instructions` from initialize, if any. */
  instructions?: string;
  serverInfo?: { name?: string; version?: string };
  capabilities: { tools?: { listChanged?: boolean } } = {};

  constructor(
    private readonly url: string,
    private readonly opts: McpClientOptions = {},
  ) {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error(`An MCP server URL must be http(s): ${url}`);
  }

  /** Called when the server says its tool list changed. */
  onToolsChanged(fn: () => void): () => void {
    this.toolListeners.add(fn);
    return () => this.toolListeners.delete(fn);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = { ...this.opts.headers, ...extra };
    if (this.protocolVersion) h["mcp-protocol-version"] = this.protocolVersion;
    if (this.sessionId) h["mcp-session-id"] = this.sessionId;
    return h;
  }

  /** Called as a plain function: the browser's fetch refuses any other `this` ("Illegal invocation"). */
  private fetchImpl(input: string, init: RequestInit): Promise<Response> {
    const f = this.opts.fetch ?? globalThis.fetch;
    return f(input, init);
  }

  /** POST one message; for a request, resolve with its response (read from JSON or SSE). */
  private async send(message: JsonRpcMessage, signal?: AbortSignal): Promise<JsonRpcMessage | undefined> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 60_000);
    const res = await this.fetchImpl(this.url, {
      method: "POST",
      headers: this.headers({ "content-type": "application/json", accept: "application/json, text/event-stream" }),
      body: JSON.stringify(message),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const sid = res.headers.get("mcp-session-id");
    if (sid) this.sessionId = sid;
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new McpHttpError(res.status, `The MCP server answered ${res.status} ${res.statusText}`.trim());
    }
    if (message.id === undefined || res.status === 202) {
      await res.body?.cancel().catch(() => undefined);
      return undefined;
    }
    const type = res.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream")) return this.readStream(res, message.id);
    const body = JSON.parse(await res.text()) as JsonRpcMessage | JsonRpcMessage[];
    const list = Array.isArray(body) ? body : [body];
    for (const m of list) if (m.id !== message.id) void this.dispatch(m);
    return list.find((m) => m.id === message.id && m.method === undefined);
  }

  /** Read an SSE body until the response to `id` arrives (or, for the GET stream, until it ends). */
  private async readStream(res: Response, id: JsonRpcId | undefined): Promise<JsonRpcMessage | undefined> {
    let answer: JsonRpcMessage | undefined;
    const parser = createParser({
      onEvent: (ev) => {
        if (!ev.data) return;
        let msg: JsonRpcMessage;
        try {
          msg = JSON.parse(ev.data) as JsonRpcMessage;
        } catch {
          return;
        }
        if (id !== undefined && msg.id === id && msg.method === undefined) answer = msg;
        else void this.dispatch(msg);
      },
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      while (!answer) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } finally {
      if (answer) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
    return answer;
  }

  /** A message the server sent on its own: answer requests, act on notifications. */
  private async dispatch(msg: JsonRpcMessage): Promise<void> {
    if (msg.method === undefined) return; // a response to nothing we wait for
    if (msg.id !== undefined) {
      const reply: JsonRpcMessage =
        msg.method === "ping" ? { jsonrpc: "2.0", id: msg.id, result: {} } : { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `Tabula does not support ${msg.method}` } };
      await this.send(reply).catch(() => undefined);
      return;
    }
    if (msg.method === "notifications/tools/list_changed") for (const fn of this.toolListeners) fn();
  }

  /** A request, with one new session and one retry when the server has forgotten ours. */
  private async request(method: string, params: Record<string, unknown> = {}, signal?: AbortSignal): Promise<unknown> {
    if (method !== "initialize") await this.connect();
    const attempt = async () => {
      const id = this.nextId++;
      const onAbort = () => void this.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "The user stopped the run" } }).catch(() => undefined);
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        const msg = await this.send({ jsonrpc: "2.0", id, method, params }, signal);
        if (!msg) throw new Error("The MCP server sent no answer");
        if (msg.error) throw new Error(`MCP error ${msg.error.code}: ${msg.error.message}`);
        return msg.result;
      } finally {
        signal?.removeEventListener("abort", onAbort);
      }
    };
    try {
      return await attempt();
    } catch (e) {
      if (!(e instanceof McpHttpError) || e.status !== 404 || method === "initialize" || !this.sessionId) throw e;
      this.resetSession();
      await this.connect();
      return attempt();
    }
  }

  private resetSession() {
    this.sessionId = undefined;
    this.protocolVersion = undefined;
    this.ready = undefined;
    this.listener?.abort();
    this.listener = undefined;
  }

  connect(): Promise<void> {
    if (this.closed) return Promise.reject(new Error("This MCP connection was closed"));
    this.ready ??= (async () => {
      const r = (await this.request("initialize", {
        protocolVersion: MCP_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: this.opts.clientInfo ?? { name: "tabula", version: "0.1" },
      })) as { protocolVersion?: string; instructions?: string; serverInfo?: { name?: string; version?: string }; capabilities?: { tools?: { listChanged?: boolean } } };
      if (!r?.protocolVersion || !SUPPORTED_VERSIONS.has(r.protocolVersion)) {
        throw new Error(`The MCP server speaks protocol version ${r?.protocolVersion ?? "(none)"}, which Tabula does not support`);
      }
      this.protocolVersion = r.protocolVersion;
      this.instructions = typeof r.instructions === "string" && r.instructions.trim() ? r.instructions : undefined;
      this.serverInfo = r.serverInfo;
      this.capabilities = r.capabilities ?? {};
      await this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      if (this.opts.listen !== false) this.listen();
    })().catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    });
    return this.ready;
  }

  /** The GET stream: server notifications outside any request. Optional for servers (405). */
  private listen() {
    const ctl = new AbortController();
    this.listener = ctl;
    void (async () => {
      for (let failures = 0; !ctl.signal.aborted && failures < 5; ) {
        try {
          const res = await this.fetchImpl(this.url, { method: "GET", headers: this.headers({ accept: "text/event-stream" }), signal: ctl.signal });
          if (res.status === 405 || res.status === 404 || !res.ok || !(res.headers.get("content-type") ?? "").includes("text/event-stream")) {
            await res.body?.cancel().catch(() => undefined);
            return;
          }
          failures = 0;
          await this.readStream(res, undefined);
        } catch {
          failures++;
        }
        if (!ctl.signal.aborted) await new Promise((r) => setTimeout(r, 500 * 2 ** failures));
      }
    })();
  }

  async listTools(): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const r = (await this.request("tools/list", cursor ? { cursor } : {})) as { tools?: McpTool[]; nextCursor?: string };
      tools.push(...(r?.tools ?? []));
      cursor = r?.nextCursor;
    } while (cursor && tools.length < 1000);
    return tools;
  }

  async callTool(name: string, args: unknown, signal?: AbortSignal): Promise<McpCallResult> {
    return ((await this.request("tools/call", { name, arguments: args ?? {} }, signal)) ?? {}) as McpCallResult;
  }

  /** End the session: stop listening and DELETE it (a server may refuse with 405; that is fine). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listener?.abort();
    const sid = this.sessionId;
    this.sessionId = undefined;
    if (!sid) return;
    await this.fetchImpl(this.url, { method: "DELETE", headers: { ...this.opts.headers, "mcp-session-id": sid, ...(this.protocolVersion ? { "mcp-protocol-version": this.protocolVersion } : {}) }, signal: AbortSignal.timeout(5_000) })
      .then((r) => r.body?.cancel())
      .catch(() => undefined);
  }
}
