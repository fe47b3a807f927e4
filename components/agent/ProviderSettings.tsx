"use client";
import { useEffect, useState } from "react";
import { listModels, type ProviderSettingsStore, type ProviderSettings, type ProviderConfig } from "@/lib/providers";
import { Dialog } from "@/components/common/Dialog";

/**
 * Keys, base URLs and the model per mode. Keys are kept in this browser's storage only and are sent
 * nowhere but to their provider; they never enter a session, a log, a checkpoint or a share.
 */
export function ProviderSettingsDialog(props: { store: ProviderSettingsStore; onClose: () => void; onSaved: () => void }) {
  const [settings, setSettings] = useState<ProviderSettings>();
  const [keys, setKeys] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Record<string, string>>({});

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
      const models = await listModels({ ...config, apiKey: keys[config.id] || stored?.apiKey });
      update(config.id, { models });
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
