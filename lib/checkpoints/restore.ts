/**
 * Restore as a transaction.
 *
 * 1. Save: the current working tree (tracked + untracked, non-ignored) becomes a commit at
 *    refs/tabula/restore/<txid> (cheap: the same scan a checkpoint does).
 * 2. Plan: diff the scanned state against the target tree, pruning equal subtrees. Only paths
 *    that differ are written; only captured (non-ignored, under-cap) files the target lacks
 *    are deleted, and not when the target's own ignore rules ignore them (so restoring an
 *    older .gitignore never deletes what it ignores: Cline #14367 in reverse). Nothing that
 *    is uncaptured (ignored, over the cap, inside a nested repository) is ever overwritten
 *    or deleted: such paths are reported in `skipped`.
 * 3. Journal: .git/tabula/restore-in-progress.json lists every path the plan may touch,
 *    the directories it may create or remove, and the saved commit — written (and on
 *    lightning-fs made durable) before the first working-tree write.
 * 4. Apply; on any failure roll back from the saved commit (only the journaled paths) and
 *    throw. The commit point is the rename of the journal to .git/tabula/restores/<txid>.json,
 *    which `undoRestore` reads later. `recoverInterruptedRestore` finishes a rollback after a
 *    crash.
 * HEAD, branches and .git/index are never touched.
 */
import type { DirNode, FileRec, Workspace } from "./engine";
import type { IsoFsStat } from "../fs/types";
import { worktreeStampOf } from "../fs/worktree-stamp";
import { __testing, engineFor, tracePhase, type Engine } from "./engine";
import { RACY_MARGIN_MS } from "../fs/racy-margin";
import {
  assertNoRestoreInProgress,
  capOf,
  flushFs,
  formatMessage,
  ident,
  JOURNAL_FILE,
  RESTORE_PREFIX,
  resolveTreeish,
  TreeReader,
} from "./checkpoint";
import { treeRules, type Rules } from "./ignore";
import { encodeCommit, MODE_EXEC, MODE_GITLINK, MODE_LINK, MODE_TREE, type TreeEntry } from "./objects";
import {
  atomicWrite,
  CheckpointError,
  compareUtf8,
  describeError,
  fromUtf8,
  isGitName,
  isLightning,
  joinAbs,
  joinRel,
  lstatOrNull,
  mapLimit,
  mkdirp,
  normalizeRel,
  parentRel,
  perfNow,
  readdirOrEmpty,
  readOrNull,
  unlinkIfExists,
} from "./util";

const IO_LIMIT = 32;
const RECORD_DIR = "tabula/restores";

export type RestoreOptions = {
  /** Limit the restore to these workspace paths (files or directories). */
  paths?: string[];
  maxFileBytes?: number;
};

export type RestoreChange = { path: string; change: "added" | "modified" | "deleted" };
export type SkipReason = "ignored" | "large" | "blocked" | "nested-repo" | "submodule" | "ignored-by-target" | "unsafe-name";
export type RestoreResult = {
  txid: string;
  /** The pre-restore state: `undoRestore(ws, txid)` brings it back. */
  savedRef: string;
  savedOid: string;
  changed: RestoreChange[];
  skipped: { path: string; reason: SkipReason }[];
};

type OpKind = "w" | "d" | "m";
/** A planned change. w: write blob `oid`/`mode`; d: delete; m: chmod only. */
type Op = { p: string; k: OpKind; oid?: string; mode?: number; existed: boolean; old?: FileRec };

type JournalData = {
  v: 1;
  txid: string;
  save: string;
  saveTree: string;
  target: string;
  startedAt: number;
  ops: { p: string; k: OpKind }[];
  createdDirs: string[];
  removableDirs: string[];
};

type Plan = { ops: Op[]; skipped: { path: string; reason: SkipReason }[]; createdDirs: string[]; removableDirs: string[] };

// ---- scope ----------------------------------------------------------------------------------

class Scope {
  private readonly set: Set<string> | null;
  private readonly ancestors = new Set<string>();
  constructor(paths?: string[]) {
    if (paths !== undefined && !Array.isArray(paths)) throw new CheckpointError("INVALID_ARGUMENT", "paths must be an array of workspace paths");
    const set = paths ? new Set(paths.map(normalizeRel)) : null;
    this.set = set && !set.has("") ? set : null;
    if (!this.set) return;
    for (const p of this.set) {
      for (let a = parentRel(p); ; a = parentRel(a)) {
        this.ancestors.add(a);
        if (a === "") break;
      }
    }
  }
  /** `path` lies inside the scope. */
  covers(path: string): boolean {
    if (!this.set) return true;
    for (let p = path; ; p = parentRel(p)) {
      if (this.set.has(p)) return true;
      if (p === "") return false;
    }
  }
  /** Something inside `dir` may be in scope. */
  reaches(dir: string): boolean {
    return !this.set || this.covers(dir) || this.ancestors.has(dir);
  }
}

// ---- public API -----------------------------------------------------------------------------

export async function restoreCheckpoint(ws: Workspace, refOrOid: string, opts: RestoreOptions = {}): Promise<RestoreResult> {
  const engine = engineFor(ws);
  const scope = new Scope(opts.paths);
  const cap = capOf(ws, opts.maxFileBytes);
  return engine.mutex.run(() => runRestore(engine, ws, refOrOid, scope, cap, { protectByTargetRules: true }));
}

export async function undoRestore(ws: Workspace, txid: string, opts: { maxFileBytes?: number } = {}): Promise<RestoreResult> {
  validateTxid(txid);
  const engine = engineFor(ws);
  const cap = capOf(ws, opts.maxFileBytes);
  return engine.mutex.run(async () => {
    await engine.assertRepo();
    const saved = await engine.refs.resolve(RESTORE_PREFIX + txid);
    if (!saved) throw new CheckpointError("NOT_FOUND", `No saved state for restore ${txid} (refs/tabula/restore/${txid} is gone)`);
    const record = await readJson<JournalData>(engine, `${RECORD_DIR}/${txid}.json`);
    // Undo only the paths the restore changed, so later edits elsewhere survive; without the
    // record (removed by hand), fall back to the whole tree.
    const usable = record !== undefined && record.save === saved;
    const scope = new Scope(usable ? record.ops.map((o) => o.p) : undefined);
    // Remove only directories the restore created: empty ones that existed before it stay.
    const result = await runRestore(engine, ws, saved, scope, cap, { protectByTargetRules: false, removableDirs: usable ? new Set(record.createdDirs) : undefined });
    if (usable) await recreateRemovedDirs(engine, ws, record.removableDirs);
    return result;
  });
}

/**
 * Directories the undone restore removed (left empty, or replaced by a file) exist again: a git
 * tree cannot hold an empty directory, so the saved state alone would not bring them back.
 * Where something now stands in the way, the directory is left out.
 */
async function recreateRemovedDirs(engine: Engine, ws: Workspace, removed: readonly string[]): Promise<void> {
  for (const d of [...removed].reverse()) {
    if (await lstatOrNull(engine.fs, engine.abs(d))) continue;
    try {
      await mkdirp(engine.fs, engine.abs(d));
      ws.journal?.record({ kind: "mkdir", path: d, origin: "checkpoint" });
    } catch {
      // a file where a parent should be: the directory cannot come back without removing it
    }
  }
}

export type RecoveryResult = { txid: string; rolledBack: true; paths: number; savedRef: string };

export async function recoverInterruptedRestore(ws: Workspace): Promise<RecoveryResult | undefined> {
  const engine = engineFor(ws);
  return engine.mutex.run(async () => {
    const j = await readJson<JournalData>(engine, JOURNAL_FILE);
    if (!j) {
      if (await lstatOrNull(engine.fs, joinAbs(engine.gitdir, JOURNAL_FILE))) {
        throw new CheckpointError("CORRUPT", "The restore journal is unreadable; the pre-restore state is under refs/tabula/restore/");
      }
      return undefined;
    }
    engine.invalidate();
    await rollback(engine, ws, j, new Map());
    await unlinkIfExists(engine.fs, joinAbs(engine.gitdir, JOURNAL_FILE));
    await flushFs(engine);
    return { txid: j.txid, rolledBack: true, paths: j.ops.length, savedRef: RESTORE_PREFIX + j.txid };
  });
}

// ---- the transaction ------------------------------------------------------------------------

function newTxid(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export function validateTxid(txid: string): void {
  if (typeof txid !== "string" || !/^[a-z0-9]+-[a-z0-9]+$/.test(txid)) throw new CheckpointError("INVALID_ARGUMENT", `Not a restore id: ${JSON.stringify(txid)}`);
}

async function readJson<T>(engine: Engine, rel: string): Promise<T | undefined> {
  const raw = await readOrNull(engine.fs, joinAbs(engine.gitdir, rel));
  if (!raw) return undefined;
  try {
    return JSON.parse(fromUtf8(raw)) as T;
  } catch {
    return undefined;
  }
}

type RunOptions = { protectByTargetRules: boolean; removableDirs?: Set<string> };

async function runRestore(engine: Engine, ws: Workspace, refOrOid: string, scope: Scope, cap: number, run: RunOptions): Promise<RestoreResult> {
  await engine.assertRepo();
  await assertNoRestoreInProgress(engine);
  const target = await resolveTreeish(engine, refOrOid);
  const txid = newTxid();
  const savedRef = RESTORE_PREFIX + txid;
  const startedAt = Date.now();

  // 1. save
  let tp = perfNow();
  const writer = engine.store.newWriter();
  let saveTree: string;
  let saveOid: string;
  try {
    // The scan checks every cached object against the repository when the generation
    // stamp says it changed behind us, so the saved tree is complete: every object it
    // reaches is in the repository (or in `writer`, flushed below) before any file is touched.
    const scan = await engine.scan(writer, { journal: ws.journal, cap, readMany: ws.readMany, listDir: ws.listDir });
    saveTree = scan.tree;
    tp = tracePhase("restore.scan", tp);
    const head = await engine.refs.resolve("HEAD");
    const message = formatMessage(`Tabula restore ${txid}: state before restoring ${refOrOid}`, [
      ["Restore", txid],
      ["Target", target.commit ?? target.tree],
      ["Created-At", startedAt],
    ]);
    saveOid = await writer.add("commit", encodeCommit({ tree: saveTree, parents: head ? [head] : [], author: ident(startedAt), committer: ident(startedAt), message }));
    await writer.flush();
    await engine.refs.write(savedRef, saveOid);
    await engine.bumpGeneration().catch(() => undefined);
    tp = tracePhase("restore.saveCommit", tp);
  } catch (err) {
    engine.invalidate();
    throw new CheckpointError("RESTORE_FAILED", `Restore of ${refOrOid} failed before any file was changed (${describeError(err)}); nothing was changed.`, err);
  }

  // 2. plan
  const reader = new TreeReader(engine.store);
  let plan: Plan;
  try {
    plan = await makePlan(engine, reader, engine.root(), target.tree, scope, run.protectByTargetRules, cap);
    if (run.removableDirs) plan.removableDirs = plan.removableDirs.filter((d) => run.removableDirs!.has(d));
    tp = tracePhase("restore.plan", tp);
  } catch (err) {
    engine.invalidate();
    throw err;
  }
  const result: RestoreResult = { txid, savedRef, savedOid: saveOid, changed: [], skipped: plan.skipped };
  const journal = journalOf(txid, saveOid, saveTree, target.tree, startedAt, plan);
  if (plan.ops.length === 0) {
    await atomicWrite(engine.fs, joinAbs(engine.gitdir, `${RECORD_DIR}/${txid}.json`), JSON.stringify(journal), engine.refs.knownDirs).catch(() => undefined);
    return result;
  }

  // 3. journal, then 4. apply
  const journalPath = joinAbs(engine.gitdir, JOURNAL_FILE);
  const oldRecs = new Map<string, FileRec>();
  for (const op of plan.ops) if (op.old) oldRecs.set(op.p, op.old);
  try {
    // One stamp write for the whole restore instead of one per new path (lightning-fs flushes each).
    await worktreeStampOf(engine.fs)?.cover(plan.ops.map((o) => o.p));
    await atomicWrite(engine.fs, journalPath, JSON.stringify(journal), engine.refs.knownDirs);
    // lightning-fs: the journal (and the saved commit) must be in the persisted file tree before
    // the first working-tree write, or a crash would leave half a restore and no journal.
    await flushFs(engine);
    tp = tracePhase("restore.journal", tp);
    const applied = await applyPlan(engine, plan);
    result.changed = applied.changed;
    result.skipped.push(...applied.skipped);
    tp = tracePhase("restore.apply", tp);
    // Commit point: the journal becomes the restore's record. The record directory is looked
    // up afresh (never from a cache: the repository may have been put back behind us).
    const recordDir = joinAbs(engine.gitdir, RECORD_DIR);
    await mkdirp(engine.fs, recordDir);
    await engine.fs.promises.rename(journalPath, joinAbs(engine.gitdir, `${RECORD_DIR}/${txid}.json`));
  } catch (err) {
    engine.invalidate();
    if (__testing.crashOnRestoreFailure) throw err;
    const recovery = await rollbackUntilDone(engine, ws, journal, oldRecs, startedAt);
    if (!recovery.ok) {
      throw new CheckpointError(
        "ROLLBACK_FAILED",
        `Restore failed (${describeError(err)}) and rolling it back failed ${recovery.attempts} times (last: ${describeError(recovery.errors.at(-1))}). ` +
          `The pre-restore state is saved at ${savedRef} and the restore journal is kept: call recoverInterruptedRestore() to finish the rollback.`,
        new AggregateError([err, ...recovery.errors]),
      );
    }
    const retried =
      recovery.attempts > 1 ? ` (the rollback was interrupted ${recovery.attempts - 1} time(s), last by: ${describeError(recovery.errors.at(-1))}; it was run again from the journal and completed)` : "";
    throw new CheckpointError(
      "RESTORE_FAILED",
      `Restore of ${refOrOid} failed (${describeError(err)}); the working tree was rolled back to its state before the restore: ` +
        `${journal.ops.length} path(s) checked and put back${retried}. The pre-restore state is also saved at ${savedRef}.`,
      err,
    );
  }

  // After the commit point nothing may fail the restore: it is done.
  try {
    await updateState(engine, ws, result.changed, plan);
  } catch {
    engine.invalidate();
  }
  await flushFs(engine).catch(() => undefined);
  tracePhase("restore.finish", tp);
  return result;
}

function journalOf(txid: string, save: string, saveTree: string, target: string, startedAt: number, plan: Plan): JournalData {
  return {
    v: 1,
    txid,
    save,
    saveTree,
    target,
    startedAt,
    ops: plan.ops.map((o) => ({ p: o.p, k: o.k })),
    createdDirs: plan.createdDirs,
    removableDirs: plan.removableDirs,
  };
}

/**
 * Tell the stat cache what the restore wrote. When the journal the cache follows saw nothing
 * else since the save scan, the written files get records with the oids we wrote (and their
 * fresh stat), and the binding moves past our own events: the next checkpoint does not
 * re-read them. Otherwise their records are dropped and the next scan looks again.
 */
async function updateState(engine: Engine, ws: Workspace, changed: RestoreChange[], plan: Plan): Promise<void> {
  const journal = ws.journal;
  const bound = engine.boundSeq(journal);
  if (!journal || bound === undefined || journal.seq !== bound) {
    for (const c of changed) engine.noteWritten(c.path, null);
    if (!journal || bound === undefined) engine.unbindJournal();
    recordInJournal(ws, changed, plan);
    return;
  }
  const ops = new Map(plan.ops.map((o) => [o.p, o]));
  const recs = await mapLimit(changed, IO_LIMIT, async (c): Promise<FileRec | null> => {
    const op = ops.get(c.path);
    if (c.change === "deleted" || !op || op.oid === undefined || op.mode === undefined) return null;
    const st = await lstatOrNull(engine.fs, engine.abs(c.path));
    const t = Date.now();
    if (!st || st.isDirectory()) return null;
    return { mode: op.mode, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino ?? 0, oid: op.oid, t };
  });
  if (journal.seq !== bound) {
    // someone wrote while we looked: do not vouch for anything
    for (const c of changed) engine.noteWritten(c.path, null);
    recordInJournal(ws, changed, plan);
    return;
  }
  changed.forEach((c, i) => engine.noteWritten(c.path, recs[i]!));
  // Directories the restore removed (left empty): the binding moves past their events too.
  const gone = await mapLimit(plan.removableDirs, IO_LIMIT, async (d) => !(await lstatOrNull(engine.fs, engine.abs(d))));
  if (journal.seq !== bound) {
    for (const c of changed) engine.noteWritten(c.path, null);
    recordInJournal(ws, changed, plan);
    return;
  }
  plan.removableDirs.forEach((d, i) => {
    if (gone[i]) engine.noteWritten(d, null);
  });
  recordInJournal(ws, changed, plan);
  engine.advanceBinding(journal, journal.seq);
}

function recordInJournal(ws: Workspace, changed: RestoreChange[], plan: Plan): void {
  const j = ws.journal;
  if (!j) return;
  for (const d of plan.createdDirs) j.record({ kind: "mkdir", path: d, origin: "checkpoint" });
  for (const c of changed) j.record({ kind: c.change === "deleted" ? "delete" : "write", path: c.path, origin: "checkpoint" });
  for (const d of plan.removableDirs) j.record({ kind: "delete", path: d, origin: "checkpoint" });
}

// ---- planning -------------------------------------------------------------------------------

function isSafeName(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && !name.includes("/") && !name.includes("\0") && !isGitName(name);
}

function depth(rel: string): number {
  let n = 0;
  for (let i = 0; i < rel.length; i++) if (rel.charCodeAt(i) === 47) n++;
  return n;
}

async function makePlan(engine: Engine, reader: TreeReader, root: DirNode, targetTree: string, scope: Scope, protect: boolean, cap: number): Promise<Plan> {
  const ops: Op[] = [];
  const skipped: Plan["skipped"] = [];
  const deletes: Op[] = [];
  const walk = async (node: DirNode | undefined, tOid: string | null, prefix: string): Promise<void> => {
    if (node && tOid && node.oid === tOid) return;
    if (!node && !tOid) return;
    const tEntries: TreeEntry[] = tOid ? await reader.entries(tOid) : [];
    const tMap = new Map(tEntries.map((e) => [e.name, e]));
    const names = new Set<string>(tMap.keys());
    if (node) {
      for (const n of node.files.keys()) names.add(n);
      for (const n of node.dirs.keys()) names.add(n);
    }
    for (const name of [...names].sort(compareUtf8)) {
      const path = joinRel(prefix, name);
      if (!scope.reaches(path)) continue;
      if (!isSafeName(name)) {
        // a crafted tree ("..", ".git", "a/b"): never let it write outside the workspace or into .git
        skipped.push({ path, reason: "unsafe-name" });
        continue;
      }
      const f = node?.files.get(name);
      const d = node?.dirs.get(name);
      const t = tMap.get(name);
      const tTree = t?.mode === MODE_TREE;
      if (t?.mode === MODE_GITLINK) {
        if (scope.covers(path)) skipped.push({ path, reason: "submodule" });
        continue;
      }
      const tBlob = t && !tTree ? t : undefined;
      if (d || tTree) await walk(d, tTree ? t!.oid : null, path);
      if (!scope.covers(path)) continue;
      if (f && !tBlob) deletes.push({ p: path, k: "d", existed: true, old: f });
      if (tBlob) {
        if (f) {
          if (f.oid === tBlob.oid && f.mode === tBlob.mode) continue;
          const kind: OpKind = f.oid === tBlob.oid && f.mode !== MODE_LINK && tBlob.mode !== MODE_LINK ? "m" : "w";
          ops.push({ p: path, k: kind, oid: tBlob.oid, mode: tBlob.mode, existed: true, old: f });
        } else {
          ops.push({ p: path, k: "w", oid: tBlob.oid, mode: tBlob.mode, existed: false });
        }
      }
    }
  };
  await walk(root, targetTree, "");

  // Deletions: never what the target's own ignore rules ignore (they were not captured there).
  let rules: Rules | undefined;
  for (const op of deletes) {
    if (protect) {
      rules ??= treeRules(engine.fs, engine.dir, async (rel) => {
        const e = await reader.lookup(targetTree, rel);
        if (!e || e.mode === MODE_TREE || e.mode === MODE_GITLINK) return null;
        return (await engine.store.read(e.oid)).content;
      });
      await rules.prepare(op.p);
      if (rules.test(op.p, false)) {
        skipped.push({ path: op.p, reason: "ignored-by-target" });
        continue;
      }
    }
    ops.push(op);
  }

  // Writes to paths the scan did not capture: something uncaptured may be there (an ignored
  // or oversized file, a nested repository): never overwrite it.
  const createdDirs = new Set<string>();
  const dropped = new Set<Op>();
  const deletedPaths = new Set(ops.filter((o) => o.k === "d").map((o) => o.p));
  const dirStatus = new Map<string, Promise<"dir" | "missing" | "file" | "nested">>();
  const statusOf = (rel: string) => {
    let p = dirStatus.get(rel);
    if (!p) {
      p = (async () => {
        const st = await lstatOrNull(engine.fs, engine.abs(rel));
        if (!st) return "missing" as const;
        if (!st.isDirectory()) return "file" as const;
        if (rel !== "" && (await lstatOrNull(engine.fs, engine.abs(joinRel(rel, ".git"))))) return "nested" as const;
        return "dir" as const;
      })();
      dirStatus.set(rel, p);
    }
    return p;
  };
  const inState = (rel: string): "file" | "dir" | undefined => {
    let node: DirNode | undefined = root;
    const parts = rel.split("/");
    for (let i = 0; i < parts.length; i++) {
      if (!node) return undefined;
      if (i === parts.length - 1) return node.files.has(parts[i]!) ? "file" : node.dirs.has(parts[i]!) ? "dir" : undefined;
      node = node.dirs.get(parts[i]!);
    }
    return undefined;
  };
  await mapLimit(ops, IO_LIMIT, async (op) => {
    if (op.k !== "w" || op.existed) return;
    // ancestors: each must be a directory, a captured file about to be deleted, or missing
    const parts = op.p.split("/");
    let cur = "";
    const toCreate: string[] = [];
    for (let i = 0; i < parts.length - 1; i++) {
      cur = joinRel(cur, parts[i]!);
      const known = inState(cur);
      if (known === "dir") continue;
      if (known === "file" && deletedPaths.has(cur)) {
        toCreate.push(cur);
        continue;
      }
      const s = await statusOf(cur);
      if (s === "dir") continue;
      if (s === "missing") {
        toCreate.push(cur);
        continue;
      }
      dropped.add(op);
      skipped.push({ path: op.p, reason: s === "nested" ? "nested-repo" : "blocked" });
      return;
    }
    if (inState(op.p) !== "dir") {
      const st = await lstatOrNull(engine.fs, engine.abs(op.p));
      if (st) {
        dropped.add(op);
        skipped.push({ path: op.p, reason: st.isDirectory() ? "blocked" : st.isFile() && st.size > cap ? "large" : "ignored" });
        return;
      }
    }
    for (const c of toCreate) createdDirs.add(c);
  });
  const finalOps = ops.filter((op) => !dropped.has(op));

  // Directories that deletions may leave empty (they all exist now).
  const removable = new Set<string>();
  for (const op of finalOps) {
    if (op.k !== "d") continue;
    for (let a = parentRel(op.p); a !== ""; a = parentRel(a)) {
      if (removable.has(a)) break;
      removable.add(a);
    }
  }
  for (const op of finalOps) if (op.k === "w" && inState(op.p) === "dir") removable.add(op.p);
  return {
    ops: finalOps,
    skipped,
    createdDirs: [...createdDirs].sort((a, b) => depth(a) - depth(b) || compareUtf8(a, b)),
    removableDirs: [...removable].sort((a, b) => depth(b) - depth(a) || compareUtf8(a, b)),
  };
}

// ---- applying -------------------------------------------------------------------------------

async function writeEntry(engine: Engine, rel: string, content: Uint8Array, mode: number, existing: "file" | "link" | null): Promise<void> {
  const abs = engine.abs(rel);
  const p = engine.fs.promises;
  if (mode === MODE_LINK) {
    if (existing) await unlinkIfExists(engine.fs, abs);
    if (typeof p.symlink === "function") await p.symlink(fromUtf8(content), abs);
    else await p.writeFile(abs, content);
    return;
  }
  if (existing === "link") await unlinkIfExists(engine.fs, abs);
  const perm = mode === MODE_EXEC ? 0o755 : 0o644;
  await p.writeFile(abs, content, { mode: perm });
  // node ignores `mode` for an existing file (and applies the umask to a new one): fix the
  // executable bit, the only permission git records. (lightning-fs sets `mode` as given.)
  if (typeof p.chmod === "function" && !isLightning(engine.fs)) {
    const st = await p.lstat(abs);
    if (((st.mode & 0o100) !== 0) !== (mode === MODE_EXEC)) await p.chmod(abs, perm);
  }
}

async function setMode(engine: Engine, rel: string, mode: number): Promise<void> {
  const p = engine.fs.promises;
  if (typeof p.chmod !== "function") return;
  const st = await p.lstat(engine.abs(rel));
  const perm = mode === MODE_EXEC ? (st.mode & 0o777) | 0o111 : st.mode & 0o666;
  await p.chmod(engine.abs(rel), perm);
}

async function applyPlan(engine: Engine, plan: Plan): Promise<{ changed: RestoreChange[]; skipped: RestoreResult["skipped"] }> {
  const changed: RestoreChange[] = [];
  const skipped: RestoreResult["skipped"] = [];
  const fs = engine.fs;
  // 1. deletions and mode changes
  await mapLimit(
    plan.ops.filter((o) => o.k === "d" || o.k === "m"),
    IO_LIMIT,
    async (op) => {
      if (op.k === "d") {
        await unlinkIfExists(fs, engine.abs(op.p));
        changed.push({ path: op.p, change: "deleted" });
        await __testing.afterRestoreWrite?.(op.p, changed.length);
      } else {
        await setMode(engine, op.p, op.mode!);
        changed.push({ path: op.p, change: "modified" });
      }
    },
  );
  // 2. directories left empty (deepest first), except those the writes need
  const needed = new Set<string>();
  for (const op of plan.ops) if (op.k === "w") for (let a = parentRel(op.p); a !== ""; a = parentRel(a)) needed.add(a);
  for (const d of plan.removableDirs) {
    if (needed.has(d)) continue;
    const st = await lstatOrNull(fs, engine.abs(d));
    if (!st || !st.isDirectory()) continue;
    if ((await readdirOrEmpty(fs, engine.abs(d))).length === 0) await fs.promises.rmdir(engine.abs(d));
  }
  // 3. directories to create (shallowest first); a captured file in the way was deleted in 1.
  for (const d of plan.createdDirs) {
    const st = await lstatOrNull(fs, engine.abs(d));
    if (st?.isDirectory()) continue;
    await fs.promises.mkdir(engine.abs(d));
  }
  // 4. writes
  await mapLimit(
    plan.ops.filter((o) => o.k === "w"),
    IO_LIMIT,
    async (op) => {
      const obj = await engine.store.read(op.oid!);
      if (obj.type !== "blob") throw new CheckpointError("CORRUPT", `${op.oid} is not a blob`);
      let existing: "file" | "link" | null = null;
      if (op.existed) existing = op.old!.mode === MODE_LINK ? "link" : "file";
      else {
        const st = await lstatOrNull(fs, engine.abs(op.p));
        if (st?.isDirectory()) {
          skipped.push({ path: op.p, reason: "blocked" });
          return;
        }
        if (st) existing = st.isSymbolicLink() ? "link" : "file";
      }
      await writeEntry(engine, op.p, obj.content, op.mode!, existing);
      changed.push({ path: op.p, change: op.existed ? "modified" : "added" });
      await __testing.afterRestoreWrite?.(op.p, changed.length);
    },
  );
  changed.sort((a, b) => compareUtf8(a.path, b.path));
  return { changed, skipped };
}

// ---- rollback -------------------------------------------------------------------------------

/**
 * Roll back from the journal, and if that fails (a new fault: the saved state is complete, so
 * nothing the first failure left can stop it), run it again from the journal, as
 * recoverInterruptedRestore would, until it completes or stops making progress. Every pass is
 * idempotent and leaves alone what is already as saved, so each one gets further.
 */
async function rollbackUntilDone(
  engine: Engine,
  ws: Workspace,
  j: JournalData,
  oldRecs: Map<string, FileRec>,
  startedAt: number,
): Promise<{ ok: boolean; attempts: number; errors: unknown[] }> {
  const errors: unknown[] = [];
  const maxAttempts = 4 + 2 * (j.ops.length + j.createdDirs.length + j.removableDirs.length);
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    try {
      await rollback(engine, ws, j, oldRecs, startedAt);
      await unlinkIfExists(engine.fs, joinAbs(engine.gitdir, JOURNAL_FILE));
      await flushFs(engine);
      return { ok: true, attempts: attempt, errors };
    } catch (err) {
      engine.invalidate();
      errors.push(err);
      if (err instanceof CheckpointError && err.code === "ROLLBACK_FAILED") break; // not a fault: a directory is in the way
    }
  }
  return { ok: false, attempts: errors.length, errors };
}

/** The file at `rel` already holds `content` with `mode` (read only: no write needed). */
async function sameAsSaved(engine: Engine, rel: string, st: IsoFsStat, content: Uint8Array, mode: number): Promise<boolean> {
  const abs = engine.abs(rel);
  if (mode === MODE_LINK) {
    if (!st.isSymbolicLink() || typeof engine.fs.promises.readlink !== "function") return false;
    return String(await engine.fs.promises.readlink(abs)) === fromUtf8(content);
  }
  if (!st.isFile() || st.size !== content.length || ((st.mode & 0o100) !== 0) !== (mode === MODE_EXEC)) return false;
  const now = await readOrNull(engine.fs, abs);
  if (!now || now.length !== content.length) return false;
  for (let i = 0; i < now.length; i++) if (now[i] !== content[i]) return false;
  return true;
}

/**
 * Make every journaled path what the saved tree says (or absent), remove directories the
 * restore created, recreate those it may have removed. Idempotent: safe to run again after
 * a crash in the middle of it.
 */
async function rollback(engine: Engine, ws: Workspace, j: JournalData, oldRecs: Map<string, FileRec>, startedAt = 0): Promise<void> {
  const fs = engine.fs;
  const reader = new TreeReader(engine.store);
  const saved = new Map<string, TreeEntry | undefined>();
  await mapLimit(j.ops, IO_LIMIT, async (op) => {
    const e = await reader.lookup(j.saveTree, op.p);
    saved.set(op.p, e && e.mode !== MODE_TREE && e.mode !== MODE_GITLINK ? e : undefined);
  });
  // 1. files the restore created where the saved state has none
  await mapLimit(j.ops, IO_LIMIT, async (op) => {
    if (saved.get(op.p)) return;
    const st = await lstatOrNull(fs, engine.abs(op.p));
    if (st && !st.isDirectory()) await unlinkIfExists(fs, engine.abs(op.p));
  });
  // 2. directories it created, deepest first, when empty
  for (const d of [...j.createdDirs].reverse()) {
    const st = await lstatOrNull(fs, engine.abs(d));
    if (st?.isDirectory() && (await readdirOrEmpty(fs, engine.abs(d))).length === 0) await fs.promises.rmdir(engine.abs(d));
  }
  // 3. directories it may have removed
  const known = new Set<string>();
  for (const d of [...j.removableDirs].reverse()) await mkdirp(fs, engine.abs(d), known);
  // 4. the saved files
  await mapLimit(j.ops, IO_LIMIT, async (op) => {
    const e = saved.get(op.p);
    if (!e) return;
    const st = await lstatOrNull(fs, engine.abs(op.p));
    const rec = oldRecs.get(op.p);
    if (
      st &&
      rec &&
      !st.isDirectory() &&
      st.size === rec.size &&
      st.mtimeMs === rec.mtimeMs &&
      (st.ino === undefined || st.ino === rec.ino) &&
      rec.mtimeMs + RACY_MARGIN_MS < startedAt &&
      (st.isSymbolicLink() ? MODE_LINK : st.mode & 0o100 ? MODE_EXEC : 0o100644) === e.mode
    ) {
      return; // never touched
    }
    const obj = await engine.store.read(e.oid);
    if (st?.isDirectory()) throw new CheckpointError("ROLLBACK_FAILED", `${op.p} is a directory now; cannot put the saved file back`);
    if (st && (await sameAsSaved(engine, op.p, st, obj.content, e.mode))) return; // put back by an earlier pass
    await mkdirp(fs, engine.abs(parentRel(op.p)), known);
    const existing = st ? (st.isSymbolicLink() ? "link" : "file") : null;
    await writeEntry(engine, op.p, obj.content, e.mode, existing);
  });
  const jr = ws.journal;
  if (jr) for (const op of j.ops) jr.record({ kind: "write", path: op.p, origin: "checkpoint" });
  engine.invalidate();
}
