/**
 * Where the editor's cursor is, for the status bar ("Ln 12, Col 5 (8 selected)"). The editor
 * publishes on every move; only the small status component listens, so a cursor move re-renders
 * that one element and not the workbench.
 */
export interface CursorStatus {
  line: number;
  column: number;
  /** Characters selected over all selections. */
  selected: number;
  /** More than one means multi-cursor editing. */
  selections: number;
}

type Listener = () => void;

let current: CursorStatus | undefined;
const listeners = new Set<Listener>();

export const editorCursor = {
  get(): CursorStatus | undefined {
    return current;
  },
  /** `undefined` when no text editor shows. */
  set(status: CursorStatus | undefined): void {
    if (current && status && current.line === status.line && current.column === status.column && current.selected === status.selected && current.selections === status.selections) return;
    current = status;
    for (const l of listeners) l();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The status bar's words for it, as VS Code writes them. */
export function describeCursor(status: CursorStatus): string {
  const at = `Ln ${status.line}, Col ${status.column}`;
  if (status.selections > 1) return `${at} (${status.selections} selections${status.selected ? `, ${status.selected} selected` : ""})`;
  return status.selected ? `${at} (${status.selected} selected)` : at;
}
