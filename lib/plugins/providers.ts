/** A plugin's provider as the settings store lists it (its id prefixed, so it cannot shadow a user's). */
import type { ProviderConfig } from "../providers/types";
import type { ProviderContribution } from "./types";

export function toProviderConfig(c: ProviderContribution): ProviderConfig {
  const kind = c.kind === "anthropic" || c.kind === "openai" ? c.kind : "openai-compatible";
  return {
    id: `plugin-${c.id.replace(/[^A-Za-z0-9_-]+/g, "-")}`,
    kind,
    label: `${c.name} (plugin)`,
    baseURL: c.baseURL,
    models: Array.isArray(c.models) ? c.models.filter((m): m is string => typeof m === "string").slice(0, 200) : [],
    needsKey: c.needsKey ?? kind !== "openai-compatible",
  };
}
