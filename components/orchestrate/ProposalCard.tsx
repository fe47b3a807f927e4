"use client";
import { useState } from "react";
import { topologicalOrder } from "@/lib/modes";
import type { Proposal, ProposalStatus } from "@/lib/orchestrate";
import { formatWall, taskDepths } from "./task-depth";

/**
 * A team the model proposed (propose_orchestration): the goal, the roles, the task tree, the
 * synthesis and the budget, and the operator's answer — Approve & run, or Reject with feedback.
 * Only this card's buttons answer a proposal; once answered it says how.
 */
export function ProposalCard(props: {
  proposal: Proposal;
  /** The inbox's status; undefined when the inbox no longer has it (the page was reloaded). */
  status: ProposalStatus | undefined;
  feedback?: string;
  disabled: boolean;
  onApprove: () => Promise<unknown>;
  onReject: (feedback: string) => void;
}) {
  const p = props.proposal;
  const [rejecting, setRejecting] = useState(false);
  const [feedback, setFeedback] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  let ordered = p.tasks;
  try {
    ordered = topologicalOrder({ nodes: p.tasks });
  } catch {
    // the tool refuses a broken graph; show the tasks as given
  }
  const depth = taskDepths(p.tasks);
  const titleOf = new Map(p.tasks.map((t) => [t.key, t.title]));
  const pending = props.status === "pending";
  return (
    <div className="plan-card proposal-card" role="group" aria-label="Team proposal">
      <div className="approval-title">Team proposal: {p.goal}</div>
      <div className="proposal-section">
        <div className="muted">Roles</div>
        <ul className="proposal-roles">
          {p.roles.map((r) => (
            <li key={r.name} data-role={r.name}>
              <strong>{r.name}</strong> <span className="muted">· {r.mode === "act" ? "act (changes files)" : `${r.mode} (read-only)`}{r.model ? ` · ${r.model}` : ""}</span>
              <div className="muted plan-desc">{r.brief}</div>
              <div className="muted mono plan-desc">tools: {r.tools.join(", ") || "none"}</div>
            </li>
          ))}
        </ul>
      </div>
      <div className="proposal-section">
        <div className="muted">Tasks</div>
        <ol className="plan-steps proposal-tasks">
          {ordered.map((t) => (
            <li key={t.key} data-key={t.key} style={{ marginLeft: (depth.get(t.key) ?? 0) * 16 }}>
              <strong>{t.title}</strong> <span className="muted mono">{t.key}</span> <span className="muted">· {t.role}</span>
              {t.dependsOn.length > 0 && <span className="muted"> — after: {t.dependsOn.map((k) => titleOf.get(k) ?? k).join(", ")}</span>}
              <div className="muted plan-desc">{t.description}</div>
              <div className="muted plan-desc">Done when: {t.acceptance}</div>
            </li>
          ))}
        </ol>
      </div>
      <div className="proposal-section" data-testid="proposal-synthesis">
        <div className="muted">Synthesis</div>
        <div>
          <strong>{p.synthesis.role}</strong> merges {p.synthesis.inputs.map((k) => titleOf.get(k) ?? k).join(", ")} into: {p.synthesis.output}
        </div>
      </div>
      <div className="proposal-section" data-testid="proposal-budget">
        <div className="muted">Budget</div>
        <div>
          {p.budget.tokens.toLocaleString("en-US")} tokens · ${p.budget.usd} · {p.budget.maxParallel} at a time · {formatWall(p.budget.wallMs)}
        </div>
      </div>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {!pending ? (
        <div className="muted" data-testid="proposal-status">
          {props.status === "approved"
            ? "Approved by you: the team is below."
            : props.status === "rejected"
              ? `Rejected${props.feedback ? `: ${props.feedback}` : "."}`
              : props.status === "superseded"
                ? "Replaced by a newer proposal."
                : "No longer waiting for an answer (its record was not found)."}
        </div>
      ) : rejecting ? (
        <div className="row">
          <input type="text" autoFocus aria-label="What should change in the team" value={feedback} onChange={(e) => setFeedback(e.target.value)} style={{ flex: 1 }} />
          <button className="danger" disabled={props.disabled} onClick={() => props.onReject(feedback.trim())}>
            {feedback.trim() ? "Send feedback" : "Reject"}
          </button>
          <button onClick={() => setRejecting(false)}>Cancel</button>
        </div>
      ) : (
        <div className="row">
          <button
            className="primary"
            disabled={props.disabled || busy}
            onClick={() => {
              setBusy(true);
              setError(undefined);
              props
                .onApprove()
                .catch((e: Error) => setError(`The team could not start: ${e.message}`))
                .finally(() => setBusy(false));
            }}
          >
            Approve &amp; run
          </button>
          <button disabled={busy} onClick={() => setRejecting(true)}>
            Reject…
          </button>
        </div>
      )}
    </div>
  );
}
