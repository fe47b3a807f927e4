"use client";
import { useRef, useState } from "react";
import type { PluginStatus } from "@/lib/plugins/host";
import type { TrustView } from "@/lib/plugins/session-plugins";
import { TrustSection } from "./WorkspaceTrust";

/** Every plugin of this session: where it comes from, what it may do, whether it runs. */
export function PluginsPanel(props: {
  statuses: PluginStatus[];
  logs: string[];
  onToggle: (name: string, enabled: boolean) => void;
  onInPage: (name: string, inPage: boolean) => void;
  trust: TrustView;
  onTrustWorkspace: () => void;
  onStayRestricted: () => void;
  onRevokeTrust: () => void;
  onAcceptChanges: () => void;
  onInstall: (file: File) => void;
  onUninstall: (name: string) => void;
  onReload: () => void;
  onAddMcp: (name: string, url: string, token?: string) => void;
  onRemoveMcp: (name: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [mcpName, setMcpName] = useState("");
  const [mcpUrl, setMcpUrl] = useState("");
  const [mcpToken, setMcpToken] = useState("");
  const [mcpError, setMcpError] = useState<string>();
  return (
    <div className="plugins-panel" aria-label="Plugins">
      <div className="row">
        <span className="muted">
          Workspace plugins: <code>.tabula/plugins/</code>, file hooks: <code>.tabula/hooks/</code>. They run sandboxed in a worker: no page, no keys, no network.
        </span>
      </div>
      <TrustSection trust={props.trust} onTrust={props.onTrustWorkspace} onStayRestricted={props.onStayRestricted} onRevoke={props.onRevokeTrust} onAccept={props.onAcceptChanges} />
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
      <form
        className="row"
        aria-label="Add an MCP server"
        onSubmit={(e) => {
          e.preventDefault();
          setMcpError(undefined);
          try {
            props.onAddMcp(mcpName, mcpUrl, mcpToken || undefined);
            setMcpName("");
            setMcpUrl("");
            setMcpToken("");
          } catch (err) {
            setMcpError((err as Error).message);
          }
        }}
      >
        <input aria-label="MCP server name" placeholder="MCP server name" value={mcpName} onChange={(e) => setMcpName(e.target.value)} style={{ width: 120 }} />
        <input aria-label="MCP server URL" placeholder="https://…/mcp (Streamable HTTP)" value={mcpUrl} onChange={(e) => setMcpUrl(e.target.value)} style={{ flex: 1 }} />
        <input
          aria-label="MCP server token"
          type="password"
          autoComplete="off"
          placeholder="Bearer token (optional)"
          title="Sent as Authorization: Bearer … to this server only; kept in this browser like model keys"
          value={mcpToken}
          onChange={(e) => setMcpToken(e.target.value)}
          style={{ width: 150 }}
        />
        <button type="submit" disabled={!mcpName.trim() || !mcpUrl.trim()}>
          Add MCP server
        </button>
      </form>
      {mcpError && (
        <div className="error" role="alert">
          {mcpError}
        </div>
      )}
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
              {p.source !== "built-in" && !p.name.startsWith("mcp:") && (
                <label className="muted" title="Run it in the page: no time limits, full access to the page and your keys. Only for code you trust.">
                  <input type="checkbox" aria-label={`Run ${p.name} in the page`} checked={!p.sandboxed} onChange={(e) => props.onInPage(p.name, e.target.checked)} /> in page
                </label>
              )}
              {p.source === "user" && p.name.startsWith("mcp:") && (
                <button className="link" onClick={() => props.onRemoveMcp(p.name)}>
                  Remove
                </button>
              )}
              {p.source === "user" && !p.name.startsWith("mcp:") && (
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
            {p.warnings?.map((w) => (
              <div key={w} className="warning" role="status" style={{ fontSize: 12 }}>
                {w}
              </div>
            ))}
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
