"use client";
import { Fragment, useEffect, useRef, useState, type ReactNode } from "react";
import { textOf, toolCallsOf, type AgentMessage, type ToolCallPart, type ToolResultPart, type AgentSession } from "@/lib/agent";
import { compactionText } from "@/lib/agent/compaction";
import { isBusy, type PanelState } from "@/lib/agent/panel-state";
import { Markdown } from "./Markdown";
import { ToolRow } from "./ToolRow";
import { PlanCard, type PlanDecision } from "./PlanCard";
import { MentionChip } from "./MentionChip";
import { ImageThumb } from "./ImageThumb";
import type { Plan } from "@/lib/modes";

/** The conversation: prompts, streamed markdown, tool rows, and the run's notices (checkpoints, retries, errors). */
export function Transcript(props: {
  session: AgentSession;
  live: PanelState;
  onOpenFile: (path: string) => void;
  onOpenDiff: (path: string, unifiedDiff: string) => void;
  /** `toolCallId`: the submit_plan call the card belongs to. */
  onPlanDecision: (d: PlanDecision, toolCallId: string) => void;
  /** What shows under a plan card (the team it runs as), by its submit_plan call id. */
  renderAfterPlan?: (toolCallId: string) => ReactNode;
  /** A propose_orchestration call that was accepted: its card (the panel holds the inbox that answers it). */
  renderProposal?: (call: ToolCallPart, result: ToolResultPart) => ReactNode;
  /** What shows under a tool call's row (a sub-agent's transcript link under a delegate call). */
  renderAfterTool?: (call: ToolCallPart) => ReactNode;
  /** Someone else's conversation shown for reading (a team member's): no Edit, Fork or plan decisions. */
  readOnly?: boolean;
  /** The log's accessible name (default "Agent transcript"). */
  label?: string;
  onFork: (messageId: string) => void;
  /** Run a prompt again in a new session (the conversation before it), optionally restoring the files first. */
  onRerun?: (messageId: string, restoreFiles: boolean) => void;
  onEditResend: (messageId: string, text: string, restoreFiles: boolean) => void;
  /** Messages from this index on come after the point the timeline shows: dimmed. */
  dimFrom?: number;
  /** What shows after a turn's last message (what the turn changed), by run number. */
  renderRunEnd?: (run: number) => ReactNode;
  /** Scroll to this message and mark it (a search hit); a new nonce does it again. */
  focus?: { messageId: string; nonce: number };
}) {
  const [editing, setEditing] = useState<{ id: string; text: string; restore: boolean }>();
  const [rerunning, setRerunning] = useState<{ id: string; restore: boolean }>();
  const { session, live } = props;
  const running = isBusy(live.phase);
  const end = useRef<HTMLDivElement>(null);
  // Braces matter: newer Chromium returns a Promise from scrollIntoView, which React would take for a cleanup.
  useEffect(() => {
    end.current?.scrollIntoView({ block: "end" });
  }, [live.revision]);

  // A search hit: scrolled into view once the session shows, marked for a moment. A tool result
  // has no row of its own: its call's message stands for it.
  const root = useRef<HTMLDivElement>(null);
  const [focused, setFocused] = useState<string>();
  const focus = props.focus;
  useEffect(() => {
    if (!focus) return;
    const msgs = session.state.messages;
    let i = msgs.findIndex((m) => m.id === focus.messageId);
    while (i > 0 && msgs[i]!.role === "tool") i--;
    const id = msgs[i]?.id;
    if (!id) return;
    setFocused(id);
    const t1 = setTimeout(() => root.current?.querySelector(`[data-message-id="${CSS.escape(id)}"]`)?.scrollIntoView({ block: "center" }), 50);
    const t2 = setTimeout(() => setFocused(undefined), 2500);
    return () => {
      clearTimeout(t1);
      clearTimeout(t2);
    };
  }, [focus?.nonce, session]); // eslint-disable-line react-hooks/exhaustive-deps

  const results = new Map<string, ToolResultPart>();
  for (const m of session.state.messages) if (m.role === "tool") for (const r of m.content) results.set(r.toolCallId, r);
  const shown = new Set(session.state.messages.map((m) => m.id));
  // A run that failed (or was stopped by something other than the user) keeps its reason in the
  // session's run records, so the notice is still there after a reload; it goes after the run's
  // last message.
  const endNotices = new Map<string, { runId: string; status: string; reason: string }>();
  const lastOfRun = new Map<number, string>();
  for (const m of session.state.messages) if (m.run !== undefined) lastOfRun.set(m.run, m.id);
  for (const r of session.state.runs) {
    const at = lastOfRun.get(r.run);
    if (at && r.reason && (r.status === "failed" || (r.status === "aborted" && r.reason !== "Stopped by the user"))) endNotices.set(at, { runId: r.runId, status: r.status, reason: r.reason });
  }
  const recorded = new Set([...endNotices.values()].map((n) => n.runId));
  const withEndNotice = (m: AgentMessage, node: ReactNode) => {
    const n = endNotices.get(m.id);
    const after = m.run !== undefined && lastOfRun.get(m.run) === m.id && !running ? props.renderRunEnd?.(m.run) : undefined;
    if (!n && !after) return node;
    return (
      <Fragment key={m.id}>
        {node}
        {n && (
          <div className={`notice-line${n.status === "failed" ? " error" : ""}`} role={n.status === "failed" ? "alert" : undefined} data-testid="run-end-notice">
            {n.reason}
          </div>
        )}
        {after}
      </Fragment>
    );
  };

  const render = (m: AgentMessage) => {
    if (m.role === "user") {
      const isPrompt = (m.kind ?? "prompt") === "prompt";
      if (editing?.id === m.id)
        return (
          <div key={m.id} className="msg user editing">
            <textarea aria-label="Edit prompt" value={editing.text} rows={3} onChange={(e) => setEditing({ ...editing, text: e.target.value })} />
            <label className="muted">
              <input type="checkbox" checked={editing.restore} onChange={(e) => setEditing({ ...editing, restore: e.target.checked })} /> also restore files to before this turn
            </label>
            <div className="row">
              <button
                className="primary"
                disabled={!editing.text.trim() || running}
                onClick={() => {
                  props.onEditResend(m.id, editing.text.trim(), editing.restore);
                  setEditing(undefined);
                }}
              >
                Resend
              </button>
              <button onClick={() => setEditing(undefined)}>Cancel</button>
            </div>
          </div>
        );
      return (
        <div key={m.id} className={`msg user ${m.kind ?? "prompt"}${focused === m.id ? " focused" : ""}`} data-run={m.run} data-message-id={m.id} data-focused={focused === m.id || undefined}>
          {m.kind === "summary" ? <Markdown text={textOf(m)} /> : textOf(m)}
          {m.images && m.images.length > 0 && (
            <ul className="msg-images" aria-label="Images sent with this message">
              {m.images.map((img, i) => (
                <li key={i}>
                  <ImageThumb img={img} alt={img.name ?? `Image ${i + 1}`} title={img.name} />
                </li>
              ))}
            </ul>
          )}
          {m.imagesLeftOut ? (
            <div className="muted">
              ({m.imagesLeftOut} image{m.imagesLeftOut === 1 ? "" : "s"} left out of this share)
            </div>
          ) : null}
          {m.context && m.context.length > 0 && (
            <ul className="mention-chips" aria-label="Context sent with this message">
              {m.context.map((c, i) => (
                <MentionChip key={i} label={c.label} item={c} />
              ))}
            </ul>
          )}
          {isPrompt && !running && !props.readOnly && (
            <span className="msg-actions">
              <button className="link" onClick={() => setEditing({ id: m.id, text: textOf(m), restore: false })} title="Edit this prompt and run again from here">
                Edit
              </button>
              <button className="link" onClick={() => props.onFork(m.id)} title="Start a new session from this point">
                Fork
              </button>
              {props.onRerun && (
                <button className="link" onClick={() => setRerunning({ id: m.id, restore: false })} title="Run this prompt again in a new session; this one stays as it is">
                  Re-run
                </button>
              )}
            </span>
          )}
          {rerunning?.id === m.id && (
            <div className="rerun-confirm" role="group" aria-label="Re-run this prompt">
              <label className="muted">
                <input type="checkbox" checked={rerunning.restore} onChange={(e) => setRerunning({ ...rerunning, restore: e.target.checked })} /> also restore files to before this turn
              </label>
              <div className="row">
                <button
                  className="primary"
                  disabled={running}
                  onClick={() => {
                    props.onRerun!(m.id, rerunning.restore);
                    setRerunning(undefined);
                  }}
                >
                  Fork &amp; re-run
                </button>
                <button onClick={() => setRerunning(undefined)}>Cancel</button>
              </div>
            </div>
          )}
        </div>
      );
    }
    if (m.role === "assistant") {
      const text = textOf(m);
      return (
        <div key={m.id} className={`msg assistant${focused === m.id ? " focused" : ""}`} data-run={m.run} data-message-id={m.id} data-focused={focused === m.id || undefined}>
          {text && <Markdown text={text} />}
          {m.interrupted && <div className="muted">(stopped)</div>}
          {toolCallsOf(m).map((c) =>
            c.toolName === "submit_plan" && results.get(c.toolCallId)?.ui?.status === "ok" ? (
              <Fragment key={c.toolCallId}>
                <PlanCard plan={c.input as Plan} disabled={running || !!props.readOnly} teamStarted={!!props.renderAfterPlan?.(c.toolCallId)} onDecide={(d) => props.onPlanDecision(d, c.toolCallId)} />
                {props.renderAfterPlan?.(c.toolCallId)}
              </Fragment>
            ) : c.toolName === "propose_orchestration" && props.renderProposal && results.get(c.toolCallId)?.ui?.status === "ok" ? (
              <Fragment key={c.toolCallId}>{props.renderProposal(c, results.get(c.toolCallId)!)}</Fragment>
            ) : c.toolName === "attempt_completion" && results.get(c.toolCallId)?.ui?.status === "ok" ? (
              <div key={c.toolCallId} className="completion" data-testid="completion">
                <div className="muted">Completed</div>
                <Markdown text={String((c.input as { summary?: unknown })?.summary ?? "")} />
              </div>
            ) : (
              <Fragment key={c.toolCallId}>
                <ToolRow call={c} result={results.get(c.toolCallId) ?? live.finishedTools.get(c.toolCallId)} running={live.runningTools.has(c.toolCallId)} onOpenFile={props.onOpenFile} onOpenDiff={props.onOpenDiff} />
                {props.renderAfterTool?.(c)}
              </Fragment>
            ),
          )}
        </div>
      );
    }
    return null;
  };

  return (
    <div className="transcript" role="log" aria-label={props.label ?? "Agent transcript"} aria-live="polite" ref={root}>
      {session.state.messages.length === 0 && (
        <div className="muted empty-transcript">
          <p>Ask the agent to read, change or run something in this workspace. Edits and commands ask for your approval.</p>
          <p>
            Every run is checkpointed first (<code>refs/tabula/checkpoints/…</code>), untracked files included. Ignored files are never captured or touched; files over 5 MB are
            listed but not stored, and never deleted by a restore. Your branches, HEAD and index are never moved.
          </p>
        </div>
      )}
      {session.state.messages.map((m, i) =>
        withEndNotice(
          m,
          props.dimFrom !== undefined && i >= props.dimFrom ? (
            <div key={m.id} className="after-point" data-testid="after-point" title="After the point shown on the timeline">
              {render(m)}
            </div>
          ) : (
            render(m)
          ),
        ),
      )}
      {[...live.streaming].filter(([id]) => !shown.has(id)).map(([id, text]) => (
        <div key={id} className="msg assistant streaming">
          <Markdown text={text} />
        </div>
      ))}
      {[...live.runningTools.values()]
        .filter((t) => !session.state.messages.some((m) => toolCallsOf(m).some((c) => c.toolCallId === t.toolCallId)))
        .map((t) => {
          const call: ToolCallPart = { type: "tool-call", toolCallId: t.toolCallId, toolName: t.toolName, input: t.input };
          return (
            <Fragment key={t.toolCallId}>
              <ToolRow call={call} running onOpenFile={props.onOpenFile} />
              {props.renderAfterTool?.(call)}
            </Fragment>
          );
        })}
      {live.notices.map((n) =>
        n.type === "checkpoint-created" ? (
          <div key={n.seq} className="notice-line" data-testid="checkpoint-notice">
            ⟲ Checkpoint of run {n.run} saved ({n.ref.split("/").slice(-2).join("/")})
          </div>
        ) : n.type === "error" && !(n.fatal && n.runId && recorded.has(n.runId)) ? (
          <div key={n.seq} className="notice-line error" role="alert">
            {n.message}
          </div>
        ) : n.type === "retry" ? (
          <div key={n.seq} className="notice-line muted">
            {n.message} — retrying in {Math.round(n.delayMs / 1000)} s
          </div>
        ) : n.type === "hook-error" ? (
          <div key={n.seq} className="notice-line error">
            Hook {n.hook} failed at {n.point}: {n.message}
          </div>
        ) : n.type === "compaction" && n.reason === "auto" ? (
          <div key={n.seq} className="notice-line" data-testid="compaction-notice">
            ⇣ {compactionText(n)}
          </div>
        ) : n.type === "command" && n.output ? (
          <div key={n.seq} className={`notice-line${n.ok ? "" : " error"}`} role={n.ok ? "status" : "alert"} data-testid="command-output">
            /{n.name}: {n.output}
          </div>
        ) : n.type === "files-restored" ? (
          <div key={n.seq} className="notice-line">
            Files restored to {n.ref.split("/").slice(-2).join("/")} ({n.changed.length} changed)
          </div>
        ) : null,
      )}
      <div ref={end} />
    </div>
  );
}
