"use client";
import { useState } from "react";
import type { ReviewFile, TrustView } from "@/lib/plugins/session-plugins";

type Intents = { onTrust(): void; onStayRestricted(): void; onRevoke(): void; onAccept(): void };

function FileList(props: { files: ReviewFile[]; label: string }) {
  return (
    <ul aria-label={props.label} className="trust-files">
      {props.files.map((f) => (
        <li key={f.path} data-testid="trust-file" data-path={f.path} data-change={f.change ?? ""}>
          <code>{f.path}</code>
          {f.change && <span className="muted"> · {f.change}</span>}
          <span className="muted" style={{ fontSize: 12 }}>
            {" "}
            · declared: {f.declared.capabilities.length ? `capabilities ${f.declared.capabilities.join(", ")}` : "no capabilities found"}
            {f.declared.registers.length ? ` · ${f.declared.registers.join(", ")}` : ""}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The banner of the workbench when the workspace's own code waits for a decision: in a
 * workspace not made here, every plugin and hook file that would run; in a trusted one, the
 * files changed since they were accepted. Nothing listed here runs until the user says so.
 */
export function TrustBanner(props: { trust: TrustView } & Intents) {
  const [hidden, setHidden] = useState<string>();
  const { trust } = props;
  const key = trust.files.map((f) => `${f.path}:${f.hash}`).join("|");
  if (!trust.files.length || hidden === key) return null;
  if (trust.decision === "undecided")
    return (
      <div className="banner" role="region" aria-label="Restricted mode" data-testid="trust-banner">
        <strong>Restricted mode.</strong> This workspace was {trust.provenance}. Its plugins and hooks are not running (nothing of them was run or compiled):
        <FileList files={trust.files} label="Code that would run" />
        <button onClick={props.onTrust}>Trust this workspace</button> <button onClick={props.onStayRestricted}>Stay restricted</button>
      </div>
    );
  if (trust.decision === "trusted")
    return (
      <div className="banner" role="region" aria-label="Plugin changes" data-testid="trust-changes-banner">
        <strong>Plugin files changed.</strong> These do not run until you accept them:
        <FileList files={trust.files} label="Changed plugin files" />
        <button onClick={props.onAccept}>Accept changes</button> <button onClick={() => setHidden(key)}>Keep them off</button>
      </div>
    );
  return null;
}

/** The trust section of the Plugins view: the decision, what it covers, and how to change it. */
export function TrustSection(props: { trust: TrustView } & Intents) {
  const { trust } = props;
  return (
    <section className="trust-section" aria-label="Workspace trust" data-testid="trust-section" data-decision={trust.decision}>
      {trust.decision === "trusted" ? (
        <>
          <div className="row">
            <span>
              <strong>Trusted workspace.</strong> Its plugins and hooks run (sandboxed).
            </span>
            <span className="spacer" />
            <button onClick={props.onRevoke}>Revoke trust</button>
          </div>
          {trust.files.length > 0 && (
            <>
              <div className="muted">Changed since you accepted them (not running):</div>
              <FileList files={trust.files} label="Changed plugin files" />
              <button onClick={props.onAccept}>Accept changes</button>
            </>
          )}
        </>
      ) : (
        <>
          <div className="row">
            <span>
              <strong>Restricted workspace</strong> ({trust.provenance}): no workspace plugin, file hook or workspace-declared MCP server runs. Built-in and installed plugins are not affected.
            </span>
          </div>
          {trust.files.length > 0 ? <FileList files={trust.files} label="Code that would run" /> : <div className="muted">This workspace has no plugin or hook files.</div>}
          <div className="row">
            <button onClick={props.onTrust}>Trust this workspace</button>
            {trust.decision === "undecided" && <button onClick={props.onStayRestricted}>Stay restricted</button>}
          </div>
        </>
      )}
    </section>
  );
}
