"use client";
import { useCallback, useEffect, useState } from "react";
import { workspaceHistory, type HistoryEntry } from "@/lib/timeline";
import type { StorageReport } from "@/lib/checkpoints";
import { formatBytes } from "@/lib/editor/file-kind";
import { ConfirmDialog } from "@/components/common/Dialog";
import type { Workspace } from "@/lib/checkpoints/engine";

const loadEngine = () => import("@/lib/checkpoints");

function when(ms: number): string {
  return new Date(ms).toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/**
 * Every session's checkpoints in this workspace, newest first, with what they take on disk and
 * a prune that keeps the newest per session (pinned save points are always kept).
 */
export function WorkspaceHistory(props: {
  ws: Workspace;
  sessions: { id: string; title: string }[];
  currentSessionId: string;
  /** A checkpoint of the current session: select its tick; of another: open that session. */
  onOpen: (entry: HistoryEntry) => void;
  readOnly: boolean;
}) {
  const [entries, setEntries] = useState<HistoryEntry[]>();
  const [storage, setStorage] = useState<StorageReport>();
  const [keep, setKeep] = useState(10);
  const [confirm, setConfirm] = useState(false);
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<string>();

  const load = useCallback(async () => {
    try {
      const engine = await loadEngine();
      const [h, s] = await Promise.all([workspaceHistory(engine, props.ws, props.sessions), engine.checkpointStorage(props.ws)]);
      setEntries(h);
      setStorage(s);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [props.ws, props.sessions]);

  useEffect(() => {
    void load();
  }, [load]);

  const prune = async () => {
    setConfirm(false);
    setError(undefined);
    try {
      const engine = await loadEngine();
      const r = await engine.pruneCheckpoints(props.ws, { keepLast: keep, includeRestores: true });
      setMessage(`Removed ${r.removedRefs.length} checkpoint${r.removedRefs.length === 1 ? "" : "s"}, freed ${formatBytes(r.freedBytes)}.`);
      await load();
    } catch (e) {
      setError(`Prune failed, nothing was removed: ${(e as Error).message}`);
    }
  };

  const removable = entries ? entries.length - entries.filter((e) => e.pinned).length : 0;

  return (
    <div className="workspace-history" aria-label="All checkpoints">
      {storage && (
        <div className="storage-meter" data-testid="storage-meter">
          <div>
            Checkpoints use <strong>{formatBytes(storage.bytes + storage.metadataBytes)}</strong> ({storage.checkpoints} checkpoints, {storage.restores} saved pre-restore states,{" "}
            {storage.objects} objects)
          </div>
          <div className="bar" aria-hidden>
            <div style={{ width: `${Math.min(100, ((storage.bytes + storage.metadataBytes) / (200 * 1024 * 1024)) * 100)}%` }} />
          </div>
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              setConfirm(true);
            }}
          >
            <label>
              Keep the newest{" "}
              <input type="number" min={0} max={1000} aria-label="Checkpoints to keep per session" value={keep} style={{ width: 60 }} onChange={(e) => setKeep(Math.max(0, Math.floor(Number(e.target.value) || 0)))} /> per session
            </label>
            <button type="submit" disabled={props.readOnly || removable === 0}>
              Prune…
            </button>
          </form>
        </div>
      )}
      {message && <div role="status">{message}</div>}
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
      {!entries ? (
        <div className="muted">Loading…</div>
      ) : entries.length === 0 ? (
        <div className="muted">No checkpoints in this workspace yet.</div>
      ) : (
        <ul aria-label="Checkpoints of every session">
          {entries.map((e) => (
            <li key={e.ref} data-testid="history-entry">
              <button className="link" onClick={() => props.onOpen(e)} disabled={!e.sessionExists} title={e.sessionExists ? (e.sessionId === props.currentSessionId ? "Show on the timeline" : "Open this session") : "This session was deleted"}>
                {e.title}
                {e.detail ? `: ${e.detail}` : ""}
              </button>
              {e.pinned && <span title="Pinned: never pruned"> 📌</span>}
              <div className="muted" style={{ fontSize: 12 }}>
                {when(e.at)} · {e.sessionTitle}
                {e.sessionId === props.currentSessionId ? " (this session)" : ""}
              </div>
            </li>
          ))}
        </ul>
      )}
      {confirm && (
        <ConfirmDialog
          title="Prune checkpoints"
          danger
          confirmLabel="Prune"
          message={
            <p>
              Keep the newest {keep} checkpoint{keep === 1 ? "" : "s"} of each session and remove the rest, with saved pre-restore states by the same rule. Pinned save points stay. Your files,
              branches and commits are not touched.
            </p>
          }
          onConfirm={() => void prune()}
          onCancel={() => setConfirm(false)}
        />
      )}
    </div>
  );
}
