"use client";
import dynamic from "next/dynamic";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { isDirty, type DocumentStore } from "@/lib/editor/documents";
import type { EditorPositions, LineMark, RevealRequest } from "./CodeEditor";

// Monaco is a lazy chunk: the workbench shell renders before it arrives.
const CodeEditor = dynamic(() => import("./CodeEditor"), { ssr: false, loading: () => <div className="editor-host muted">Loading editor…</div> });
const DiffEditor = dynamic(() => import("./DiffEditor"), { ssr: false, loading: () => <div className="editor-host muted">Loading diff…</div> });

export interface DiffView {
  path: string;
  original: string;
  modified: string;
  title: string;
}

function useDocuments(store: DocumentStore) {
  const version = useRef(0);
  useSyncExternalStore(
    (cb) =>
      store.subscribe(() => {
        version.current++;
        cb();
      }),
    () => version.current,
    () => 0,
  );
  return { docs: store.list(), active: store.active };
}

export function EditorArea(props: {
  store: DocumentStore;
  readOnly: boolean;
  reveal?: RevealRequest;
  marks?: LineMark[];
  positions?: EditorPositions;
  diff?: DiffView;
  onCloseDiff: () => void;
  onShowDiff: (path: string) => void;
  onSave: (path: string) => Promise<void>;
  onError: (message: string) => void;
}) {
  const { docs, active } = useDocuments(props.store);
  const doc = docs.find((d) => d.path === active);
  const [autosave, setAutosave] = useState(false);
  const autosaveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    setAutosave(localStorage.getItem("tabula.autosave") === "on");
  }, []);

  const save = (path: string) => {
    if (props.readOnly) {
      props.onError("This tab is read-only: another tab is editing this workspace.");
      return;
    }
    void props.onSave(path);
  };

  const onChange = (path: string, text: string) => {
    props.store.setText(path, text);
    if (autosave && !props.readOnly) {
      clearTimeout(autosaveTimer.current);
      autosaveTimer.current = setTimeout(() => void props.onSave(path), 800);
    }
  };

  const close = (path: string) => {
    const d = props.store.get(path);
    if (d && isDirty(d) && !confirm(`${path} has unsaved changes. Close it and discard them?`)) return;
    props.store.close(path);
  };

  return (
    <div className="editor-area">
      <div className="tabs" role="tablist" aria-label="Open files">
        {props.diff && (
          <div className={`tab active`} role="tab" aria-selected="true" title={props.diff.title}>
            <span>⇄ {props.diff.title}</span>
            <button className="close" aria-label="Close diff" onClick={props.onCloseDiff}>
              ×
            </button>
          </div>
        )}
        {docs.map((d) => (
          <div
            key={d.path}
            className={`tab${!props.diff && d.path === active ? " active" : ""}`}
            role="tab"
            aria-selected={!props.diff && d.path === active}
            title={d.path}
            data-path={d.path}
            onClick={() => {
              props.onCloseDiff();
              props.store.activate(d.path);
            }}
            onAuxClick={(e) => e.button === 1 && close(d.path)}
          >
            <span>{d.path.split("/").pop()}</span>
            {isDirty(d) ? (
              <span className="dirty" aria-label="unsaved changes" title="Unsaved changes">
                ●
              </span>
            ) : null}
            <button
              className="close"
              aria-label={`Close ${d.path}`}
              onClick={(e) => {
                e.stopPropagation();
                close(d.path);
              }}
            >
              ×
            </button>
          </div>
        ))}
      </div>
      {props.diff ? (
        <DiffEditor path={props.diff.path} original={props.diff.original} modified={props.diff.modified} />
      ) : doc ? (
        <>
          <div className="editor-toolbar">
            <span className="mono editor-path" title={doc.path}>
              <span dir="ltr">{doc.path}</span>
            </span>
            {doc.readOnly && <span className="badge">read-only</span>}
            <span className="spacer" />
            <label>
              <input
                type="checkbox"
                checked={autosave}
                onChange={(e) => {
                  setAutosave(e.target.checked);
                  localStorage.setItem("tabula.autosave", e.target.checked ? "on" : "off");
                }}
              />{" "}
              Autosave
            </label>
            <button onClick={() => props.onShowDiff(doc.path)}>Diff vs HEAD</button>
            <button onClick={() => save(doc.path)} disabled={!isDirty(doc) || props.readOnly}>
              Save
            </button>
          </div>
          {doc.notice && (
            <div className="notice" role="status">
              {doc.notice}
            </div>
          )}
          <CodeEditor
            doc={props.readOnly ? { ...doc, readOnly: true } : doc}
            reveal={props.reveal}
            marks={props.marks?.filter((m) => m.path === doc.path)}
            onChange={onChange}
            onSave={save}
            openPaths={docs.map((d) => d.path)}
            positions={props.positions}
          />
        </>
      ) : (
        <div className="empty-editor">
          <div>No file open</div>
          <div>
            <kbd>Ctrl</kbd>+<kbd>P</kbd> quick open · <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>F</kbd> find in files · <kbd>Ctrl</kbd>+<kbd>S</kbd> save
          </div>
        </div>
      )}
    </div>
  );
}
