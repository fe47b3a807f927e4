/**
 * What the workbench looked like, per workspace, so a reload (or coming back tomorrow) opens it
 * the same way: the open tabs and which one was in front, each file's cursor and scroll
 * position, the folders expanded in the tree, and the terminals (how many, each one's directory,
 * whether the dock showed). Kept in localStorage under one key per workspace; whatever is read
 * back is validated, and anything unreadable is treated as "nothing remembered" — a view state
 * is a comfort, never a reason for the workbench not to open.
 */
import { z } from "zod";

export const MAX_REMEMBERED_TABS = 50;
export const MAX_REMEMBERED_POSITIONS = 200;
export const MAX_REMEMBERED_FOLDERS = 2000;
export const MAX_REMEMBERED_TERMINALS = 10;

const positionSchema = z.object({
  line: z.number().int().min(1),
  column: z.number().int().min(1),
  scrollTop: z.number().min(0),
  scrollLeft: z.number().min(0),
});
export type EditorPosition = z.infer<typeof positionSchema>;

const terminalsSchema = z.object({
  /** The dock was showing. */
  open: z.boolean(),
  /** Each terminal tab's directory, relative to the workspace ("" is its root). */
  cwds: z.array(z.string()).min(1),
  /** Index of the terminal in front. */
  active: z.number().int().min(0),
});
export type TerminalsView = z.infer<typeof terminalsSchema>;

// Each part is read on its own: a broken part is forgotten, the others still come back.
const viewStateSchema = z.object({
  tabs: z.array(z.string()).catch([]),
  active: z.string().optional().catch(undefined),
  /** Most recently left last. */
  positions: z.record(z.string(), positionSchema).catch({}),
  expanded: z.array(z.string()).catch([]),
  terminals: terminalsSchema.optional().catch(undefined),
});
export type ViewState = z.infer<typeof viewStateSchema>;

const EMPTY: ViewState = { tabs: [], positions: {}, expanded: [] };

export function viewStateKey(workspaceId: string): string {
  return `tabula.view.${workspaceId}`;
}

/** Read a workspace's remembered view; a missing, corrupt or foreign-shaped entry reads as empty. */
export function readViewState(workspaceId: string, storage: Pick<Storage, "getItem"> = localStorage): ViewState {
  try {
    const raw = storage.getItem(viewStateKey(workspaceId));
    if (!raw) return structuredClone(EMPTY);
    const parsed = viewStateSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : structuredClone(EMPTY);
  } catch {
    return structuredClone(EMPTY);
  }
}

/**
 * Change part of a workspace's remembered view. Read-modify-write on each call, so two parts of
 * the workbench (the tabs, the tree) never overwrite each other's fields. A full quota only
 * loses the remembering, never the change itself.
 */
export function updateViewState(workspaceId: string, change: (state: ViewState) => void, storage: Pick<Storage, "getItem" | "setItem"> = localStorage): void {
  const state = readViewState(workspaceId, storage);
  change(state);
  state.tabs = state.tabs.slice(-MAX_REMEMBERED_TABS);
  state.expanded = state.expanded.slice(-MAX_REMEMBERED_FOLDERS);
  if (state.terminals) {
    state.terminals.cwds = state.terminals.cwds.slice(0, MAX_REMEMBERED_TERMINALS);
    state.terminals.active = Math.min(state.terminals.active, state.terminals.cwds.length - 1);
  }
  const paths = Object.keys(state.positions);
  if (paths.length > MAX_REMEMBERED_POSITIONS) for (const p of paths.slice(0, paths.length - MAX_REMEMBERED_POSITIONS)) delete state.positions[p];
  try {
    storage.setItem(viewStateKey(workspaceId), JSON.stringify(state));
  } catch {
    // QuotaExceededError: the view is simply not remembered this time.
  }
}

/** Remember where `path` was left, as the most recent entry. */
export function rememberPosition(state: ViewState, path: string, position: EditorPosition): void {
  delete state.positions[path];
  state.positions[path] = position;
}

/** Forget a deleted workspace's view. */
export function forgetViewState(workspaceId: string, storage: Pick<Storage, "removeItem"> = localStorage): void {
  try {
    storage.removeItem(viewStateKey(workspaceId));
  } catch {
    // storage unavailable: nothing was remembered either
  }
}
