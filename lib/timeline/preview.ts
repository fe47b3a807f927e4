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

export type PreviewFile = {
  path: string;
  /** What restoring this tick does to the file: "added" = it comes back, "deleted" = it goes away. */
  change: "added" | "modified" | "deleted";
  /** Lines restoring would add / remove (undefined for binary or very large files). */
  added?: number;
  removed?: number;
  binary?: boolean;
  /** Only the executable bit or the file type differs. */
  modeOnly?: boolean;
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
  const oids = entries.flatMap((e) => [e.oldOid, e.newOid]).filter((o): o is string => !!o && !/^0{40}$/.test(o));
  const blobs = await engine.readBlobs(ws, oids).catch(() => new Map<string, Uint8Array>());
  return entries.map((e): PreviewFile => {
    // Restoring goes from now (new side) back to the checkpoint (old side).
    const change = e.change === "added" ? "deleted" : e.change === "deleted" ? "added" : "modified";
    const now = e.newOid ? blobs.get(e.newOid) : undefined;
    const then = e.oldOid ? blobs.get(e.oldOid) : undefined;
    const f: PreviewFile = { path: e.path, change, ...lineCounts(now, then) };
    if (e.change === "modified" && e.oldOid === e.newOid) f.modeOnly = true;
    return f;
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
