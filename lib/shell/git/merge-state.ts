/**
 * What merge, cherry-pick and revert share: the state files an interrupted one leaves in .git
 * (MERGE_HEAD, CHERRY_PICK_HEAD, REVERT_HEAD, MERGE_MSG, MERGE_MODE, SQUASH_MSG) that
 * `git commit` and `git status` read; full flattened trees (paths hidden from the shell
 * included, so a merge commit never drops them); and writing a merge's result into the work
 * tree and the index after the same local-changes checks git makes.
 */
import git from "isomorphic-git";
import { unmergedEntries, updateIndex, type IndexUpdate, type UnmergedStages } from "../../git/merge-index";
import { mergeTrees, MergeNotSupported, type FlatTree, type SideNames, type TreeMergeResult } from "../../git/merge-trees";
import type { GitContext } from "./context";
import { buildTree } from "./tree";
import { GitError } from "./util";

export type Operation = "merge" | "cherry-pick" | "revert";

const HEAD_FILE: Record<Operation, string> = { merge: "MERGE_HEAD", "cherry-pick": "CHERRY_PICK_HEAD", revert: "REVERT_HEAD" };
const STATE_FILES = ["MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "MERGE_MSG", "MERGE_MODE", "SQUASH_MSG"];

async function readGitFile(ctx: GitContext, name: string): Promise<string | null> {
  try {
    return String(await ctx.repo.fs.promises.readFile(`${ctx.repo.gitdir}/${name}`, "utf8"));
  } catch {
    return null;
  }
}

export async function writeGitFile(ctx: GitContext, name: string, text: string): Promise<void> {
  await ctx.repo.fs.promises.writeFile(`${ctx.repo.gitdir}/${name}`, text);
}

/** The commit an operation in progress brings in (MERGE_HEAD's first line), or null. */
export async function operationHead(ctx: GitContext, op: Operation): Promise<string | null> {
  const text = await readGitFile(ctx, HEAD_FILE[op]);
  const m = text === null ? null : /^[0-9a-f]{40}/.exec(text);
  return m ? m[0] : null;
}

/** The operation in progress (merge first, as git's status checks it), or null. */
export async function operationInProgress(ctx: GitContext): Promise<{ op: Operation; oid: string } | null> {
  for (const op of ["merge", "cherry-pick", "revert"] as const) {
    const oid = await operationHead(ctx, op);
    if (oid) return { op, oid };
  }
  return null;
}

export async function mergeMessage(ctx: GitContext): Promise<string | null> {
  return readGitFile(ctx, "MERGE_MSG");
}

export async function squashMessage(ctx: GitContext): Promise<string | null> {
  return readGitFile(ctx, "SQUASH_MSG");
}

/** Record an interrupted (or --no-commit) operation: its head file and the message to commit with. */
export async function recordOperation(ctx: GitContext, op: Operation, oid: string, message: string, opts: { noFf?: boolean } = {}): Promise<void> {
  await writeGitFile(ctx, HEAD_FILE[op], oid + "\n");
  await writeGitFile(ctx, "MERGE_MSG", message);
  if (op === "merge") await writeGitFile(ctx, "MERGE_MODE", opts.noFf ? "no-ff" : "");
}

/** Forget every operation in progress (after its commit, or an abort). */
export async function clearOperation(ctx: GitContext): Promise<void> {
  for (const f of STATE_FILES) await ctx.repo.fs.promises.unlink(`${ctx.repo.gitdir}/${f}`).catch(() => undefined);
}

/** `# Conflicts:` lines git appends to MERGE_MSG. */
export function conflictsTrailer(paths: readonly string[]): string {
  return paths.length === 0 ? "" : `\n# Conflicts:\n${paths.map((p) => `#\t${p}\n`).join("")}`;
}

export async function unmerged(ctx: GitContext): Promise<Map<string, UnmergedStages>> {
  return unmergedEntries({ fs: ctx.repo.fs, gitdir: ctx.repo.gitdir });
}

/** A commit's (or tree's) blobs, path → entry, hidden paths included (unlike repo.treeOf). */
export async function fullTree(ctx: GitContext, oid: string | null): Promise<FlatTree> {
  const out: FlatTree = new Map();
  if (oid === null) return out;
  const { type, object } = await git.readObject({ ...ctx.repo.iso, oid, format: "parsed" });
  const root = type === "commit" ? (object as { tree: string }).tree : oid;
  const walk = async (tree: string, prefix: string) => {
    const { tree: entries } = await git.readTree({ ...ctx.repo.iso, oid: tree });
    for (const e of entries) {
      if (e.type === "tree") await walk(e.oid, prefix + e.path + "/");
      else out.set(prefix + e.path, { oid: e.oid, mode: parseInt(e.mode, 8) });
    }
  };
  await walk(root, "");
  return out;
}

/** Every path whose tracked state the merge result changes relative to HEAD. */
function touchedPaths(head: FlatTree, result: TreeMergeResult): string[] {
  const conflicted = new Set(result.conflicts.map((c) => c.path));
  const out = new Set<string>(conflicted);
  for (const [p, e] of result.clean) {
    const h = head.get(p);
    if (!h || h.oid !== e.oid || h.mode !== e.mode) out.add(p);
  }
  for (const p of head.keys()) if (!result.clean.has(p) && !conflicted.has(p)) out.add(p);
  return [...out].sort();
}

const STRATEGY_FAILED = "Merge with strategy ort failed.\n";

const list = (ctx: GitContext, paths: string[]) => paths.map((p) => `\t${ctx.work.display(p)}\n`).join("");

/**
 * Refuse, before anything is written, when the result would overwrite local work: staged
 * changes (a three-way merge needs the index to match HEAD), unstaged edits to a path the
 * result changes, or an untracked file where the result puts one.
 */
export async function checkLocalChanges(ctx: GitContext, head: FlatTree, result: TreeMergeResult, op: Operation): Promise<void> {
  const touched = touchedPaths(head, result);
  const hidden = touched.filter((p) => ctx.repo.isHidden(p));
  if (hidden.length > 0) throw new GitError(`error: this ${op} would change paths hidden from this shell:\n${list(ctx, hidden)}Aborting\n`, 128);
  const status = await ctx.work.status();
  const staged = status.filter((e) => e.index !== "?" && e.index !== " ").map((e) => e.path);
  if (staged.length > 0) {
    if (op === "merge") {
      throw new GitError(`error: Your local changes to the following files would be overwritten by merge:\n${staged.map((p) => `  ${ctx.work.display(p)}\n`).join("")}${STRATEGY_FAILED}`, 2);
    }
    throw new GitError(`error: your local changes would be overwritten by ${op}.\nhint: commit your changes or stash them to proceed.\nfatal: ${op} failed\n`, 128);
  }
  // Past the index check, cherry-pick and revert report as merge does, then fail themselves.
  const tail = op === "merge" ? STRATEGY_FAILED : `fatal: ${op} failed\n`;
  const code = op === "merge" ? 2 : 128;
  const touchedSet = new Set(touched);
  const dirty = status.filter((e) => e.index !== "?" && e.worktree !== " " && touchedSet.has(e.path)).map((e) => e.path);
  if (dirty.length > 0) {
    throw new GitError(
      `error: Your local changes to the following files would be overwritten by merge:\n${list(ctx, dirty)}Please commit your changes or stash them before you merge.\nAborting\n${tail}`,
      code,
    );
  }
  const lands = new Set([...result.clean.keys(), ...result.conflicts.map((c) => c.path)].filter((p) => !head.has(p)));
  const inTheWay = status.filter((e) => e.index === "?" && lands.has(e.path)).map((e) => e.path);
  if (inTheWay.length > 0) {
    throw new GitError(
      `error: The following untracked working tree files would be overwritten by merge:\n${list(ctx, inTheWay)}Please move or remove them before you merge.\nAborting\n${tail}`,
      code,
    );
  }
}

/**
 * Make the work tree and the index hold the result: resolved paths at stage 0 (files
 * rewritten where they differ from HEAD), conflicted paths with their stages and the file the
 * conflict leaves (markers, or the surviving side of a modify/delete).
 *
 * The index is written first, in one go: the work-tree writes are journalled, and whoever
 * reacts to them (the file tree refreshing its git colours, which may rewrite the index's stat
 * cache through isomorphic-git's own lock, not the one used here) then reads the new index
 * rather than racing with its write. Entries carry no stat data, so the next status re-hashes
 * those files once.
 */
export async function writeResult(ctx: GitContext, head: FlatTree, result: TreeMergeResult): Promise<void> {
  const conflicts = new Map(result.conflicts.map((c) => [c.path, c]));
  const touched = touchedPaths(head, result);
  const updates: IndexUpdate[] = touched.map((p) => {
    const c = conflicts.get(p);
    const target = result.clean.get(p);
    if (c) return { path: p, kind: "conflict", stages: c.stages };
    return target ? { path: p, kind: "set", entry: target } : { path: p, kind: "remove" };
  });
  await updateIndex({ fs: ctx.repo.fs, gitdir: ctx.repo.gitdir }, updates);
  for (const p of touched) {
    const target = conflicts.get(p)?.work ?? result.clean.get(p);
    if (target) await ctx.work.write(p, target);
    else await ctx.work.remove(p);
  }
  ctx.work.invalidate();
}

/**
 * `git reset --merge` to HEAD, as `merge --abort` (and cherry-pick/revert --abort) run it:
 * every path whose index differs from HEAD (the operation's own changes, since it refused to
 * start over staged ones) goes back to HEAD in the index and the work tree; unstaged edits
 * elsewhere stay. The index first, as in writeResult.
 */
export async function resetMergeToHead(ctx: GitContext): Promise<void> {
  const headOid = await ctx.repo.headOid();
  const head = await fullTree(ctx, headOid);
  const conflicted = await unmerged(ctx);
  const status = await ctx.work.status();
  const paths = new Set<string>(conflicted.keys());
  for (const e of status) if (e.index !== "?" && e.index !== " ") paths.add(e.path);
  const sorted = [...paths].sort();
  await updateIndex(
    { fs: ctx.repo.fs, gitdir: ctx.repo.gitdir },
    sorted.map((p): IndexUpdate => {
      const h = head.get(p);
      return h ? { path: p, kind: "set", entry: h } : { path: p, kind: "remove" };
    }),
  );
  for (const p of sorted) {
    const h = head.get(p);
    if (h) await ctx.work.write(p, h);
    else await ctx.work.remove(p);
  }
  ctx.work.invalidate();
}

/**
 * Merge `theirs` into HEAD against `base` (trees), check that no local work is in the way,
 * and write the result: the three-way step merge, cherry-pick and revert share. A merge this
 * shell cannot do (a file/directory clash) is refused before anything is written.
 */
export async function mergeIntoWorkTree(
  ctx: GitContext,
  trees: { base: FlatTree; ours: FlatTree; theirs: FlatTree },
  names: SideNames,
  op: Operation,
): Promise<TreeMergeResult> {
  let result: TreeMergeResult;
  try {
    result = await mergeTrees(trees.base, trees.ours, trees.theirs, { read: (oid) => ctx.repo.readBlob(oid), write: (b) => writeBlob(ctx, b) }, names);
  } catch (err) {
    if (err instanceof MergeNotSupported) throw new GitError(`fatal: ${err.message}\n`, 128);
    throw err;
  }
  await checkLocalChanges(ctx, trees.ours, result, op);
  await writeResult(ctx, trees.ours, result);
  return result;
}

async function writeBlob(ctx: GitContext, bytes: Uint8Array): Promise<string> {
  const oid = await git.writeBlob({ ...ctx.repo.iso, blob: bytes });
  ctx.repo.blobBytes.set(oid, bytes);
  return oid;
}

/** The tree of a flat path → blob map (nested trees written), as the commit of a merge result. */
export async function writeFlatTree(ctx: GitContext, tree: FlatTree): Promise<string> {
  return buildTree(ctx, tree);
}

/**
 * Refuse what needs a resolved index (switching, stashing) while paths are unmerged, with git's
 * "<path>: needs merge" lines and what the refusing command says (which git prints first: the
 * path lines are on its stdout, flushed last).
 */
export async function assertResolved(ctx: GitContext, said: string): Promise<void> {
  const paths = [...(await unmerged(ctx)).keys()];
  if (paths.length === 0) return;
  throw new GitError(said + paths.map((p) => `${ctx.work.display(p)}: needs merge\n`).join(""), 1);
}
