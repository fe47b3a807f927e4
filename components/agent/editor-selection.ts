"use client";
import type { EditorSelection } from "@/lib/agent";

/**
 * The selection in the editor showing `path` (Monaco keeps it when the focus moves to the
 * prompt box). Monaco is imported only when asked: it is already loaded whenever a file is open,
 * and the agent panel must not pull it in otherwise.
 */
export async function editorSelection(path: string | undefined): Promise<EditorSelection | undefined> {
  if (!path) return undefined;
  const { monaco, modelUri } = await import("@/components/editor/monaco-setup");
  const uri = modelUri(path).toString();
  for (const editor of monaco.editor.getEditors()) {
    const model = editor.getModel();
    const sel = editor.getSelection();
    if (!model || !sel || sel.isEmpty() || !("uri" in model) || model.uri.toString() !== uri) continue;
    // A diff editor's sides hold models of their own (other URIs): only the code editor's model matches.
    return { path, startLine: sel.startLineNumber, endLine: sel.endLineNumber, text: model.getValueInRange(sel) };
  }
  return undefined;
}
