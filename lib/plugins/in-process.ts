/**
 * Running a workspace or user plugin in the page, for plugins the user marked as trusted (opt-in):
 * no worker, no time-limited bridge, full access. Its tools may give JSON Schema (as sandboxed
 * tools do) or zod schemas.
 */
import { z } from "zod";
import type { PluginEntry } from "./host";
import { validatePlugin } from "./manifest";
import { setupInProcess } from "./load";
import type { PluginContext, PluginSource } from "./types";
import { EFFECT_CLASSES, type EffectClass, type ToolDefinition } from "../tools/define";
import { moduleDataUrl } from "./data-url";


function isZod(x: unknown): x is z.ZodType {
  return !!x && typeof x === "object" && typeof (x as { safeParse?: unknown }).safeParse === "function";
}

/** A tool as a plugin file writes it, made a ToolDefinition (JSON Schema → zod, effects checked). */
export function normalizeTool(t: ToolDefinition): ToolDefinition {
  const effects = (Array.isArray(t.effects) ? t.effects : []).filter((e): e is EffectClass => EFFECT_CLASSES.includes(e));
  let schema: z.ZodType;
  if (isZod(t.inputSchema)) schema = t.inputSchema;
  else {
    try {
      schema = z.fromJSONSchema(t.inputSchema as unknown as Parameters<typeof z.fromJSONSchema>[0]);
    } catch {
      schema = z.record(z.string(), z.unknown());
    }
  }
  const execute = t.execute;
  return {
    ...t,
    inputSchema: schema,
    effects: effects.length ? effects : ["read"],
    async execute(input, ctx, plan) {
      const r = (await execute(input, ctx, plan)) as unknown;
      return typeof r === "string" ? { output: r } : (r as Awaited<ReturnType<ToolDefinition["execute"]>>);
    },
  };
}

export function inProcessEntry(opts: { name: string; origin: string; source: string; sourceKind: PluginSource; ctx: PluginContext }): PluginEntry {
  return {
    name: opts.name,
    source: opts.sourceKind,
    origin: opts.origin,
    sandboxed: false,
    async load() {
      const mod = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ moduleDataUrl(opts.source))) as Record<string, unknown>;
      const plugin = validatePlugin(mod.default ?? mod.plugin, opts.name);
      const c = await setupInProcess(plugin, opts.ctx);
      c.tools = c.tools.map(normalizeTool);
      return { manifest: plugin.manifest, contributions: c };
    },
  };
}
