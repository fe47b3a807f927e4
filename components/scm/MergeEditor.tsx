"use client";
import { useEffect, useState, useSyncExternalStore } from "react";
import { conflictBlocks, resolveConflict, type ConflictChoice } from "@/lib/scm/conflict-markers";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import { sourceControlFor } from "./useSourceControl";

/**
 * A conflicted file, one conflict at a time: the current side (HEAD) and the incoming one next
 * to each other, Accept Current / Incoming / Both per conflict (Undo steps back), the result as
 * it will be saved, and Complete Merge (save + stage, i.e. mark resolved). It edits the file's
 * open document, so the text editor shows the same text and can finish what is left by hand.
 */
export function MergeEditor(props: { ws: WorkspaceState; path: string; readOnly: boolean; onClose: () => void; onOpenInEditor: (path: string) => void; onError: (e: unknown) => void }) {
  const { ws, path, readOnly } = props;
  const docs = ws.docs;
  const [history, setHistory] = useState<string[]>([]);
  const [completing, setCompleting] = useState(false);
  const [loadError, setLoadError] = useState<string>();
  const doc = useSyncExternalStore(
    (fn) => docs.subscribe(fn),
    () => docs.get(path),
    () => undefined,
  );

  useEffect(() => {
    setHistory([]);
    docs.open(path).catch((e) => setLoadError((e as Error).message));
  }, [docs, path]);

  if (loadError)
    return (
      <div className="merge-editor" role="region" aria-label="Merge editor">
        <div className="banner error" role="alert">
          {loadError}
        </div>
      </div>
    );
  if (!doc) return <div className="merge-editor muted">Opening {path}…</div>;

  const blocks = conflictBlocks(doc.text);
  const accept = (index: number, choice: ConflictChoice) => {
    setHistory((h) => [...h, doc.text]);
    docs.setText(path, resolveConflict(doc.text, index, choice));
  };
  const undo = () => {
    const prev = history[history.length - 1];
    if (prev === undefined) return;
    setHistory((h) => h.slice(0, -1));
    docs.setText(path, prev);
  };
  const complete = async () => {
    setCompleting(true);
    try {
      await docs.save(path);
      await sourceControlFor(ws, readOnly).stage([path]);
      void ws.refresh();
      props.onClose();
    } catch (e) {
      props.onError(e);
    } finally {
      setCompleting(false);
    }
  };

  return (
    <div className="merge-editor" role="region" aria-label="Merge editor">
      <div className="merge-head">
        <strong className="mono">{path}</strong>
        <span className="muted" role="status">
          {blocks.length === 0 ? "No conflicts left" : `${blocks.length} conflict${blocks.length === 1 ? "" : "s"} left`}
        </span>
        <span className="spacer" />
        <button disabled={history.length === 0 || readOnly} onClick={undo}>
          Undo
        </button>
        <button onClick={() => props.onOpenInEditor(path)}>Open in Text Editor</button>
        <button className="primary" disabled={readOnly || completing || blocks.length > 0} title={blocks.length ? "Resolve every conflict first" : "Save and mark resolved (stage)"} onClick={() => void complete()}>
          Complete Merge
        </button>
        <button aria-label="Close merge editor" onClick={props.onClose}>
          ×
        </button>
      </div>
      <div className="merge-body">
        {blocks.map((b, i) => (
          <section key={`${b.line}:${i}`} className="merge-conflict" aria-label={`Conflict ${i + 1}`}>
            <div className="muted">
              Conflict {i + 1} of {blocks.length} — line {b.line + 1}
            </div>
            <div className="merge-sides">
              <div className="merge-side current">
                <div className="merge-side-title">Current{b.currentLabel ? ` (${b.currentLabel})` : ""}</div>
                <pre aria-label="Current">{b.current || "(nothing)"}</pre>
                <button disabled={readOnly} onClick={() => accept(i, "current")}>
                  Accept Current
                </button>
              </div>
              <div className="merge-side incoming">
                <div className="merge-side-title">Incoming{b.incomingLabel ? ` (${b.incomingLabel})` : ""}</div>
                <pre aria-label="Incoming">{b.incoming || "(nothing)"}</pre>
                <button disabled={readOnly} onClick={() => accept(i, "incoming")}>
                  Accept Incoming
                </button>
              </div>
            </div>
            <div className="merge-actions">
              <button disabled={readOnly} onClick={() => accept(i, "both")}>
                Accept Both
              </button>
              <button disabled={readOnly} onClick={() => accept(i, "none")} title="Drop both sides">
                Accept Neither
              </button>
              {b.base !== undefined && (
                <details>
                  <summary>Base</summary>
                  <pre>{b.base || "(nothing)"}</pre>
                </details>
              )}
            </div>
          </section>
        ))}
        <div className="merge-result">
          <div className="merge-side-title">Result{doc.text !== doc.savedText ? " (unsaved)" : ""}</div>
          <pre data-testid="merge-result">{doc.text}</pre>
        </div>
      </div>
    </div>
  );
}
