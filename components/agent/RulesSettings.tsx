"use client";
import { useEffect, useState } from "react";
import { discoverRules, selectRules, type RuleEntry } from "@/lib/agent";
import type { WorkspaceFs } from "@/lib/fs/workspace-fs";
import { formatBytes } from "@/lib/editor/file-kind";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import { ruleSwitches, workspaceTrust } from "./agent-context";

const STATUS_TEXT: Record<RuleEntry["status"], string> = {
  active: "active",
  off: "off",
  untrusted: "inactive until trusted",
  duplicate: "duplicate",
  "over-cap": "left out",
  empty: "empty",
};

/**
 * The workspace's rules files as the next run will read them: each with its path, size and
 * status, and a switch to turn it off (kept per workspace in this browser). Read again when the
 * open file, the files or the workspace's trust change.
 */
export function RulesSettings(props: { ws: WorkspaceState; wsfs: WorkspaceFs; activePath?: string; trustDecision: string; onTrust?: () => void }) {
  const { ws, wsfs, activePath, trustDecision } = props;
  const [entries, setEntries] = useState<RuleEntry[]>();
  // Read from the trust record itself (what the session reads), not from the plugins' view of it, which starts "undecided" while they load.
  const [trusted, setTrusted] = useState(true);
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    let cancelled = false;
    void discoverRules(wsfs, { activePath }).then((files) => {
      if (cancelled) return;
      const isTrusted = workspaceTrust(ws.meta).get().decision === "trusted";
      setTrusted(isTrusted);
      setEntries(selectRules(files, { disabled: ruleSwitches(ws.meta).disabled(), trusted: isTrusted }).entries);
    });
    return () => {
      cancelled = true;
    };
  }, [wsfs, activePath, ws.tree, ws.meta, trustDecision, revision]);

  return (
    <div className="agent-settings" role="group" aria-label="Rules files">
      <div className="row">
        <span className="muted">Rules files{activePath ? ` (for ${activePath})` : ""}:</span>
        {!trusted && (
          <>
            <span className="muted">this workspace is not trusted: its rules stay out of the prompt until you trust it.</span>
            {props.onTrust && (
              <button onClick={props.onTrust} title="Its rules files, plugins and hooks will then be used (the same as Trust this workspace in Plugins)">
                Trust this workspace
              </button>
            )}
          </>
        )}
      </div>
      {entries && entries.length === 0 && <div className="muted">None. Add AGENTS.md, CLAUDE.md, .clinerules, .cursorrules or .github/copilot-instructions.md.</div>}
      {entries && entries.length > 0 && (
        <ul className="rules-list">
          {entries.map((e) => (
            <li key={e.path} data-testid="rule-entry" data-status={e.status} title={e.note}>
              <input
                type="checkbox"
                aria-label={`Use ${e.path}`}
                checked={e.status !== "off"}
                disabled={!trusted}
                onChange={(ev) => {
                  ruleSwitches(ws.meta).setEnabled(e.path, ev.target.checked);
                  setRevision((r) => r + 1);
                }}
              />
              <code>{e.path}</code>
              <span className="muted">{formatBytes(e.size)}</span>
              <span className={`badge rule-${e.status}`}>{STATUS_TEXT[e.status]}</span>
              {e.note && e.status !== "untrusted" && <span className="muted">{e.note}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
