/**
 * A long-lived engine whose repository changes behind it. For random workspaces built with
 * native git (committed, modified, deleted, untracked, ignored, nested .gitignore, a nested
 * repository, unicode names, symlinks, exec bits, native commits moving HEAD after the
 * checkpoint), and for every k:
 *   (a) the whole repository — working tree and .git — is put back to an earlier copy through
 *       the same fs object (only what differs is rewritten, so untouched files keep their stat
 *       and the engine's caches look valid),
 *   (b) on every third k, the engine checkpoints and a second engine instance (another tab) prunes that
 *       checkpoint's objects,
 *   (c) then a restore runs with an EIO at every k-th mutating fs call, the save, the commit
 *       point and the rollback included.
 * Afterwards the working tree is exactly the pre-restore state (the restore threw) or exactly
 * what a fresh engine's restore gives (then undo gives the pre-restore state back).
 * (d) The same over lightning-fs + fake-indexeddb.
 *
 * TABULA_SWEEP_RUNS (default 40) and TABULA_SWEEP_LFS_RUNS (default 6) set the number of
 * workspaces; TABULA_SWEEP_SEED the first seed.
 */
import { afterAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCheckpoint, pruneCheckpoints, restoreCheckpoint, syncListDir, undoRestore, type ListDir } from "../../lib/checkpoints";
import { ChangeJournal } from "../../lib/fs/journal";
import { listDirOf } from "../../lib/fs/listing";
import type { IsoFs } from "../../lib/fs/types";
import { lightningBackend } from "../fs/backends";
import { nodeFs, rmrf, tempRepo } from "./helpers";
import { buildWorkspace, faultFs, mutateWorkspace, rnd, syncTo, takePicture, workingView } from "./sweep";

const RUNS = Number(process.env.TABULA_SWEEP_RUNS ?? 40);
const LFS_RUNS = Number(process.env.TABULA_SWEEP_LFS_RUNS ?? 6);
const SEED = Number(process.env.TABULA_SWEEP_SEED ?? 1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** `listDir`: the walk's one-call listing, as the app (lightning-fs) or a Node host passes it. */
type Backend = { fs: IsoFs; dir: string; listDir?: ListDir };

async function nodeWorkspace(seed: number): Promise<Backend> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-sweep-w-"));
  cleanups.push(() => rmrf(dir));
  return { fs: nodeFs, dir, listDir: seed % 3 === 0 ? syncListDir(fs.readdirSync, fs.lstatSync) : undefined };
}

async function lightningWorkspace(): Promise<Backend> {
  const b = await lightningBackend("/ws");
  cleanups.push(() => b.cleanup());
  return { fs: b.fs, dir: b.dir, listDir: listDirOf(b.fs) };
}

type Tally = { rollbackHit: number; commitPointHit: number };

async function sweepOne(make: (seed: number) => Promise<Backend>, seed: number, tally: Tally): Promise<{ ks: number; threw: number }> {
  const r = rnd(seed);
  const build = tempRepo("tabula-sweep-build-");
  try {
    buildWorkspace(build, r);
    const { fs: base, dir, listDir } = await make(seed);
    await syncTo(base, dir, await takePicture(nodeFs, build));
    const journal = seed % 2 === 0 ? new ChangeJournal() : undefined;
    const A = faultFs(base);
    const wsA = { fs: A.fs, dir, journal, listDir };
    const wsB = { fs: faultFs(base).fs, dir, listDir }; // a second engine instance on the same repository
    await sleep(60); // older than the racy margin, so the stat cache trusts these files
    const ck1 = await createCheckpoint(wsA, { sessionId: "s", run: 1 });

    // native changes (a commit moving HEAD among them), brought in through the same fs object
    await syncTo(nodeFs, build, await takePicture(base, dir));
    mutateWorkspace(build, r);
    await syncTo(A.fs, dir, await takePicture(nodeFs, build), journal);
    await sleep(60);
    const P = await takePicture(base, dir); // the earlier copy the repository is put back to
    const beforeView = workingView(P);
    // the engine now caches objects that P lacks
    await createCheckpoint(wsA, { sessionId: "later", run: 1 });

    // what a fresh engine's restore gives
    const fresh = faultFs(base);
    await syncTo(fresh.fs, dir, P);
    await restoreCheckpoint({ fs: fresh.fs, dir }, ck1.ref);
    const expectedView = workingView(await takePicture(base, dir));

    let threw = 0;
    let k = 1;
    let current: Awaited<ReturnType<typeof takePicture>> | undefined;
    for (; k < 1000; k++) {
      await syncTo(A.fs, dir, P, journal, current); // (a)
      if (k % 3 === 1) {
        await createCheckpoint(wsA, { sessionId: "tmp", run: k }); // (b)
        await pruneCheckpoints(wsB, { sessionId: "tmp" });
      }
      A.arm(k); // (c)
      let err: unknown;
      let txid = "";
      try {
        txid = (await restoreCheckpoint(wsA, ck1.ref)).txid;
      } catch (e) {
        err = e;
      }
      const fired = A.fired();
      A.disarm();
      current = await takePicture(base, dir);
      const now = workingView(current);
      const where = `seed ${seed}, k ${k}${err ? `: ${String(err)}` : ""}`;
      if (err) {
        threw++;
        const msg = String((err as Error).message);
        if (msg.includes("the rollback was interrupted")) tally.rollbackHit++;
        if (/rename\([^)]*restore-in-progress\.json/.test(msg)) tally.commitPointHit++;
        expect(["RESTORE_FAILED", "EIO"], where).toContain((err as { code?: string }).code);
        expect(now, where).toEqual(beforeView);
        expect(await base.promises.lstat(`${dir}/.git/tabula/restore-in-progress.json`).catch(() => null), where).toBeNull();
      } else {
        expect(now, where).toEqual(expectedView);
        await undoRestore(wsA, txid);
        current = await takePicture(base, dir);
        expect(workingView(current), `${where} (undo)`).toEqual(beforeView);
      }
      if (fired === 0) break;
    }
    if (process.env.TABULA_SWEEP_LOG) console.log(`seed ${seed}: ${k} k, ${threw} threw, ${P.size} entries`);
    expect(k).toBeLessThan(1000);
    return { ks: k, threw };
  } finally {
    rmrf(build);
  }
}

describe("a long-lived engine whose repository changes behind it", () => {
  it(`node:fs: ${RUNS} random workspaces, repository reset + second-instance prune + EIO at every k-th call`, async () => {
    let restores = 0;
    let failed = 0;
    const tally: Tally = { rollbackHit: 0, commitPointHit: 0 };
    for (let i = 0; i < RUNS; i++) {
      const { ks, threw } = await sweepOne(nodeWorkspace, SEED + i, tally);
      restores += ks;
      failed += threw;
      while (cleanups.length) await cleanups.pop()!();
    }
    expect(failed).toBeGreaterThan(RUNS * 5);
    expect(restores).toBeGreaterThan(failed);
    // the sweep reached the commit point and the rollback itself
    expect(tally.commitPointHit).toBeGreaterThan(0);
    expect(tally.rollbackHit).toBeGreaterThan(0);
  }, RUNS * 30_000);

  it(`lightning-fs + fake-indexeddb: ${LFS_RUNS} random workspaces, the same sweep`, async () => {
    let failed = 0;
    const tally: Tally = { rollbackHit: 0, commitPointHit: 0 };
    for (let i = 0; i < LFS_RUNS; i++) {
      const { threw } = await sweepOne(lightningWorkspace, SEED + 1000 + i, tally);
      failed += threw;
    }
    expect(failed).toBeGreaterThan(LFS_RUNS * 5);
    expect(tally.rollbackHit).toBeGreaterThan(0);
  }, LFS_RUNS * 60_000);
});
