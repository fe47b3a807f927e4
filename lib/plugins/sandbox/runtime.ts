/**
 * The sandbox side: runs inside a dedicated Web Worker (or a Node worker thread in tests).
 *
 * In the browser the guarantee is not made here: the worker lives in an opaque-origin iframe
 * whose CSP refuses every connection and every string-to-code path (iframe-worker.ts), and the
 * host checks every message (sandboxed.ts). What this file does is a second layer, and a
 * friendlier one: before any plugin code runs, the worker's ways out are removed from the global
 * scope — storage (IndexedDB, caches), network (fetch, XHR, WebSocket, WebTransport,
 * EventSource), nested workers, importScripts — and eval, the Function constructors and string
 * timers, so a plugin that reaches for them gets `undefined` or a clear error; and a plugin whose
 * text shows an `import` is refused with a message. Both can be out-guessed (originals remain on
 * the prototype chain; a comment inside `import (…)` passes the text check): that is why they are
 * not the guarantee.
 */
import "./zod-jitless"; // first: before any schema is created
import { validatePlugin } from "../manifest";
import { emptyContributions, recordingApi, withTimeout } from "../load";
import type { Plugin, PluginContext } from "../types";
import type { AgentHooks, HookPoint } from "../../agent/hooks";
import { Rpc, type Port } from "./rpc";
import type { LoadParams, PluginDescriptor, SandboxToolContext } from "./protocol";
import { moduleDataUrl } from "../data-url";

const BLOCKED_GLOBALS = [
  "indexedDB",
  "caches",
  "fetch",
  "fetchLater",
  "XMLHttpRequest",
  "WebSocket",
  "WebSocketStream",
  "WebTransport",
  "EventSource",
  "Worker",
  "SharedWorker",
  "importScripts",
  "BroadcastChannel",
  "localStorage",
  "sessionStorage",
  "open",
];

const NO_CODE_FROM_STRINGS = "Making code from strings (eval, Function, string timers) is not available in the plugin sandbox";

/**
 * Code from strings is the other way to reach the network (`import()` inside an eval'd
 * string): eval, the Function constructors (also reached as `(() => {}).constructor`) and
 * string timers are disabled. `Function` keeps its prototype, so `instanceof Function` works.
 */
export function disableCodeFromStrings(scope: Record<string, unknown>): void {
  const Real = Function;
  const blocked = function () {
    throw new Error(NO_CODE_FROM_STRINGS);
  } as unknown as FunctionConstructor;
  Object.defineProperty(blocked, "prototype", { value: Real.prototype });
  const protos = [Real.prototype, Object.getPrototypeOf(async function () {}), Object.getPrototypeOf(function* () {}), Object.getPrototypeOf(async function* () {})];
  for (const proto of protos) Object.defineProperty(proto, "constructor", { value: blocked, configurable: false, writable: false });
  Object.defineProperty(scope, "Function", { value: blocked, configurable: false, writable: false });
  Object.defineProperty(scope, "eval", { value: blocked, configurable: false, writable: false });
  for (const name of ["setTimeout", "setInterval"] as const) {
    const real = scope[name] as (handler: unknown, ...rest: unknown[]) => unknown;
    if (typeof real !== "function") continue;
    Object.defineProperty(scope, name, {
      value: (handler: unknown, ...rest: unknown[]) => {
        if (typeof handler !== "function") throw new Error(NO_CODE_FROM_STRINGS);
        return real.call(scope, handler, ...rest);
      },
      configurable: false,
      writable: false,
    });
  }
}

/** A plugin is one self-contained file: `import`/`export … from` would load code (or reach the network). */
export function findImport(source: string): string | undefined {
  const m = /\bimport\s*\(|(?:^|[;\n])\s*import\s+(?:[\w$*{}\s,]+\s+from\s*)?["']|(?:^|[;\n])\s*export\s+(?:\*|\{[^}]*\})\s*from\s*["']/.exec(source);
  return m ? source.slice(m.index, m.index + 60).trim() : undefined;
}

/** Remove the worker's ways out (best effort per global; what cannot be removed is reported). */
export function hardenGlobals(scope: Record<string, unknown>): string[] {
  const left: string[] = [];
  for (const name of BLOCKED_GLOBALS) {
    if (!(name in scope)) continue;
    // The originals also live on the global's prototypes (WorkerGlobalScope.prototype…): shadow them there too.
    for (let proto = Object.getPrototypeOf(scope); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      if (!Object.prototype.hasOwnProperty.call(proto, name)) continue;
      try {
        Object.defineProperty(proto, name, { value: undefined, configurable: false, writable: false });
      } catch {
        left.push(`${name} (prototype)`);
      }
    }
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
    const found = findImport(p.source);
    if (found) throw new Error(`Plugin ${p.name} could not be loaded: a plugin is a single file, and import is not available in the sandbox (found ${JSON.stringify(found)})`);
    if (opts.harden !== false) {
      const scope = opts.scope ?? (globalThis as unknown as Record<string, unknown>);
      hardenGlobals(scope);
      disableCodeFromStrings(scope);
    }
    let mod: Record<string, unknown>;
    try {
      mod = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ moduleDataUrl(p.source))) as Record<string, unknown>;
    } catch (e) {
      throw new Error(`Plugin ${p.name} could not be loaded: ${(e as Error).message}`);
    }
    plugin = validatePlugin(mod.default ?? mod.plugin, p.name);
    const logger = {
      info: (m: string) => void rpc.call("host.log", { level: "info", message: String(m).slice(0, 2000) }).catch(() => undefined),
      warn: (m: string) => void rpc.call("host.log", { level: "warn", message: String(m).slice(0, 2000) }).catch(() => undefined),
      error: (m: string) => void rpc.call("host.log", { level: "error", message: String(m).slice(0, 2000) }).catch(() => undefined),
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

  rpc.handle("tool", async ({ name, input, ctx, call }: { name: string; input: unknown; ctx: Omit<SandboxToolContext, "call">; call: string }) => {
    const tool = contributions.tools.find((t) => t.name === name);
    if (!tool) throw new Error(`No tool ${name} in this plugin`);
    // Host calls name this call's token: the host honours them only while the call runs.
    const host = {
      ...ctx,
      readFile: (path: string) => rpc.call<string>("host.readFile", { call, path: String(path) }),
      listFiles: (path = "") => rpc.call<string[]>("host.listFiles", { call, path: String(path) }),
      writeFile: (path: string, text: string) => rpc.call<void>("host.writeFile", { call, path: String(path), text: String(text) }),
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
