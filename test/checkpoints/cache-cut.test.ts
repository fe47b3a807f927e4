/**
 * A tab closed at any moment of a checkpoint that rewrites the engine's cache file, over
 * lightning-fs + fake-indexeddb. lightning-fs stores a file's bytes at once but its name only
 * with the next save of its file tree, so the cache file (which says which objects exist) must
 * never become readable before the objects it names. Every IndexedDB commit is recorded
 * (test/fs/idb-commit-log.ts); for every prefix the database is opened as the next page would
 * open it, and a checkpoint there must hold exactly the working tree, every object present.
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import git from "isomorphic-git";
import { openNamedLightningFs } from "../../lib/fs/lightning";
import { createCheckpoint } from "../../lib/checkpoints";
import { lightningReadMany } from "../../lib/checkpoints/lightning-read";
import type { IsoFs } from "../../lib/fs/types";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { ChangeJournal } from "../../lib/fs/journal";
import { IdbCommitLog } from "../fs/idb-commit-log";

(globalThis as { navigator?: unknown }).navigator ??= {};

const dir = "/ws";
const dec = new TextDecoder();
let n = 0;
let log: IdbCommitLog | undefined;

afterEach(() => {
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

const files = (round: number): Record<string, string> => {
  const out: Record<string, string> = {};
  for (let i = 0; i < 6; i++) out[`src/m${i}.ts`] = `export const m${i} = ${round * 100 + i};\n`;
  out[`notes/round-${round}.md`] = `# round ${round}\n`;
  return out;
};

async function writeAll(wsfs: WorkspaceFs, tree: Record<string, string>): Promise<void> {
  for (const [p, text] of Object.entries(tree)) await wsfs.writeFile(p, text, { origin: "editor" });
  await wsfs.flush();
}

/** The checkpoint's tree as path → text, reading every object (a missing one throws). */
async function contents(fs: IsoFs, oid: string, prefix = "", out: Record<string, string> = {}): Promise<Record<string, string>> {
  const { tree } = await git.readTree({ fs: fs as never, dir, oid });
  for (const e of tree) {
    if (e.type === "tree") await contents(fs, e.oid, `${prefix}${e.path}/`, out);
    else out[`${prefix}${e.path}`] = dec.decode((await git.readBlob({ fs: fs as never, dir, oid: e.oid })).blob);
  }
  return out;
}

async function workingTree(fs: IsoFs, sub = "", out: Record<string, string> = {}): Promise<Record<string, string>> {
  for (const name of await fs.promises.readdir(`${dir}${sub}`)) {
    if (sub === "" && name === ".git") continue;
    const p = `${dir}${sub}/${name}`;
    if ((await fs.promises.lstat(p)).isDirectory()) await workingTree(fs, `${sub}/${name}`, out);
    else out[`${sub}/${name}`.slice(1)] = dec.decode((await fs.promises.readFile(p)) as Uint8Array);
  }
  return out;
}

describe("a tab closed at any moment of a checkpoint that rewrites the cache file (lightning-fs, every IndexedDB commit)", () => {
  it("every cut opens to a repository whose next checkpoint holds the working tree, no object missing", async () => {
    const name = `tabula-cache-cut-${process.pid}-${n++}`;
    log = new IdbCommitLog((db) => db === name);
    log.start();
    const lfs = openNamedLightningFs(name, { wipe: true });
    await lfs.promises.mkdir(dir);
    await git.init({ fs: lfs as never, dir, defaultBranch: "main" });
    const wsfs = new WorkspaceFs({ fs: lfs, dir, journal: new ChangeJournal() });
    await writeAll(wsfs, files(1));
    const ws = { fs: wsfs.fs, dir, journal: wsfs.journal, readMany: lightningReadMany(indexedDB, name) };
    await createCheckpoint(ws, { sessionId: "s", run: 1 }); // writes the cache file a first time
    await writeAll(wsfs, files(2));
    await idle(lfs);

    const from = log.committed.length;
    // No journal (as after a reload): a stat walk, after which the cache file is rewritten,
    // naming the new blobs.
    const second = await createCheckpoint({ fs: wsfs.fs, dir, readMany: ws.readMany }, { sessionId: "s", run: 2 });
    expect(second.stats.filesHashed).toBeGreaterThan(0);
    await idle(lfs);
    log.stop();
    expect(log.committed.length - from).toBeGreaterThan(2);

    const bad: string[] = [];
    for (let i = from; i <= log.committed.length; i++) {
      const copy = `${name}-cut-${i}`;
      await log.materialize(i, copy, `${copy}_files`);
      const next = openNamedLightningFs(copy);
      const nextWs = new WorkspaceFs({ fs: next, dir, journal: new ChangeJournal() });
      try {
        const c = await createCheckpoint({ fs: nextWs.fs, dir, readMany: lightningReadMany(indexedDB, copy) }, { sessionId: "s", run: 3 });
        const got = await contents(next, c.tree);
        const want = await workingTree(next);
        const sorted = (t: Record<string, string>) => JSON.stringify(Object.entries(t).sort(([a], [b]) => (a < b ? -1 : 1)));
        if (sorted(got) !== sorted(want)) bad.push(`cut ${i}: checkpoint ${JSON.stringify(got)} vs working tree ${JSON.stringify(want)}`);
      } catch (err) {
        bad.push(`cut ${i} of ${log.committed.length}: ${(err as Error).message}`);
      }
      await idle(next);
    }
    expect(bad).toEqual([]);
  });
});
