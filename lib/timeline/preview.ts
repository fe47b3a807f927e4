/**
 * What a tick would change: the files that differ between a checkpoint and the working tree
 * now, with +/- line counts, and the two sides of one file for the diff editor. Read-only:
 * scrubbing never writes a working file (the engine may store blobs of changed files in .git,
 * as `git add` would, which is what makes the next step fast).
 */
import { diffLines } from "diff";
import { looksBinary as isBinary } from "../git/binary";
import type { Workspace } from "../checkpoints/engine";
import type { DiffEntry } from "../checkpoints/checkpoint";

type Engine = typeof import("../checkpoints/index");

/** How a file differs between two sides, in lines (undefined for binary or very large files). */
export type LineCounts = {
  added?: number;
  removed?: number;
  binary?: boolean;
  /** Only the executable bit or the file type differs. */
  modeOnly?: boolean;
};

export type PreviewFile = LineCounts & {
  path: string;
  /** What restoring this tick does to the file: "added" = it comes back, "deleted" = it goes away
   * (and the line counts are what restoring would add / remove). */
  change: "added" | "modified" | "deleted";
};

export type Preview = { ref: string; files: PreviewFile[]; ms: number };

export { isBinary };

/** Files larger than this get no line counts (the diff would take longer than the step budget). */
const COUNT_LIMIT = 512 * 1024;

const decoder = new TextDecoder();

export function lineCounts(from: Uint8Array | undefined, to: Uint8Array | undefined): { added?: number; removed?: number; binary?: boolean } {
  if ((from && isBinary(from)) || (to && isBinary(to))) return { binary: true };
  if ((from?.length ?? 0) > COUNT_LIMIT || (to?.length ?? 0) > COUNT_LIMIT) return {};
  let added = 0;
  let removed = 0;
  for (const part of diffLines(from ? decoder.decode(from) : "", to ? decoder.decode(to) : "")) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  return { added, removed };
}

/**
 * `entries` are the engine's diff with the checkpoint on the old side and the working tree on
 * the new side; the preview states them the way a restore would apply them.
 */
export async function previewFromDiff(engine: Engine, ws: Workspace, entries: DiffEntry[]): Promise<PreviewFile[]> {
  const counts = await diffLineCounts(engine, ws, entries);
  return entries.map((e, i): PreviewFile => {
    // Restoring goes from now (new side) back to the checkpoint (old side): the other way round.
    const change = e.change === "added" ? "deleted" : e.change === "deleted" ? "added" : "modified";
    const { added, removed, ...rest } = counts[i]!;
    const f: PreviewFile = { path: e.path, change, ...rest };
    if (added !== undefined) Object.assign(f, { added: removed, removed: added });
    return f;
  });
}

/** Each entry's lines from its old side to its new side, every blob involved read once. */
export async function diffLineCounts(engine: Engine, ws: Workspace, entries: readonly DiffEntry[]): Promise<LineCounts[]> {
  const oids = entries.flatMap((e) => [e.oldOid, e.newOid]).filter((o): o is string => !!o && !/^0{40}$/.test(o));
  const blobs = oids.length ? await engine.readBlobs(ws, oids).catch(() => new Map<string, Uint8Array>()) : new Map<string, Uint8Array>();
  return entries.map((e) => {
    const c: LineCounts = lineCounts(e.oldOid ? blobs.get(e.oldOid) : undefined, e.newOid ? blobs.get(e.newOid) : undefined);
    if (e.change === "modified" && e.oldOid === e.newOid) c.modeOnly = true;
    return c;
  });
}

export async function previewTick(engine: Engine, ws: Workspace, ref: string): Promise<Preview> {
  const t0 = performance.now();
  const entries = await engine.diffWorkingTree(ws, ref);
  const files = await previewFromDiff(engine, ws, entries);
  return { ref, files, ms: Math.round((performance.now() - t0) * 10) / 10 };
}

/** Two sides of one file for the diff editor: the checkpoint's and the working tree's ("" when absent). */
export async function fileAtTick(engine: Engine, ws: Workspace, ref: string, path: string, readNow: (path: string) => Promise<Uint8Array | undefined>) {
  const then = await engine.readFileAt(ws, ref, path).catch((e: { code?: string }) => {
    if (e?.code === "NOT_FOUND") return undefined;
    throw e;
  });
  const now = await readNow(path);
  const binary = (then && isBinary(then)) || (now && isBinary(now));
  return { then: then ? decoder.decode(then) : "", now: now ? decoder.decode(now) : "", binary: !!binary, existedThen: !!then, existsNow: !!now };
}
