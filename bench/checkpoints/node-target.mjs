#!/usr/bin/env node
/**
 * One Node-side target in its own process (clean heap, its own fake-indexeddb):
 *   node bench/checkpoints/node-target.mjs <engine-bundle.mjs> <nodefs|lfs|realshape> <files> [scheduleJSON]
 * Prints one JSON line: { figures, treesMatch, setup }.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generate } from "./gen.mjs";
import { engineDriver } from "./scenario.mjs";
import { nativeDriver, writeWorkspace } from "./native.mjs";
import { runSchedule, SCHEDULE } from "./runner.mjs";

const [bundle, target, nArg, scheduleArg] = process.argv.slice(2);
if (target === "realshape") {
  const { runRealShape } = await import("./real-shape-target.mjs");
  process.stdout.write(JSON.stringify(await runRealShape(bundle, Number(nArg))) + "\n");
  process.exit(0);
}
const n = Number(nArg);
const schedule = scheduleArg ? JSON.parse(scheduleArg) : SCHEDULE;
const api = await import(path.resolve(bundle));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `tabula-bench-${target}-${n}-`));
const gen = generate(n, 42);
const setup = {};
let engineFs;
let dir;
let readMany;
let listDir;
try {
  const t0 = performance.now();
  if (target === "lfs") {
    await import("fake-indexeddb/auto");
    globalThis.navigator ??= {};
    const { populateIdb } = await import("./populate.mjs");
    const LightningFS = (await import("@isomorphic-git/lightning-fs")).default;
    const name = `bench-${n}-${process.pid}`;
    await populateIdb(indexedDB, name, [...gen.files, ...gen.ignored], "/ws");
    engineFs = new LightningFS(name);
    dir = "/ws";
    readMany = api.lightningReadMany(indexedDB, name);
  } else {
    dir = path.join(tmp, "engine");
    writeWorkspace(dir, gen);
    execFileSync("git", ["-c", "init.defaultBranch=main", "init", "-q"], { cwd: dir });
    engineFs = fs;
    readMany = api.syncReadMany(fs.readFileSync); // what a Node host passes (lib/checkpoints/node-read.ts)
    listDir = api.syncListDir(fs.readdirSync, fs.lstatSync);
  }
  setup.populateMs = Math.round(performance.now() - t0);
  const engine = engineDriver({ api, fs: engineFs, dir, journal: new api.ChangeJournal(), readMany, listDir });
  engine.init(gen.textPaths);
  const native = nativeDriver(path.join(tmp, "native"));
  native.init(gen);
  const verbose = !!process.env.TABULA_BENCH_VERBOSE;
  const result = await runSchedule(engine, native, schedule, verbose ? (l) => process.stderr.write(`[${target} ${n}] ${l}\n`) : undefined);
  if (target === "lfs") await engineFs.promises.flush();
  process.stdout.write(JSON.stringify({ ...result, setup }) + "\n");
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
