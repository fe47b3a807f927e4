/**
 * The host side of a sandboxed plugin: a PluginEntry whose tools, hooks, commands and message
 * builders are proxies to the plugin's own worker (in the browser: a worker inside an
 * opaque-origin iframe with a no-connection CSP, see iframe-worker.ts). Every call has a time
 * limit; a call that runs over (an infinite loop) terminates the worker, so the tab never
 * freezes, and the next call starts a fresh worker and runs `setup` again. An idle worker is
 * evicted after 30 minutes the same way.
 *
 * The worker is not trusted: the plugin can rewrite the runtime that speaks for it. So this
 * side checks everything it receives (protocol.ts's zod schemas): the description `load`
 * returns must be covered by the plugin's manifest, each result must have its shape, and the
 * workspace is reached only through host calls that name the token of a call the host is
 * running for this plugin now — a read sent outside any tool call, hook or command names no
 * live token and is refused. Writes also need a tool that declared file-write, in a mode
 * that allows writing.
 */
import { z } from "zod";
import type { AgentHooks, HookPoint } from "../../agent/hooks";
import { EFFECT_CLASSES, type EffectClass, type ToolDefinition } from "../../tools/define";
import type { WorkspaceFs } from "../../fs/workspace-fs";
import type { PluginEntry } from "../host";
import type { Contributions, PluginSource } from "../types";
import type { Capability } from "../types";
import { Rpc, RpcClosed, RpcTimeout, json, type Port } from "./rpc";
import { DESCRIPTOR_CAPABILITY, commandResultSchema, hookResultSchema, hostMethods, pluginDescriptorSchema, toolResultSchema, type LoadParams, type PluginDescriptor, type ToolDescriptor } from "./protocol";

const STOPPED_FOR_ANOTHER = (name: string) => `The plugin ${name} was restarted because another of its calls ran over its time limit; this call had begun and was cut off`;

export type WorkerHandle = Port & { terminate(): void; onerror?: ((e: unknown) => void) | null };

export type SandboxTimeouts = { loadMs: number; hookMs: number; toolMs: number; commandMs: number; idleMs: number };
export const DEFAULT_SANDBOX_TIMEOUTS: SandboxTimeouts = { loadMs: 10_000, hookMs: 3_000, toolMs: 60_000, commandMs: 10_000, idleMs: 30 * 60_000 };

export type SandboxOptions = {
  name: string;
  source: string;
  origin: string;
  sourceKind: PluginSource;
  createWorker(): WorkerHandle;
  /** The workspace the plugin's tools may read (and write, when allowed). */
  wsfs?: WorkspaceFs;
  loadContext: LoadParams["ctx"];
  timeouts?: Partial<SandboxTimeouts>;
  onLog?(level: string, message: string): void;
  /** A plugin steered a note into the session. */
  onSteer?(text: string): void;
  /** Called when the worker is (re)started: for the plugins view and tests. */
  onStart?(): void;
};

function toolFromDescriptor(d: ToolDescriptor, call: (input: unknown, ctx: { mode: string; readOnly: boolean; sessionId: string; toolCallId: string }) => Promise<{ output: string; isError?: boolean; summary?: string }>): ToolDefinition {
  let schema: z.ZodType;
  try {
    schema = z.fromJSONSchema(d.inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    schema = z.record(z.string(), z.unknown());
  }
  const effects = d.effects.filter((e): e is EffectClass => EFFECT_CLASSES.includes(e as EffectClass));
  return {
    name: d.name,
    description: d.description,
    inputSchema: schema,
    effects: effects.length ? effects : ["read"],
    async execute(input, ctx) {
      const r = await call(input, { mode: ctx.mode, readOnly: ctx.readOnly, sessionId: ctx.sessionId, toolCallId: ctx.toolCallId });
      return { output: r.output, isError: r.isError === true, summary: r.summary };
    },
  };
}

/** A call token: unguessable, so a plugin cannot name a call it was not given. */
function newCallToken(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Check a descriptor from the sandbox: well-formed, and every contribution covered by its manifest. */
export function checkDescriptor(raw: unknown): PluginDescriptor {
  const parsed = pluginDescriptorSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`The plugin sandbox answered an invalid description of the plugin: ${z.prettifyError(parsed.error).replace(/\n+/g, " ").slice(0, 400)}`);
  const d = parsed.data as PluginDescriptor;
  for (const [part, capability] of Object.entries(DESCRIPTOR_CAPABILITY) as [keyof typeof DESCRIPTOR_CAPABILITY, Capability][]) {
    if ((d[part] as unknown[]).length && !d.manifest.capabilities.includes(capability)) {
      throw new Error(`Plugin "${d.name}" contributes ${part} without the "${capability}" capability in its manifest`);
    }
  }
  return d;
}

type CallScope = { kind: "tool" | "hook" | "command" | "builder"; mayWrite: boolean };

export function sandboxedEntry(opts: SandboxOptions): PluginEntry {
  const t = { ...DEFAULT_SANDBOX_TIMEOUTS, ...opts.timeouts };
  let worker: WorkerHandle | undefined;
  let rpc: Rpc | undefined;
  let starting: Promise<{ rpc: Rpc; descriptor: PluginDescriptor }> | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  // The calls the host is running for this plugin now, by token: the only times it may touch the workspace.
  const inFlight = new Map<string, CallScope>();

  const stop = (reason: string) => {
    clearTimeout(idle);
    rpc?.close(reason);
    worker?.terminate();
    worker = undefined;
    rpc = undefined;
    starting = undefined;
  };

  const armIdle = () => {
    clearTimeout(idle);
    if (worker && inFlight.size === 0) idle = setTimeout(() => stop("idle"), t.idleMs);
  };

  /** A refusal: the plugin gets the error, and the plugin log says what was refused. */
  const refuse = (message: string): never => {
    opts.onLog?.("warn", `refused: ${message}`);
    throw new Error(message);
  };
  const scopeOf = (method: string, token: string): CallScope => {
    const scope = inFlight.get(token);
    if (!scope) refuse(`${method} is only available while the host runs one of this plugin's tools, hooks or commands (no such call is in flight)`);
    return scope!;
  };

  const start = (): Promise<{ rpc: Rpc; descriptor: PluginDescriptor }> => {
    if (disposed) return Promise.reject(new Error(`The plugin ${opts.name} is disabled`));
    starting ??= (async () => {
      const w = opts.createWorker();
      worker = w;
      const r = new Rpc(w, { onRefused: (why) => opts.onLog?.("warn", why) });
      rpc = r;
      w.onerror = () => {
        if (rpc === r) stop(`The plugin ${opts.name} crashed`);
      };
      r.handle("host.log", ({ level, message }) => opts.onLog?.(level, message.slice(0, 2000)), hostMethods["host.log"]);
      r.handle("host.steer", ({ text }) => opts.onSteer?.(text), hostMethods["host.steer"]);
      r.handle("host.telemetry", ({ name, value }) => opts.onLog?.("count", `${name} +${value}`), hostMethods["host.telemetry"]);
      r.handle(
        "host.readFile",
        async ({ call, path }) => {
          scopeOf("readFile", call);
          if (!opts.wsfs) throw new Error("No workspace");
          return opts.wsfs.readText(path);
        },
        hostMethods["host.readFile"],
      );
      r.handle(
        "host.listFiles",
        async ({ call, path }) => {
          scopeOf("listFiles", call);
          if (!opts.wsfs) throw new Error("No workspace");
          return (await opts.wsfs.listFiles(path ?? "")).slice(0, 10_000);
        },
        hostMethods["host.listFiles"],
      );
      r.handle(
        "host.writeFile",
        async ({ call, path, text }) => {
          const scope = scopeOf("writeFile", call);
          if (!scope.mayWrite) refuse("This tool may not write files (it did not declare file-write, or the mode is read-only)");
          if (!opts.wsfs) throw new Error("No workspace");
          await opts.wsfs.writeFile(path, text, { origin: "agent" });
        },
        hostMethods["host.writeFile"],
      );
      opts.onStart?.();
      try {
        const raw = await r.call<unknown>("load", { name: opts.name, source: opts.source, ctx: opts.loadContext } satisfies LoadParams, t.loadMs);
        const descriptor = checkDescriptor(raw);
        armIdle();
        return { rpc: r, descriptor };
      } catch (e) {
        if (rpc === r) stop(`The plugin ${opts.name} failed to load`);
        throw e instanceof RpcTimeout ? new Error(`Plugin ${opts.name}: loading took longer than ${t.loadMs / 1000} s`) : e;
      }
    })();
    return starting;
  };

  /**
   * One call to the worker, under a fresh call token: restart the worker if needed; a call over
   * its limit kills the worker. Killing it must not fail the plugin's other calls: one that was
   * queued behind the stuck one and never began is sent again to the fresh worker; one that had
   * begun is cut off and says so.
   */
  const call = async <T>(method: string, params: Record<string, unknown>, timeoutMs: number, scope: CallScope, retried = false): Promise<T> => {
    const { rpc: r } = await start();
    clearTimeout(idle);
    const token = newCallToken();
    inFlight.set(token, scope);
    try {
      return await r.call<T>(method, { ...params, call: token }, timeoutMs);
    } catch (e) {
      if (e instanceof RpcTimeout) {
        if (rpc === r) stop(STOPPED_FOR_ANOTHER(opts.name));
        throw new Error(`The plugin ${opts.name} did not answer within ${timeoutMs / 1000} s and was stopped (it restarts on its next call)`);
      }
      if (e instanceof RpcClosed && !e.started && !disposed && !retried) {
        inFlight.delete(token);
        return call<T>(method, params, timeoutMs, scope, true);
      }
      throw e;
    } finally {
      inFlight.delete(token);
      armIdle();
    }
  };

  return {
    name: opts.name,
    source: opts.sourceKind,
    origin: opts.origin,
    sandboxed: true,
    async load() {
      disposed = false;
      const { descriptor: d } = await start();
      const c: Contributions = {
        tools: d.tools.map((td) =>
          toolFromDescriptor(td, async (input, ctx) => {
            const mayWrite = td.effects.includes("file-write") && !ctx.readOnly;
            const out = await call<unknown>("tool", { name: td.name, input, ctx }, t.toolMs, { kind: "tool", mayWrite });
            const r = toolResultSchema.safeParse(out);
            if (!r.success) throw new Error(`The plugin tool ${td.name} answered something that is not a tool result ({ output: string, isError?, summary? })`);
            return r.data;
          }),
        ),
        commands: d.commands.map((cmd) => ({
          name: cmd.name,
          description: cmd.description,
          handler: async (args: string) => {
            const out = commandResultSchema.safeParse(await call<unknown>("command", { name: cmd.name.replace(/^\//, ""), args }, t.commandMs, { kind: "command", mayWrite: false }));
            if (!out.success) throw new Error(`The plugin command ${cmd.name} answered something that is not a reply (a string or { reply?, submitPrompt? })`);
            return out.data ?? undefined;
          },
        })),
        rules: d.rules,
        builders: d.builders.map((name) => ({
          name,
          build: async (messages, ctx) => {
            const out = await call<unknown>("builder", { name, messages, ctx: { sessionId: ctx.sessionId, modelId: ctx.modelId, contextWindow: ctx.contextWindow } }, t.hookMs, { kind: "builder", mayWrite: false });
            if (!Array.isArray(out)) throw new Error(`Message builder ${name} did not return a message list`);
            return out as typeof messages;
          },
        })),
        providers: d.providers,
        automationEventTypes: d.automationEventTypes,
        mcpServers: d.mcpServers,
      };
      if (d.hooks.length) {
        const hooks: AgentHooks = {};
        for (const point of d.hooks) {
          (hooks as Record<HookPoint, unknown>)[point] = async (ctx: Record<string, unknown>) => {
            // Streamed tokens are not sent across (one message per token would flood the bridge).
            if (point === "onEvent" && (ctx.type === "text-delta" || ctx.type === "reasoning-delta")) return undefined;
            // Tools are definitions with functions: only their names cross.
            const data = { ...ctx, tool: ctx.tool ? { name: (ctx.tool as { name: string }).name } : undefined };
            const out = hookResultSchema.safeParse(await call<unknown>("hook", { point, ctx: json(data) }, t.hookMs, { kind: "hook", mayWrite: false }));
            if (!out.success) throw new Error(`The plugin's ${point} hook answered something that is not a decision object`);
            return out.data ?? undefined;
          };
        }
        c.hooks = hooks;
      }
      return { manifest: d.manifest, contributions: c };
    },
    dispose() {
      disposed = true;
      inFlight.clear();
      stop(`The plugin ${opts.name} was disabled`);
    },
  };
}
