"use client";
import { useEffect, useState } from "react";
import type { Preview, PreviewFile, RestoreChoice, Tick } from "@/lib/timeline";
import { Dialog } from "@/components/common/Dialog";
import { NameForm } from "@/components/common/NameForm";
import { tickText } from "./TimelineBar";

const CHANGE_WORDS: Record<PreviewFile["change"], string> = { added: "comes back", modified: "modified", deleted: "removed" };

function FileRow(props: { f: PreviewFile; onOpen?: (path: string) => void }) {
  const { f } = props;
  return (
    <li data-testid="preview-file">
      <span className={`change-badge change-${f.change}`}>{CHANGE_WORDS[f.change]}</span>
      {props.onOpen ? (
        <button className="link" onClick={() => props.onOpen!(f.path)} title="Open the diff: this point ↔ now">
          {f.path}
        </button>
      ) : (
        <code>{f.path}</code>
      )}
      <span className="line-counts muted">
        {f.binary ? "binary" : f.modeOnly ? "mode only" : f.added !== undefined ? `+${f.added} −${f.removed}` : ""}
      </span>
    </li>
  );
}

/**
 * What the selected tick is and what restoring it would change (files vs the working tree now),
 * with who made the changes since the previous point, and the three ways to restore.
 */
export function TimelinePreview(props: {
  tick: Tick;
  preview?: Preview;
  error?: string;
  laterMessages: number;
  running: boolean;
  busy: boolean;
  readOnly: boolean;
  changesSince?: (from: string, to: string) => Promise<{ path: string; change: string }[]>;
  onOpenDiff: (path: string) => void;
  onRestore: (choice: RestoreChoice) => Promise<unknown>;
  onRename?: (name: string) => Promise<void>;
  onPin?: (pinned: boolean) => Promise<void>;
  /** Undo only what this step changed (call ticks). */
  onUndoStep?: () => Promise<unknown>;
  /** Open the Changes view of the tick's turn (run and end ticks). */
  onShowRunChanges?: (run: number) => void;
}) {
  const { tick, preview } = props;
  const [confirm, setConfirm] = useState<RestoreChoice>();
  const [error, setError] = useState<string>();
  const [since, setSince] = useState<{ path: string; change: string }[]>();
  const [renaming, setRenaming] = useState(false);

  useEffect(() => {
    setSince(undefined);
    setError(undefined);
    setRenaming(false);
    if (!tick.since || !props.changesSince) return;
    let cancelled = false;
    props
      .changesSince(tick.since.ref, tick.ref)
      .then((c) => !cancelled && setSince(c))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [tick.ref]); // eslint-disable-line react-hooks/exhaustive-deps

  const files = preview?.ref === tick.ref ? preview.files : undefined;
  const cannot = props.running ? "Stop the agent before restoring" : props.readOnly ? "This tab is read-only" : undefined;
  const by = tick.since?.by === "you" ? "by you (editor or terminal), not the agent" : tick.since?.by === "agent" ? "by the agent" : undefined;

  return (
    <section className="timeline-preview" aria-label="Checkpoint preview">
      <div className="row">
        <strong>{tickText(tick)}</strong>
        <span className="spacer" />
        {props.onShowRunChanges && tick.run !== undefined && (
          <button className="link" onClick={() => props.onShowRunChanges!(tick.run!)} title="Every file this turn changed, with Revert and Keep">
            Changes of turn {tick.run}
          </button>
        )}
        {props.onPin && (
          <button className="link" onClick={() => void props.onPin!(!tick.pinned)} title="Pinned save points are never pruned">
            {tick.pinned ? "Unpin" : "Pin"}
          </button>
        )}
        {props.onRename && !renaming && (
          <button className="link" onClick={() => setRenaming(true)}>
            Rename
          </button>
        )}
      </div>
      {renaming && (
        <NameForm label="New name" initial={tick.detail ?? ""} submitLabel="Rename" onSubmit={(name) => props.onRename!(name).then(() => setRenaming(false))} onCancel={() => setRenaming(false)} />
      )}
      {since && since.length > 0 && (
        <div className="muted" data-testid="changes-since">
          {tick.since?.by === "you" ? "✎ " : ""}Since the previous point, {since.length} file{since.length === 1 ? "" : "s"} changed{by ? ` ${by}` : ""}: {since.slice(0, 6).map((c) => c.path).join(", ")}
          {since.length > 6 ? ", …" : ""}
        </div>
      )}
      {props.error ? (
        <div className="error" role="alert">
          Could not preview this point: {props.error}
        </div>
      ) : !files ? (
        <div className="muted">Comparing with the working tree…</div>
      ) : files.length === 0 ? (
        <div className="muted" data-testid="preview-summary">
          The files are the same as now.
        </div>
      ) : (
        <>
          <div className="muted" data-testid="preview-summary">
            Restoring this point changes {files.length} file{files.length === 1 ? "" : "s"}:
          </div>
          <ul aria-label="Files that differ from now">
            {files.map((f) => (
              <FileRow key={f.path} f={f} onOpen={f.binary ? undefined : props.onOpenDiff} />
            ))}
          </ul>
        </>
      )}
      <div className="row" style={{ flexWrap: "wrap", gap: 6 }}>
        <button disabled={!!cannot || props.busy || !files} title={cannot} onClick={() => setConfirm("files")}>
          Restore files…
        </button>
        {!tick.group && (
          <button disabled={!!cannot || props.busy} title={cannot} onClick={() => setConfirm("conversation")}>
            Restore conversation…
          </button>
        )}
        {props.onUndoStep && (
          <button
            disabled={!!cannot || props.busy}
            title={cannot ?? "Put back only the files this step changed, as they were before it (Undo restore brings them back)"}
            onClick={() => props.onUndoStep!().catch((e: Error) => setError(`The step was not undone: ${e.message}`))}
          >
            Undo this step
          </button>
        )}
        {!tick.group && (
          <button disabled={!!cannot || props.busy || !files} title={cannot} onClick={() => setConfirm("both")}>
            Restore both…
          </button>
        )}
      </div>
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
      {confirm && (
        <Dialog
          title={confirm === "files" ? "Restore files" : confirm === "conversation" ? "Restore the conversation" : "Restore files and conversation"}
          onCancel={() => setConfirm(undefined)}
          actions={
            <>
              <button onClick={() => setConfirm(undefined)}>Cancel</button>
              <button
                className="primary"
                onClick={() => {
                  const choice = confirm;
                  setConfirm(undefined);
                  props.onRestore(choice).catch((e: Error) => setError(`The restore did not happen: ${e.message}`));
                }}
              >
                Restore
              </button>
            </>
          }
        >
          <p>
            Back to <strong>{tickText(tick)}</strong>.
          </p>
          {confirm !== "conversation" &&
            (files && files.length > 0 ? (
              <>
                <p>These files will change:</p>
                <ul aria-label="Files the restore changes" className="confirm-files">
                  {files.map((f) => (
                    <FileRow key={f.path} f={f} />
                  ))}
                </ul>
              </>
            ) : (
              <p>No file differs from now.</p>
            ))}
          {confirm !== "files" && (
            <p>
              {props.laterMessages > 0
                ? `${props.laterMessages} later message${props.laterMessages === 1 ? "" : "s"} leave the conversation${tick.kind === "run" ? "; this turn's prompt goes back into the prompt box" : ""}.`
                : "The conversation is already at this point."}
            </p>
          )}
          <p className="muted">Your current state is saved first: Undo restore brings it back.</p>
        </Dialog>
      )}
    </section>
  );
}
