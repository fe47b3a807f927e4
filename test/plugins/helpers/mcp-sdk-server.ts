/**
 * The official MCP SDK's server (McpServer + StreamableHTTPServerTransport) on 127.0.0.1, in the
 * four shapes a client meets: stateful or stateless, answers as JSON or as SSE. What it saw
 * (sessions opened and deleted, cancellations, pings answered) is recorded for the tests.
 */
import http from "node:http";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { EmptyResultSchema, isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

export type SdkServerShape = { stateful: boolean; json: boolean };
export const LONG_A = "search_repository_issues_and_pull_requests_by_label_and_milestone_alpha";
export const LONG_B = "search_repository_issues_and_pull_requests_by_label_and_milestone_beta";

export type SdkServer = {
  url: string;
  port: number;
  seen: { sessionsOpened: string[]; sessionsDeleted: string[]; cancelled: string[]; pings: string[]; headers: Record<string, string | undefined>[] };
  /** Forget every session (as a restarted server or an expired session would). */
  forgetSessions(): void;
  /** Ping every connected client from the server, outside any request (over the GET stream). */
  pingClients(): Promise<unknown[]>;
  /** Register one more tool on every live server instance (they notify list_changed). */
  addTool(name: string): void;
  close(): Promise<void>;
};

function buildServer(seen: SdkServer["seen"], extraTools: string[], opts: { instructions?: string }) {
  const server = new McpServer({ name: "sdk-test", version: "1.0.0" }, { instructions: opts.instructions, capabilities: { tools: { listChanged: true } } });
  server.registerTool("echo", { description: "Echo text back", inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text: `echo: ${text}` }] }));
  server.registerTool("fail", { description: "Always fails" }, async () => ({ content: [{ type: "text", text: "it broke" }], isError: true }));
  server.registerTool("resources", { description: "Returns resources" }, async () => ({
    content: [
      { type: "resource", resource: { uri: "file:///docs/readme.md", mimeType: "text/markdown", text: "# Readme\nhello from a resource" } },
      { type: "resource_link", uri: "file:///docs/guide.md", name: "guide.md", mimeType: "text/markdown", description: "The guide" },
      { type: "image", data: Buffer.from("not really a png").toString("base64"), mimeType: "image/png" },
    ],
  }));
  server.registerTool("slow", { description: "Waits until cancelled", inputSchema: {} }, async (_args, extra) => {
    await new Promise<void>((resolve) => {
      if (extra.signal.aborted) return resolve();
      extra.signal.addEventListener("abort", () => resolve(), { once: true });
      setTimeout(resolve, 20_000).unref();
    });
    if (extra.signal.aborted) seen.cancelled.push(String(extra.requestId));
    return { content: [{ type: "text", text: "finished" }] };
  });
  server.registerTool("pinger", { description: "Pings the client, then answers", inputSchema: {} }, async (_args, extra) => {
    await extra.sendRequest({ method: "ping" }, EmptyResultSchema);
    seen.pings.push(String(extra.requestId));
    return { content: [{ type: "text", text: "the client answered ping" }] };
  });
  server.registerTool(LONG_A, { description: "long name a" }, async () => ({ content: [{ type: "text", text: "A" }] }));
  server.registerTool(LONG_B, { description: "long name b" }, async () => ({ content: [{ type: "text", text: "B" }] }));
  for (const name of extraTools) server.registerTool(name, { description: `extra ${name}` }, async () => ({ content: [{ type: "text", text: name }] }));
  return server;
}

/** What a browser page on another origin needs to talk to the server. */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers": "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id",
  "access-control-expose-headers": "mcp-session-id",
};

export async function startSdkServer(shape: SdkServerShape, opts: { instructions?: string; port?: number; cors?: boolean } = {}): Promise<SdkServer> {
  const seen: SdkServer["seen"] = { sessionsOpened: [], sessionsDeleted: [], cancelled: [], pings: [], headers: [] };
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  const live = new Set<McpServer>();
  const extraTools: string[] = [];

  const http_ = http.createServer(async (req, res) => {
    if (opts.cors) {
      for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v);
      if (req.method === "OPTIONS") return void res.writeHead(204).end();
    }
    seen.headers.push({ authorization: req.headers.authorization, version: req.headers["mcp-protocol-version"] as string | undefined, method: req.method });
    let body: unknown;
    if (req.method === "POST") {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      body = raw ? JSON.parse(raw) : undefined;
    }
    try {
      if (!shape.stateful) {
        if (req.method !== "POST") return void res.writeHead(405).end();
        const server = buildServer(seen, extraTools, opts);
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: shape.json });
        res.on("close", () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
      const sid = req.headers["mcp-session-id"] as string | undefined;
      if (sid && sessions.has(sid)) return void (await sessions.get(sid)!.transport.handleRequest(req, res, body));
      if (!sid && req.method === "POST" && isInitializeRequest(body)) {
        const server = buildServer(seen, extraTools, opts);
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: shape.json,
          onsessioninitialized: (id) => {
            sessions.set(id, { transport, server });
            seen.sessionsOpened.push(id);
          },
          onsessionclosed: (id) => {
            sessions.delete(id);
            seen.sessionsDeleted.push(id);
          },
        });
        live.add(server);
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
      // An unknown session: what a restarted server or an expired session answers.
      res.writeHead(sid ? 404 : 400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: sid ? "Session not found" : "Bad Request: no session" }, id: null }));
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    }
  });
  await new Promise<void>((r) => http_.listen(opts.port ?? 0, "127.0.0.1", r));
  const port = (http_.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    seen,
    forgetSessions() {
      for (const { transport } of sessions.values()) void transport.close();
      sessions.clear();
    },
    pingClients() {
      return Promise.all([...live].filter((s) => s.isConnected()).map((s) => s.server.ping()));
    },
    addTool(name) {
      extraTools.push(name);
      for (const s of live) if (s.isConnected()) s.registerTool(name, { description: `extra ${name}` }, async () => ({ content: [{ type: "text", text: name }] }));
    },
    async close() {
      for (const { transport } of sessions.values()) await transport.close().catch(() => undefined);
      http_.closeAllConnections();
      await new Promise((r) => http_.close(r));
    },
  };
}
