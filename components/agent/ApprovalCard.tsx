"use client";
import { useEffect, useRef, useState } from "react";
import type { AgentEvent } from "@/lib/agent";
import { DiffPreview } from "./DiffPreview";

type ApprovalEvent = Extract<AgentEvent, { type: "approval-requested" }>;

/**
 * What the agent wants to do, before it does it: the diff of an edit or the commands; approve or
 * reject with feedback. From the keyboard: the card takes focus when it appears (unless you are
 * typing elsewhere), Enter approves, Esc rejects (focus goes to the feedback box; Esc there goes
 * back), A approves and always allows this kind of command.
 */
export function ApprovalCard(props: {
  event: ApprovalEvent;
  onApprove: (alwaysAllowPrefix?: string) => void;
  onReject: (feedback?: string) => void;
  onOpenDiff?: (path: string) => void;
}) {
  const { event } = props;
  const [feedback, setFeedback] = useState("");
  const [rejecting, setRejecting] = useState(false);
  const approveButton = useRef<HTMLButtonElement>(null);
  const preview = event.preview;
  const loopGuard = event.kind === "loop-guard";

  useEffect(() => {
    // Someone typing in another box (a steer, a note) keeps their focus.
    const active = document.activeElement as HTMLInputElement | HTMLTextAreaElement | null;
    const typing = !!active && (active.tagName === "TEXTAREA" || (active.tagName === "INPUT" && active.type === "text")) && active.value !== "";
    if (!typing) approveButton.current?.focus();
  }, []);

  const reject = () => (loopGuard ? props.onReject() : setRejecting(true));
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const inFeedback = (e.target as HTMLElement).tagName === "INPUT";
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      if (rejecting) {
        setRejecting(false);
        requestAnimationFrame(() => approveButton.current?.focus());
      } else reject();
    } else if (!inFeedback && !rejecting && (e.key === "a" || e.key === "A") && event.suggestedPrefix) {
      e.preventDefault();
      props.onApprove(event.suggestedPrefix);
    } else if (!rejecting && e.key === "Enter" && e.target === e.currentTarget) {
      // On a button (Approve has focus at first), Enter is that button's own.
      e.preventDefault();
      props.onApprove();
    }
  };
  const title =
    event.kind === "loop-guard"
      ? "The agent repeated the same call three times"
      : preview?.kind === "command"
        ? "Run command?"
        : preview?.kind === "diff"
          ? "Apply edit?"
          : `Allow ${event.toolName}?`;
  return (
    <div className="approval-card" role="group" aria-label="Approval needed" tabIndex={-1} onKeyDown={onKeyDown}>
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
          <button ref={approveButton} className="primary" onClick={() => props.onApprove()} aria-keyshortcuts="Enter">
            {loopGuard ? "Continue" : "Approve"}
          </button>
          <button onClick={reject} aria-keyshortcuts="Escape">
            {loopGuard ? "Stop the run" : "Reject…"}
          </button>
          {event.suggestedPrefix && (
            <button onClick={() => props.onApprove(event.suggestedPrefix)} title="Approve, and auto-approve commands starting with this for the rest of the session" aria-keyshortcuts="A">
              Always allow <code>{event.suggestedPrefix}</code>
            </button>
          )}
          <span className="muted key-hints" aria-hidden="true">
            Enter {loopGuard ? "continue" : "approve"} · Esc {loopGuard ? "stop" : "reject"}
            {event.suggestedPrefix ? " · A always allow" : ""}
          </span>
        </div>
      )}
    </div>
  );
}
