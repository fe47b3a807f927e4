/**
 * The engine over lightning-fs + fake-indexeddb (the browser's storage, in Node): round trip,
 * and the same tree oid as the node:fs run and native git give for the same files.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { openNamedLightningFs } from "../../lib/fs/lightning";
import { inodeRuns } from "../../lib/checkpoints/lightning-read";
import git from "isomorphic-git";
import { createCheckpoint, diffWorkingTree, lightningReadMany, listCheckpoints, readFileAt, restoreCheckpoint, undoRestore } from "../../lib/checkpoints";
import type { IsoFs } from "../../lib/fs/types";
import { nativeTree, nodeFs, rmrf, tempRepo } from "./helpers";

(globalThis as { navigator?: unknown }).navigator ??= {};

let fsCounter = 0;
let lastName = "";
function lightning(): IsoFs {
  lastName = `tabula-ckpt-test-${process.pid}-${Date.now()}-${fsCounter++}`;
  return openNamedLightningFs(lastName, { wipe: true });
}

async function mkdirp(lfs: IsoFs, abs: string): Promise<void> {
  const parts = abs.split("/").filter(Boolean);
  let cur = "";
  for (const p of parts) {
    cur += "/" + p;
    try {
      await lfs.promises.mkdir(cur);
    } catch (err) {
      if ((err as { code?: string }).code !== "EEXIST") throw err;
    }
  }
}

type Spec = { files: Record<string, string | Uint8Array>; exec?: string[]; links?: Record<string, string> };

const enc = new TextEncoder();
const bytes = (v: string | Uint8Array) => (typeof v === "string" ? enc.encode(v) : v);

async function populateLightning(lfs: IsoFs, dir: string, spec: Spec): Promise<void> {
  for (const [rel, data] of Object.entries(spec.files)) {
    await mkdirp(lfs, path.posix.dirname(`${dir}/${rel}`));
    await lfs.promises.writeFile(`${dir}/${rel}`, bytes(data), { mode: spec.exec?.includes(rel) ? 0o755 : 0o644 });
  }
  for (const [rel, target] of Object.entries(spec.links ?? {})) await lfs.promises.symlink!(target, `${dir}/${rel}`);
  // Files of a real workspace were written long before its first checkpoint. Written just now,
  // some sit in the racy window (mtime within RACY_MARGIN_MS of the snapshot's stat) and the engine is
  // right to hash them again next time: the "only what changed is hashed" checks below would
  // then depend on how fast this machine runs. (utimes takes seconds, as Node's does.)
  const old = (Date.now() - 10_000) / 1000;
  const { utimes } = lfs.promises as unknown as { utimes(path: string, atime: number, mtime: number): Promise<void> };
  for (const rel of Object.keys(spec.files)) await utimes(`${dir}/${rel}`, old, old);
}

function populateNode(dir: string, spec: Spec): void {
  for (const [rel, data] of Object.entries(spec.files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), bytes(data));
    fs.chmodSync(path.join(dir, rel), spec.exec?.includes(rel) ? 0o755 : 0o644);
  }
  for (const [rel, target] of Object.entries(spec.links ?? {})) fs.symlinkSync(target, path.join(dir, rel));
}

async function readAll(lfs: IsoFs, dir: string, rel = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const abs = rel ? `${dir}/${rel}` : dir;
  for (const name of await lfs.promises.readdir(abs)) {
    if (name === ".git") continue;
    const r = rel ? `${rel}/${name}` : name;
    const st = await lfs.promises.lstat(`${dir}/${r}`);
    if (st.isDirectory()) Object.assign(out, await readAll(lfs, dir, r));
    else if (st.isSymbolicLink()) out[r] = "-> " + String(await lfs.promises.readlink!(`${dir}/${r}`));
    else out[r] = `${st.mode & 0o100 ? "x " : ""}${Buffer.from((await lfs.promises.readFile(`${dir}/${r}`)) as Uint8Array).toString("base64")}`;
  }
  return out;
}

function spec(n: number): Spec {
  const files: Record<string, string | Uint8Array> = {
    ".gitignore": "*.log\nnode_modules/\n",
    "README.md": "# readme\n",
    "debug.log": "ignored",
    "node_modules/x/index.js": "ignored",
    "bin/data.bin": new Uint8Array([0, 255, 1, 254, 0, 0, 7]),
    "ünï/名前.txt": "unicode",
    "tool.sh": "#!/bin/sh\n",
  };
  for (let i = 0; i < n; i++) files[`src/m${i % 5}/f${i}.ts`] = `export const v${i} = ${i};\n`.repeat(1 + (i % 4));
  return { files, exec: ["tool.sh"], links: { "link.md": "README.md" } };
}

describe("engine over lightning-fs + fake-indexeddb", () => {
  it("gives the node:fs / native git tree, round-trips restore and undo, and isomorphic-git reads it", async () => {
    const s = spec(80); // > 2 new objects: the cold checkpoint writes packs
    const nodeDir = tempRepo();
    let nodeTree: string;
    try {
      populateNode(nodeDir, s);
      nodeTree = nativeTree(nodeDir);
      const nodeCk = await createCheckpoint({ fs: nodeFs, dir: nodeDir }, { sessionId: "n", run: 1 });
      expect(nodeCk.tree).toBe(nodeTree);
    } finally {
      rmrf(nodeDir);
    }

    const lfs = lightning();
    const dir = "/ws";
    await mkdirp(lfs, dir);
    await git.init({ fs: lfs as never, dir, defaultBranch: "main" });
    await populateLightning(lfs, dir, s);
    await git.add({ fs: lfs as never, dir, filepath: "README.md" });
    const head = await git.commit({ fs: lfs as never, dir, message: "init", author: { name: "t", email: "t@example.com" } });
    const ws = { fs: lfs, dir };
    const ck = await createCheckpoint(ws, { sessionId: "s", run: 1, label: "lfs" });
    expect(ck.tree).toBe(nodeTree);
    expect(ck.stats.packsWritten).toBeGreaterThan(0);
    // isomorphic-git reads the packed checkpoint
    const { commit } = await git.readCommit({ fs: lfs as never, dir, oid: ck.oid });
    expect(commit.parent).toEqual([head]);
    const blob = await git.readBlob({ fs: lfs as never, dir, oid: ck.oid, filepath: "src/m1/f6.ts" });
    expect(new TextDecoder().decode(blob.blob)).toBe("export const v6 = 6;\n".repeat(3));
    expect(await git.resolveRef({ fs: lfs as never, dir, ref: "HEAD" })).toBe(head);

    const atCk = await readAll(lfs, dir);
    await lfs.promises.writeFile(`${dir}/README.md`, enc.encode("changed"));
    await lfs.promises.unlink(`${dir}/src/m0/f0.ts`);
    await mkdirp(lfs, `${dir}/added/deep`);
    await lfs.promises.writeFile(`${dir}/added/deep/new.txt`, enc.encode("new"));
    await lfs.promises.writeFile(`${dir}/debug.log`, enc.encode("ignored, changed"));
    await lfs.promises.chmod!(`${dir}/tool.sh`, 0o644);
    const ck2 = await createCheckpoint(ws, { sessionId: "s", run: 2 });
    expect(ck2.stats.filesHashed).toBeLessThanOrEqual(4);
    expect(ck2.stats.packsWritten).toBe(1); // a few changes: one small pack, not loose objects
    const before = await readAll(lfs, dir);
    expect((await diffWorkingTree(ws, ck.ref)).map((d) => [d.path, d.change])).toEqual([
      ["README.md", "modified"],
      ["added/deep/new.txt", "added"],
      ["src/m0/f0.ts", "deleted"],
      ["tool.sh", "modified"],
    ]);

    const r = await restoreCheckpoint(ws, ck.ref);
    const after = await readAll(lfs, dir);
    expect(after).toEqual({ ...atCk, "debug.log": before["debug.log"]! });
    expect(r.changed).toHaveLength(4);
    await expect(lfs.promises.lstat(`${dir}/added`)).rejects.toThrow();

    await undoRestore(ws, r.txid);
    expect(await readAll(lfs, dir)).toEqual(before);
    expect(new TextDecoder().decode(await readFileAt(ws, ck2.oid, "README.md"))).toBe("changed");
    expect((await listCheckpoints(ws, { sessionId: "s" })).map((c) => c.run)).toEqual([1, 2]);
  }, 60_000);

  it("the batched IndexedDB reader gives the same trees (and falls back on stale entries)", async () => {
    const s = spec(120);
    const lfs = lightning();
    const name = lastName;
    const dir = "/w";
    await mkdirp(lfs, dir);
    await git.init({ fs: lfs as never, dir, defaultBranch: "main" });
    await populateLightning(lfs, dir, s);
    const plain = await createCheckpoint({ fs: { promises: lfs.promises } as IsoFs, dir }, { sessionId: "p", run: 1 });
    const readMany = lightningReadMany(indexedDB, name);
    const calls: number[] = [];
    const counting: typeof readMany = async (paths, stats) => {
      calls.push(paths.length);
      const out = await readMany(paths, stats);
      out[0] = undefined; // pretend one entry was stale: read through the fs instead
      return out;
    };
    const fast = await createCheckpoint({ fs: lfs, dir, readMany: counting }, { sessionId: "f", run: 1 });
    expect(fast.tree).toBe(plain.tree);
    expect(calls.reduce((a, b) => a + b, 0)).toBe(fast.stats.filesHashed - 1); // the symlink is read with readlink
    // an unknown database: every entry undefined, nothing created
    const none = await lightningReadMany(indexedDB, "no-such-db-" + name)(["/x"], [await lfs.promises.lstat(`${dir}/README.md`)]);
    expect(none).toEqual([undefined]);
    const dbs = await indexedDB.databases();
    expect(dbs.some((d) => d.name === "no-such-db-" + name)).toBe(false);
  }, 60_000);

  it("the reader's ranged requests give each file its own bytes: holes from deleted files, a file grown since its lstat, a directory, any order", async () => {
    const lfs = lightning();
    const name = lastName;
    const dir = "/r";
    await mkdirp(lfs, `${dir}/d`);
    for (let i = 0; i < 40; i++) await lfs.promises.writeFile(`${dir}/f${i}.txt`, enc.encode(`file ${i} `.repeat(1 + (i % 3))));
    // holes in the inode numbers, and an unwanted file inside a run
    for (const i of [5, 6, 7, 20]) await lfs.promises.unlink(`${dir}/f${i}.txt`);
    const wanted = Array.from({ length: 40 }, (_, i) => i).filter((i) => ![5, 6, 7, 20, 12].includes(i));
    const paths = [...wanted.reverse().map((i) => `${dir}/f${i}.txt`), `${dir}/d`];
    const stats = await Promise.all(paths.map((p) => lfs.promises.lstat(p)));
    await lfs.promises.writeFile(`${dir}/f30.txt`, enc.encode("grown after its lstat, so not vouched for"));
    const out = await lightningReadMany(indexedDB, name)(paths, stats);
    const dec = new TextDecoder();
    paths.forEach((p, k) => {
      const i = Number(/f(\d+)\.txt$/.exec(p)?.[1] ?? -1);
      if (i === -1 || i === 30) expect(out[k], p).toBeUndefined();
      else expect(dec.decode(out[k]), p).toBe(`file ${i} `.repeat(1 + (i % 3)));
    });
  });

  it("inodeRuns groups nearby inode numbers, each run in order", () => {
    const inos = [10, 3, 4, 50, 5, 12, 9, 100, 104];
    expect(inodeRuns(inos.map((_, i) => i), (i) => inos[i]!).map((run) => run.map((i) => inos[i]))).toEqual([[3, 4, 5, 9, 10, 12], [50], [100, 104]]);
    expect(inodeRuns([], () => 0)).toEqual([]);
  });
});
