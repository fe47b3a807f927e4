/**
 * Pruning checkpoints and measuring what they use.
 *
 * Prune removes refs, then the objects only they reached: the candidates are the removed
 * commits and everything in their trees (never their parents, which are user commits);
 * whatever any remaining root reaches is kept — every other ref (branches, tags, remotes,
 * the stash, other tabula refs), HEAD and the other *HEAD files, every reflog entry (stash
 * entries live there), and the blobs staged in .git/index. Only loose objects and packs this
 * engine wrote are deleted or rewritten; objects git itself packed are left to `git gc`.
 */
import { engineFor, DEFAULT_MAX_FILE_BYTES, type Engine, type Workspace } from "./engine";
import { CHECKPOINT_PREFIX, JOURNAL_FILE, RESTORE_PREFIX, flushFs, parseTrailers, readCheckpointInfo, TreeReader, validateComponent } from "./checkpoint";
import { decodeCommit, MODE_GITLINK, MODE_TREE, type PackIndex } from "./objects";
import { CheckpointError, compareUtf8, fromUtf8, joinAbs, lstatOrNull, mapLimit, readOrNull, toHex, unlinkIfExists } from "./util";

export type PruneOptions = {
  /** Keep the newest N checkpoints of each session. */
  keepLast?: number;
  /** Remove only checkpoints created before this time (ms epoch or Date). */
  olderThan?: number | Date;
  /** Only this session's checkpoints (alone: all of them, as when a session is deleted). Pinned ones are always kept. */
  sessionId?: string;
  /** Also prune saved pre-restore states (refs/tabula/restore/*) by the same age / count rules. */
  includeRestores?: boolean;
};

export type PruneResult = {
  removedRefs: string[];
  removedObjects: number;
  freedBytes: number;
  /** Objects the removed refs reached that something else still needs (or git packed). */
  keptObjects: number;
  packsRewritten: number;
};

export type StorageReport = {
  checkpoints: number;
  restores: number;
  /** Distinct objects reachable from refs/tabula/* trees (not their parents). */
  objects: number;
  /** Bytes those objects take on disk (loose file size or packed entry size). */
  bytes: number;
  looseObjects: number;
  packedObjects: number;
  /** .git/tabula/* bookkeeping (stat cache, restore records). */
  metadataBytes: number;
};

type RefInfo = { ref: string; oid: string; createdAt: number; group: string };

async function refInfos(engine: Engine, prefix: string, sessionId?: string): Promise<RefInfo[]> {
  const refs = await engine.refs.list(prefix + (sessionId ? sessionId + "/" : ""));
  const out: RefInfo[] = [];
  for (const [ref, oid] of refs) {
    let createdAt = 0;
    let group = "restore";
    if (prefix === CHECKPOINT_PREFIX) {
      const info = await readCheckpointInfo(engine.store, ref, oid).catch(() => undefined);
      createdAt = info?.createdAt ?? 0;
      group = info?.sessionId ?? ref.slice(prefix.length).split("/")[0]!;
      // Pinned save points are never candidates, and do not count toward keepLast.
      if (info?.pinned) continue;
    } else {
      const obj = await engine.store.read(oid).catch(() => undefined);
      if (obj?.type === "commit") {
        const c = decodeCommit(obj.content);
        createdAt = Number(parseTrailers(c.message).get("Created-At")?.[0] ?? 0);
      }
    }
    out.push({ ref, oid, createdAt, group });
  }
  return out;
}

function select(infos: RefInfo[], keepLast: number | undefined, olderThan: number | undefined): RefInfo[] {
  const groups = new Map<string, RefInfo[]>();
  for (const i of infos) {
    const g = groups.get(i.group) ?? [];
    g.push(i);
    groups.set(i.group, g);
  }
  const out: RefInfo[] = [];
  for (const g of groups.values()) {
    g.sort((a, b) => b.createdAt - a.createdAt || compareUtf8(b.ref, a.ref));
    g.forEach((info, idx) => {
      if (keepLast !== undefined && idx < keepLast) return;
      if (olderThan !== undefined && !(info.createdAt < olderThan)) return;
      out.push(info);
    });
  }
  return out;
}

/** Blob oids staged in .git/index (versions 2–4). */
async function indexOids(engine: Engine): Promise<string[]> {
  const buf = await readOrNull(engine.fs, joinAbs(engine.gitdir, "index"));
  if (!buf || buf.length < 12) return [];
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (v.getUint32(0) !== 0x44495243) return [];
  const version = v.getUint32(4);
  const count = v.getUint32(8);
  const out: string[] = [];
  let pos = 12;
  for (let i = 0; i < count && pos + 62 <= buf.length; i++) {
    const start = pos;
    out.push(toHex(buf.subarray(pos + 40, pos + 60)));
    const flags = v.getUint16(pos + 60);
    pos += 62;
    if (version >= 3 && flags & 0x4000) pos += 2;
    if (version === 4) {
      while (buf[pos]! & 0x80) pos++;
      pos++;
      const nul = buf.indexOf(0, pos);
      pos = nul + 1;
    } else {
      const nul = buf.indexOf(0, pos);
      const len = nul - start;
      pos = start + Math.ceil((len + 1) / 8) * 8;
    }
  }
  return out;
}

/** Every object in the trees of `commits` (commits included, parents not followed). */
async function reachFromTrees(engine: Engine, commits: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const reader = new TreeReader(engine.store);
  const walkTree = async (oid: string): Promise<void> => {
    if (seen.has(oid)) return;
    seen.add(oid);
    const entries = await reader.entries(oid).catch(() => []);
    await Promise.all(
      entries.map(async (e) => {
        if (e.mode === MODE_GITLINK) return;
        if (e.mode === MODE_TREE) await walkTree(e.oid);
        else seen.add(e.oid);
      }),
    );
  };
  for (const c of commits) {
    if (seen.has(c)) continue;
    seen.add(c);
    const obj = await engine.store.read(c).catch(() => undefined);
    if (obj?.type === "commit") await walkTree(decodeCommit(obj.content).tree);
  }
  return seen;
}

export async function pruneCheckpoints(ws: Workspace, opts: PruneOptions = {}): Promise<PruneResult> {
  const { keepLast, sessionId, includeRestores } = opts;
  const olderThan = opts.olderThan instanceof Date ? opts.olderThan.getTime() : opts.olderThan;
  if (keepLast === undefined && olderThan === undefined && sessionId === undefined) {
    throw new CheckpointError("INVALID_ARGUMENT", "pruneCheckpoints needs keepLast, olderThan or sessionId (refusing to remove everything)");
  }
  if (keepLast !== undefined && (!Number.isInteger(keepLast) || keepLast < 0)) throw new CheckpointError("INVALID_ARGUMENT", "keepLast must be a non-negative integer");
  if (olderThan !== undefined && !Number.isFinite(olderThan)) throw new CheckpointError("INVALID_ARGUMENT", "olderThan must be a time");
  if (sessionId !== undefined) validateComponent("sessionId", sessionId);
  const engine = engineFor(ws);
  return engine.mutex.run(async () => {
    await engine.assertRepo();
    const result: PruneResult = { removedRefs: [], removedObjects: 0, freedBytes: 0, keptObjects: 0, packsRewritten: 0 };
    const remove = select(await refInfos(engine, CHECKPOINT_PREFIX, sessionId), keepLast, olderThan);
    if (includeRestores) {
      const raw = await readOrNull(engine.fs, joinAbs(engine.gitdir, JOURNAL_FILE));
      let inProgress: string | undefined;
      try {
        inProgress = raw ? (JSON.parse(fromUtf8(raw)) as { txid?: string }).txid : undefined;
      } catch {
        inProgress = undefined;
      }
      const restores = (await refInfos(engine, RESTORE_PREFIX)).filter((r) => r.ref !== RESTORE_PREFIX + inProgress);
      remove.push(...select(restores, keepLast, olderThan));
    }
    if (remove.length === 0) return result;
    const removedRefs = new Set(remove.map((r) => r.ref));

    await engine.store.refreshPacks();
    const candidates = await reachFromTrees(engine, [...new Set(remove.map((r) => r.oid))]);
    const own = await engine.store.ownPacks();
    const deletable = new Map<string, { loose: number } | { pack: PackIndex }>();
    await mapLimit([...candidates], 32, async (oid) => {
      const st = await lstatOrNull(engine.fs, engine.store.loosePath(oid));
      if (st) {
        deletable.set(oid, { loose: st.size });
        return;
      }
      const p = engine.store.findPacked(oid);
      if (p && own.has(p.name)) deletable.set(oid, { pack: p });
    });

    // Everything the remaining roots reach stays.
    if (deletable.size > 0) {
      const roots = new Set<string>();
      for (const [ref, oid] of await engine.refs.list("refs/")) if (!removedRefs.has(ref)) roots.add(oid);
      for (const oid of await engine.refs.extraRoots()) roots.add(oid);
      for (const oid of await indexOids(engine)) deletable.delete(oid);
      const seen = new Set<string>();
      const reader = new TreeReader(engine.store);
      const visitTree = async (oid: string): Promise<void> => {
        if (seen.has(oid) || deletable.size === 0) return;
        seen.add(oid);
        deletable.delete(oid);
        const entries = await reader.entries(oid).catch(() => []);
        for (const e of entries) {
          if (e.mode === MODE_GITLINK) continue;
          if (e.mode === MODE_TREE) await visitTree(e.oid);
          else deletable.delete(e.oid);
        }
      };
      const stack = [...roots];
      while (stack.length && deletable.size > 0) {
        const oid = stack.pop()!;
        if (seen.has(oid)) continue;
        seen.add(oid);
        deletable.delete(oid);
        const obj = await engine.store.read(oid).catch(() => undefined);
        if (!obj) continue;
        if (obj.type === "commit") {
          const c = decodeCommit(obj.content);
          await visitTree(c.tree);
          stack.push(...c.parents);
        } else if (obj.type === "tree") {
          seen.delete(oid);
          await visitTree(oid);
        } else if (obj.type === "tag") {
          const m = /^object ([0-9a-f]{40})/m.exec(fromUtf8(obj.content));
          if (m) stack.push(m[1]!);
        }
      }
    }
    result.keptObjects = candidates.size - deletable.size;

    // Refs first: a crash after this leaves unreferenced objects, never a ref to a missing one.
    for (const r of remove) {
      await engine.refs.delete(r.ref);
      result.removedRefs.push(r.ref);
      if (r.ref.startsWith(RESTORE_PREFIX)) {
        await unlinkIfExists(engine.fs, joinAbs(engine.gitdir, `tabula/restores/${r.ref.slice(RESTORE_PREFIX.length)}.json`));
      }
    }
    // Make the ref removal durable, and make the stat cache forget the doomed objects, before
    // any object goes (on lightning-fs an unlink drops the bytes at once but the file tree
    // only at its next save). The new generation token tells every other engine instance
    // (another tab) that objects it may have cached are going.
    if (deletable.size) await engine.beginDeletions();
    await engine.bumpGeneration();
    await flushFs(engine);
    if (deletable.size) {
      await engine.ensureState(ws.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
      if (engine.forgetObjects(new Set(deletable.keys()))) await engine.persist();
      await flushFs(engine);
    }
    const deleted = new Set<string>();
    const byPack = new Map<string, PackIndex>();
    const packDrop = new Map<string, Set<string>>();
    for (const [oid, where] of deletable) {
      if ("loose" in where) {
        if (await unlinkIfExists(engine.fs, engine.store.loosePath(oid))) {
          deleted.add(oid);
          result.freedBytes += where.loose;
        }
      } else {
        byPack.set(where.pack.name, where.pack);
        const s = packDrop.get(where.pack.name) ?? new Set<string>();
        s.add(oid);
        packDrop.set(where.pack.name, s);
      }
    }
    const packDir = joinAbs(engine.store.objectsDir, "pack");
    for (const [name, drop] of packDrop) {
      const pack = byPack.get(name)!;
      const survivors = [...pack.offsets.keys()].filter((o) => !drop.has(o));
      const objects = await mapLimit(survivors, 16, async (oid) => {
        const o = await engine.store.read(oid);
        return { oid, type: o.type, content: o.content };
      });
      if (objects.length) {
        const r = await engine.store.writePack(objects);
        own.add(r.name);
        result.packsRewritten++;
        if (r.name === name) continue;
      }
      const before = (await lstatOrNull(engine.fs, `${packDir}/${name}.pack`))?.size ?? 0;
      const beforeIdx = (await lstatOrNull(engine.fs, `${packDir}/${name}.idx`))?.size ?? 0;
      await unlinkIfExists(engine.fs, `${packDir}/${name}.idx`);
      await unlinkIfExists(engine.fs, `${packDir}/${name}.pack`);
      own.delete(name);
      for (const o of drop) deleted.add(o);
      result.freedBytes += before + beforeIdx;
    }
    if (packDrop.size) {
      await engine.store.setOwnPacks(own);
      engine.store.resetPacks();
    }
    result.removedObjects = deleted.size;
    await flushFs(engine);
    return result;
  });
}

export async function checkpointStorage(ws: Workspace): Promise<StorageReport> {
  const engine = engineFor(ws);
  return engine.mutex.run(async () => {
    await engine.assertRepo();
    const refs = await engine.refs.list("refs/tabula/");
    let checkpoints = 0;
    let restores = 0;
    for (const ref of refs.keys()) {
      if (ref.startsWith(CHECKPOINT_PREFIX)) checkpoints++;
      else if (ref.startsWith(RESTORE_PREFIX)) restores++;
    }
    await engine.store.refreshPacks();
    const objects = await reachFromTrees(engine, [...new Set(refs.values())]);
    const report: StorageReport = { checkpoints, restores, objects: objects.size, bytes: 0, looseObjects: 0, packedObjects: 0, metadataBytes: 0 };
    await mapLimit([...objects], 32, async (oid) => {
      const st = await lstatOrNull(engine.fs, engine.store.loosePath(oid));
      if (st) {
        report.looseObjects++;
        report.bytes += st.size;
        return;
      }
      const found = engine.store.locate(oid);
      if (found) {
        const p = found.pack;
        const off = found.offset;
        report.packedObjects++;
        report.bytes += p.endOf(off) - off;
      }
    });
    const walkMeta = async (rel: string): Promise<void> => {
      const abs = joinAbs(engine.gitdir, rel);
      const st = await lstatOrNull(engine.fs, abs);
      if (!st) return;
      if (st.isDirectory()) for (const n of await engine.fs.promises.readdir(abs)) await walkMeta(`${rel}/${n}`);
      else report.metadataBytes += st.size;
    };
    await walkMeta("tabula");
    return report;
  });
}
