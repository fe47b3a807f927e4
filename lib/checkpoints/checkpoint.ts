/**
 * Creating, listing, reading and diffing checkpoints.
 *
 * A checkpoint is a commit whose tree is the whole working tree (tracked and untracked,
 * non-ignored files, as `git add -A` into a fresh index would stage it), first parent HEAD,
 * stored at refs/tabula/checkpoints/<sessionId>/<run>. Its metadata lives in the commit
 * message (a subject line + `Tabula-*` trailers), so listing needs no side file.
 */
import { engineFor, DEFAULT_MAX_FILE_BYTES, tracePhase, type Engine, type ScanStats, type Workspace } from "./engine";
import { decodeCommit, decodeTree, encodeCommit, MODE_GITLINK, MODE_TREE, modeString, type ObjectStore, type TreeEntry } from "./objects";
import { CheckpointError, compareUtf8, joinAbs, joinRel, lstatOrNull, normalizeRel, OID_RE, perfNow } from "./util";

export const CHECKPOINT_PREFIX = "refs/tabula/checkpoints/";
export const RESTORE_PREFIX = "refs/tabula/restore/";
export const JOURNAL_FILE = "tabula/restore-in-progress.json";

export type Run = number | string;

export type CheckpointStats = {
  /** Files read and hashed (the rest came from the stat cache). */
  filesHashed: number;
  bytesHashed: number;
  /** New objects written (blobs, trees, the commit). */
  objectsWritten: number;
  packsWritten: number;
  ms: number;
  /** How changes were found: the journal's dirty set, or a stat walk. */
  scan: "journal" | "walk";
  /** Files over the size cap: listed here and in the commit message, not stored. */
  skippedLarge: { path: string; size: number }[];
  /** Directories holding their own .git (nested repositories): left out, never touched. */
  nestedReposSkipped: string[];
};

/**
 * What a checkpoint marks: the start of an agent run (the default), the end of one, the state
 * one of its file-changing tool calls left, a save point the user made by hand, or the state a
 * restore replaced.
 */
export type CheckpointKind = "run" | "end" | "call" | "save" | "restore";

export type Checkpoint = {
  ref: string;
  oid: string;
  tree: string;
  sessionId: string;
  run: Run;
  createdAt: number;
  label?: string;
  kind: CheckpointKind;
  /** Pinned checkpoints are never pruned. */
  pinned?: boolean;
  stats: CheckpointStats;
};

export type CheckpointInfo = Omit<Checkpoint, "stats"> & {
  parent?: string;
  skippedLarge: { path: string; size: number }[];
  stats?: Partial<CheckpointStats>;
};

export type CreateOptions = { sessionId: string; run: Run; label?: string; kind?: CheckpointKind; pinned?: boolean; maxFileBytes?: number };

export const CHECKPOINT_KINDS: readonly CheckpointKind[] = ["run", "end", "call", "save", "restore"];

export function validateKind(kind: unknown): CheckpointKind {
  if (kind === undefined) return "run";
  if (!CHECKPOINT_KINDS.includes(kind as CheckpointKind)) throw new CheckpointError("INVALID_ARGUMENT", `kind must be one of ${CHECKPOINT_KINDS.join(", ")}; got ${JSON.stringify(kind)}`);
  return kind as CheckpointKind;
}

export type DiffEntry = {
  path: string;
  change: "added" | "modified" | "deleted";
  oldOid?: string;
  newOid?: string;
  /** git's notation: "100644", "100755", "120000" (symlink), "160000" (submodule). */
  oldMode?: string;
  newMode?: string;
};

const COMPONENT_RE = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

export function validateComponent(what: string, value: string): void {
  if (typeof value !== "string" || !COMPONENT_RE.test(value) || value.includes("..") || value.endsWith(".lock") || value.endsWith(".")) {
    throw new CheckpointError(
      "INVALID_ARGUMENT",
      `${what} must be 1–128 characters of letters, digits, "_", "-", "." (not starting with "." or "-", no "..", not ending in "." or ".lock"); got ${JSON.stringify(value)}`,
    );
  }
}

export function runComponent(run: Run): string {
  if (typeof run === "number") {
    if (!Number.isSafeInteger(run) || run < 0) throw new CheckpointError("INVALID_ARGUMENT", `run must be a non-negative integer or a string; got ${run}`);
    return String(run);
  }
  validateComponent("run", run);
  return run;
}

export function capOf(ws: Workspace, opt?: number): number {
  const cap = opt ?? ws.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (!Number.isFinite(cap) || cap < 0) throw new CheckpointError("INVALID_ARGUMENT", `maxFileBytes must be a non-negative number; got ${cap}`);
  return cap;
}

export async function assertNoRestoreInProgress(engine: Engine): Promise<void> {
  if (await lstatOrNull(engine.fs, joinAbs(engine.gitdir, JOURNAL_FILE))) {
    throw new CheckpointError(
      "RESTORE_IN_PROGRESS",
      "A restore was interrupted (.git/tabula/restore-in-progress.json exists): call recoverInterruptedRestore() first",
    );
  }
}

const IDENT_NAME = "Tabula";
const IDENT_EMAIL = "checkpoints@tabula.invalid";

export function ident(ms: number): string {
  return `${IDENT_NAME} <${IDENT_EMAIL}> ${Math.floor(ms / 1000)} +0000`;
}

/** Subject + trailers; values JSON-encoded where they may hold newlines. */
export function formatMessage(subject: string, trailers: [string, unknown][]): string {
  const lines = trailers.filter(([, v]) => v !== undefined).map(([k, v]) => `Tabula-${k}: ${typeof v === "number" ? v : JSON.stringify(v)}`);
  return `${subject.replace(/\s+/g, " ").slice(0, 200)}\n\n${lines.join("\n")}\n`;
}

export function parseTrailers(message: string): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const line of message.split("\n")) {
    const m = /^Tabula-([A-Za-z-]+): (.*)$/.exec(line);
    if (!m) continue;
    let v: unknown;
    try {
      v = JSON.parse(m[2]!);
    } catch {
      v = m[2];
    }
    const list = out.get(m[1]!) ?? [];
    list.push(v);
    out.set(m[1]!, list);
  }
  return out;
}

/** Save lightning-fs's file tree now (STACK.md pitfall 4); a no-op elsewhere. */
export async function flushFs(engine: Engine): Promise<void> {
  await engine.fs.promises.flush?.();
}

// ---- create ---------------------------------------------------------------------------------

export async function createCheckpoint(ws: Workspace, opts: CreateOptions): Promise<Checkpoint> {
  if (!opts || typeof opts !== "object") throw new CheckpointError("INVALID_ARGUMENT", "options { sessionId, run } are required");
  validateComponent("sessionId", opts.sessionId);
  const runPart = runComponent(opts.run);
  if (opts.label !== undefined && typeof opts.label !== "string") throw new CheckpointError("INVALID_ARGUMENT", "label must be a string");
  const kind = validateKind(opts.kind);
  const cap = capOf(ws, opts.maxFileBytes);
  const engine = engineFor(ws);
  const ref = `${CHECKPOINT_PREFIX}${opts.sessionId}/${runPart}`;
  return engine.mutex.run(async () => {
    await engine.assertRepo();
    await assertNoRestoreInProgress(engine);
    const t0 = perfNow();
    const createdAt = Date.now();
    const writer = engine.store.newWriter();
    try {
      let tp = perfNow();
      const scan = await engine.scan(writer, { journal: ws.journal, cap, readMany: ws.readMany, listDir: ws.listDir });
      tp = tracePhase("checkpoint.scan", tp);
      const head = await engine.refs.resolve("HEAD");
      const stats: CheckpointStats = {
        filesHashed: scan.stats.filesHashed,
        bytesHashed: scan.stats.bytesHashed,
        objectsWritten: 0,
        packsWritten: 0,
        ms: 0,
        scan: scan.stats.mode,
        skippedLarge: scan.large,
        nestedReposSkipped: scan.stats.nestedReposSkipped,
      };
      const message = formatMessage(`Tabula checkpoint ${opts.sessionId}/${runPart}${opts.label ? ": " + opts.label : ""}`, [
        ["Session", opts.sessionId],
        ["Run", opts.run],
        ["Created-At", createdAt],
        ["Label", opts.label],
        ["Kind", kind === "run" ? undefined : kind],
        ["Pinned", opts.pinned ? true : undefined],
        ["Files-Hashed", scan.stats.filesHashed],
        ...scan.large.slice(0, 1000).map((l): [string, unknown] => ["Large-File", l]),
      ]);
      const oid = await writer.add(
        "commit",
        encodeCommit({ tree: scan.tree, parents: head ? [head] : [], author: ident(createdAt), committer: ident(createdAt), message }),
      );
      tp = tracePhase("checkpoint.commitObject", tp);
      await engine.refs.writeAfter(writer, ref, oid);
      tp = tracePhase("checkpoint.objectsAndRef", tp);
      // Nothing changed (the commit is the only new object, loose, and a new ref): no other
      // engine's cache can have become wrong — refs are read by stat, known directories and
      // objects only grew — so the generation write is skipped (one of a no-change
      // checkpoint's three writes). Anything more is announced, and so is the first
      // checkpoint of a repository without a token (a clone whose objects native git already
      // wrote): with no token, every later operation would take the caches for stale and walk.
      if (writer.stats.objectsWritten > 1 || writer.stats.packsWritten > 0 || !engine.hasGeneration) await engine.bumpGeneration().catch(() => undefined);
      tp = tracePhase("checkpoint.generation", tp);
      // The cache file must never be readable before the objects it names: persist writes it
      // so that it becomes visible no earlier than they do (writeAfterEarlierFiles), with no
      // flush of lightning-fs's whole file tree first.
      if (engine.shouldPersist()) await engine.persist({ stamp: true });
      else await engine.restamp();
      tp = tracePhase("checkpoint.persistCache", tp);
      // Otherwise not flushed: lightning-fs saves its file tree (a structured clone of the
      // whole tree, ~40 ms at 10k files) 500 ms after the last write anyway. A crash in that
      // window loses this checkpoint, never working-tree data. Restores do flush.
      await engine.store.compactSmallPacks().catch(() => undefined);
      tracePhase("checkpoint.compact", tp);
      stats.objectsWritten = writer.stats.objectsWritten;
      stats.packsWritten = writer.stats.packsWritten;
      stats.ms = Math.round((perfNow() - t0) * 100) / 100;
      const out: Checkpoint = { ref, oid, tree: scan.tree, sessionId: opts.sessionId, run: opts.run, createdAt, kind, stats };
      if (opts.label !== undefined) out.label = opts.label;
      if (opts.pinned) out.pinned = true;
      return out;
    } catch (err) {
      engine.invalidate();
      throw err;
    }
  });
}

// ---- list -----------------------------------------------------------------------------------

export async function listCheckpoints(ws: Workspace, opts: { sessionId?: string } = {}): Promise<CheckpointInfo[]> {
  if (opts.sessionId !== undefined) validateComponent("sessionId", opts.sessionId);
  const engine = engineFor(ws);
  return engine.mutex.run(async () => {
    await engine.assertRepo();
    const refs = await engine.refs.list(CHECKPOINT_PREFIX + (opts.sessionId ? opts.sessionId + "/" : ""));
    const out: CheckpointInfo[] = [];
    for (const [ref, oid] of refs) {
      const info = await readCheckpointInfo(engine.store, ref, oid).catch(() => undefined);
      if (info) out.push(info);
    }
    return out.sort((a, b) => a.createdAt - b.createdAt || compareUtf8(a.ref, b.ref));
  });
}

export async function readCheckpointInfo(store: ObjectStore, ref: string, oid: string): Promise<CheckpointInfo | undefined> {
  const obj = await store.read(oid);
  if (obj.type !== "commit") return undefined;
  const c = decodeCommit(obj.content);
  const t = parseTrailers(c.message);
  const rest = ref.slice(CHECKPOINT_PREFIX.length);
  const slash = rest.indexOf("/");
  // The ref says which session holds it (an imported session's refs move to its new id).
  const sessionId = (slash > 0 ? rest.slice(0, slash) : undefined) ?? (t.get("Session")?.[0] as string | undefined) ?? "";
  const run = (t.get("Run")?.[0] as Run | undefined) ?? rest.slice(slash + 1);
  const committerSecs = Number(/ (\d+) [+-]\d{4}$/.exec(c.committer)?.[1] ?? 0);
  const createdAt = Number(t.get("Created-At")?.[0] ?? committerSecs * 1000);
  const info: CheckpointInfo = {
    ref,
    oid,
    tree: c.tree,
    sessionId,
    run,
    createdAt,
    kind: CHECKPOINT_KINDS.includes(t.get("Kind")?.[0] as CheckpointKind) ? (t.get("Kind")![0] as CheckpointKind) : "run",
    skippedLarge: (t.get("Large-File") ?? []) as { path: string; size: number }[],
  };
  if (t.get("Pinned")?.[0] === true) info.pinned = true;
  const label = t.get("Label")?.[0];
  if (typeof label === "string") info.label = label;
  if (c.parents[0]) info.parent = c.parents[0];
  const hashed = t.get("Files-Hashed")?.[0];
  if (typeof hashed === "number") info.stats = { filesHashed: hashed };
  return info;
}

// ---- resolving ------------------------------------------------------------------------------

/**
 * A commit or tree named by: a 40-hex oid, a full ref ("refs/…", "HEAD"), "<sessionId>/<run>"
 * of a checkpoint, a restore txid, or a branch / tag name.
 */
export async function resolveTreeish(engine: Engine, refOrOid: string): Promise<{ commit?: string; tree: string }> {
  if (typeof refOrOid !== "string" || refOrOid === "") throw new CheckpointError("INVALID_ARGUMENT", "A ref or oid is required");
  let oid: string | undefined;
  if (OID_RE.test(refOrOid)) oid = refOrOid;
  else {
    const candidates = /^([A-Z_]*HEAD|refs\/.*)$/.test(refOrOid)
      ? [refOrOid]
      : [CHECKPOINT_PREFIX + refOrOid, RESTORE_PREFIX + refOrOid, "refs/heads/" + refOrOid, "refs/tags/" + refOrOid];
    for (const name of candidates) {
      try {
        oid = await engine.refs.resolve(name);
      } catch (err) {
        if ((err as CheckpointError).code !== "INVALID_ARGUMENT") throw err;
      }
      if (oid) break;
    }
  }
  if (!oid) throw new CheckpointError("NOT_FOUND", `No checkpoint, ref or object named ${JSON.stringify(refOrOid)}`);
  for (let depth = 0; depth < 10; depth++) {
    const obj = await engine.store.read(oid);
    if (obj.type === "tree") return { tree: oid };
    if (obj.type === "commit") return { commit: oid, tree: decodeCommit(obj.content).tree };
    if (obj.type === "tag") {
      const m = /^object ([0-9a-f]{40})/m.exec(new TextDecoder().decode(obj.content));
      if (!m) break;
      oid = m[1]!;
      continue;
    }
    break;
  }
  throw new CheckpointError("INVALID_ARGUMENT", `${refOrOid} does not name a commit or tree`);
}

/** Entries of a tree, memoised for one operation. */
export class TreeReader {
  private cache = new Map<string, Promise<TreeEntry[]>>();
  constructor(readonly store: ObjectStore) {}
  entries(oid: string): Promise<TreeEntry[]> {
    let p = this.cache.get(oid);
    if (!p) {
      p = this.store.read(oid).then((o) => {
        if (o.type !== "tree") throw new CheckpointError("CORRUPT", `${oid} is not a tree`);
        return decodeTree(o.content);
      });
      this.cache.set(oid, p);
    }
    return p;
  }
  /** The entry at `path` in `tree`, or undefined. */
  async lookup(tree: string, path: string): Promise<TreeEntry | undefined> {
    if (path === "") return { name: "", mode: MODE_TREE, oid: tree };
    let cur = tree;
    const parts = path.split("/");
    for (let i = 0; i < parts.length; i++) {
      const e = (await this.entries(cur)).find((x) => x.name === parts[i]);
      if (!e) return undefined;
      if (i === parts.length - 1) return e;
      if (e.mode !== MODE_TREE) return undefined;
      cur = e.oid;
    }
    return undefined;
  }
}

// ---- diff -----------------------------------------------------------------------------------

/** Differences from tree `a` to tree `b` (either may be null = empty), equal subtrees skipped. */
export async function diffTrees(reader: TreeReader, a: string | null, b: string | null, prefix = "", out: DiffEntry[] = []): Promise<DiffEntry[]> {
  if (a === b) return out;
  const ea = a ? await reader.entries(a) : [];
  const eb = b ? await reader.entries(b) : [];
  const ma = new Map(ea.map((e) => [e.name, e]));
  const mb = new Map(eb.map((e) => [e.name, e]));
  const names = [...new Set([...ma.keys(), ...mb.keys()])].sort(compareUtf8);
  for (const name of names) {
    const x = ma.get(name);
    const y = mb.get(name);
    if (x && y && x.oid === y.oid && x.mode === y.mode) continue;
    const path = joinRel(prefix, name);
    const xt = x?.mode === MODE_TREE;
    const yt = y?.mode === MODE_TREE;
    if (xt || yt) await diffTrees(reader, xt ? x!.oid : null, yt ? y!.oid : null, path, out);
    const xf = x && !xt ? x : undefined;
    const yf = y && !yt ? y : undefined;
    if (xf && yf) out.push({ path, change: "modified", oldOid: xf.oid, newOid: yf.oid, oldMode: modeString(xf.mode), newMode: modeString(yf.mode) });
    else if (xf) out.push({ path, change: "deleted", oldOid: xf.oid, oldMode: modeString(xf.mode) });
    else if (yf) out.push({ path, change: "added", newOid: yf.oid, newMode: modeString(yf.mode) });
  }
  return out;
}

function sortDiff(d: DiffEntry[]): DiffEntry[] {
  return d.sort((p, q) => compareUtf8(p.path, q.path) || (p.change === "deleted" ? -1 : q.change === "deleted" ? 1 : 0));
}

export async function diffCheckpoints(ws: Workspace, a: string, b: string): Promise<DiffEntry[]> {
  const engine = engineFor(ws);
  return engine.mutex.run(async () => {
    await engine.assertRepo();
    const ta = await resolveTreeish(engine, a);
    const tb = await resolveTreeish(engine, b);
    return sortDiff(await diffTrees(new TreeReader(engine.store), ta.tree, tb.tree));
  });
}

/** The checkpoint (old side) against the current working tree (new side). */
export async function diffWorkingTree(ws: Workspace, refOrOid: string, opts: { maxFileBytes?: number } = {}): Promise<DiffEntry[]> {
  const cap = capOf(ws, opts.maxFileBytes);
  const engine = engineFor(ws);
  return engine.mutex.run(async () => {
    await engine.assertRepo();
    const target = await resolveTreeish(engine, refOrOid);
    const writer = engine.store.newWriter();
    try {
      const scan = await engine.scan(writer, { journal: ws.journal, cap, readMany: ws.readMany, listDir: ws.listDir });
      await writer.flush();
      return sortDiff(await diffTrees(new TreeReader(engine.store), target.tree, scan.tree));
    } catch (err) {
      engine.invalidate();
      throw err;
    }
  });
}

export async function readFileAt(ws: Workspace, refOrOid: string, path: string): Promise<Uint8Array> {
  const rel = normalizeRel(path);
  const engine = engineFor(ws);
  return engine.mutex.run(async () => {
    await engine.assertRepo();
    const { tree } = await resolveTreeish(engine, refOrOid);
    const entry = await new TreeReader(engine.store).lookup(tree, rel);
    if (!entry || entry.mode === MODE_TREE || entry.mode === MODE_GITLINK) {
      throw new CheckpointError("NOT_FOUND", `${JSON.stringify(rel)} is not a file in ${refOrOid}`);
    }
    return (await engine.store.read(entry.oid)).content;
  });
}

/** Blob contents by oid (as listed by a diff), read under one lock; a missing object is an error. */
export async function readBlobs(ws: Workspace, oids: readonly string[]): Promise<Map<string, Uint8Array>> {
  const engine = engineFor(ws);
  return engine.mutex.run(async () => {
    await engine.assertRepo();
    const out = new Map<string, Uint8Array>();
    for (const oid of oids) {
      if (typeof oid !== "string" || !OID_RE.test(oid)) throw new CheckpointError("INVALID_ARGUMENT", `not an object id: ${JSON.stringify(oid)}`);
      if (out.has(oid)) continue;
      const obj = await engine.store.read(oid);
      if (obj.type !== "blob") throw new CheckpointError("INVALID_ARGUMENT", `${oid} is a ${obj.type}, not a file`);
      out.set(oid, obj.content);
    }
    return out;
  });
}

export type { ScanStats };
