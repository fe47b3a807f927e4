/**
 * Bundled for Chromium: the real-shaped workload (real-shape-plan.mjs) on the engine over
 * lightning-fs on real IndexedDB. The repository native git built is fetched from the bench
 * server and written straight into IndexedDB (populate.mjs), pack files and all.
 * A "reload" is a new LightningFS instance on the same database (after the old one saved and
 * went idle), a new journal and a new engine: state only from the cache file. The new
 * instance is activated (its file tree loaded) before the timed checkpoint, as the app has
 * opened the workspace long before its first checkpoint.
 */
import * as api from "../../lib/checkpoints/index.ts";
import { ChangeJournal } from "../../lib/fs/journal.ts";
import { withWorktreeStamp } from "../../lib/fs/worktree-stamp.ts";
import { openNamedLightningFs } from "../../lib/fs/lightning.ts";
import { listDirOf } from "../../lib/fs/listing.ts";
import { deleteIdb, populateIdb } from "./populate.mjs";
import { nextLive, planChange } from "./real-shape-plan.mjs";

const DIR = "/ws";
let name;
let fs;
let ws;
let live = [];
let run = 0;
const ones = [];
const hundreds = [];
let phases = {};
api.__testing.trace = (p, ms) => (phases[p] = (phases[p] ?? 0) + ms);
const now = () => performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const clean = (p) => (p.startsWith("./") ? p.slice(2) : p);

async function newSession() {
  if (fs) {
    await fs.promises.flush();
    await sleep(800); // lightning-fs deactivates after idle and lets go of its lock
  }
  fs = openNamedLightningFs(name);
  await fs.promises.stat("/");
  // The app's writers share the stamped fs (lib/fs/worktree-stamp.ts); ?nostamp: without it.
  const stamped = !new URLSearchParams(location.search).has("nostamp");
  ws = { fs: stamped ? withWorktreeStamp(fs, DIR) : fs, dir: DIR, journal: new ChangeJournal(), readMany: api.lightningReadMany(indexedDB, name), listDir: listDirOf(fs) };
}

async function change(count, seed) {
  const plan = planChange(live, count, seed);
  for (const m of [...plan.modify, ...plan.add]) {
    await ws.fs.promises.writeFile(`${DIR}/${clean(m.path)}`, m.data);
    ws.journal.record({ kind: "write", path: clean(m.path), origin: "bench" });
  }
  for (const d of plan.delete) {
    await ws.fs.promises.unlink(`${DIR}/${clean(d)}`);
    ws.journal.record({ kind: "delete", path: clean(d), origin: "bench" });
  }
  live = nextLive(live, plan);
}

async function checkpoint() {
  const t = now();
  const c = await api.createCheckpoint(ws, { sessionId: "bench", run: `r${run++}` });
  return { ms: now() - t, c, info: { tree: c.tree, hashed: c.stats.filesHashed, written: c.stats.objectsWritten, scan: c.stats.scan } };
}

async function runOp(op, rep) {
  switch (op) {
    case "cold":
      // Again from nothing: a new LightningFS, engine and journal, no cache file nor a stamp naming one.
      if (rep > 0) {
        for (const f of ["checkpoint-cache.json", "worktree-stamp"]) await fs.promises.unlink(`${DIR}/.git/tabula/${f}`).catch(() => undefined);
        await newSession();
      }
    // falls through
    case "noChange": {
      const r = await checkpoint();
      return { ms: r.ms, ...r.info };
    }
    case "noChangeReload": {
      await newSession();
      const r = await checkpoint();
      return { ms: r.ms, ...r.info };
    }
    case "warm1":
    case "warm100": {
      await change(op === "warm1" ? 1 : 100, 100 + rep + (op === "warm1" ? 0 : 50));
      const r = await checkpoint();
      (op === "warm1" ? ones : hundreds).push(r.c);
      return { ms: r.ms, ...r.info };
    }
    case "warm1Reload":
    case "warm100Reload": {
      await change(op === "warm1Reload" ? 1 : 100, 200 + rep + (op === "warm1Reload" ? 0 : 50));
      await newSession();
      const r = await checkpoint();
      (op === "warm1Reload" ? ones : hundreds).push(r.c);
      return { ms: r.ms, ...r.info };
    }
    case "restore1":
    case "restore100": {
      const list = op === "restore1" ? ones : hundreds;
      const target = list[list.length - 2 + (rep % 2)];
      const t = now();
      const r = await api.restoreCheckpoint(ws, target.ref);
      return { ms: now() - t, changed: r.changed.length };
    }
    default:
      throw new Error(`unknown op ${op}`);
  }
}

globalThis.realBench = {
  /** Fetch the repository (manifest + one blob of all bytes) and write it into IndexedDB. */
  async setup() {
    const t0 = now();
    const manifest = await (await fetch("/real/manifest.json")).json();
    const data = new Uint8Array(await (await fetch("/real/data.bin")).arrayBuffer());
    // slice, not subarray: IndexedDB would clone the whole buffer behind a view
    const files = manifest.files.map((f) => ({ path: f.path, exec: f.exec, data: data.slice(f.offset, f.offset + f.size) }));
    const t1 = now();
    name = `tabula-bench-real-${Date.now()}`;
    await populateIdb(indexedDB, name, files, DIR);
    live = [...manifest.paths];
    await newSession();
    return { fetchMs: t1 - t0, populateMs: now() - t1 };
  },
  async op(op, rep) {
    phases = {};
    const r = await runOp(op, rep);
    const out = {};
    for (const [k, v] of Object.entries(phases)) out[k] = Math.round(v * 10) / 10;
    return { ...r, phases: out };
  },
  async teardown() {
    await fs?.promises.flush();
    await sleep(800);
    await deleteIdb(indexedDB, name);
  },
};
