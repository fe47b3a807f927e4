"use client";
import { useState } from "react";
import type { AgentSession } from "@/lib/agent";

/**
 * Per-session approval policy and budget: what runs without asking, and the most the session may
 * spend. Each change is announced by the session (session-updated), which re-renders the panel.
 */
export function AgentSettings(props: { session: AgentSession }) {
  const { session } = props;
  const a = session.state.approvals;
  const [budget, setBudget] = useState(session.state.budgetUsd === undefined ? "" : String(session.state.budgetUsd));
  const [error, setError] = useState<string>();
  const toggle = (key: "read" | "edit" | "command", value: boolean) => {
    session.configure({ approvals: { autoApprove: { [key]: value } } });
  };
  return (
    <div className="agent-settings" role="group" aria-label="Session settings">
      <div className="row">
        <span className="muted">Auto-approve:</span>
        {(["read", "edit", "command"] as const).map((k) => (
          <label key={k}>
            <input type="checkbox" checked={a.autoApprove[k]} onChange={(e) => toggle(k, e.target.checked)} /> {k === "read" ? "reads" : k === "edit" ? "edits" : "commands"}
          </label>
        ))}
      </div>
      {a.allowedCommandPrefixes.length > 0 && (
        <div className="row">
          <span className="muted">Always allowed:</span>
          {a.allowedCommandPrefixes.map((p) => (
            <span key={p} className="badge">
              <code>{p}</code>{" "}
              <button
                className="link"
                aria-label={`Stop allowing ${p}`}
                onClick={() => {
                  session.configure({ approvals: { allowedCommandPrefixes: a.allowedCommandPrefixes.filter((x) => x !== p) } });
                }}
              >
                ×
              </button>
            </span>
          ))}
        </div>
      )}
      <div className="row">
        <label>
          <span className="muted">Budget (USD, empty = none): </span>
          <input
            type="text"
            inputMode="decimal"
            aria-label="Session budget in dollars"
            value={budget}
            style={{ width: 80 }}
            onChange={(e) => setBudget(e.target.value)}
            onBlur={() => {
              try {
                session.configure({ budgetUsd: budget.trim() === "" ? undefined : Number(budget) });
                setError(undefined);
              } catch (e) {
                setError((e as Error).message);
              }
            }}
          />
        </label>
        {error && <span className="error">{error}</span>}
      </div>
    </div>
  );
}
