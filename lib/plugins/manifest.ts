/**
 * Manifest and registration checks. The manifest is validated before `setup` runs; every
 * `api.register*` call, and `hooks` itself, must be covered by a declared capability (Cline's
 * SDK checks only some of them: here all are).
 */
import { z } from "zod";
import { HOOK_POINTS } from "../agent/hooks";
import { CAPABILITIES, type Capability, type Plugin, type PluginManifest } from "./types";

export class PluginError extends Error {
  constructor(
    readonly plugin: string,
    message: string,
  ) {
    super(message);
    this.name = "PluginError";
  }
}

const manifestSchema = z.object({
  capabilities: z.array(z.string(), { error: "capabilities must be a list" }).min(1, "capabilities cannot be empty"),
  providerIds: z.array(z.string(), { error: "providerIds must be a list of strings" }).optional(),
  modelIds: z.array(z.string(), { error: "modelIds must be a list of strings" }).optional(),
});

const NAME_RE = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

/** The plugin, checked: a name, a valid manifest, functions where functions belong. Throws PluginError. */
export function validatePlugin(raw: unknown, fallbackName = "plugin"): Plugin {
  if (!raw || typeof raw !== "object") throw new PluginError(fallbackName, `Invalid plugin "${fallbackName}": expected an object export`);
  const p = raw as Record<string, unknown>;
  const name = typeof p.name === "string" ? p.name.trim() : "";
  if (!NAME_RE.test(name)) throw new PluginError(fallbackName, `Invalid plugin "${fallbackName}": a plugin needs a name of letters, digits, . _ - (got ${JSON.stringify(p.name)})`);
  const bad = (why: string) => new PluginError(name, `Invalid manifest for plugin "${name}": ${why}`);
  if (!p.manifest || typeof p.manifest !== "object") throw bad("the manifest is missing");
  const m = manifestSchema.safeParse(p.manifest);
  if (!m.success) throw bad(m.error.issues[0]!.message);
  const unknown = m.data.capabilities.filter((c) => !CAPABILITIES.includes(c as Capability));
  if (unknown.length) throw bad(`unknown capabilit${unknown.length === 1 ? "y" : "ies"} ${unknown.map((c) => JSON.stringify(c)).join(", ")} (known: ${CAPABILITIES.join(", ")})`);
  if (p.setup !== undefined && typeof p.setup !== "function") throw bad("setup must be a function");
  if (p.hooks !== undefined) {
    if (!p.hooks || typeof p.hooks !== "object") throw bad("hooks must be an object");
    if (!m.data.capabilities.includes("hooks")) throw bad('it defines hooks without the "hooks" capability');
    for (const [k, v] of Object.entries(p.hooks)) {
      if (!HOOK_POINTS.includes(k as never)) throw bad(`unknown hook "${k}" (known: ${HOOK_POINTS.join(", ")})`);
      if (typeof v !== "function") throw bad(`hook "${k}" must be a function`);
    }
  }
  if (p.hiddenPaths !== undefined) {
    const h = p.hiddenPaths as { policy?: unknown; reason?: unknown; test?: unknown } | null;
    if (!h || typeof h.test !== "function" || typeof h.policy !== "string" || typeof h.reason !== "string") throw bad("hiddenPaths must be { policy, reason, test(path) }");
  }
  const manifest: PluginManifest = { capabilities: [...new Set(m.data.capabilities)] as Capability[] };
  if (m.data.providerIds) manifest.providerIds = m.data.providerIds;
  if (m.data.modelIds) manifest.modelIds = m.data.modelIds;
  return { ...(raw as Plugin), name, manifest };
}

/** Throws unless the manifest declares `capability` (for `what`, e.g. "registerTool"). */
export function requireCapability(plugin: Pick<Plugin, "name" | "manifest">, capability: Capability, what: string): void {
  if (!plugin.manifest.capabilities.includes(capability)) {
    throw new PluginError(plugin.name, `Plugin "${plugin.name}" called ${what} without the "${capability}" capability in its manifest`);
  }
}

/** Does the plugin apply to this provider/model? (Empty or absent lists: everywhere.) */
export function matchesTargeting(manifest: PluginManifest, model: { provider?: string; modelId?: string } | undefined): boolean {
  if (manifest.providerIds?.length && !(model?.provider && manifest.providerIds.includes(model.provider))) return false;
  if (manifest.modelIds?.length && !(model?.modelId && manifest.modelIds.includes(model.modelId))) return false;
  return true;
}
