"use client";
import type { RunChangeFile } from "@/lib/timeline";
import type { RunChangesController } from "./useRunChanges";

const DID: Record<RunChangeFile["change"], string> = { added: "added", modified: "modified", deleted: "deleted" };
const NOW: Record<RunChangeFile["now"], string | undefined> = {
  "as-left": undefined,
  reverted: "reverted",
  "changed-since": "changed since",
};

/**
 * Review one turn's work as a whole: every file it changed with its diff (before the turn ↔ what
 * it left), Revert per file, Revert all and Keep all. A revert is one restore transaction with an
 * Undo; a file changed again after the turn says so, since reverting it undoes those edits too.
 */
export function RunChangesView(props: {
  rc: RunChangesController;
  /** The turn's review outcome, from its run record. */
  review?: "kept" | "reverted";
  running: boolean;
  readOnly: boolean;
  onOpenDiff: (path: string) => void;
}) {
  const { rc } = props;
  const c = rc.changes;
  const run = rc.openRun!;
  const cannot = props.running ? "Stop the agent before reverting" : props.readOnly ? "This tab is read-only" : undefined;
  const revertible = c?.files.filter((f) => f.now !== "reverted") ?? [];
  return (
    <section className="run-changes" aria-label={`Changes of turn ${run}`}>
      <div className="row">
        <strong>
          Turn {run}
          {c ? ` changed ${c.files.length} file${c.files.length === 1 ? "" : "s"}` : ""}
        </strong>
        {props.review && <span className="muted" data-testid="run-review">· {props.review === "kept" ? "kept" : "reverted"}</span>}
        <span className="spacer" />
        <button onClick={rc.keepAll} disabled={!c || rc.busy || props.readOnly} title="The changes stay; this turn is marked as reviewed">
          Keep all
        </button>
        <button onClick={() => void rc.revert()} disabled={!!cannot || !c || rc.busy || revertible.length === 0} title={cannot ?? "Put every file this turn changed back as it was before the turn (Undo brings them back)"}>
          Revert all
        </button>
        <button className="link" aria-label="Close the changes" onClick={rc.close}>
          ×
        </button>
      </div>
      {c && !c.endRef && (
        <div className="muted">This turn has no snapshot of what it left, so it is compared with the files now (later edits included).</div>
      )}
      {rc.lastRevert && (
        <div className="banner" role="status" data-testid="revert-banner">
          Reverted {rc.lastRevert.what} to before turn {run} ({rc.lastRevert.files} file{rc.lastRevert.files === 1 ? "" : "s"} changed).{" "}
          <button disabled={rc.busy || props.running} onClick={() => void rc.undo()}>
            Undo revert
          </button>
        </div>
      )}
      {rc.error && (
        <div className="error" role="alert">
          {rc.error}
        </div>
      )}
      {!c ? (
        !rc.error && <div className="muted">Reading the turn's changes…</div>
      ) : c.files.length === 0 ? (
        <div className="muted">This turn changed no file.</div>
      ) : (
        <ul aria-label="Files this turn changed">
          {c.files.map((f) => (
            <li key={f.path} data-testid="run-change-file" className={f.now === "reverted" ? "reverted" : undefined}>
              <span className={`change-badge change-${f.change}`}>{DID[f.change]}</span>
              {f.binary ? (
                <code>{f.path}</code>
              ) : (
                <button className="link" onClick={() => props.onOpenDiff(f.path)} title={`Open the diff: before turn ${run} ↔ ${c.endRef ? "after it" : "now"}`}>
                  {f.path}
                </button>
              )}
              <span className="line-counts muted">{f.binary ? "binary" : f.modeOnly ? "mode only" : f.added !== undefined ? `+${f.added} −${f.removed}` : ""}</span>
              {NOW[f.now] && (
                <span className="muted" title={f.now === "changed-since" ? "Changed again after this turn: reverting it undoes those edits too (Undo brings them back)" : "Back as it was before this turn"}>
                  {NOW[f.now]}
                </span>
              )}
              <span className="spacer" />
              <button
                className="link"
                aria-label={`Revert ${f.path}`}
                disabled={!!cannot || rc.busy || f.now === "reverted"}
                title={cannot ?? `Put ${f.path} back as it was before turn ${run}`}
                onClick={() => void rc.revert([f.path])}
              >
                Revert
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
