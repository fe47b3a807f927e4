/**
 * Checkpoint engine figures (lib/checkpoints): cold / no-change / 1-changed / 100-changed
 * checkpoints and restores of 1 and 100 differing files, on generated workspaces of 1,000 and
 * 10,000 files, each next to native git doing the same operation on the same tree in the same
 * run (interleaved op by op), with the ratio:
 *   (a) Node over node:fs (also on a real-shaped repository: see checkpoints/real-shape.mjs), (b) Node over lightning-fs + fake-indexeddb, (c) real Chromium over
 *   lightning-fs on IndexedDB (the engine bundled with esbuild, served from 127.0.0.1).
 * Standalone: `node bench/checkpoints/run-standalone.mjs` (no app server needed).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildBrowserBundle, buildNodeBundle, cleanup, serveBundle as serve } from "./checkpoints/build.mjs";
import { generate } from "./checkpoints/gen.mjs";
import { nativeDriver } from "./checkpoints/native.mjs";
import { runRealShapeChromium } from "./checkpoints/real-shape-chromium.mjs";
import { runSchedule, SCHEDULE } from "./checkpoints/runner.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const SIZES = (process.env.TABULA_BENCH_SIZES ?? "1000,10000").split(",").map(Number);
/** fake-indexeddb slows down badly with size; 10k only on request. */
const LFS_NODE_SIZES = (process.env.TABULA_BENCH_LFS_NODE_SIZES ?? "1000").split(",").filter(Boolean).map(Number);

function runChild(bundle, target, n, log, timeoutMs = 300_000) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(here, "checkpoints/node-target.mjs"), bundle, target, String(n)], {
      env: { ...process.env, TABULA_BENCH_VERBOSE: log ? "1" : "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => {
      err += d;
      if (log) process.stderr.write(d);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.trim().split("\n").pop()));
      } catch {
        resolve({ error: `exit ${code}: ${err.slice(-2000)}` });
      }
    });
  });
}

function targets(fig) {
  if (!fig) return undefined;
  const check = (value, limit, unit) => ({ value, limit, unit, met: value !== null && value <= limit });
  return {
    "1 changed <= 0.5x native": check(fig.warm1?.ratio ?? null, 0.5, "x"),
    // The agent's checkpoint after each file-changing tool call is this same operation: one
    // file written through the journal, then a checkpoint (kind "call").
    "a checkpoint per tool call (1 changed, journal) <= 10 ms": check(fig.warm1?.engineMs ?? null, 10, "ms"),
    "no change <= 10 ms": check(fig.noChange?.engineMs ?? null, 10, "ms"),
    "100 changed <= 2x native": check(fig.warm100?.ratio ?? null, 2, "x"),
    "cold <= 3x native": check(fig.cold?.ratio ?? null, 3, "x"),
    "restore 1 <= 0.5x native": check(fig.restore1?.ratio ?? null, 0.5, "x"),
    "restore 100 <= 1x native": check(fig.restore100?.ratio ?? null, 1, "x"),
  };
}

/** Targets on the real-shaped workload: "reload" = a new engine and journal (and, in
 * Chromium, a new lightning-fs instance); after a reload ≤ 1.5x native in Node, ≤ 2x in Chromium. */
function realTargets(fig, reloadLimit = 1.5) {
  if (!fig) return undefined;
  const check = (value, limit, unit) => ({ value, limit, unit, met: value !== null && value !== undefined && value <= limit });
  return {
    [`no change after a reload <= ${reloadLimit}x native`]: check(fig.noChangeReload?.ratio, reloadLimit, "x"),
    [`1 changed after a reload <= ${reloadLimit}x native`]: check(fig.warm1Reload?.ratio, reloadLimit, "x"),
    "100 changed after a reload <= 2x native": check(fig.warm100Reload?.ratio, 2, "x"),
    "100 changed with the journal <= 2x native": check(fig.warm100?.ratio, 2, "x"),
    "cold <= 3x native": check(fig.cold?.ratio, 3, "x"),
    "no change with the journal <= 5 ms": check(fig.noChange?.engineMs, 5, "ms"),
    "1 changed with the journal <= 0.3x native": check(fig.warm1?.ratio, 0.3, "x"),
  };
}

export async function run({ browser, log = !!process.env.TABULA_BENCH_VERBOSE } = {}) {
  const started = Date.now();
  const say = (m) => process.stderr.write(`[checkpoints ${((Date.now() - started) / 1000).toFixed(0)}s] ${m}\n`);
  const results = {
    notes: [
      "engineMs/nativeMs: medians; ratio: median of per-rep engine/native ratios (same run, interleaved op by op).",
      "native = GIT_INDEX_FILE=<private> git add -A && write-tree && commit-tree && update-ref; restores: that snapshot, then git read-tree -m -u <saved> <target>.",
      "noChange/warm1/warm100/restore*: with the ChangeJournal (how the app runs) and, on lightning-fs, lightningReadMany; noChangeWalk/warm1Walk: no journal (stat walk, e.g. after a reload).",
      "cold: the first checkpoint of a fresh repository, all objects written: one run per synthetic size; on the real shape three (median), each a new engine with no cache file (its objects are in native git's pack already, so only the commit is written).",
      "noChangeIdle: a no-change checkpoint after 700 ms without fs calls (lightning-fs has deactivated and reloads its whole tree).",
      "nodeRealShape: ~10k files over ~3.5k directories up to depth 10, 12 .gitignore files, ~10k commits packed by git fast-import (bench/checkpoints/real-shape.mjs); *Reload = a new engine + journal (a page reload): state only from the cache file, a stat walk.",
      "chromiumRealShape: the same repository (working tree and .git, packs included) written into IndexedDB, the engine on lightning-fs in the page (bench/checkpoints/real-shape-chromium.mjs); *Reload also makes a new LightningFS instance (activated before the timed call).",
    ],
    machine: { node: process.version, cpus: os.cpus().length, loadAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100) },
    node: {},
    nodeLightning: {},
    chromium: {},
  };
  const bundle = await buildNodeBundle();
  try {
    for (const n of SIZES) {
      say(`node:fs ${n}`);
      results.node[n] = await runChild(bundle, "nodefs", n, log);
    }
    for (const n of LFS_NODE_SIZES) {
      say(`lightning-fs + fake-indexeddb ${n}`);
      results.nodeLightning[n] = await runChild(bundle, "lfs", n, log);
    }
    if (!process.env.TABULA_BENCH_NO_REAL) {
      const n = Number(process.env.TABULA_BENCH_REAL_FILES ?? 10_000);
      say(`node:fs real-shaped ${n}`);
      results.nodeRealShape = await runChild(bundle, "realshape", n, log, 1_200_000);
      results.realShapeTargets = realTargets(results.nodeRealShape?.figures);
    }
    if (!LFS_NODE_SIZES.includes(10000)) {
      results.nodeLightning.note = "10,000 not run by default: fake-indexeddb makes it slow and says little about browsers (TABULA_BENCH_LFS_NODE_SIZES=1000,10000 runs it)";
    }
  } finally {
    cleanup(bundle);
  }
  if (browser) {
    const server = await serve(await buildBrowserBundle());
    const context = await browser.newContext();
    try {
      // lightning-fs as the app opens it (openNamedLightningFs: group commit, counted inodes, one-call listings).
      const runs = SIZES.map((n) => ({ key: "chromium", n, schedule: SCHEDULE }));
      for (const { key, n, schedule } of runs) {
        say(`${key} ${n}`);
        const page = await context.newPage();
        const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `tabula-bench-chromium-native-${n}-`));
        results[key] ??= {};
        try {
          await page.goto(server.url);
          await page.waitForFunction(() => globalThis.bench !== undefined);
          const setup = await page.evaluate((count) => globalThis.bench.setup(count, 42), n);
          const engine = { op: (name, rep) => page.evaluate(([a, b]) => globalThis.bench.op(a, b), [name, rep]) };
          const native = nativeDriver(path.join(tmp, "native"));
          native.init(generate(n, 42));
          const r = await runSchedule(engine, native, schedule, log ? (l) => process.stderr.write(`[${key} ${n}] ${l}\n`) : undefined);
          results[key][n] = { ...r, setup: { generateMs: Math.round(setup.generateMs), populateMs: Math.round(setup.populateMs) } };
          await page.evaluate(() => globalThis.bench.teardown());
        } catch (err) {
          results[key][n] = { error: String(err?.stack ?? err) };
        } finally {
          await page.close();
          fs.rmSync(tmp, { recursive: true, force: true });
        }
      }
    } finally {
      await context.close();
      await server.close();
    }
    if (!process.env.TABULA_BENCH_NO_REAL) {
      const n = Number(process.env.TABULA_BENCH_REAL_FILES ?? 10_000);
      say(`chromium real-shaped ${n}`);
      try {
        results.chromiumRealShape = await runRealShapeChromium({ browser, files: n, log: log ? (l) => process.stderr.write(`[chromium real-shape] ${l}\n`) : undefined });
      } catch (err) {
        results.chromiumRealShape = { error: String(err?.stack ?? err) };
      }
      results.chromiumRealShapeTargets = realTargets(results.chromiumRealShape?.figures, 2);
    }
    results.targets = {
      "chromium 10k": targets(results.chromium[10000]?.figures),
      "chromium 1k": targets(results.chromium[1000]?.figures),
    };
  } else {
    results.chromium = { skipped: "no browser given" };
  }
  results.machine.loadAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  results.totalSeconds = Math.round((Date.now() - started) / 1000);
  return results;
}
