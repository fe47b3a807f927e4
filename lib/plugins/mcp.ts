/**
 * Remote MCP servers over Streamable HTTP: a small JSON-RPC client (initialize, tools/list,
 * tools/call) and a plugin entry whose tools are the server's, named `mcp__<server>__<tool>`.
 * Their effect class is "network": they wait for approval in Act mode and are off the surface
 * in the read-only modes. Only the URL the user (or a plugin they enabled) registered is called.
 */
import { z } from "zod";
import type { PluginEntry } from "./host";
import type { McpServerContribution, PluginSource } from "./types";
import { errorResult, type ToolDefinition } from "../tools/define";

export const MCP_PROTOCOL_VERSION = "2025-06-18";

type JsonRpcResponse = { jsonrpc: "2.0"; id?: number | string; result?: unknown; error?: { code: number; message: string } };
export type McpTool = { name: string; description?: string; inputSchema?: Record<string, unknown> };

/** The first JSON-RPC response with `id` in a text/event-stream body. */
function fromEventStream(body: string, id: number): JsonRpcResponse | undefined {
  for (const block of body.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trimStart())
      .join("\n");
    if (!data) continue;
    try {
      const msg = JSON.parse(data) as JsonRpcResponse;
      if (msg.id === id) return msg;
    } catch {
      // not JSON: ignore the event
    }
  }
  return undefined;
}

export class McpClient {
  private nextId = 1;
  private sessionId?: string;
  private ready?: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly opts: { headers?: Record<string, string>; fetch?: typeof fetch; timeoutMs?: number } = {},
  ) {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error(`An MCP server URL must be http(s): ${url}`);
  }

  private async post(body: Record<string, unknown>, signal?: AbortSignal): Promise<JsonRpcResponse | undefined> {
    const f = this.opts.fetch ?? fetch;
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MCP_PROTOCOL_VERSION, ...this.opts.headers };
    if (this.sessionId) headers["mcp-session-id"] = this.sessionId;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 60_000);
    const res = await f(this.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", ...body }), signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    const sid = res.headers.get("mcp-session-id");
    if (sid) this.sessionId = sid;
    if (res.status === 202 || !("id" in body)) return undefined;
    if (!res.ok) throw new Error(`The MCP server answered ${res.status} ${res.statusText}`.trim());
    const type = res.headers.get("content-type") ?? "";
    const text = await res.text();
    const msg = type.includes("text/event-stream") ? fromEventStream(text, body.id as number) : (JSON.parse(text) as JsonRpcResponse);
    if (!msg) throw new Error("The MCP server sent no answer");
    if (msg.error) throw new Error(`MCP error ${msg.error.code}: ${msg.error.message}`);
    return msg;
  }

  private request(method: string, params: Record<string, unknown> = {}, signal?: AbortSignal) {
    return this.post({ id: this.nextId++, method, params }, signal).then((m) => m?.result);
  }

  connect(): Promise<void> {
    this.ready ??= (async () => {
      await this.request("initialize", { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "tabula", version: "0.1" } });
      await this.post({ method: "notifications/initialized" });
    })().catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    });
    return this.ready;
  }

  async listTools(): Promise<McpTool[]> {
    await this.connect();
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const r = (await this.request("tools/list", cursor ? { cursor } : {})) as { tools?: McpTool[]; nextCursor?: string };
      tools.push(...(r?.tools ?? []));
      cursor = r?.nextCursor;
    } while (cursor && tools.length < 1000);
    return tools;
  }

  async callTool(name: string, args: unknown, signal?: AbortSignal): Promise<{ text: string; isError: boolean }> {
    await this.connect();
    const r = (await this.request("tools/call", { name, arguments: args ?? {} }, signal)) as { content?: { type: string; text?: string }[]; isError?: boolean; structuredContent?: unknown };
    const parts = (r?.content ?? []).map((c) => (c.type === "text" ? (c.text ?? "") : `[${c.type} content]`));
    const text = parts.length ? parts.join("\n") : r?.structuredContent !== undefined ? JSON.stringify(r.structuredContent) : "";
    return { text, isError: r?.isError === true };
  }
}

const TOOL_NAME_MAX = 64;

/** The agent-facing name of a server's tool (letters, digits, _ and -; at most 64 characters). */
export function mcpToolName(server: string, tool: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, "_");
  return `mcp__${clean(server)}__${clean(tool)}`.slice(0, TOOL_NAME_MAX);
}

export function mcpEntry(server: McpServerContribution & { source?: PluginSource; origin?: string }, opts: { fetch?: typeof fetch } = {}): PluginEntry {
  return {
    name: `mcp:${server.name}`,
    source: server.source ?? "user",
    origin: server.origin ?? server.url,
    sandboxed: false,
    async load() {
      const client = new McpClient(server.url, { headers: server.headers, fetch: opts.fetch });
      const tools = await client.listTools().catch((e: Error) => {
        throw new Error(`MCP server ${server.name} (${server.url}) could not be reached: ${e.message}`);
      });
      const defs: ToolDefinition[] = tools.map((t) => {
        let schema: z.ZodType;
        try {
          schema = z.fromJSONSchema((t.inputSchema ?? { type: "object" }) as Parameters<typeof z.fromJSONSchema>[0]);
        } catch {
          schema = z.record(z.string(), z.unknown());
        }
        return {
          name: mcpToolName(server.name, t.name),
          description: `${t.description ?? t.name} (MCP server ${server.name})`,
          inputSchema: schema,
          effects: ["network"],
          async execute(input, ctx) {
            try {
              const r = await client.callTool(t.name, input, ctx.signal);
              return r.isError ? errorResult(r.text || `${t.name} failed`) : { output: r.text, summary: `${server.name}: ${t.name}` };
            } catch (e) {
              return errorResult(`MCP server ${server.name}: ${(e as Error).message}`);
            }
          },
        };
      });
      return { manifest: { capabilities: ["tools", "mcp"] }, contributions: { tools: defs, commands: [], rules: [], builders: [], providers: [], automationEventTypes: [], mcpServers: [] } };
    },
  };
}
