/**
 * The host side of a sandboxed plugin: a PluginEntry whose tools, hooks, commands and message
 * builders are proxies to the plugin's own worker. Every call has a time limit; a call that
 * runs over (an infinite loop) terminates the worker, so the tab never freezes, and the next call
 * starts a fresh worker and runs `setup` again. An idle worker is evicted after 30 minutes the
 * same way. Sandboxed tools reach the workspace only through the host calls handled here
 * (read, list, and — in modes that allow it, for tools declaring file-write — write).
 */
import { z } from "zod";
import type { AgentHooks, HookPoint } from "../../agent/hooks";
import { EFFECT_CLASSES, errorResult, type EffectClass, type ToolDefinition } from "../../tools/define";
import type { WorkspaceFs } from "../../fs/workspace-fs";
import type { PluginEntry } from "../host";
import type { Contributions, PluginSource } from "../types";
import { Rpc, RpcTimeout, json, type Port } from "./rpc";
import type { LoadParams, PluginDescriptor, ToolDescriptor } from "./protocol";

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

function toolFromDescriptor(d: ToolDescriptor, call: (input: unknown, ctx: { mode: string; readOnly: boolean; sessionId: string; toolCallId: string }) => Promise<unknown>): ToolDefinition {
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
      const r = (await call(input, { mode: ctx.mode, readOnly: ctx.readOnly, sessionId: ctx.sessionId, toolCallId: ctx.toolCallId })) as { output?: unknown; isError?: unknown; summary?: unknown } | null;
      if (!r || typeof r.output !== "string") return errorResult(`The plugin tool ${d.name} returned no output.`);
      return { output: r.output, isError: r.isError === true, summary: typeof r.summary === "string" ? r.summary : undefined };
    },
  };
}

export function sandboxedEntry(opts: SandboxOptions): PluginEntry {
  const t = { ...DEFAULT_SANDBOX_TIMEOUTS, ...opts.timeouts };
  let worker: WorkerHandle | undefined;
  let rpc: Rpc | undefined;
  let starting: Promise<{ rpc: Rpc; descriptor: PluginDescriptor }> | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  let writableEffects = new Map<string, boolean>();

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
    if (worker) idle = setTimeout(() => stop("idle"), t.idleMs);
  };

  const start = (): Promise<{ rpc: Rpc; descriptor: PluginDescriptor }> => {
    if (disposed) return Promise.reject(new Error(`The plugin ${opts.name} is disabled`));
    starting ??= (async () => {
      const w = opts.createWorker();
      worker = w;
      const r = new Rpc(w);
      rpc = r;
      w.onerror = () => stop(`The plugin ${opts.name} crashed`);
      r.handle("host.log", ({ level, message }: { level: string; message: string }) => opts.onLog?.(String(level), String(message).slice(0, 2000)));
      r.handle("host.steer", ({ text }: { text: string }) => opts.onSteer?.(String(text)));
      r.handle("host.telemetry", ({ name, value }: { name: string; value: number }) => opts.onLog?.("count", `${String(name)} +${Number(value)}`));
      r.handle("host.readFile", async ({ path }: { path: string }) => {
        if (!opts.wsfs) throw new Error("No workspace");
        return opts.wsfs.readText(String(path));
      });
      r.handle("host.listFiles", async ({ path }: { path?: string }) => {
        if (!opts.wsfs) throw new Error("No workspace");
        return (await opts.wsfs.listFiles(String(path ?? ""))).slice(0, 10_000);
      });
      r.handle("host.writeFile", async ({ path, text, toolCallId }: { path: string; text: string; toolCallId: string }) => {
        if (!opts.wsfs) throw new Error("No workspace");
        if (!writableEffects.get(String(toolCallId))) throw new Error("This tool may not write files (it did not declare file-write, or the mode is read-only)");
        await opts.wsfs.writeFile(String(path), String(text), { origin: "agent" });
      });
      opts.onStart?.();
      try {
        const descriptor = await r.call<PluginDescriptor>("load", { name: opts.name, source: opts.source, ctx: opts.loadContext } satisfies LoadParams, t.loadMs);
        armIdle();
        return { rpc: r, descriptor };
      } catch (e) {
        stop(`The plugin ${opts.name} failed to load`);
        throw e instanceof RpcTimeout ? new Error(`Plugin ${opts.name}: loading took longer than ${t.loadMs / 1000} s`) : e;
      }
    })();
    return starting;
  };

  /** One call to the worker: restart it if needed; a call over its limit kills the worker. */
  const call = async <T>(method: string, params: unknown, timeoutMs: number): Promise<T> => {
    const { rpc: r } = await start();
    clearTimeout(idle);
    try {
      return await r.call<T>(method, params, timeoutMs);
    } catch (e) {
      if (e instanceof RpcTimeout) {
        stop(`The plugin ${opts.name} was stopped: it did not answer in time`);
        throw new Error(`The plugin ${opts.name} did not answer within ${timeoutMs / 1000} s and was stopped (it restarts on its next call)`);
      }
      throw e;
    } finally {
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
            writableEffects.set(ctx.toolCallId, mayWrite);
            try {
              return await call("tool", { name: td.name, input, ctx }, t.toolMs);
            } finally {
              writableEffects.delete(ctx.toolCallId);
            }
          }),
        ),
        commands: d.commands.map((cmd) => ({
          name: cmd.name,
          description: cmd.description,
          handler: async (args: string) => (await call<string | { reply?: string; submitPrompt?: string } | null>("command", { name: cmd.name.replace(/^\//, ""), args }, t.commandMs)) ?? undefined,
        })),
        rules: d.rules,
        builders: d.builders.map((name) => ({
          name,
          build: async (messages, ctx) => {
            const out = await call<unknown>("builder", { name, messages, ctx: { sessionId: ctx.sessionId, modelId: ctx.modelId, contextWindow: ctx.contextWindow } }, t.hookMs);
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
            const out = await call<unknown>("hook", { point, ctx: json(data) }, t.hookMs);
            return out ?? undefined;
          };
        }
        c.hooks = hooks;
      }
      return { manifest: d.manifest, contributions: c };
    },
    dispose() {
      disposed = true;
      writableEffects = new Map();
      stop(`The plugin ${opts.name} was disabled`);
    },
  };
}
