/**
 * node figures (`npm run bench`, hooked in by scripts/bench.mjs from bench/runtimes/):
 *   - in Chromium, through the terminal as a person uses it: `node -e 'console.log(…)'` from
 *     Enter to the output on screen, the first of a fresh browser context and the next ones;
 *   - in Node, the same engine in-process: a warm `-e` run, and one test file of 50 node:test tests;
 *   - native `node -e 'console.log(1)'` and `node --test` on the same 50 tests, with ratios
 *     (target: warm `node -e` ≤ 5× native).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { workspaceWithTerminal } from "./workbench-page.mjs";

const RUNS = 5;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r1 = (x) => Math.round(x * 10) / 10;

const SUITE = [
  "const { describe, it } = require('node:test');",
  "const assert = require('node:assert');",
  "describe('fifty', () => {",
  ...Array.from({ length: 50 }, (_, i) => `  it('test ${i}', () => assert.strictEqual(${i} + 1, ${i + 1}));`),
  "});",
].join("\n");

function timed(fn) {
  const times = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return r1(median(times.slice(1)));
}

function nativeNode(dir) {
  const e = timed(() => {
    const r = spawnSync(process.execPath, ["-e", "console.log(1)"], { encoding: "utf8" });
    if (r.stdout !== "1\n") throw new Error(`native node -e failed: ${r.stderr}`);
  });
  const test = timed(() => {
    const r = spawnSync(process.execPath, ["--test", "fifty.test.js"], { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`native node --test failed: ${r.stdout}${r.stderr}`);
  });
  return { version: process.version, evalMedianMs: e, test50MedianMs: test };
}

async function inProcess() {
  const { build } = await import("esbuild");
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-node-")), "runtime.mjs");
  await build({ entryPoints: ["lib/runtimes/node/runtime.ts"], outfile: out, bundle: true, format: "esm", platform: "node", logLevel: "error" });
  const { inProcessNodeRuntime } = await import(out);
  const rt = inProcessNodeRuntime();
  const job = (target, extra = {}) => ({ target, args: [], execArgv: [], cwd: "/workspace", env: {}, stdin: new Uint8Array(), mountPoint: "/workspace", files: [{ path: "fifty.test.js", data: new TextEncoder().encode(SUITE) }], dirs: [], readOnly: false, ...extra });
  const once = async (j) => {
    const t0 = performance.now();
    const r = await rt.run(j, { onOutput: () => undefined });
    if (r.exitCode !== 0) throw new Error(`exit ${r.exitCode}`);
    return performance.now() - t0;
  };
  const many = async (j) => {
    const xs = [];
    for (let i = 0; i < RUNS + 1; i++) xs.push(await once(j));
    return r1(median(xs.slice(1)));
  };
  return {
    evalMedianMs: await many(job({ kind: "eval", code: "console.log(1)", print: false })),
    test50MedianMs: await many(job({ kind: "script", path: "/workspace/fifty.test.js" }, { test: true })),
  };
}

async function browserNode(browser, baseURL) {
  const { context, page } = await workspaceWithTerminal(browser, baseURL, "Node bench");
  try {
    const once = async (n) => {
      const marker = `out-${n}`;
      await page.keyboard.type(`node -e 'console.log("${marker}")'`);
      const t0 = Date.now();
      await page.keyboard.press("Enter");
      await page.waitForFunction((m) => [...document.querySelectorAll('[data-testid="terminal"] .xterm-rows > div')].some((d) => d.textContent.trim() === m), marker, { polling: "raf", timeout: 60_000 });
      return Date.now() - t0;
    };
    const firstMs = await once(0);
    const warm = [];
    for (let i = 1; i <= RUNS; i++) warm.push(await once(i));
    return { firstMs, warmMedianMs: median(warm), warmRunsMs: warm };
  } finally {
    await context.close();
  }
}

export async function run({ browser, baseURL } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-node-native-"));
  fs.writeFileSync(path.join(dir, "fifty.test.js"), SUITE);
  const native = (() => {
    try {
      return nativeNode(dir);
    } catch (e) {
      return { error: String(e?.message ?? e) };
    }
  })();
  const node = await inProcess().catch((e) => ({ error: String(e?.stack ?? e) }));
  const chromium = browser ? await browserNode(browser, baseURL).catch((e) => ({ error: String(e?.stack ?? e) })) : { skipped: "no browser given" };
  fs.rmSync(dir, { recursive: true, force: true });
  const ratio = (ms, base) => (ms && base ? Math.round((ms / base) * 100) / 100 : null);
  return {
    nativeNode: native,
    inProcess: { ...node, evalVsNative: ratio(node.evalMedianMs, native.evalMedianMs), test50VsNative: ratio(node.test50MedianMs, native.test50MedianMs) },
    chromium: { ...chromium, warmVsNative: ratio(chromium.warmMedianMs, native.evalMedianMs) },
    targets: { warmVsNativeMax: 5 },
  };
}
