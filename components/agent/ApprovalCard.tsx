"use client";
import { useState } from "react";
import type { AgentEvent } from "@/lib/agent";
import { DiffPreview } from "./DiffPreview";

type ApprovalEvent = Extract<AgentEvent, { type: "approval-requested" }>;

/** What the agent wants to do, before it does it: the diff of an edit or the commands; approve or reject with feedback. */
export function ApprovalCard(props: {
  event: ApprovalEvent;
  onApprove: (alwaysAllowPrefix?: string) => void;
  onReject: (feedback?: string) => void;
  onOpenDiff?: (path: string) => void;
}) {
  const { event } = props;
  const [feedback, setFeedback] = useState("");
  const [rejecting, setRejecting] = useState(false);
  const preview = event.preview;
  const title =
    event.kind === "loop-guard"
      ? "The agent repeated the same call three times"
      : preview?.kind === "command"
        ? "Run command?"
        : preview?.kind === "diff"
          ? "Apply edit?"
          : `Allow ${event.toolName}?`;
  return (
    <div className="approval-card" role="group" aria-label="Approval needed">
      <div className="approval-title">{title}</div>
      {event.message && <p className="muted">{event.message}</p>}
      {preview?.kind === "command" && (
        <pre className="command-preview" aria-label="Command">
          {preview.commands.map((c) => `$ ${c}`).join("\n")}
        </pre>
      )}
      {preview?.kind === "diff" &&
        preview.files.map((f) => (
          <div key={f.path}>
            <div className="row" style={{ justifyContent: "space-between" }}>
              <span className="mono">
                {f.change === "create" ? "new " : f.change === "delete" ? "delete " : ""}
                {f.path} <span className="add-count">+{f.added}</span> <span className="del-count">-{f.removed}</span>
              </span>
              {props.onOpenDiff && f.change !== "create" && (
                <button className="link" onClick={() => props.onOpenDiff!(f.path)}>
                  Open file
                </button>
              )}
            </div>
            <DiffPreview diff={f.diff} />
          </div>
        ))}
      {preview?.kind === "text" && <pre className="command-preview">{preview.text}</pre>}
      {rejecting ? (
        <div className="row">
          <input
            type="text"
            autoFocus
            aria-label="Feedback for the agent"
            placeholder="What should it do instead? (optional)"
            value={feedback}
            onChange={(e) => setFeedback(e.target.value)}
            onKeyDown={(e) => e.key === "Enter" && props.onReject(feedback || undefined)}
            style={{ flex: 1 }}
          />
          <button className="danger" onClick={() => props.onReject(feedback || undefined)}>
            Reject
          </button>
        </div>
      ) : (
        <div className="row">
          <button className="primary" onClick={() => props.onApprove()}>
            {event.kind === "loop-guard" ? "Continue" : "Approve"}
          </button>
          <button onClick={() => (event.kind === "loop-guard" ? props.onReject() : setRejecting(true))}>{event.kind === "loop-guard" ? "Stop the run" : "Reject…"}</button>
          {event.suggestedPrefix && (
            <button onClick={() => props.onApprove(event.suggestedPrefix)} title="Approve, and auto-approve commands starting with this for the rest of the session">
              Always allow <code>{event.suggestedPrefix}</code>
            </button>
          )}
        </div>
      )}
    </div>
  );
}
