"use client";
import { useEffect, useState } from "react";
import { listModelDetails, providerPrices, type ProviderSettingsStore, type ProviderSettings, type ProviderConfig } from "@/lib/providers";
import { contextWindowFor, resolvePrice, type ModelPrice } from "@/lib/agent";
import { Dialog } from "@/components/common/Dialog";
import { PackageSettingsStore, type PackageSettings } from "@/lib/packages/settings";

/**
 * Keys, base URLs and the model per mode. Keys are kept in this browser's storage only and are sent
 * nowhere but to their provider; they never enter a session, a log, a checkpoint or a share.
 */
export function ProviderSettingsDialog(props: { store: ProviderSettingsStore; onClose: () => void; onSaved: () => void }) {
  const [settings, setSettings] = useState<ProviderSettings>();
  const [keys, setKeys] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Record<string, string>>({});
  const packageStore = useState(() => new PackageSettingsStore(localStorage))[0];
  const [packages, setPackages] = useState<PackageSettings>(() => packageStore.get());
  const [packagesError, setPackagesError] = useState<string>();

  useEffect(() => {
    void props.store.load().then(setSettings);
  }, [props.store]);

  if (!settings) return null;
  const act = settings.modelByMode.act;
  const plan = settings.modelByMode.plan;

  const update = (id: string, patch: Partial<ProviderConfig>) =>
    setSettings({ ...settings, providers: settings.providers.map((p) => (p.id === id ? { ...p, ...patch } : p)) });

  const fetchModels = async (config: ProviderConfig) => {
    setStatus((s) => ({ ...s, [config.id]: "Listing models…" }));
    try {
      const stored = await props.store.provider(config.id);
      const { ids: models, facts } = await listModelDetails({ ...config, apiKey: keys[config.id] || stored?.apiKey });
      // The provider's own figures (OpenRouter's prices and context lengths) are kept with it.
      update(config.id, { models, modelFacts: Object.keys(facts).length ? facts : undefined });
      setStatus((s) => ({ ...s, [config.id]: `${models.length} models` }));
    } catch (e) {
      setStatus((s) => ({ ...s, [config.id]: (e as Error).message }));
    }
  };

  const options = settings.providers.flatMap((p) => (p.models ?? []).map((m) => ({ value: `${p.id}\u0000${m}`, label: `${p.label} · ${m}` })));
  const choice = (value: string) => {
    const [providerId, modelId] = value.split("\u0000");
    return value ? { providerId, modelId } : undefined;
  };

  return (
    <Dialog
      title="Models and keys"
      onCancel={props.onClose}
      actions={
        <>
          <button onClick={props.onClose}>Cancel</button>
          <button
            className="primary"
            onClick={async () => {
              try {
                packageStore.set(packages);
              } catch (e) {
                setPackagesError((e as Error).message);
                return;
              }
              await props.store.save(settings);
              for (const [id, key] of Object.entries(keys)) if (key) await props.store.setKey(id, key);
              props.onSaved();
              props.onClose();
            }}
          >
            Save
          </button>
        </>
      }
    >
      <p className="muted" style={{ marginTop: 0 }}>
        Keys stay in this browser and go only to their provider. Local servers need CORS: Ollama with <code>OLLAMA_ORIGINS={typeof location !== "undefined" ? location.origin : "…"}</code>, LM Studio with
        “Enable CORS”.
      </p>
      <div className="settings-grid">
        <label>
          Model in Act mode
          <select aria-label="Model in Act mode" value={act ? `${act.providerId}\u0000${act.modelId}` : ""} onChange={(e) => setSettings({ ...settings, modelByMode: { ...settings.modelByMode, act: choice(e.target.value) } })}>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Model in Plan mode
          <select aria-label="Model in Plan mode" value={plan ? `${plan.providerId}\u0000${plan.modelId}` : ""} onChange={(e) => setSettings({ ...settings, modelByMode: { ...settings.modelByMode, plan: choice(e.target.value) } })}>
            <option value="">Same as Act</option>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <PriceSettings settings={settings} onChange={setSettings} />
      <fieldset className="provider-box" aria-label="Packages">
        <legend>Packages</legend>
        <label className="row">
          <input type="checkbox" checked={packages.allowDownloads} onChange={(e) => setPackages({ ...packages, allowDownloads: e.target.checked })} />
          Allow package downloads (<code>npm install</code> in the terminal and for the agent)
        </label>
        <label>
          npm registry
          <input type="url" aria-label="npm registry" value={packages.registry} onChange={(e) => setPackages({ ...packages, registry: e.target.value })} />
        </label>
        <div className="muted">Off until you allow it: nothing is downloaded otherwise. Packages are checked against the integrity the registry publishes; their install scripts are not run.</div>
        {packagesError && (
          <div className="error" role="alert">
            {packagesError}
          </div>
        )}
      </fieldset>
      {settings.providers
        .filter((p) => p.kind !== "demo")
        .map((p) => (
          <fieldset key={p.id} className="provider-box">
            <legend>{p.label}</legend>
            <div className="row">
              <input type="url" aria-label={`${p.label} base URL`} value={p.baseURL ?? ""} onChange={(e) => update(p.id, { baseURL: e.target.value })} style={{ flex: 1 }} />
              {p.needsKey !== false && (
                <input
                  type="password"
                  aria-label={`${p.label} API key`}
                  placeholder={props.store.hasKey(p.id) ? "key saved (type to replace)" : "API key"}
                  value={keys[p.id] ?? ""}
                  autoComplete="off"
                  onChange={(e) => setKeys({ ...keys, [p.id]: e.target.value })}
                />
              )}
              <button onClick={() => void fetchModels(p)}>List models</button>
            </div>
            <div className="row">
              <input
                type="text"
                aria-label={`${p.label} models`}
                value={(p.models ?? []).join(", ")}
                onChange={(e) => update(p.id, { models: e.target.value.split(",").map((m) => m.trim()).filter(Boolean) })}
                style={{ flex: 1 }}
              />
              <span className="muted">{status[p.id]}</span>
            </div>
          </fieldset>
        ))}
    </Dialog>
  );
}

const SOURCE_LABEL = { custom: "your price", provider: "the provider's price", catalog: "catalog price" } as const;

/**
 * Prices ($ per 1M tokens) and context windows of the models in use, with where each comes from;
 * any model can be given the user's own price (a custom or OpenAI-compatible one has none until then).
 */
function PriceSettings(props: { settings: ProviderSettings; onChange: (s: ProviderSettings) => void }) {
  const { settings } = props;
  const [extra, setExtra] = useState<string[]>([]);
  const [adding, setAdding] = useState("");
  // What the user is typing ("0." is not a number yet): shown as typed, committed when it parses.
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const shown = (key: string, value: string) => drafts[key] ?? value;
  const draft = (key: string, raw: string) => setDrafts((d) => ({ ...d, [key]: raw }));
  const inUse = [settings.modelByMode.act, settings.modelByMode.plan, settings.modelByMode.review]
    .filter((c): c is NonNullable<typeof c> => !!c && settings.providers.find((p) => p.id === c.providerId)?.kind !== "demo")
    .map((c) => c.modelId);
  const ids = [...new Set([...inUse, ...Object.keys(settings.prices ?? {}), ...extra])];
  const providerTable = providerPrices(settings);
  const providerContext: Record<string, number> = {};
  for (const p of settings.providers) for (const [id, f] of Object.entries(p.modelFacts ?? {})) if (f.contextWindow) providerContext[id] = f.contextWindow;

  const setPrice = (id: string, field: keyof ModelPrice, raw: string) => {
    draft(`${id}:${field}`, raw);
    const base = settings.prices?.[id] ?? resolvePrice(id, { provider: providerTable })?.price ?? { input: 0, output: 0 };
    const next: ModelPrice = { ...base };
    const n = raw.trim() === "" ? undefined : Number(raw);
    if (n !== undefined && (!Number.isFinite(n) || n < 0)) return;
    if (field === "input" || field === "output") next[field] = n ?? 0;
    else if (n === undefined) delete next[field];
    else next[field] = n;
    props.onChange({ ...settings, prices: { ...(settings.prices ?? {}), [id]: next } });
  };
  const setContext = (id: string, raw: string) => {
    draft(`${id}:context`, raw);
    const windows = { ...(settings.contextWindows ?? {}) };
    const n = Math.floor(Number(raw));
    if (raw.trim() === "") delete windows[id];
    else if (Number.isFinite(n) && n > 0) windows[id] = n;
    else return;
    props.onChange({ ...settings, contextWindows: windows });
  };
  const clear = (id: string) => {
    const prices = { ...(settings.prices ?? {}) };
    delete prices[id];
    const windows = { ...(settings.contextWindows ?? {}) };
    delete windows[id];
    props.onChange({ ...settings, prices, contextWindows: windows });
    setExtra(extra.filter((x) => x !== id));
    setDrafts((d) => Object.fromEntries(Object.entries(d).filter(([k]) => !k.startsWith(`${id}:`))));
  };

  return (
    <fieldset className="provider-box" aria-label="Prices">
      <legend>Prices ($ per 1M tokens) and context windows</legend>
      {ids.length === 0 && <span className="muted">Pick a model above, or add one below, to see or set its price.</span>}
      {ids.map((id) => {
        const resolved = resolvePrice(id, { custom: settings.prices, provider: providerTable });
        const price = resolved?.price;
        const context = contextWindowFor(id, { ...providerContext, ...(settings.contextWindows ?? {}) });
        return (
          <div key={id} className="row price-row" data-model={id}>
            <code style={{ flex: 1, overflow: "hidden", textOverflow: "ellipsis" }}>{id}</code>
            <label>
              in <input type="text" inputMode="decimal" aria-label={`Input price of ${id}`} style={{ width: 60 }} value={shown(`${id}:input`, price ? String(price.input) : "")} placeholder="?" onChange={(e) => setPrice(id, "input", e.target.value)} />
            </label>
            <label>
              out <input type="text" inputMode="decimal" aria-label={`Output price of ${id}`} style={{ width: 60 }} value={shown(`${id}:output`, price ? String(price.output) : "")} placeholder="?" onChange={(e) => setPrice(id, "output", e.target.value)} />
            </label>
            <label>
              cached <input type="text" inputMode="decimal" aria-label={`Cached input price of ${id}`} style={{ width: 50 }} value={shown(`${id}:cacheRead`, price?.cacheRead !== undefined ? String(price.cacheRead) : "")} onChange={(e) => setPrice(id, "cacheRead", e.target.value)} />
            </label>
            <label>
              context <input type="text" inputMode="numeric" aria-label={`Context window of ${id}`} style={{ width: 70 }} value={shown(`${id}:context`, String(settings.contextWindows?.[id] ?? context))} onChange={(e) => setContext(id, e.target.value)} />
            </label>
            <span className="muted" data-testid="price-source">{resolved ? SOURCE_LABEL[resolved.source] : "unknown price"}</span>
            {(settings.prices?.[id] || settings.contextWindows?.[id] || extra.includes(id)) && (
              <button className="link" onClick={() => clear(id)} aria-label={`Forget your price for ${id}`}>
                reset
              </button>
            )}
          </div>
        );
      })}
      <div className="row">
        <input type="text" aria-label="Model id to price" placeholder="another model id" value={adding} onChange={(e) => setAdding(e.target.value)} style={{ flex: 1 }} />
        <button
          disabled={!adding.trim()}
          onClick={() => {
            const id = adding.trim();
            if (!ids.includes(id)) setExtra([...extra, id]);
            setAdding("");
          }}
        >
          Add price
        </button>
      </div>
    </fieldset>
  );
}
