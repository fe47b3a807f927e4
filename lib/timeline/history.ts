/**
 * The workspace's history: every session's checkpoints merged by time (newest first), what
 * they take on disk, and pruning. Pinned save points are never pruned.
 */
import type { Workspace } from "../checkpoints/engine";
import type { CheckpointInfo } from "../checkpoints/checkpoint";
import { runNumberOf, stepNumberOf } from "./model";

type Engine = typeof import("../checkpoints/index");

export type HistoryEntry = {
  ref: string;
  sessionId: string;
  sessionTitle: string;
  /** False when the session was deleted (its checkpoints stay until pruned). */
  sessionExists: boolean;
  at: number;
  kind: CheckpointInfo["kind"];
  title: string;
  detail?: string;
  pinned?: boolean;
};

export function titleOf(c: Pick<CheckpointInfo, "kind" | "run">): string {
  const n = runNumberOf(c);
  switch (c.kind) {
    case "run":
      return n !== undefined ? `Turn ${n}` : "Checkpoint";
    case "end":
      return n !== undefined ? `After turn ${n}` : "End of a turn";
    case "call": {
      const k = stepNumberOf(c);
      return n !== undefined ? `Turn ${n} · step ${k ?? "?"}` : "A step of a turn";
    }
    case "save":
      return "Save point";
    case "restore":
      return "Before a restore";
  }
}

export async function workspaceHistory(engine: Engine, ws: Workspace, sessions: readonly { id: string; title: string }[]): Promise<HistoryEntry[]> {
  const titles = new Map(sessions.map((s) => [s.id, s.title]));
  const list = await engine.listCheckpoints(ws);
  return list
    .map((c): HistoryEntry => {
      const e: HistoryEntry = {
        ref: c.ref,
        sessionId: c.sessionId,
        sessionTitle: titles.get(c.sessionId) || (titles.has(c.sessionId) ? "Untitled session" : "Deleted session"),
        sessionExists: titles.has(c.sessionId),
        at: c.createdAt,
        kind: c.kind,
        title: titleOf(c),
      };
      if (c.label) e.detail = c.label;
      if (c.pinned) e.pinned = true;
      return e;
    })
    .sort((a, b) => b.at - a.at || a.ref.localeCompare(b.ref));
}
