/**
 * A tab closed at any moment of a checkpoint restore, over lightning-fs + fake-indexeddb.
 *
 * Every IndexedDB transaction the tab commits is recorded (idb-commit-log.ts); the state a
 * closed tab leaves is a prefix of them. For every prefix from the restore's start to the tab
 * going idle, the database is rebuilt as it stood, opened as the next page opens it (the
 * interrupted saves, then the interrupted restore, recovered), and the working tree must be
 * wholly the state before the restore or wholly the restored one: no file lost, none empty.
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import { openNamedLightningFs } from "../../lib/fs/lightning";
import git from "isomorphic-git";
import { __testing, createCheckpoint, diffWorkingTree, recoverInterruptedRestore, restoreCheckpoint } from "../../lib/checkpoints";
import { lightningReadMany } from "../../lib/checkpoints/lightning-read";
import type { IsoFs } from "../../lib/fs/types";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { ChangeJournal } from "../../lib/fs/journal";
import { recoverInterruptedWrites } from "../../lib/fs/recovery";
import { IdbCommitLog } from "./idb-commit-log";

(globalThis as { navigator?: unknown }).navigator ??= {};

const dir = "/ws";
const FILES = ["README.md", "new.txt", "src/greet.ts"];
const BEFORE = { "README.md": "MINE # readme\n", "new.txt": "brand new", "src/greet.ts": "// MINE TOO\nexport const greet = 1;\n" };
const AFTER = { "README.md": "# readme\n", "new.txt": null, "src/greet.ts": "export const greet = 1;\n" };
type Tree = Record<string, string | null>;

let n = 0;
let log: IdbCommitLog | undefined;

afterEach(() => {
  __testing.afterRestoreWrite = undefined;
  log?.stop();
  log = undefined;
});

/** Resolve once lightning-fs has gone idle: its delayed file-tree save and its deactivation are done. */
async function idle(lfs: IsoFs): Promise<void> {
  const inner = lfs.promises as unknown as { _operations: Set<unknown>; _activationPromise: unknown; _deactivationPromise: Promise<unknown> | null };
  const deadline = Date.now() + 10_000;
  while (inner._operations.size > 0 || inner._activationPromise) {
    if (Date.now() > deadline) throw new Error("lightning-fs never went idle");
    await new Promise((r) => setTimeout(r, 50));
  }
  await inner._deactivationPromise;
}

async function treeOf(wsfs: WorkspaceFs): Promise<Tree> {
  const out: Tree = {};
  for (const p of FILES) out[p] = (await wsfs.exists(p)) ? await wsfs.readText(p) : null;
  return out;
}

/** A workspace with a save point, then the user's edits made as the editor makes them. */
async function userWorkspace(name: string) {
  const lfs = openNamedLightningFs(name, { wipe: true });
  const enc = new TextEncoder();
  await lfs.promises.mkdir(dir);
  await lfs.promises.mkdir(`${dir}/src`);
  await git.init({ fs: lfs as never, dir, defaultBranch: "main" });
  await lfs.promises.writeFile(`${dir}/README.md`, enc.encode(AFTER["README.md"]));
  await lfs.promises.writeFile(`${dir}/src/greet.ts`, enc.encode(AFTER["src/greet.ts"]));
  await git.add({ fs: lfs as never, dir, filepath: "." });
  await git.commit({ fs: lfs as never, dir, message: "init", author: { name: "t", email: "t@example.com" } });
  const wsfs = new WorkspaceFs({ fs: lfs, dir, journal: new ChangeJournal() });
  const ws = { fs: wsfs.fs, dir, journal: wsfs.journal, readMany: lightningReadMany(indexedDB, name) };
  const point = await createCheckpoint(ws, { sessionId: "s", run: 1, label: "save" });
  await wsfs.writeFile("README.md", BEFORE["README.md"], { origin: "editor" });
  await wsfs.writeFile("src/greet.ts", BEFORE["src/greet.ts"], { origin: "editor" });
  await wsfs.writeFile("new.txt", "", { origin: "editor" }); // "New file"
  await wsfs.writeFile("new.txt", BEFORE["new.txt"], { origin: "editor" }); // typed, then saved
  await wsfs.flush();
  // The save point's preview, as the user opens it before restoring: a scan of its own.
  expect((await diffWorkingTree(ws, point.ref)).map((d) => d.path).sort()).toEqual(FILES);
  return { lfs, ws, point };
}

type Torn = { missing: number; resized: number };

/**
 * In what IndexedDB holds after `count` commits: files lightning-fs's stored tree (the "!root"
 * superblock, a Map per directory with the stat under key 0) names whose bytes are gone, or
 * whose bytes are not the size it records.
 */
function tornFiles(count: number, torn: Torn): void {
  const state = log!.stateAt(count);
  for (const p of FILES) {
    let node = state.get("!root") as Map<unknown, unknown> | undefined;
    for (const part of ["/", ...`${dir}/${p}`.split("/").filter(Boolean)]) node = node?.get(part) as Map<unknown, unknown> | undefined;
    const st = node?.get(0) as { ino: number; size: number } | undefined;
    if (!st) continue;
    const bytes = state.get(st.ino) as Uint8Array | undefined;
    if (bytes === undefined) torn.missing++;
    else if (bytes.length !== st.size) torn.resized++;
  }
}

/** Open the database as it stood after `count` committed transactions, as the next page does. */
async function reopen(name: string, count: number, torn: Torn): Promise<{ tree: Tree; recovered: boolean; lfs: IsoFs }> {
  const copy = `${name}-cut-${count}`;
  await log!.materialize(count, copy, `${copy}_files`);
  tornFiles(count, torn);
  const lfs = openNamedLightningFs(copy);
  const wsfs = new WorkspaceFs({ fs: lfs, dir, journal: new ChangeJournal() });
  await recoverInterruptedWrites(wsfs);
  const r = await recoverInterruptedRestore({ fs: wsfs.fs, dir, journal: wsfs.journal, readMany: lightningReadMany(indexedDB, copy) });
  return { tree: await treeOf(wsfs), recovered: r?.rolledBack === true, lfs };
}

async function sweep(name: string, from: number): Promise<{ bad: string[]; torn: Torn }> {
  const bad: string[] = [];
  const torn: Torn = { missing: 0, resized: 0 };
  for (let i = from; i <= log!.committed.length; i++) {
    const { tree, recovered, lfs } = await reopen(name, i, torn);
    const whole = JSON.stringify(tree) === JSON.stringify(BEFORE) || (!recovered && JSON.stringify(tree) === JSON.stringify(AFTER));
    if (!whole) bad.push(`cut after transaction ${i} of ${log!.committed.length}${recovered ? " (recovered)" : ""}: ${JSON.stringify(tree)}`);
    await idle(lfs);
  }
  return { bad, torn };
}

describe("a tab closed at any moment of a restore (lightning-fs, every IndexedDB commit)", () => {
  it("a restore left to finish: every cut from its start to the tab going idle opens whole", async () => {
    const name = `tabula-cut-${process.pid}-${n++}`;
    log = new IdbCommitLog((db) => db === name);
    log.start();
    const { lfs, ws, point } = await userWorkspace(name);
    await idle(lfs);
    const from = log.committed.length;
    await restoreCheckpoint(ws, point.ref);
    await idle(lfs);
    log.stop();
    const { bad, torn } = await sweep(name, from);
    expect(bad).toEqual([]);
    // The sweep did reach the torn states: a deleted file still in the tree, bytes newer than it.
    expect(torn.missing).toBeGreaterThan(0);
    expect(torn.resized).toBeGreaterThan(0);
  });

  for (const parkAfter of [1, 2, 3]) {
    it(`a restore parked after write ${parkAfter} of 3 while the tab stays open: every cut opens whole`, async () => {
      const name = `tabula-cut-${process.pid}-${n++}`;
      log = new IdbCommitLog((db) => db === name);
      log.start();
      const { lfs, ws, point } = await userWorkspace(name);
      await idle(lfs);
      const from = log.committed.length;
      let parked!: () => void;
      const isParked = new Promise<void>((r) => (parked = r));
      __testing.afterRestoreWrite = (_p, count) => {
        if (count < parkAfter) return undefined;
        parked();
        return new Promise<never>(() => undefined);
      };
      void restoreCheckpoint(ws, point.ref).catch(() => undefined);
      await isParked;
      await idle(lfs); // the tab stays open, idle: lightning-fs saves its tree and lets go
      log.stop();
      const { bad, torn } = await sweep(name, from);
      expect(bad).toEqual([]);
      expect(torn.missing).toBeGreaterThan(0); // the delete (write 1) is in IndexedDB, the tree still names the file
      if (parkAfter > 1) expect(torn.resized).toBeGreaterThan(0);
    });
  }
});
