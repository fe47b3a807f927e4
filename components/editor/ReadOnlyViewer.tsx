"use client";
import { useEffect, useRef } from "react";
import { monaco, monacoTheme } from "./monaco-setup";

/** Monaco showing one text, read-only (shared sessions: a file as it was at a checkpoint). */
export default function ReadOnlyViewer(props: { path: string; text: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const lang = monaco.languages.getLanguages().find((l) => l.extensions?.some((ext) => props.path.endsWith(ext)))?.id;
    const model = monaco.editor.createModel(props.text, lang);
    const editor = monaco.editor.create(host.current!, { model, readOnly: true, automaticLayout: true, minimap: { enabled: false }, theme: monacoTheme() });
    return () => {
      editor.dispose();
      model.dispose();
    };
  }, [props.path, props.text]);
  return <div ref={host} className="editor-host" data-testid="file-viewer" />;
}
