/** Bundled for Chromium: the engine over lightning-fs on real IndexedDB, driven by the page. */
import * as api from "../../lib/checkpoints/index.ts";
import { ChangeJournal } from "../../lib/fs/journal.ts";
import { openNamedLightningFs } from "../../lib/fs/lightning.ts";
import { listDirOf } from "../../lib/fs/listing.ts";
import { generate } from "./gen.mjs";
import { engineDriver } from "./scenario.mjs";
import { populateIdb, deleteIdb } from "./populate.mjs";

let driver;
let name;
globalThis.bench = {
  async setup(n, seed) {
    const t0 = performance.now();
    const gen = generate(n, seed);
    const t1 = performance.now();
    name = `tabula-bench-${n}-${Date.now()}`;
    await populateIdb(indexedDB, name, [...gen.files, ...gen.ignored], "/ws");
    const fs = openNamedLightningFs(name);
    driver = engineDriver({ api, fs, dir: "/ws", journal: new ChangeJournal(), readMany: api.lightningReadMany(indexedDB, name), listDir: listDirOf(fs) });
    driver.init(gen.textPaths);
    return { generateMs: t1 - t0, populateMs: performance.now() - t1 };
  },
  op: (op, rep) => driver.op(op, rep),
  async teardown() {
    await new Promise((r) => setTimeout(r, 700)); // let lightning-fs deactivate and close
    await deleteIdb(indexedDB, name);
  },
};
