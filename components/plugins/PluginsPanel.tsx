"use client";
import { useRef } from "react";
import type { PluginStatus } from "@/lib/plugins/host";

/** Every plugin of this session: where it comes from, what it may do, whether it runs. */
export function PluginsPanel(props: {
  statuses: PluginStatus[];
  logs: string[];
  onToggle: (name: string, enabled: boolean) => void;
  onTrust: (name: string, trusted: boolean) => void;
  onInstall: (file: File) => void;
  onUninstall: (name: string) => void;
  onReload: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="plugins-panel" aria-label="Plugins">
      <div className="row">
        <span className="muted">
          Workspace plugins: <code>.tabula/plugins/</code>, file hooks: <code>.tabula/hooks/</code>. They run sandboxed in a worker: no page, no keys, no network.
        </span>
      </div>
      <div className="row">
        <button onClick={props.onReload}>Reload plugins</button>
        <button onClick={() => input.current?.click()}>Install from file…</button>
        <input
          ref={input}
          type="file"
          accept=".js,.mjs,.ts"
          hidden
          data-testid="install-plugin-input"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) props.onInstall(f);
            e.target.value = "";
          }}
        />
      </div>
      <ul aria-label="Installed plugins">
        {props.statuses.map((p) => (
          <li key={p.name} data-testid="plugin-row" data-plugin={p.name} data-state={p.state.status}>
            <div className="row">
              <label>
                <input type="checkbox" aria-label={`Enable ${p.name}`} checked={p.state.status === "loaded"} onChange={(e) => props.onToggle(p.name, e.target.checked)} /> <strong>{p.name}</strong>
              </label>
              <span className="muted">
                {p.source}
                {p.sandboxed ? " · sandboxed" : " · in-process"}
              </span>
              <span className="spacer" />
              {p.source !== "built-in" && (
                <label className="muted" title="Run it in the page: no time limits, full access to the page and your keys. Only for code you trust.">
                  <input type="checkbox" aria-label={`Trust ${p.name}`} checked={!p.sandboxed} onChange={(e) => props.onTrust(p.name, e.target.checked)} /> trusted
                </label>
              )}
              {p.source === "user" && (
                <button className="link" onClick={() => props.onUninstall(p.name)}>
                  Uninstall
                </button>
              )}
            </div>
            <div className="muted" style={{ fontSize: 12 }}>
              {p.origin}
              {p.manifest ? ` · capabilities: ${p.manifest.capabilities.join(", ")}` : ""}
            </div>
            {p.state.status === "failed" && (
              <div className="error" role="alert" style={{ fontSize: 12 }}>
                Failed: {p.state.error}
              </div>
            )}
            {p.state.status === "disabled" && <div className="muted" style={{ fontSize: 12 }}>Disabled</div>}
          </li>
        ))}
        {props.statuses.length === 0 && <li className="muted">Loading plugins…</li>}
      </ul>
      {props.logs.length > 0 && (
        <details>
          <summary>Plugin log ({props.logs.length})</summary>
          <pre className="plugin-log">{props.logs.join("\n")}</pre>
        </details>
      )}
    </div>
  );
}
