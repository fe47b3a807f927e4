/**
 * Running a plugin's `setup` in-process: every `api.register*` call is checked against the
 * manifest and buffered; the contributions are returned only if `setup` succeeds in time, so a
 * plugin that fails half-way contributes nothing.
 */
import type { Plugin, PluginApi, PluginContext, Contributions } from "./types";
import { PluginError, requireCapability } from "./manifest";

export const DEFAULT_SETUP_TIMEOUT_MS = 10_000;

export function withTimeout<T>(p: Promise<T> | T, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    Promise.resolve(p).then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

export function emptyContributions(): Contributions {
  return { tools: [], commands: [], rules: [], builders: [], providers: [], automationEventTypes: [], mcpServers: [] };
}

/** An api that checks each call against the manifest and records what it was given. */
export function recordingApi(plugin: Pick<Plugin, "name" | "manifest">, out: Contributions): PluginApi {
  const need = (ok: boolean, why: string) => {
    if (!ok) throw new PluginError(plugin.name, `Plugin "${plugin.name}": ${why}`);
  };
  return {
    registerTool(tool) {
      requireCapability(plugin, "tools", "registerTool");
      need(!!tool && typeof tool.name === "string" && /^[a-zA-Z0-9_-]{1,64}$/.test(tool.name), `registerTool needs a tool name of letters, digits, _ or - (got ${JSON.stringify(tool?.name)})`);
      need(typeof tool.execute === "function", `tool ${tool.name} has no execute function`);
      need(!!tool.inputSchema, `tool ${tool.name} has no inputSchema`);
      need(!out.tools.some((t) => t.name === tool.name), `tool ${tool.name} is registered twice`);
      out.tools.push(tool);
    },
    registerCommand(command) {
      requireCapability(plugin, "commands", "registerCommand");
      need(!!command && /^\/?[a-z][\w-]*$/i.test(String(command.name)) && typeof command.handler === "function", "registerCommand needs { name, handler }");
      out.commands.push(command);
    },
    registerRule(rule) {
      requireCapability(plugin, "rules", "registerRule");
      need(!!rule && typeof rule.id === "string" && rule.id.trim() !== "" && typeof rule.content === "string", "registerRule needs { id, content } (strings)");
      out.rules.push({ id: rule.id.trim(), content: rule.content });
    },
    registerMessageBuilder(builder) {
      requireCapability(plugin, "messageBuilders", "registerMessageBuilder");
      need(!!builder && typeof builder.name === "string" && typeof builder.build === "function", "registerMessageBuilder needs { name, build }");
      out.builders.push(builder);
    },
    registerProvider(provider) {
      requireCapability(plugin, "providers", "registerProvider");
      need(!!provider && typeof provider.id === "string" && typeof provider.name === "string", "registerProvider needs { id, name }");
      out.providers.push(provider);
    },
    registerAutomationEventType(type) {
      requireCapability(plugin, "automationEvents", "registerAutomationEventType");
      const eventType = String(type?.eventType ?? "").trim();
      const source = String(type?.source ?? "").trim();
      need(eventType !== "" && source !== "", "registerAutomationEventType needs eventType and source");
      out.automationEventTypes.push({ ...type, eventType, source });
    },
    registerMcpServer(server) {
      requireCapability(plugin, "mcp", "registerMcpServer");
      need(!!server && typeof server.name === "string" && typeof server.url === "string", "registerMcpServer needs { name, url } (Streamable HTTP)");
      out.mcpServers.push(server);
    },
  };
}

/** Run setup (with a time limit) and return what the plugin contributes. */
export async function setupInProcess(plugin: Plugin, ctx: PluginContext, timeoutMs = DEFAULT_SETUP_TIMEOUT_MS): Promise<Contributions> {
  const out = emptyContributions();
  const api = recordingApi(plugin, out);
  if (plugin.setup) await withTimeout(plugin.setup(api, ctx), timeoutMs, `Plugin "${plugin.name}": setup took longer than ${timeoutMs / 1000} s`);
  if (plugin.hooks) out.hooks = plugin.hooks;
  if (plugin.hiddenPaths) out.hiddenPaths = plugin.hiddenPaths;
  return out;
}
