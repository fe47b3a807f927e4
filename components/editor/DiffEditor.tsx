"use client";
import { useEffect, useRef } from "react";
import { monaco, monacoTheme } from "./monaco-setup";

/** Monaco's side-by-side diff: `original` on the left (e.g. HEAD), `modified` on the right. */
export default function DiffEditor(props: { path: string; original: string; modified: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const diff = monaco.editor.createDiffEditor(host.current!, {
      automaticLayout: true,
      readOnly: true,
      originalEditable: false,
      theme: monacoTheme(),
      renderSideBySide: true,
    });
    const lang = monaco.languages.getLanguages().find((l) => l.extensions?.some((ext) => props.path.endsWith(ext)))?.id;
    const original = monaco.editor.createModel(props.original, lang);
    const modified = monaco.editor.createModel(props.modified, lang);
    diff.setModel({ original, modified });
    return () => {
      diff.dispose();
      original.dispose();
      modified.dispose();
    };
  }, [props.path, props.original, props.modified]);
  return <div ref={host} className="editor-host" data-testid="diff-editor" />;
}
