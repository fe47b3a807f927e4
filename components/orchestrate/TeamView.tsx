"use client";
import { useEffect, useState } from "react";
import { formatCost } from "@/lib/agent";
import type { AgentSession } from "@/lib/agent";
import type { TeamHandle, TeamState, TeamTaskView } from "@/lib/orchestrate";
import { taskDepths } from "./task-depth";
import { ChildTranscript } from "./ChildTranscript";
import { ConfirmDialog } from "@/components/common/Dialog";

const STATE_LABEL: Record<string, string> = { waiting: "waiting", running: "running…", done: "done", failed: "failed", blocked: "blocked" };
const STATUS_LABEL: Record<TeamState["status"], string> = { idle: "starting", running: "running", done: "done", stopped: "stopped", failed: "did not finish" };

/**
 * A running (or finished) team: each task with its state and reason, its cost, its child's
 * transcript one click away, Stop per task and Stop all; the team's cost against its budget.
 * It renders the team's state (`team.subscribe`) and forwards the clicks to the team. A team
 * read back after a reload has no live children: their transcripts come from storage.
 */
export function TeamView(props: {
  team: TeamHandle;
  /** A member's session read back from storage, by its id. */
  openChild: (sessionId: string) => Promise<AgentSession | undefined>;
  /** The parent is idle: its files may be restored. */
  canRestore: boolean;
  onRestore: () => Promise<{ txid: string; changed: number }>;
  onUndoRestore: (txid: string) => Promise<void>;
}) {
  const { team } = props;
  const [confirming, setConfirming] = useState(false);
  const [restored, setRestored] = useState<{ txid: string; changed: number }>();
  const [restoreError, setRestoreError] = useState<string>();
  const [state, setState] = useState<TeamState>(() => team.state);
  const [open, setOpen] = useState<{ title: string; session: AgentSession }>();
  const [openError, setOpenError] = useState<string>();
  useEffect(() => {
    setState(team.state);
    return team.subscribe(setState);
  }, [team]);
  // A member waiting for the user (an edit to approve, a question) says so: its row has no other sign of it.
  const [, setWaits] = useState(0);
  const childIds = [...state.tasks, state.synthesis].map((t) => t.sessionId ?? "").join(",");
  useEffect(() => {
    const offs = [...team.state.tasks, team.state.synthesis].flatMap((t) => {
      const child = team.session(t.key);
      return child ? [child.subscribe(() => setWaits((n) => n + 1))] : [];
    });
    return () => offs.forEach((off) => off());
  }, [team, childIds]);
  const depth = taskDepths(state.tasks);
  const titleOf = new Map(state.tasks.map((t) => [t.key, t.title]));
  const running = state.status === "running" || state.status === "idle";
  const openTranscript = async (t: TeamTaskView) => {
    setOpenError(undefined);
    const session = team.session(t.key) ?? (t.sessionId ? await props.openChild(t.sessionId) : undefined);
    if (session) setOpen({ title: t.title, session });
    else setOpenError(`The transcript of ${t.title} was not kept.`);
  };
  const needsYou = (t: TeamTaskView) => {
    const pending = t.state === "running" ? team.session(t.key)?.state.pending : undefined;
    return !!pending && pending.approvals.length + pending.questions.length > 0;
  };
  const row = (t: TeamTaskView, indent: number) => (
    <li key={t.key} className={`team-task state-${t.state}`} data-key={t.key} data-state={t.state} style={{ marginLeft: indent * 16 }}>
      <div className="row">
        <strong>{t.title}</strong>
        <span className="muted">· {t.role}{t.writes ? " · writes" : ""}</span>
        <span className="spacer" />
        <span className={`team-state ${t.state}`} data-testid="task-state">
          {needsYou(t) ? "waiting for you: open its transcript" : (STATE_LABEL[t.state] ?? t.state)}
        </span>
      </div>
      {t.dependsOn.length > 0 && <div className="muted plan-desc">after: {t.dependsOn.map((k) => titleOf.get(k) ?? k).join(", ")}</div>}
      {t.reason && (t.state === "failed" || t.state === "blocked") && <div className="tool-blocked" data-testid="task-reason">{t.reason}</div>}
      <div className="row">
        <span className="muted" data-testid="task-cost">
          {t.cost.tokens.toLocaleString("en-US")} tokens · {formatCost(t.cost.usd)}
        </span>
        <span className="spacer" />
        <button className="link" disabled={!t.sessionId} onClick={() => void openTranscript(t)} aria-label={`Transcript of ${t.title}`}>
          Transcript
        </button>
        {(t.state === "waiting" || t.state === "running") && (
          <button className="link" onClick={() => team.stop(t.key)} aria-label={`Stop ${t.title}`}>
            Stop
          </button>
        )}
      </div>
    </li>
  );
  return (
    <div className="team-view plan-card" role="region" aria-label="Team">
      <div className="row">
        <span className="approval-title">Team: {state.goal}</span>
        <span className="spacer" />
        <span className={`team-status ${state.status}`} data-testid="team-status">
          {STATUS_LABEL[state.status]}
        </span>
      </div>
      <div className="muted" data-testid="team-cost">
        {state.cost.tokens.toLocaleString("en-US")} of {state.budget.tokens.toLocaleString("en-US")} tokens · ${state.cost.usd.toFixed(4)} of ${state.budget.usd}
      </div>
      {state.reason && <div className="tool-blocked">{state.reason}</div>}
      <ol className="plan-steps team-tasks">
        {state.tasks.map((t) => row(t, depth.get(t.key) ?? 0))}
        {row(state.synthesis, 0)}
      </ol>
      {running && (
        <div className="row">
          <button className="danger" onClick={() => team.stopAll()}>
            Stop all
          </button>
        </div>
      )}
      {!running && team.firstCheckpoint() && (
        <div className="row">
          {restored ? (
            <>
              <span className="muted" role="status">
                Files restored to before the team ({restored.changed} file{restored.changed === 1 ? "" : "s"} changed).
              </span>
              <button
                disabled={!props.canRestore}
                onClick={() =>
                  props
                    .onUndoRestore(restored.txid)
                    .then(() => setRestored(undefined))
                    .catch((e: Error) => setRestoreError(`Undo failed, nothing was changed: ${e.message}`))
                }
              >
                Undo restore
              </button>
            </>
          ) : (
            <button disabled={!props.canRestore} onClick={() => setConfirming(true)} title="Put every file back as it was before the team's first task ran">
              Restore files to before the team
            </button>
          )}
        </div>
      )}
      {restoreError && (
        <div className="banner error" role="alert">
          {restoreError}
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title="Restore files to before the team?"
          message="Every file goes back to how it was before the team's first task ran: what the team changed, and anything changed since, is replaced. Undo restore puts it back."
          confirmLabel="Restore files"
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            setRestoreError(undefined);
            props
              .onRestore()
              .then(setRestored)
              .catch((e: Error) => setRestoreError(`The restore failed, nothing was changed: ${e.message}`));
          }}
        />
      )}
      {openError && <div className="muted">{openError}</div>}
      {open && <ChildTranscript session={open.session} title={open.title} onClose={() => setOpen(undefined)} />}
    </div>
  );
}
