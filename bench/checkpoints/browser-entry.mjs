/** Bundled for Chromium: the engine over lightning-fs on real IndexedDB, driven by the page. */
import * as api from "../../lib/checkpoints/index.ts";
import { ChangeJournal } from "../../lib/fs/journal.ts";
import { openNamedLightningFs } from "../../lib/fs/lightning.ts";
import { generate } from "./gen.mjs";
import { engineDriver } from "./scenario.mjs";
import { populateIdb, deleteIdb } from "./populate.mjs";

let driver;
let name;
globalThis.bench = {
  async setup(n, seed, { patchAutoinc = false } = {}) {
    const t0 = performance.now();
    const gen = generate(n, seed);
    const t1 = performance.now();
    name = `tabula-bench-${n}-${Date.now()}`;
    await populateIdb(indexedDB, name, [...gen.files, ...gen.ignored], "/ws");
    const fs = openNamedLightningFs(name);
    if (patchAutoinc) {
      // Experiment only (not shipped): lightning-fs allocates an inode by walking its whole
      // tree (CacheFS.autoinc → _maxInode), ~2–3 ms per new file at 10k files. Counting up
      // from the maximum once shows what a small fix upstream would buy.
      await fs.promises.stat("/");
      const cache = fs.promises._backend._cache;
      let max = -1;
      cache.autoinc = function () {
        if (max < 0) max = this._maxInode(this._root.get("/"));
        return ++max;
      };
    }
    driver = engineDriver({ api, fs, dir: "/ws", journal: new ChangeJournal(), readMany: api.lightningReadMany(indexedDB, name) });
    driver.init(gen.textPaths);
    return { generateMs: t1 - t0, populateMs: performance.now() - t1 };
  },
  op: (op, rep) => driver.op(op, rep),
  async teardown() {
    await new Promise((r) => setTimeout(r, 700)); // let lightning-fs deactivate and close
    await deleteIdb(indexedDB, name);
  },
};
