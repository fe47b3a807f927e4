/**
 * Provider settings, persisted through an injected storage (localStorage in the app, a Map in
 * tests). Keys are kept under their own storage key, in this origin only: never in the settings
 * object, never in events, never in session persistence, never logged. `redact` scrubs any
 * stored key out of a text (error messages) before it is shown.
 */
import type { ModelHandle, ModelSource } from "../agent/model-handle";
import { contextWindowFor } from "../agent/model-handle";
import { resolvePrice, type ModelPrice, type PriceSource, type PriceTable } from "../agent/pricing";
import type { AgentMode } from "../agent/types";
import { PROVIDER_PRESETS } from "./catalog";
import { createModel, type CreateModelOptions } from "./create";
import { DEMO_MODEL_ID } from "./demo-script";
import type { ModelChoice, ProviderConfig, ProviderSettings, ProviderWithKey, SettingsStorage } from "./types";

export const SETTINGS_KEY = "tabula.providers.v1";
export const KEYS_KEY = "tabula.provider-keys.v1";

export function defaultProviderSettings(): ProviderSettings {
  return {
    version: 1,
    providers: PROVIDER_PRESETS.map((p) => ({ ...p, models: [...(p.models ?? [])] })),
    modelByMode: { act: { providerId: "demo", modelId: DEMO_MODEL_ID } },
  };
}

export class ProviderSettingsStore {
  private keys: Record<string, string> = {};
  private settings: ProviderSettings | null = null;
  /** Providers plugins registered: listed with the others while the plugin runs, never saved. */
  private contributed: ProviderConfig[] = [];

  constructor(
    private readonly storage: SettingsStorage,
    private readonly names: { settings: string; keys: string } = { settings: SETTINGS_KEY, keys: KEYS_KEY },
  ) {}

  async load(): Promise<ProviderSettings> {
    const raw = await this.storage.getItem(this.names.settings);
    let s = defaultProviderSettings();
    if (raw) {
      try {
        const parsed = JSON.parse(raw) as ProviderSettings;
        if (parsed?.version === 1 && Array.isArray(parsed.providers)) {
          // Presets added in a later version appear; the user's edits win.
          const ids = new Set(parsed.providers.map((p) => p.id));
          s = {
            ...parsed,
            providers: [...parsed.providers.map(stripSecrets), ...s.providers.filter((p) => !ids.has(p.id))],
            modelByMode: parsed.modelByMode ?? s.modelByMode,
          };
        }
      } catch {
        // corrupt settings: start from the defaults
      }
    }
    const rawKeys = await this.storage.getItem(this.names.keys);
    try {
      const k = rawKeys ? (JSON.parse(rawKeys) as unknown) : {};
      this.keys = k && typeof k === "object" ? (k as Record<string, string>) : {};
    } catch {
      this.keys = {};
    }
    this.settings = s;
    return this.withContributed(s);
  }

  async save(settings: ProviderSettings): Promise<void> {
    const plugin = new Set(this.contributed.map((p) => p.id));
    const clean: ProviderSettings = { ...settings, providers: settings.providers.filter((p) => !plugin.has(p.id)).map(stripSecrets) };
    this.settings = clean;
    await this.storage.setItem(this.names.settings, JSON.stringify(clean));
  }

  private async current(): Promise<ProviderSettings> {
    return this.settings ? this.withContributed(this.settings) : await this.load();
  }

  /** The providers plugins contribute now (replaces the previous list). */
  setContributed(providers: ProviderConfig[]): void {
    this.contributed = providers.map(stripSecrets);
  }

  private withContributed(s: ProviderSettings): ProviderSettings {
    const ids = new Set(s.providers.map((p) => p.id));
    return clone({ ...s, providers: [...s.providers, ...this.contributed.filter((p) => !ids.has(p.id))] });
  }

  async upsertProvider(config: ProviderConfig): Promise<void> {
    const s = await this.current();
    const providers = s.providers.filter((p) => p.id !== config.id);
    providers.push(stripSecrets(config));
    await this.save({ ...s, providers });
  }

  async removeProvider(id: string): Promise<void> {
    const s = await this.current();
    await this.save({ ...s, providers: s.providers.filter((p) => p.id !== id) });
    await this.setKey(id, undefined);
  }

  /** Store (or with undefined, forget) the key of a provider. */
  async setKey(providerId: string, key: string | undefined): Promise<void> {
    await this.current();
    const next = { ...this.keys };
    if (key && key.trim()) next[providerId] = key.trim();
    else delete next[providerId];
    this.keys = next;
    if (Object.keys(next).length === 0) await this.storage.removeItem(this.names.keys);
    else await this.storage.setItem(this.names.keys, JSON.stringify(next));
  }

  hasKey(providerId: string): boolean {
    return !!this.keys[providerId];
  }

  async provider(providerId: string): Promise<ProviderWithKey | undefined> {
    const s = await this.current();
    const p = s.providers.find((x) => x.id === providerId);
    return p ? { ...p, apiKey: this.keys[providerId] } : undefined;
  }

  async chooseModel(mode: AgentMode, choice: ModelChoice | undefined): Promise<void> {
    const s = await this.current();
    const modelByMode = { ...s.modelByMode };
    if (choice) modelByMode[mode] = choice;
    else delete modelByMode[mode];
    await this.save({ ...s, modelByMode });
  }

  /** The choice for a mode: its own, else Act's, else the demo. */
  async choiceFor(mode: AgentMode): Promise<ModelChoice> {
    const s = await this.current();
    return s.modelByMode[mode] ?? s.modelByMode.act ?? { providerId: "demo", modelId: DEMO_MODEL_ID };
  }

  async modelFor(mode: AgentMode, opts: CreateModelOptions = {}): Promise<ModelHandle> {
    const choice = await this.choiceFor(mode);
    const p = await this.provider(choice.providerId);
    if (!p) throw new Error(`The provider "${choice.providerId}" chosen for ${mode} mode is not configured any more; pick a model in Settings.`);
    return createModel(p, choice.modelId, { contextWindow: await this.contextWindow(choice.providerId, choice.modelId), ...opts });
  }

  /** The context window of a model: the user's figure, the provider's, the catalog's, else a small default. */
  async contextWindow(providerId: string, modelId: string): Promise<number> {
    const s = await this.current();
    const provider = s.providers.find((p) => p.id === providerId);
    const own: Record<string, number> = {};
    const fromProvider = provider?.modelFacts?.[modelId]?.contextWindow;
    if (fromProvider) own[modelId] = fromProvider;
    return contextWindowFor(modelId, { ...own, ...(s.contextWindows ?? {}) });
  }

  /** The price of a model and where it comes from (custom, the provider's figures, the catalog), for the settings screen. */
  async priceInfo(modelId: string): Promise<{ price: ModelPrice; source: PriceSource } | undefined> {
    const s = await this.current();
    return resolvePrice(modelId, { custom: s.prices, provider: providerPrices(s) });
  }

  /** What AgentSession takes as `model`: the model configured for the session's mode. */
  modelSource(opts: CreateModelOptions = {}): ModelSource {
    return (mode) => this.modelFor(mode, opts);
  }

  /**
   * The models a session may name (a team role's `model`): those of the providers in use — the
   * one chosen for any mode, or one with a key — listed or chosen, by provider.
   */
  async availableModels(): Promise<{ providerId: string; modelId: string }[]> {
    const s = await this.current();
    const chosen = Object.values(s.modelByMode).filter((c): c is ModelChoice => !!c);
    const out: { providerId: string; modelId: string }[] = [];
    const seen = new Set<string>();
    for (const p of s.providers) {
      const inUse = chosen.some((c) => c.providerId === p.id) || this.hasKey(p.id);
      if (!inUse) continue;
      for (const modelId of [...chosen.filter((c) => c.providerId === p.id).map((c) => c.modelId), ...(p.models ?? [])]) {
        const k = `${p.id}\u0000${modelId}`;
        if (seen.has(k)) continue;
        seen.add(k);
        out.push({ providerId: p.id, modelId });
      }
    }
    return out;
  }

  /**
   * A model named by id (a team role's model), from the provider the mode uses if it offers
   * it, else from the first provider in use that does; an id no provider in use offers is an
   * error that says which ones there are.
   */
  async modelById(modelId: string, mode: AgentMode, opts: CreateModelOptions = {}): Promise<ModelHandle> {
    const available = await this.availableModels();
    const own = await this.choiceFor(mode);
    const pick = available.find((m) => m.modelId === modelId && m.providerId === own.providerId) ?? available.find((m) => m.modelId === modelId);
    if (!pick) throw new Error(`No provider in use offers the model "${modelId}" (available: ${available.map((m) => m.modelId).join(", ") || "none"}). Add it under Models, or leave the role's model out.`);
    const p = await this.provider(pick.providerId);
    if (!p) throw new Error(`The provider "${pick.providerId}" is not configured any more.`);
    return createModel(p, modelId, { contextWindow: await this.contextWindow(pick.providerId, modelId), ...opts });
  }

  /** `modelSource`, or the named model when there is one (a team role's). */
  modelSourceFor(modelId: string | undefined, opts: CreateModelOptions = {}): ModelSource {
    return modelId ? (mode) => this.modelById(modelId, mode, opts) : this.modelSource(opts);
  }

  /** The prices a session charges over the catalog: the user's, over the providers' own figures. */
  async prices(): Promise<PriceTable> {
    const s = await this.current();
    return { ...providerPrices(s), ...(s.prices ?? {}) };
  }

  /** Set (or with undefined, remove) the user's price for a model. */
  async setCustomPrice(modelId: string, price: ModelPrice | undefined): Promise<void> {
    const s = await this.current();
    const prices = { ...(s.prices ?? {}) };
    if (price) prices[modelId] = price;
    else delete prices[modelId];
    await this.save({ ...s, prices });
  }

  async setPrices(prices: ProviderSettings["prices"]): Promise<void> {
    const s = await this.current();
    await this.save({ ...s, prices });
  }

  /** Every stored key (for scrubbing). */
  secrets(): string[] {
    return Object.values(this.keys).filter((k) => typeof k === "string" && k.length >= 6);
  }

  /** Replace any stored key in `text` by "[redacted]". */
  readonly redact = (text: string): string => {
    let out = text;
    for (const k of this.secrets()) out = out.split(k).join("[redacted]");
    return out;
  };
}

/** Every price a provider's model list reported, by model id. */
export function providerPrices(s: ProviderSettings): PriceTable {
  const out: PriceTable = {};
  for (const p of s.providers) for (const [id, f] of Object.entries(p.modelFacts ?? {})) if (f.price) out[id] = f.price;
  return out;
}

function stripSecrets(p: ProviderConfig): ProviderConfig {
  const { apiKey: _drop, ...rest } = p as ProviderWithKey;
  void _drop;
  const headers = rest.headers ? Object.fromEntries(Object.entries(rest.headers).filter(([k]) => !/^(authorization|x-api-key|api-key)$/i.test(k))) : undefined;
  return { ...rest, ...(headers ? { headers } : {}) };
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** A SettingsStorage over a Map (tests, server-side rendering). */
export function memoryStorage(initial: Record<string, string> = {}): SettingsStorage & { dump(): Record<string, string> } {
  const m = new Map(Object.entries(initial));
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    dump: () => Object.fromEntries(m),
  };
}
