/**
 * The sandbox side: runs inside a dedicated Web Worker (or a Node worker thread in tests).
 * Before any plugin code runs, the worker's ways out are removed — storage (IndexedDB, caches),
 * network (fetch, XHR, WebSocket, EventSource), nested workers, importScripts and the raw
 * postMessage — so a plugin reaches the world only through the host calls below. There is no
 * DOM in a worker, and model keys live in the page's localStorage, which workers cannot read.
 */
import { validatePlugin } from "../manifest";
import { emptyContributions, recordingApi, withTimeout } from "../load";
import type { Plugin, PluginContext } from "../types";
import type { AgentHooks, HookPoint } from "../../agent/hooks";
import { Rpc, type Port } from "./rpc";
import type { LoadParams, PluginDescriptor, SandboxToolContext } from "./protocol";
import { moduleDataUrl } from "../data-url";

const BLOCKED_GLOBALS = ["indexedDB", "caches", "fetch", "XMLHttpRequest", "WebSocket", "EventSource", "Worker", "SharedWorker", "importScripts", "BroadcastChannel", "localStorage", "sessionStorage", "open"];

/** Remove the worker's ways out (best effort per global; what cannot be removed is reported). */
export function hardenGlobals(scope: Record<string, unknown>): string[] {
  const left: string[] = [];
  for (const name of BLOCKED_GLOBALS) {
    if (!(name in scope)) continue;
    try {
      Object.defineProperty(scope, name, { value: undefined, configurable: false, writable: false });
    } catch {
      left.push(name);
    }
    if (scope[name] !== undefined) left.push(name);
  }
  return left;
}


export type RuntimeOptions = { setupTimeoutMs?: number; harden?: boolean; scope?: Record<string, unknown> };

/** Serve one plugin over `port`. */
export function startPluginRuntime(port: Port, opts: RuntimeOptions = {}): Rpc {
  const rpc = new Rpc(port);
  let plugin: Plugin | undefined;
  const contributions = emptyContributions();
  let hooks: AgentHooks = {};

  rpc.handle("load", async (p: LoadParams): Promise<PluginDescriptor> => {
    if (plugin) throw new Error("A plugin is already loaded in this sandbox");
    if (opts.harden !== false) hardenGlobals(opts.scope ?? (globalThis as unknown as Record<string, unknown>));
    let mod: Record<string, unknown>;
    try {
      mod = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ moduleDataUrl(p.source))) as Record<string, unknown>;
    } catch (e) {
      throw new Error(`Plugin ${p.name} could not be loaded: ${(e as Error).message}`);
    }
    plugin = validatePlugin(mod.default ?? mod.plugin, p.name);
    const logger = {
      info: (m: string) => void rpc.call("host.log", { level: "info", message: String(m) }).catch(() => undefined),
      warn: (m: string) => void rpc.call("host.log", { level: "warn", message: String(m) }).catch(() => undefined),
      error: (m: string) => void rpc.call("host.log", { level: "error", message: String(m) }).catch(() => undefined),
    };
    // Local-only counters: they go to the host's plugin log, never off the machine.
    const telemetry = { count: (name: string, value = 1) => void rpc.call("host.telemetry", { name: String(name).slice(0, 100), value: Number(value) || 0 }).catch(() => undefined) };
    const session = { ...p.ctx.session, steer: (text: string) => void rpc.call("host.steer", { text: String(text).slice(0, 20_000) }).catch(() => undefined) };
    const ctx: PluginContext = { workspaceInfo: p.ctx.workspaceInfo as PluginContext["workspaceInfo"], session, logger, telemetry };
    if (plugin.setup) await withTimeout(plugin.setup(recordingApi(plugin, contributions), ctx), opts.setupTimeoutMs ?? 10_000, `Plugin "${plugin.name}": setup took longer than ${(opts.setupTimeoutMs ?? 10_000) / 1000} s`);
    hooks = plugin.hooks ?? {};
    return {
      name: plugin.name,
      manifest: plugin.manifest,
      tools: contributions.tools.map((t) => ({
        name: t.name,
        description: String(t.description ?? ""),
        inputSchema: (t.inputSchema ?? { type: "object" }) as unknown as Record<string, unknown>,
        effects: Array.isArray(t.effects) ? t.effects.map(String) : ["read"],
      })),
      commands: contributions.commands.map((c) => ({ name: c.name, description: c.description })),
      rules: contributions.rules,
      builders: contributions.builders.map((b) => b.name),
      providers: contributions.providers,
      automationEventTypes: contributions.automationEventTypes,
      mcpServers: contributions.mcpServers,
      hooks: Object.keys(hooks) as HookPoint[],
    };
  });

  rpc.handle("hook", async ({ point, ctx }: { point: HookPoint; ctx: unknown }) => {
    const fn = hooks[point] as ((c: unknown) => unknown) | undefined;
    if (!fn) return undefined;
    return (await fn(ctx)) ?? null;
  });

  rpc.handle("tool", async ({ name, input, ctx }: { name: string; input: unknown; ctx: SandboxToolContext }) => {
    const tool = contributions.tools.find((t) => t.name === name);
    if (!tool) throw new Error(`No tool ${name} in this plugin`);
    const host = {
      ...ctx,
      readFile: (path: string) => rpc.call<string>("host.readFile", { path }),
      listFiles: (path = "") => rpc.call<string[]>("host.listFiles", { path }),
      writeFile: (path: string, text: string) => rpc.call<void>("host.writeFile", { path, text, toolCallId: ctx.toolCallId }),
    };
    const r = await (tool.execute as (i: unknown, c: unknown) => unknown)(input, host);
    if (typeof r === "string") return { output: r };
    return r;
  });

  rpc.handle("command", async ({ name, args }: { name: string; args: string }) => {
    const cmd = contributions.commands.find((c) => c.name.replace(/^\//, "") === name);
    if (!cmd) throw new Error(`No command ${name} in this plugin`);
    return (await (cmd.handler as (a: string) => unknown)(args)) ?? null;
  });

  rpc.handle("builder", async ({ name, messages, ctx }: { name: string; messages: unknown[]; ctx: unknown }) => {
    const b = contributions.builders.find((x) => x.name === name);
    if (!b) throw new Error(`No message builder ${name} in this plugin`);
    return await (b.build as (m: unknown[], c: unknown) => unknown)(messages, ctx);
  });

  return rpc;
}
