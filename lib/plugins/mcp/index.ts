/**
 * Remote MCP servers over Streamable HTTP as a plugin entry: the server's tools become agent
 * tools named `mcp__<server>__<tool>` (distinct, see tool-names.ts), its `instructions` a rule of
 * the system prompt. Their effect class is "network": they wait for approval in Act mode and are
 * off the surface in the read-only modes. Only the URL the user (or a plugin they enabled)
 * registered is called, with the headers (a bearer token) the user gave it.
 */
import { z } from "zod";
import type { PluginEntry } from "../host";
import type { McpServerContribution, PluginSource } from "../types";
import { errorResult, type ToolDefinition } from "../../tools/define";
import { McpClient, type McpTool } from "./client";
import { resultToText } from "./content";
import { mcpToolNames } from "./tool-names";

export { McpClient, McpHttpError, MCP_PROTOCOL_VERSION, type McpTool } from "./client";
export { mcpToolName, mcpToolNames } from "./tool-names";
export { contentToText, resultToText } from "./content";

function schemaOf(t: McpTool): z.ZodType {
  try {
    return z.fromJSONSchema((t.inputSchema ?? { type: "object" }) as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.record(z.string(), z.unknown());
  }
}

export function mcpEntry(server: McpServerContribution & { source?: PluginSource; origin?: string }, opts: { fetch?: typeof fetch; timeoutMs?: number } = {}): PluginEntry {
  let client: McpClient | undefined;
  const changes = new Set<() => void>();
  const open = () => {
    if (client) return client;
    const c = new McpClient(server.url, { headers: server.headers, fetch: opts.fetch, timeoutMs: opts.timeoutMs });
    c.onToolsChanged(() => changes.forEach((fn) => fn()));
    return (client = c);
  };
  return {
    name: `mcp:${server.name}`,
    source: server.source ?? "user",
    origin: server.origin ?? server.url,
    sandboxed: false,
    watch(onChange) {
      changes.add(onChange);
      return () => changes.delete(onChange);
    },
    async load() {
      const c = open();
      const tools = await c.listTools().catch((e: Error) => {
        throw new Error(`MCP server ${server.name} (${server.url}) could not be reached: ${e.message}`);
      });
      const names = mcpToolNames(server.name, tools.map((t) => t.name));
      const defs: ToolDefinition[] = tools.map((t) => ({
        name: names.get(t.name)!,
        description: `${t.description ?? t.title ?? t.name} (MCP server ${server.name}, tool ${t.name})`,
        inputSchema: schemaOf(t),
        effects: ["network"],
        async execute(input, ctx) {
          try {
            const r = await c.callTool(t.name, input, ctx.signal);
            const text = resultToText(r);
            return r.isError ? errorResult(text || `${t.name} failed`) : { output: text, summary: `${server.name}: ${t.name}` };
          } catch (e) {
            if (ctx.signal?.aborted) return errorResult(`Stopped: the call to ${server.name}'s ${t.name} was cancelled.`);
            return errorResult(`MCP server ${server.name}: ${(e as Error).message}`);
          }
        },
      }));
      const rules = c.instructions ? [{ id: "instructions", content: `Instructions from the MCP server "${server.name}" (about its tools mcp__${server.name}__*):\n${c.instructions}` }] : [];
      return { manifest: { capabilities: ["tools", "mcp", ...(rules.length ? (["rules"] as const) : [])] }, contributions: { tools: defs, commands: [], rules, builders: [], providers: [], automationEventTypes: [], mcpServers: [] } };
    },
    dispose() {
      const c = client;
      client = undefined;
      void c?.close();
    },
  };
}
