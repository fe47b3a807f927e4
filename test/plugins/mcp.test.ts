/**
 * MCP over Streamable HTTP against a local server speaking the protocol (JSON and SSE answers,
 * session ids): tools listed, called through the agent with approval, errors reported.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpClient, mcpEntry, mcpToolName, resultToText } from "../../lib/plugins/mcp";
import { PluginHost } from "../../lib/plugins/host";
import { validatePlugin } from "../../lib/plugins/manifest";
import { setupInProcess } from "../../lib/plugins/load";
import { harnessPerTest } from "../agent/helpers";

let server: http.Server;
let url = "";
const seen: { method: string; session?: string }[] = [];

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    let body = "";
    for await (const chunk of req) body += chunk;
    const msg = JSON.parse(body) as { id?: number; method: string; params?: { name?: string; arguments?: { text?: string } } };
    seen.push({ method: msg.method, session: req.headers["mcp-session-id"] as string | undefined });
    if (msg.id === undefined) return void res.writeHead(202).end();
    const reply = (result: unknown, sse = false) => {
      const data = JSON.stringify({ jsonrpc: "2.0", id: msg.id, result });
      if (sse) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`event: message\ndata: ${data}\n\n`);
      } else {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "sess-1" });
        res.end(data);
      }
    };
    if (msg.method === "initialize") return reply({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "echo", version: "1" } });
    if (msg.method === "tools/list") return reply({ tools: [{ name: "echo", description: "Echo text back", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, { name: "fail", inputSchema: { type: "object" } }] }, true);
    if (msg.method === "tools/call" && msg.params?.name === "echo") return reply({ content: [{ type: "text", text: `echo: ${msg.params.arguments?.text}` }] }, true);
    if (msg.method === "tools/call") return reply({ content: [{ type: "text", text: "it broke" }], isError: true });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "no such method" } }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
});
afterAll(() => new Promise((r) => server.close(r)));

const { h } = harnessPerTest();

describe("MCP (Streamable HTTP)", () => {
  it("initializes, keeps the session id, lists and calls tools (JSON and SSE answers)", async () => {
    seen.length = 0;
    const c = new McpClient(url);
    expect((await c.listTools()).map((t) => t.name)).toEqual(["echo", "fail"]);
    expect(resultToText(await c.callTool("echo", { text: "hi" }))).toBe("echo: hi");
    expect(seen.map((s) => s.method)).toEqual(["initialize", "notifications/initialized", "tools/list", "tools/call"]);
    expect(seen.slice(1).every((s) => s.session === "sess-1")).toBe(true);
    expect(() => new McpClient("file:///etc/passwd")).toThrow(/must be http/);
    expect(mcpToolName("my server", "do.it")).toBe("mcp__my_server__do_it");
  });

  it("a plugin-registered server's tools become agent tools (network: approval in Act)", async () => {
    const t = h([{ toolCalls: [{ name: "mcp__echo__echo", args: { text: "from the model" } }, { name: "mcp__echo__fail", args: {} }] }, { text: "done" }], { approveAll: true });
    const host = new PluginHost(t.session, { mcpEntry: (s, plugin) => mcpEntry({ ...s, source: "workspace", origin: `plugin ${plugin}` }) });
    const plugin = validatePlugin({ name: "echo-mcp", manifest: { capabilities: ["mcp"] }, setup: (api: { registerMcpServer(s: unknown): void }) => api.registerMcpServer({ name: "echo", url }) });
    const ctx = { workspaceInfo: { rootPath: "/", remotes: [] }, session: { id: "s", mode: "act" }, logger: console };
    await host.add({ name: "echo-mcp", source: "workspace", origin: "x", sandboxed: false, load: async () => ({ manifest: plugin.manifest, contributions: await setupInProcess(plugin, ctx) }) });
    await vi.waitFor(() => expect(host.list().map((p) => `${p.name}:${p.state.status}`)).toEqual(["echo-mcp:loaded", "mcp:echo:loaded"]));
    await t.session.run("echo");
    expect(t.of("approval-requested").map((e) => e.toolName)).toEqual(["mcp__echo__echo", "mcp__echo__fail"]);
    const [ok, bad] = t.of("tool-call-finished");
    expect(ok).toMatchObject({ status: "ok", output: "echo: from the model" });
    expect(bad).toMatchObject({ status: "error", output: "it broke" });
    host.disable("echo-mcp");
    await vi.waitFor(() => expect(host.list().map((p) => p.name)).toEqual(["echo-mcp"]));
  });

  it("an unreachable server fails to load with the reason", async () => {
    const e = mcpEntry({ name: "gone", url: "http://127.0.0.1:9/mcp" });
    await expect(e.load()).rejects.toThrow(/MCP server gone \(http:\/\/127\.0\.0\.1:9\/mcp\) could not be reached/);
  });
});
