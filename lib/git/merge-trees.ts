/**
 * Three-way merge of two trees against their merge base, path by path over flattened trees
 * (path → blob), the way git's merge decides each path: a side that left a path as in the
 * base takes the other side's version; both sides changed it the same way is clean; both
 * changed a text file is a line merge (./merge-file.ts); everything else conflicts. What a
 * conflict leaves is described as git leaves it: the index stages and the work-tree file.
 *
 * Renames are followed (exact ones, and files renamed and changed, by content similarity);
 * a path that is a file on one side and a directory on the other is refused, not resolved.
 */
import { looksBinary, mergeText } from "./merge-file";
import type { StageEntry, UnmergedStages } from "./merge-index";

export type FlatTree = Map<string, StageEntry>;

export type ConflictKind = "content" | "add/add" | "modify/delete" | "delete/modify" | "binary";

export type MergeConflict = {
  path: string;
  kind: ConflictKind;
  stages: UnmergedStages;
  /** What the work-tree file holds afterwards (conflict markers, or the surviving side). */
  work: StageEntry;
};

export type TreeMergeResult = {
  /** Every resolved path (conflicted paths excluded). */
  clean: FlatTree;
  conflicts: MergeConflict[];
  /** git's "Auto-merging …" and "CONFLICT (…)" lines, in path order. */
  messages: string[];
};

export type BlobStore = {
  read(oid: string): Promise<Uint8Array>;
  write(bytes: Uint8Array): Promise<string>;
};

export type SideNames = { ours: string; theirs: string };

/** The merge would need what this merge does not do (a file/directory conflict). */
export class MergeNotSupported extends Error {}

const REGULAR = (mode: number) => mode === 0o100644 || mode === 0o100755;
const same = (a?: StageEntry, b?: StageEntry) => (a === undefined ? b === undefined : b !== undefined && a.oid === b.oid && a.mode === b.mode);

/** Below this many pairs to score, renamed-and-changed files are looked for (git's limit is similar). */
const RENAME_PAIR_LIMIT = 10_000;
/** git's default rename threshold: half the content kept. */
const SIMILARITY = 0.5;

/**
 * How much of `a` survives in `b`, as a fraction of the larger: bytes of lines they have in
 * common (as many times as both have them). git scores chunks of lines the same way.
 */
function similarity(a: Uint8Array, b: Uint8Array): number {
  const size = Math.max(a.length, b.length);
  if (size === 0) return 1;
  const counts = new Map<string, number>();
  const dec = new TextDecoder();
  for (const l of dec.decode(a).split(/(?<=\n)/)) counts.set(l, (counts.get(l) ?? 0) + 1);
  let common = 0;
  for (const l of dec.decode(b).split(/(?<=\n)/)) {
    const n = counts.get(l) ?? 0;
    if (n > 0) {
      counts.set(l, n - 1);
      common += new TextEncoder().encode(l).length;
    }
  }
  return common / size;
}

const baseName = (p: string) => p.slice(p.lastIndexOf("/") + 1);

/**
 * Paths a side renamed: old → new. Exact renames (the base's blob at a new path) first, then
 * files renamed and changed, paired by content similarity (at least half kept, the best pair
 * first, the same file name preferred), as git's rename detection pairs them.
 */
async function renames(base: FlatTree, side: FlatTree, store: BlobStore): Promise<Map<string, string>> {
  const added = [...side].filter(([p, e]) => !base.has(p) && REGULAR(e.mode)).map(([p]) => p);
  const deleted = [...base].filter(([p, e]) => !side.has(p) && REGULAR(e.mode)).map(([p]) => p);
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const from of deleted) {
    const to = added.find((p) => !taken.has(p) && side.get(p)!.oid === base.get(from)!.oid);
    if (to !== undefined) {
      out.set(from, to);
      taken.add(to);
    }
  }
  const sources = deleted.filter((p) => !out.has(p));
  const targets = added.filter((p) => !taken.has(p));
  if (sources.length === 0 || targets.length === 0 || sources.length * targets.length > RENAME_PAIR_LIMIT) return out;
  const pairs: { from: string; to: string; score: number }[] = [];
  for (const from of sources) {
    const a = await store.read(base.get(from)!.oid);
    for (const to of targets) {
      const score = similarity(a, await store.read(side.get(to)!.oid));
      if (score >= SIMILARITY) pairs.push({ from, to, score });
    }
  }
  pairs.sort((x, y) => y.score - x.score || Number(baseName(y.from) === baseName(y.to)) - Number(baseName(x.from) === baseName(x.to)));
  for (const { from, to } of pairs) {
    if (out.has(from) || taken.has(to)) continue;
    out.set(from, to);
    taken.add(to);
  }
  return out;
}

function moved(tree: FlatTree, from: string, to: string): FlatTree {
  const out = new Map(tree);
  const e = out.get(from)!;
  out.delete(from);
  out.set(to, e);
  return out;
}

type RenameDelete = { conflict: MergeConflict; message: string };

/**
 * Follow renames: when one side moved a file (changed or not) and the other changed it where
 * it was, the change is merged at the new path, as git's rename detection does. When the other
 * side deleted it, that is a rename/delete conflict at the new path (returned by path). A file
 * both sides renamed, differently, is refused.
 */
async function followRenames(
  base: FlatTree,
  ours: FlatTree,
  theirs: FlatTree,
  store: BlobStore,
  names: SideNames,
): Promise<{ trees: [FlatTree, FlatTree, FlatTree]; renameDeletes: Map<string, RenameDelete> }> {
  const ourRenames = await renames(base, ours, store);
  const theirRenames = await renames(base, theirs, store);
  const renameDeletes = new Map<string, RenameDelete>();
  const follow = (from: string, to: string, mover: "ours" | "theirs") => {
    const [mine, other] = mover === "ours" ? [ours, theirs] : [theirs, ours];
    if (other.has(to) || !base.has(from)) return;
    if (other.has(from)) {
      base = moved(base, from, to);
      if (mover === "ours") theirs = moved(theirs, from, to);
      else ours = moved(ours, from, to);
      return;
    }
    const entry = mine.get(to)!;
    const [moverName, deleterName] = mover === "ours" ? [names.ours, names.theirs] : [names.theirs, names.ours];
    renameDeletes.set(to, {
      conflict: { path: to, kind: mover === "ours" ? "modify/delete" : "delete/modify", stages: { base: base.get(from), [mover]: entry }, work: entry },
      message: `CONFLICT (rename/delete): ${from} renamed to ${to} in ${moverName}, but deleted in ${deleterName}.`,
    });
    base = new Map(base);
    base.delete(from);
  };
  for (const [from, to] of ourRenames) {
    const other = theirRenames.get(from);
    if (other !== undefined && other !== to) throw new MergeNotSupported(`'${from}' was renamed to '${to}' on one side and to '${other}' on the other; this shell cannot merge that`);
    follow(from, to, "ours");
  }
  for (const [from, to] of theirRenames) if (!ourRenames.has(from)) follow(from, to, "theirs");
  return { trees: [base, ours, theirs], renameDeletes };
}

export async function mergeTrees(base: FlatTree, ours: FlatTree, theirs: FlatTree, store: BlobStore, names: SideNames): Promise<TreeMergeResult> {
  const followed = await followRenames(base, ours, theirs, store, names);
  [base, ours, theirs] = followed.trees;
  const clean: FlatTree = new Map();
  const conflicts: MergeConflict[] = [];
  const messages: string[] = [];
  const paths = [...new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])].sort();
  const decoder = new TextDecoder();
  for (const path of paths) {
    const renameDelete = followed.renameDeletes.get(path);
    if (renameDelete) {
      messages.push(renameDelete.message);
      conflicts.push(renameDelete.conflict);
      continue;
    }
    const b = base.get(path);
    const o = ours.get(path);
    const t = theirs.get(path);
    if (same(o, t)) {
      if (o) clean.set(path, o);
      continue;
    }
    if (same(b, o)) {
      if (t) clean.set(path, t);
      continue;
    }
    if (same(b, t)) {
      if (o) clean.set(path, o);
      continue;
    }
    // Both sides changed the path, differently.
    if (o && t) {
      const stages: UnmergedStages = { base: b, ours: o, theirs: t };
      const kind: ConflictKind = b ? "content" : "add/add";
      if (!REGULAR(o.mode) || !REGULAR(t.mode) || (b && !REGULAR(b.mode))) {
        messages.push(`CONFLICT (${kind}): Merge conflict in ${path}`);
        conflicts.push({ path, kind, stages, work: o });
        continue;
      }
      // One side's mode change survives; two different ones keep ours (git reports them too).
      const mode = b && b.mode === o.mode ? t.mode : o.mode;
      // Only one side changed the content (the other only the mode): no line merge needed.
      const onlyContent = o.oid === t.oid ? o.oid : b && o.oid === b.oid ? t.oid : b && t.oid === b.oid ? o.oid : null;
      if (onlyContent !== null) {
        clean.set(path, { oid: onlyContent, mode });
        continue;
      }
      const [bb, ob, tb] = await Promise.all([b ? store.read(b.oid) : new Uint8Array(), store.read(o.oid), store.read(t.oid)]);
      if (looksBinary(bb) || looksBinary(ob) || looksBinary(tb)) {
        messages.push(`warning: Cannot merge binary files: ${path} (${names.ours} vs. ${names.theirs})`);
        messages.push(`Auto-merging ${path}`);
        messages.push(`CONFLICT (${kind}): Merge conflict in ${path}`);
        conflicts.push({ path, kind: kind === "content" ? "binary" : kind, stages, work: { oid: o.oid, mode } });
        continue;
      }
      messages.push(`Auto-merging ${path}`);
      const merged = mergeText(decoder.decode(bb), decoder.decode(ob), decoder.decode(tb), names);
      const oid = await store.write(new TextEncoder().encode(merged.text));
      if (merged.clean) clean.set(path, { oid, mode });
      else {
        messages.push(`CONFLICT (${kind}): Merge conflict in ${path}`);
        conflicts.push({ path, kind, stages, work: { oid, mode } });
      }
      continue;
    }
    // One side deleted what the other changed: the changed version stays in the work tree.
    if (o && !t) {
      messages.push(`CONFLICT (modify/delete): ${path} deleted in ${names.theirs} and modified in ${names.ours}.  Version ${names.ours} of ${path} left in tree.`);
      conflicts.push({ path, kind: "modify/delete", stages: { base: b, ours: o }, work: o });
    } else if (t) {
      messages.push(`CONFLICT (modify/delete): ${path} deleted in ${names.ours} and modified in ${names.theirs}.  Version ${names.theirs} of ${path} left in tree.`);
      conflicts.push({ path, kind: "delete/modify", stages: { base: b, theirs: t }, work: t });
    }
  }
  refuseFileDirectoryClash([...clean.keys(), ...conflicts.map((c) => c.path)]);
  return { clean, conflicts, messages };
}

function refuseFileDirectoryClash(paths: string[]): void {
  const files = new Set(paths);
  for (const p of paths) {
    for (let i = p.indexOf("/"); i !== -1; i = p.indexOf("/", i + 1)) {
      const dir = p.slice(0, i);
      if (files.has(dir)) throw new MergeNotSupported(`'${dir}' is a file on one side and a directory on the other; this shell cannot merge that`);
    }
  }
}
