"use client";
import { useSyncExternalStore } from "react";
import { describeCursor, editorCursor } from "@/lib/editor/cursor-status";

/** The status bar's "Ln 12, Col 5": where the editor's cursor is, nothing when no file is open. */
export function CursorStatus() {
  const status = useSyncExternalStore(editorCursor.subscribe, editorCursor.get, () => undefined);
  if (!status) return null;
  return <span data-testid="cursor-status">{describeCursor(status)}</span>;
}
