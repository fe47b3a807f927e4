/**
 * What one agent turn changed, for reviewing a run as a whole after the fact (the Changes view):
 * every file that differs between the turn's own checkpoint (taken before its first change) and
 * the snapshot of what it left, with +/- line counts, and where the file is now: as the turn left
 * it, reverted, or changed again since (by hand or by a later turn) — reverting such a file also
 * undoes those later edits, which the view says before anyone clicks. Reverting goes through the
 * engine's restore transaction, scoped to the files asked for, so it never touches another file and
 * has an undo.
 *
 * A turn whose end snapshot is missing (the run failed before it, or it is from before end
 * snapshots existed) is compared with the working tree now instead, and says so.
 */
import type { CheckpointInfo } from "../checkpoints/checkpoint";
import type { Workspace } from "../checkpoints/engine";
import { runNumberOf } from "./model";
import { diffLineCounts, isBinary, type LineCounts } from "./preview";

type Engine = typeof import("../checkpoints/index");

export type RunChangeFile = LineCounts & {
  path: string;
  /** What the turn did to the file (and the line counts are what the turn added / removed). */
  change: "added" | "modified" | "deleted";
  /** The file now: as the turn left it, back as it was before the turn, or changed again since. */
  now: "as-left" | "reverted" | "changed-since";
};

export type RunChanges = {
  run: number;
  /** The turn's checkpoint: the files before it. Reverting goes back to it. */
  startRef: string;
  /** The snapshot of what the turn left; undefined when there is none (compared with now). */
  endRef?: string;
  files: RunChangeFile[];
};

/** The turn's start and end checkpoints among a session's checkpoints. */
export function runBounds(checkpoints: readonly CheckpointInfo[], run: number): { start?: CheckpointInfo; end?: CheckpointInfo } {
  const ofRun = checkpoints.filter((c) => runNumberOf(c) === run);
  return { start: ofRun.find((c) => c.kind === "run"), end: ofRun.find((c) => c.kind === "end") };
}

/** How many files the turn changed (trees only: no file is read), or undefined when it has no checkpoint. */
export async function runChangeCount(engine: Engine, ws: Workspace, checkpoints: readonly CheckpointInfo[], run: number): Promise<number | undefined> {
  const { start, end } = runBounds(checkpoints, run);
  if (!start) return undefined;
  if (end && end.tree === start.tree) return 0;
  return (end ? await engine.diffCheckpoints(ws, start.ref, end.ref) : await engine.diffWorkingTree(ws, start.ref)).length;
}

export async function runChanges(engine: Engine, ws: Workspace, checkpoints: readonly CheckpointInfo[], run: number): Promise<RunChanges> {
  const { start, end } = runBounds(checkpoints, run);
  if (!start) throw new Error(`Turn ${run} has no checkpoint: its changes cannot be listed.`);
  const entries = end ? (end.tree === start.tree ? [] : await engine.diffCheckpoints(ws, start.ref, end.ref)) : await engine.diffWorkingTree(ws, start.ref);
  // The working tree against both snapshots tells where each of these files is now.
  const differsFrom = async (ref: string) => new Set((await engine.diffWorkingTree(ws, ref)).map((e) => e.path));
  const [fromEnd, fromStart] = end && entries.length > 0 ? await Promise.all([differsFrom(end.ref), differsFrom(start.ref)]) : [new Set<string>(), undefined];
  const counts = await diffLineCounts(engine, ws, entries);
  const files = entries.map((e, i): RunChangeFile => {
    const now = !fromEnd.has(e.path) ? "as-left" : fromStart && !fromStart.has(e.path) ? "reverted" : "changed-since";
    return { path: e.path, change: e.change, ...counts[i], now };
  });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const out: RunChanges = { run, startRef: start.ref, files };
  if (end) out.endRef = end.ref;
  return out;
}

/** Both sides of one file as the turn changed it ("" for a side where it did not exist). */
export async function runFileSides(engine: Engine, ws: Workspace, changes: RunChanges, path: string, readNow: (path: string) => Promise<Uint8Array | undefined>) {
  const at = (ref: string) =>
    engine.readFileAt(ws, ref, path).catch((e: { code?: string }) => {
      if (e?.code === "NOT_FOUND") return undefined;
      throw e;
    });
  const [before, after] = await Promise.all([at(changes.startRef), changes.endRef ? at(changes.endRef) : readNow(path)]);
  const text = new TextDecoder();
  return { before: before ? text.decode(before) : "", after: after ? text.decode(after) : "", binary: !!((before && isBinary(before)) || (after && isBinary(after))) };
}
