/**
 * The index as a merge leaves it: resolved paths at stage 0, and for each conflicted path its
 * base, ours and theirs versions at stages 1, 2 and 3 (a side that lacks the path has no
 * entry), as native git records them so that `git status`, `ls-files -u` and `git add` treat
 * them alike. isomorphic-git's public API writes stage 0 only; its index manager (exported
 * from isomorphic-git/managers) reads and writes every stage.
 */
import { GitIndexManager } from "isomorphic-git/managers";
import { FileSystem } from "isomorphic-git/models";
import { hasUnmergedEntries } from "./index-scan";

export type StageEntry = { oid: string; mode: number };

/** Stages 1 (base), 2 (ours) and 3 (theirs) of one unmerged path. */
export type UnmergedStages = { base?: StageEntry; ours?: StageEntry; theirs?: StageEntry };

export type IndexUpdate =
  | { path: string; kind: "set"; entry: StageEntry }
  | { path: string; kind: "remove" }
  | { path: string; kind: "conflict"; stages: UnmergedStages };

type IndexArgs = { fs: unknown; gitdir: string };

type RawEntry = { path: string; oid: string; mode: number; flags: { stage: number }; stages: (RawEntry | undefined)[] };
type RawIndex = {
  entriesMap: Map<string, RawEntry>;
  unmergedPaths: string[];
  insert(a: { filepath: string; oid: string; stats?: object; stage?: number }): void;
  delete(a: { filepath: string }): void;
};

const ZERO_STATS = { ctimeSeconds: 0, ctimeNanoseconds: 0, mtimeSeconds: 0, mtimeNanoseconds: 0, dev: 0, ino: 0, uid: 0, gid: 0, size: 0 };

function acquire<T>(args: IndexArgs, fn: (index: RawIndex) => T | Promise<T>): Promise<T> {
  // A cache of its own: entries are then always read fresh from .git/index.
  return GitIndexManager.acquire({ fs: new FileSystem(args.fs), gitdir: args.gitdir, cache: {}, allowUnmerged: true }, fn as never);
}

/** The unmerged paths of the index with their stages, sorted by path. */
export async function unmergedEntries(args: IndexArgs): Promise<Map<string, UnmergedStages>> {
  // The usual answer, none, without building the whole index model.
  if (!(await hasUnmergedEntries(args.fs as Parameters<typeof hasUnmergedEntries>[0], args.gitdir))) return new Map();
  return acquire(args, (index) => {
    const out = new Map<string, UnmergedStages>();
    for (const path of [...index.unmergedPaths].sort()) {
      const e = index.entriesMap.get(path);
      if (!e) continue;
      const at = (n: number): StageEntry | undefined => {
        const s = e.stages[n];
        return s ? { oid: s.oid, mode: s.mode } : undefined;
      };
      out.set(path, { base: at(1), ours: at(2), theirs: at(3) });
    }
    return out;
  });
}

/** Apply updates in one write of .git/index. */
export async function updateIndex(args: IndexArgs, updates: readonly IndexUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  await acquire(args, (index) => {
    for (const u of updates) {
      // A path's stage-0 and stage-1..3 entries must not coexist: clear it first. No stat data
      // is recorded (the file may not be written yet): status re-hashes the file once.
      if (index.entriesMap.has(u.path)) index.delete({ filepath: u.path });
      if (u.kind === "set") index.insert({ filepath: u.path, oid: u.entry.oid, stats: { ...ZERO_STATS, mode: u.entry.mode } });
      else if (u.kind === "conflict") {
        const stages: [number, StageEntry | undefined][] = [[1, u.stages.base], [2, u.stages.ours], [3, u.stages.theirs]];
        for (const [stage, e] of stages) if (e) index.insert({ filepath: u.path, oid: e.oid, stage, stats: { ...ZERO_STATS, mode: e.mode } });
      }
    }
  });
}
