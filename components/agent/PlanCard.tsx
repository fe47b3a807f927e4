"use client";
import { useState } from "react";
import { planToMarkdown, topologicalOrder, type Plan } from "@/lib/modes";

export type PlanDecision = { kind: "approve"; brief: string } | { kind: "reject"; feedback: string } | { kind: "team"; plan: Plan };

/**
 * A submitted plan: the goal and the steps in dependency order. Approving switches the session to
 * Act (only a person can) and hands the plan over as the Act run's brief; Edit lets the brief be
 * changed first; Reject sends feedback and stays in Plan mode. Approve & run as a team runs each
 * step as a team member's task, in the plan's dependency order (once: `teamStarted` hides it).
 */
export function PlanCard(props: { plan: Plan; disabled: boolean; teamStarted?: boolean; onDecide: (d: PlanDecision) => void }) {
  const [mode, setMode] = useState<"view" | "edit" | "reject">("view");
  const [brief, setBrief] = useState(() => planToMarkdown(props.plan));
  const [feedback, setFeedback] = useState("");
  let ordered = props.plan.nodes;
  try {
    ordered = topologicalOrder(props.plan);
  } catch {
    // an invalid graph was refused by the tool; show the steps as given
  }
  const titleOf = new Map(props.plan.nodes.map((n) => [n.key, n.title]));
  return (
    <div className="plan-card" role="group" aria-label="Plan">
      <div className="approval-title">Plan: {props.plan.goal}</div>
      {mode === "edit" ? (
        <textarea aria-label="Edit the plan" rows={10} value={brief} onChange={(e) => setBrief(e.target.value)} />
      ) : (
        <ol className="plan-steps">
          {ordered.map((n) => (
            <li key={n.key} data-key={n.key}>
              <strong>{n.title}</strong>
              {n.dependsOn.length > 0 && <span className="muted"> — after {n.dependsOn.map((k) => titleOf.get(k) ?? k).join(", ")}</span>}
              <div className="muted plan-desc">{n.description}</div>
            </li>
          ))}
        </ol>
      )}
      {mode === "reject" ? (
        <div className="row">
          <input type="text" autoFocus aria-label="What should change in the plan" value={feedback} onChange={(e) => setFeedback(e.target.value)} style={{ flex: 1 }} />
          <button className="danger" disabled={!feedback.trim() || props.disabled} onClick={() => props.onDecide({ kind: "reject", feedback: feedback.trim() })}>
            Send feedback
          </button>
          <button onClick={() => setMode("view")}>Cancel</button>
        </div>
      ) : (
        <div className="row">
          <button className="primary" disabled={props.disabled} onClick={() => props.onDecide({ kind: "approve", brief: mode === "edit" ? brief : planToMarkdown(props.plan) })}>
            Approve &amp; switch to Act
          </button>
          {mode === "view" && !props.teamStarted && (
            <button disabled={props.disabled} onClick={() => props.onDecide({ kind: "team", plan: props.plan })} title="Each step runs as a child session, in dependency order; the plan stays in this conversation">
              Approve &amp; run as a team
            </button>
          )}
          {mode === "edit" ? <button onClick={() => setMode("view")}>Done editing</button> : <button onClick={() => setMode("edit")}>Edit</button>}
          <button onClick={() => setMode("reject")}>Reject with feedback</button>
        </div>
      )}
    </div>
  );
}
