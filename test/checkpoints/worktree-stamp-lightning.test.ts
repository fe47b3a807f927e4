/**
 * The worktree stamp over lightning-fs + fake-indexeddb, through a tab's death. lightning-fs
 * puts file bytes into IndexedDB at once (in place for an existing file) and saves its file
 * tree up to 500 ms later; the stamp is written in place without waiting for that save. A tab
 * killed at any moment is taken as a copy of the database as it is then (no flush): the next
 * open's first checkpoint, trusting the stamp, must give the tree that a full walk of another
 * copy of the same moment gives.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { openNamedLightningFs } from "../../lib/fs/lightning";
import git from "isomorphic-git";
import { createCheckpoint, lightningReadMany } from "../../lib/checkpoints";
import { ChangeJournal } from "../../lib/fs/journal";
import type { IsoFs } from "../../lib/fs/types";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { withWorktreeStamp } from "../../lib/fs/worktree-stamp";
import { rnd, type Rnd } from "./sweep";

(globalThis as { navigator?: unknown }).navigator ??= {};

const RUNS = Number(process.env.TABULA_STAMP_LFS_RUNS ?? 4);
const DIR = "/ws";
const enc = new TextEncoder();
let n = 0;

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** Copy lightning-fs's database (its one object store): what IndexedDB holds at this moment. */
async function snapshotDb(from: string, to: string): Promise<void> {
  const src = await request(indexedDB.open(from));
  const store = `${from}_files`;
  const tx = src.transaction(store, "readonly");
  const keys = await request(tx.objectStore(store).getAllKeys());
  const values = await request(tx.objectStore(store).getAll());
  src.close();
  const open = indexedDB.open(to, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(`${to}_files`);
  const dst = await request(open);
  const wtx = dst.transaction(`${to}_files`, "readwrite");
  keys.forEach((k, i) => wtx.objectStore(`${to}_files`).put(values[i], k));
  await new Promise<void>((resolve, reject) => {
    wtx.oncomplete = () => resolve();
    wtx.onerror = () => reject(wtx.error);
  });
  dst.close();
}

type Page = { ws: { fs: IsoFs; dir: string; journal: ChangeJournal; readMany: ReturnType<typeof lightningReadMany> }; wsfs: WorkspaceFs };

function page(name: string, stamped: boolean): Page {
  const raw = openNamedLightningFs(name);
  const f = stamped ? withWorktreeStamp(raw, DIR) : raw;
  const journal = new ChangeJournal();
  return { ws: { fs: f, dir: DIR, journal, readMany: lightningReadMany(indexedDB, name) }, wsfs: new WorkspaceFs({ fs: f, dir: DIR, journal }) };
}

let run = 0;
const ck = (p: Page) => createCheckpoint(p.ws, { sessionId: "s", run: run++ });
const DIRS = ["", "src", "src/a", "src/a/b", "docs"];
const relOf = (r: Rnd, i: number) => `${r.pick(DIRS) ? r.pick(DIRS.slice(1)) + "/" : ""}f${i}-${r.int(30)}.txt`;

async function files(p: Page): Promise<string[]> {
  return (await p.wsfs.listFiles("")).filter((f) => !f.startsWith(".git"));
}

async function mutate(p: Page, r: Rnd, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const list = await files(p);
    const roll = r.next();
    try {
      if (roll < 0.4 || list.length === 0) await p.wsfs.writeFile(relOf(r, i), `v${r.int(1e6)}\n`);
      else if (roll < 0.55) await p.wsfs.remove(r.pick(list));
      else if (roll < 0.65) await p.wsfs.rename(r.pick(list), `docs/mv-${r.int(1e6)}.txt`);
      // isomorphic-git's checkout: a raw writeFile over an existing file, in place (same inode)
      else await p.ws.fs.promises.writeFile(`${DIR}/${r.pick(list)}`, enc.encode(`in place ${r.int(1e6)}\n`));
    } catch (err) {
      if (!["EEXIST", "ENOENT", "EISDIR", "ENOTDIR"].includes(String((err as { code?: string }).code))) throw err;
    }
  }
}

async function runOne(seed: number): Promise<void> {
  const r = rnd(seed);
  const name = `tabula-stamp-lfs-${process.pid}-${Date.now()}-${n++}`;
  const lfs = openNamedLightningFs(name, { wipe: true });
  await lfs.promises.mkdir(DIR);
  await git.init({ fs: lfs as never, dir: DIR, defaultBranch: "main" });
  await lfs.promises.flush!();
  const live = { ws: { fs: withWorktreeStamp(lfs, DIR), dir: DIR, journal: new ChangeJournal(), readMany: lightningReadMany(indexedDB, name) } } as Page;
  live.wsfs = new WorkspaceFs({ fs: live.ws.fs, dir: DIR, journal: live.ws.journal });
  await mutate(live, r, 12);
  // older than the racy margin, as a workspace written long before its first checkpoint
  const old = (Date.now() - 10_000) / 1000;
  const { utimes } = lfs.promises as unknown as { utimes(p: string, a: number, m: number): Promise<void> };
  for (const f of await files(live)) await utimes(`${DIR}/${f}`, old, old);
  await ck(live);

  for (let step = 0; step < 6; step++) {
    await mutate(live, r, 1 + r.int(5));
    if (r.chance(0.4)) await ck(live); // in-session (journal and stamp log)
    // the tab dies now: two copies of what IndexedDB holds
    const a = `${name}-${step}-a`;
    const b = `${name}-${step}-b`;
    await snapshotDb(name, a);
    await snapshotDb(name, b);
    const fast = await ck(page(a, true));
    const walked = await ck(page(b, false));
    expect(walked.stats.scan).toBe("walk");
    expect(fast.tree, `seed ${seed} step ${step}: stamped open (${fast.stats.scan}) vs a walk`).toBe(walked.tree);
  }
}

describe("the worktree stamp over lightning-fs (fake-indexeddb), a tab killed at any moment", () => {
  it(`the next open's checkpoint is the walk's tree (${RUNS} random workspaces)`, async () => {
    for (let seed = 1; seed <= RUNS; seed++) await runOne(seed);
  }, 300_000);

  it("a stamped open with nothing changed since the last checkpoint does not walk", async () => {
    const name = `tabula-stamp-lfs-quiet-${process.pid}-${n++}`;
    const lfs = openNamedLightningFs(name, { wipe: true });
    await lfs.promises.mkdir(DIR);
    await git.init({ fs: lfs as never, dir: DIR, defaultBranch: "main" });
    const f = withWorktreeStamp(lfs, DIR);
    const wsfs = new WorkspaceFs({ fs: f, dir: DIR, journal: new ChangeJournal() });
    await wsfs.writeFile("a.txt", "a\n");
    await wsfs.writeFile("src/b.txt", "b\n");
    const old = (Date.now() - 10_000) / 1000;
    const { utimes } = lfs.promises as unknown as { utimes(p: string, a: number, m: number): Promise<void> };
    for (const p of ["a.txt", "src/b.txt"]) await utimes(`${DIR}/${p}`, old, old);
    const first = await createCheckpoint({ fs: f, dir: DIR, journal: wsfs.journal }, { sessionId: "s", run: 1 });
    expect(first.stats.scan).toBe("walk");
    await snapshotDb(name, `${name}-copy`);
    const again = await ck(page(`${name}-copy`, true));
    expect(again.stats.scan).toBe("journal");
    expect(again.tree).toBe(first.tree);
  });
});
