/**
 * Bundled for Chromium: timeline previews (lib/timeline over lib/checkpoints) on lightning-fs
 * in real IndexedDB. Ticks T0..T3 are checkpoints taken after 0, 5, 10 and 15 files changed;
 * 5 more change after T3, so the working tree differs from T0 by 20 files, from T3 by 5.
 */
import * as api from "../../lib/checkpoints/index.ts";
import { previewTick } from "../../lib/timeline/preview.ts";
import { ChangeJournal } from "../../lib/fs/journal.ts";
import { openNamedLightningFs } from "../../lib/fs/lightning.ts";
import { generate } from "../checkpoints/gen.mjs";
import { populateIdb, deleteIdb } from "../checkpoints/populate.mjs";
import { changedFiles } from "./plan.mjs";

let ws;
let name;
let refs = [];

globalThis.bench = {
  async setup(n, seed) {
    const gen = generate(n, seed);
    name = `tabula-timeline-bench-${n}-${Date.now()}`;
    await populateIdb(indexedDB, name, [...gen.files, ...gen.ignored], "/ws");
    const fs = openNamedLightningFs(name);
    const journal = new ChangeJournal();
    ws = { fs, dir: "/ws", journal, readMany: api.lightningReadMany(indexedDB, name) };
    const steps = changedFiles(gen.textPaths);
    refs = [];
    for (let k = 0; k < steps.length; k++) {
      refs.push((await api.createCheckpoint(ws, { sessionId: "bench", run: k })).ref);
      for (const f of steps[k]) {
        await fs.promises.writeFile(`/ws/${f.path}`, f.data);
        journal.record({ kind: "write", path: f.path });
      }
    }
    return { ticks: refs.length };
  },
  /** One scrub step: the preview of tick i (not cached: the app caches, this measures the miss). */
  async step(i) {
    const t0 = performance.now();
    const p = await previewTick(api, ws, refs[i % refs.length]);
    return { ms: performance.now() - t0, files: p.files.length, counted: p.files.filter((f) => f.added !== undefined).length };
  },
  async teardown() {
    await new Promise((r) => setTimeout(r, 700));
    await deleteIdb(indexedDB, name);
  },
};
