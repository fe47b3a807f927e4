/**
 * Python figures (`npm run bench`, hooked in by scripts/bench.mjs from bench/runtimes/):
 *   - in Chromium, through the terminal as a person uses it: the first `python3 -c 'print(1)'`
 *     of a fresh browser context (cold: the wasm and the standard library downloaded from the
 *     app's own server, the interpreter started in its worker) and the next ones (warm), each
 *     from Enter to the output on screen;
 *   - in Node, Pyodide's Node loader: cold start (load + engine), warm run of the same program;
 *   - in Chromium, Ctrl-C on an endless loop: from the key press to the program's KeyboardInterrupt
 *     on screen (target ≤ 3 s), and whether it was interrupted or its worker had to be killed;
 *   - native /usr/bin/python3 (or python3 on PATH) -c 'print(1)', with warm/native ratios
 *     (target: warm ≤ 5× native, cold ≤ 3 s).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { workspaceWithTerminal } from "./workbench-page.mjs";

const WARM_RUNS = 5;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r1 = (x) => Math.round(x * 10) / 10;

function nativePython() {
  const exe = fs.existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const times = [];
  for (let i = 0; i < WARM_RUNS + 1; i++) {
    const t0 = performance.now();
    const r = spawnSync(exe, ["-c", "print(1)"], { encoding: "utf8" });
    if (r.status !== 0 || r.stdout !== "1\n") return { error: `${exe} failed: ${r.stderr || r.error}` };
    times.push(performance.now() - t0);
  }
  return { exe, medianMs: r1(median(times.slice(1))) };
}

async function nodePython() {
  const { build } = await import("esbuild");
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-py-")), "engine.mjs");
  await build({ entryPoints: ["lib/runtimes/python/engine.ts"], outfile: out, bundle: true, format: "esm", platform: "node", logLevel: "error" });
  const { PythonEngine } = await import(out);
  const { loadPyodide } = await import("pyodide");
  const t0 = performance.now();
  const py = await loadPyodide({ indexURL: path.resolve("node_modules/pyodide") + "/" });
  const engine = new PythonEngine(py);
  const coldMs = performance.now() - t0;
  const job = { target: { kind: "code", code: "print(1)" }, argv: ["-c"], cwd: "/workspace", env: {}, stdin: new Uint8Array(), mountPoint: "/workspace", files: [], dirs: [], readOnly: false };
  const times = [];
  for (let i = 0; i < WARM_RUNS + 1; i++) {
    let text = "";
    const t = performance.now();
    const r = engine.execute(job, (_s, d) => (text += new TextDecoder().decode(d)));
    times.push(performance.now() - t);
    if (r.exitCode !== 0 || text !== "1\n") throw new Error(`print(1) gave ${JSON.stringify(text)}`);
  }
  return { coldStartMs: r1(coldMs), warmMedianMs: r1(median(times.slice(1))) };
}

async function browserPython(browser, baseURL) {
  const { context, page } = await workspaceWithTerminal(browser, baseURL, "Python bench");
  try {
    const isolated = await page.evaluate(() => globalThis.crossOriginIsolated === true);
    // A row of the terminal that is exactly this text (an output line, not the command echoing it).
    const rowShown = (text) =>
      page.waitForFunction(
        (m) => [...document.querySelectorAll('[data-testid="terminal"] .xterm-rows > div')].some((d) => d.textContent.trim() === m),
        text,
        { polling: "raf", timeout: 120_000 },
      );
    const once = async (n) => {
      const marker = `out-${n}`;
      await page.keyboard.type(`python3 -c 'print("${marker}")'`);
      const t0 = Date.now();
      await page.keyboard.press("Enter");
      // The command line itself shows the marker inside quotes; the output row is the bare marker.
      await rowShown(marker);
      return Date.now() - t0;
    };
    const coldMs = await once(0);
    const warm = [];
    for (let i = 1; i <= WARM_RUNS; i++) warm.push(await once(i));
    await page.keyboard.type("python3 -c 'while True: pass'");
    await page.keyboard.press("Enter");
    await page.waitForTimeout(1000);
    const t0 = Date.now();
    await page.keyboard.press("Control+c");
    // The program's traceback ends with a KeyboardInterrupt row; a killed worker prints none, the shell says so.
    const stopped = await page
      .waitForFunction(
        () => {
          const rows = [...document.querySelectorAll('[data-testid="terminal"] .xterm-rows > div')].map((d) => d.textContent.trim());
          if (rows.includes("KeyboardInterrupt")) return "KeyboardInterrupt";
          return rows.some((r) => r.includes("file changes were discarded")) ? "killed worker" : false;
        },
        null,
        { polling: "raf", timeout: 120_000 },
      )
      .then((h) => h.jsonValue());
    const interruptMs = Date.now() - t0;
    return { crossOriginIsolated: isolated, coldStartMs: coldMs, warmMedianMs: median(warm), warmRunsMs: warm, ctrlC: { toStopMs: interruptMs, stoppedBy: stopped } };
  } finally {
    await context.close();
  }
}

export async function run({ browser, baseURL }) {
  const native = nativePython();
  const node = await nodePython().catch((e) => ({ error: String(e?.stack ?? e) }));
  const chromium = browser ? await browserPython(browser, baseURL).catch((e) => ({ error: String(e?.stack ?? e) })) : { skipped: "no browser given" };
  const ratio = (ms) => (native.medianMs && ms ? r1(ms / native.medianMs) : null);
  return {
    nativePython3: native,
    node: { ...node, warmVsNative: ratio(node.warmMedianMs) },
    chromium: { ...chromium, warmVsNative: ratio(chromium.warmMedianMs) },
    targets: { warmVsNativeMax: 5, coldStartMsMax: 3000, ctrlCToStopMsMax: 3000 },
  };
}
