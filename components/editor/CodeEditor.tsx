"use client";
import { useEffect, useRef } from "react";
import { monaco, modelUri, monacoTheme } from "./monaco-setup";
import { workbenchTheme } from "@/lib/workbench/theme";
import { currentTsWorkspace } from "./ts-workspace";
import type { OpenDocument } from "@/lib/editor/documents";
import type { EditorPosition } from "@/lib/workbench/view-state";
import { editorCursor } from "@/lib/editor/cursor-status";

/** Where each file's cursor and scroll were left, remembered across tab switches and reloads. */
export interface EditorPositions {
  get(path: string): EditorPosition | undefined;
  set(path: string, position: EditorPosition): void;
}

export interface RevealRequest {
  path: string;
  line: number;
  column: number;
  length: number;
  /** Changes for every request so the same location can be revealed twice. */
  nonce: number;
}

/** A line range to mark in the editor (review findings), with its hover text. */
export interface LineMark {
  path: string;
  startLine: number;
  endLine: number;
  message: string;
  severe: boolean;
}

/**
 * One Monaco editor for all documents: each document is a model keyed by its path (so undo
 * history survives switching tabs), and the language comes from the file extension.
 */
export default function CodeEditor(props: {
  doc: OpenDocument;
  reveal?: RevealRequest;
  marks?: LineMark[];
  onChange: (path: string, text: string) => void;
  onSave: (path: string) => void;
  onCloseModel?: (path: string) => void;
  openPaths: string[];
  positions?: EditorPositions;
}) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const instance = monaco.editor.create(host.current!, {
      automaticLayout: true,
      theme: monacoTheme(),
      minimap: { enabled: true },
      fontSize: 13,
      scrollBeyondLastLine: false,
      tabSize: 2,
      glyphMargin: true,
    });
    editor.current = instance;
    instance.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => {
      const path = latest.current.doc.path;
      latest.current.onSave(path);
    });
    const sub = instance.onDidChangeModelContent(() => {
      const model = instance.getModel();
      if (!model) return;
      latest.current.onChange(model.uri.path.slice(1), model.getValue());
    });
    // The cursor and scroll are remembered a moment after they settle (not on every pixel).
    let positionTimer: ReturnType<typeof setTimeout> | undefined;
    const rememberSoon = () => {
      clearTimeout(positionTimer);
      positionTimer = setTimeout(() => rememberPosition(instance, latest.current.positions), 300);
    };
    const offCursor = instance.onDidChangeCursorPosition(rememberSoon);
    const offSelection = instance.onDidChangeCursorSelection(() => publishCursor(instance));
    const offScroll = instance.onDidScrollChange(rememberSoon);
    // Monaco's theme is global: the diff editor and the viewers follow too.
    const offTheme = workbenchTheme().subscribe(() => monaco.editor.setTheme(monacoTheme()));
    return () => {
      clearTimeout(positionTimer);
      rememberPosition(instance, latest.current.positions);
      sub.dispose();
      offCursor.dispose();
      offSelection.dispose();
      offScroll.dispose();
      editorCursor.set(undefined);
      offTheme();
      instance.dispose();
      editor.current = null;
    };
  }, []);

  // Show the active document; create its model the first time, follow text changes made outside Monaco.
  useEffect(() => {
    const instance = editor.current;
    if (!instance) return;
    const uri = modelUri(props.doc.path);
    let model = monaco.editor.getModel(uri);
    if (!model) model = monaco.editor.createModel(props.doc.text, undefined, uri);
    else if (model.getValue() !== props.doc.text) model.pushEditOperations([], [{ range: model.getFullModelRange(), text: props.doc.text }], () => null);
    if (instance.getModel() !== model) {
      rememberPosition(instance, latest.current.positions);
      instance.setModel(model);
      const at = latest.current.positions?.get(props.doc.path);
      if (at) {
        instance.setPosition({ lineNumber: at.line, column: at.column });
        instance.setScrollPosition({ scrollTop: at.scrollTop, scrollLeft: at.scrollLeft });
      }
      publishCursor(instance);
    }
    instance.updateOptions({ readOnly: props.doc.readOnly });
  }, [props.doc]);

  // Dispose models of closed tabs, except the workspace sources the TypeScript service reads
  // (it puts their text back to what is on disk itself).
  useEffect(() => {
    const open = new Set(props.openPaths.map((p) => modelUri(p).toString()));
    const ts = currentTsWorkspace();
    for (const model of monaco.editor.getModels()) {
      if (model.uri.scheme !== "file" || open.has(model.uri.toString()) || model === editor.current?.getModel()) continue;
      if (ts?.owns(model.uri.path.slice(1))) continue;
      model.dispose();
    }
  }, [props.openPaths]);

  // Review findings: whole-line highlights with the finding as hover text and a gutter glyph.
  const markCollection = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  useEffect(() => {
    const instance = editor.current;
    if (!instance) return;
    markCollection.current ??= instance.createDecorationsCollection();
    markCollection.current.set(
      (props.marks ?? []).map((m) => ({
        range: new monaco.Range(m.startLine, 1, m.endLine, 1),
        options: {
          isWholeLine: true,
          className: m.severe ? "review-line severe" : "review-line",
          glyphMarginClassName: "review-glyph",
          hoverMessage: { value: m.message },
        },
      })),
    );
  }, [props.marks, props.doc]);

  useEffect(() => {
    const r = props.reveal;
    const instance = editor.current;
    if (!r || !instance || r.path !== props.doc.path) return;
    const range = new monaco.Range(r.line, r.column, r.line, r.column + r.length);
    instance.revealRangeInCenter(range);
    instance.setSelection(range);
    // Monaco may arrive late (lazy chunk): never steal focus from a dialog the user opened meanwhile.
    if (!document.querySelector('[role="dialog"]')) instance.focus();
  }, [props.reveal, props.doc.path]);

  return <div ref={host} className="editor-host" data-testid="code-editor" />;
}

function publishCursor(instance: monaco.editor.IStandaloneCodeEditor) {
  const model = instance.getModel();
  const selections = instance.getSelections() ?? [];
  const at = instance.getPosition();
  if (!model || !at) return editorCursor.set(undefined);
  const selected = selections.reduce((n, s) => n + model.getValueLengthInRange(s), 0);
  editorCursor.set({ line: at.lineNumber, column: at.column, selected, selections: Math.max(1, selections.length) });
}

function rememberPosition(instance: monaco.editor.IStandaloneCodeEditor, positions: EditorPositions | undefined) {
  const model = instance.getModel();
  const at = instance.getPosition();
  if (!positions || !model || model.isDisposed() || !at || model.uri.scheme !== "file") return;
  positions.set(model.uri.path.slice(1), { line: at.lineNumber, column: at.column, scrollTop: instance.getScrollTop(), scrollLeft: instance.getScrollLeft() });
}
