/**
 * What the workbench looked like, per workspace, so a reload (or coming back tomorrow) opens it
 * the same way: the open tabs and which one was in front, each file's cursor and scroll
 * position, and the folders expanded in the tree. Kept in localStorage under one key per
 * workspace; whatever is read back is validated, and anything unreadable is treated as "nothing
 * remembered" — a view state is a comfort, never a reason for the workbench not to open.
 */
import { z } from "zod";

export const MAX_REMEMBERED_TABS = 50;
export const MAX_REMEMBERED_POSITIONS = 200;
export const MAX_REMEMBERED_FOLDERS = 2000;

const positionSchema = z.object({
  line: z.number().int().min(1),
  column: z.number().int().min(1),
  scrollTop: z.number().min(0),
  scrollLeft: z.number().min(0),
});
export type EditorPosition = z.infer<typeof positionSchema>;

const viewStateSchema = z.object({
  tabs: z.array(z.string()).default([]),
  active: z.string().optional(),
  /** Most recently left last. */
  positions: z.record(z.string(), positionSchema).default({}),
  expanded: z.array(z.string()).default([]),
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
