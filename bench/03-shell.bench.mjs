/**
 * Shell figures: `grep -rn TODO .` and `find . -name "*.ts"` over 1,000 generated files
 * (~1.2 KB each, 20 directories, 100 containing TODO), run by the workspace shell
 *   - in Chromium over lightning-fs on IndexedDB, cold (empty read caches) and warm,
 *   - in Node over node:fs, cold and warm,
 * next to native GNU grep/find on the same files, with warm/native ratios (target ≤ 3×).
 * `justBashOwnCommandWarmMedianMs` times equivalent forms that bypass the shell's grep/find
 * fast paths (just-bash's own commands over the same adapter and caches).
 *
 * The shell is bundled with esbuild (bench/shell/build.mjs) and served from a throwaway http
 * server on 127.0.0.1; the app's own server (baseURL) is not needed.
 * Standalone: `node bench/shell/run-standalone.mjs`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { buildBundles } from "./shell/build.mjs";

const SPEC = { files: 1000, dirs: 20, todoEvery: 10, bytes: 1200 };
const COMMANDS = { grep: "grep -rn TODO .", find: 'find . -name "*.ts"' };
/** The same searches in forms the fast paths leave to just-bash's own grep/find. */
const FALLBACK = { grep: 'grep -rn "TOD[O]" .', find: 'find . -name "*.ts" -a -type f' };
const COLD_RUNS = 3;
const WARM_RUNS = 5;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r1 = (x) => Math.round(x * 10) / 10;

/** Same generator as bench/shell/entry.ts (kept byte-identical). */
function content(i) {
  const head = i % SPEC.todoEvery === 0 ? `// TODO: revisit item ${i}\n` : `// item ${i}\n`;
  let body = head;
  let n = 0;
  while (body.length < SPEC.bytes) body += `export const value${i}_${n++} = ${i * 31 + n}; // filler text to reach the size\n`;
  return body.slice(0, SPEC.bytes - 1) + "\n";
}

function writeTree(dir) {
  for (let d = 0; d < SPEC.dirs; d++) fs.mkdirSync(path.join(dir, `dir${String(d).padStart(2, "0")}`), { recursive: true });
  for (let i = 0; i < SPEC.files; i++) {
    fs.writeFileSync(path.join(dir, `dir${String(i % SPEC.dirs).padStart(2, "0")}`, `file${String(i).padStart(4, "0")}.ts`), content(i));
  }
}

function nativeTimes(dir, argv) {
  const times = [];
  let lines = 0;
  for (let i = 0; i < WARM_RUNS; i++) {
    const t0 = performance.now();
    const r = spawnSync(argv[0], argv.slice(1), { cwd: dir, encoding: "utf8" });
    times.push(performance.now() - t0);
    lines = r.stdout.split("\n").filter(Boolean).length;
  }
  return { medianMs: r1(median(times)), runsMs: times.map(r1), lines };
}

function serve(bundleFile) {
  const html = `<!doctype html><meta charset="utf-8"><title>shell bench</title><script type="module" src="/bench.js"></script>`;
  const server = http.createServer((req, res) => {
    if (req.url === "/bench.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      fs.createReadStream(bundleFile).pipe(res);
    } else {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(html);
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function browserFigures(browser, bundleFile) {
  const server = await serve(bundleFile);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const context = await browser.newContext();
  const page = await context.newPage();
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  try {
    await page.goto(url);
    await page.waitForFunction(() => globalThis.shellBench !== undefined, null, { timeout: 30_000 });
    const setup = await page.evaluate((spec) => globalThis.shellBench.setup(spec), SPEC);
    const out = { setupMs: Math.round(setup.ms), generatedBytes: setup.bytes };
    for (const [name, cmd] of Object.entries(COMMANDS)) {
      const cold = [];
      let shellMs = 0;
      let last;
      for (let i = 0; i < COLD_RUNS; i++) {
        shellMs = await page.evaluate(() => globalThis.shellBench.freshShell());
        last = await page.evaluate((c) => globalThis.shellBench.run(c), cmd);
        if (last.exitCode !== 0) throw new Error(`${cmd} failed in Chromium: ${last.stderr}`);
        cold.push(last.ms);
      }
      const warm = [];
      for (let i = 0; i < WARM_RUNS; i++) {
        last = await page.evaluate((c) => globalThis.shellBench.run(c), cmd);
        warm.push(last.ms);
      }
      const fallback = [];
      let fb;
      for (let i = 0; i < WARM_RUNS; i++) {
        fb = await page.evaluate((c) => globalThis.shellBench.run(c), FALLBACK[name]);
        fallback.push(fb.ms);
      }
      if (fb.lines !== last.lines) throw new Error(`${FALLBACK[name]} printed ${fb.lines} lines, ${cmd} ${last.lines}`);
      out[name] = {
        coldMedianMs: r1(median(cold)),
        warmMedianMs: r1(median(warm)),
        coldRunsMs: cold.map(r1),
        warmRunsMs: warm.map(r1),
        lines: last.lines,
        createShellMs: r1(shellMs),
        justBashOwnCommandWarmMedianMs: r1(median(fallback)),
      };
    }
    if (pageErrors.length) out.pageErrors = pageErrors;
    return out;
  } finally {
    await context.close();
    server.close();
  }
}

async function nodeFigures(nodeFile, dir) {
  const { nodeShell } = await import(nodeFile);
  const out = {};
  for (const [name, cmd] of Object.entries(COMMANDS)) {
    const cold = [];
    const warm = [];
    let shell;
    let last;
    for (let i = 0; i < COLD_RUNS; i++) {
      shell = await nodeShell(dir);
      const t0 = performance.now();
      last = await shell.exec(cmd);
      cold.push(performance.now() - t0);
    }
    for (let i = 0; i < WARM_RUNS; i++) {
      const t0 = performance.now();
      last = await shell.exec(cmd);
      warm.push(performance.now() - t0);
    }
    out[name] = { coldMedianMs: r1(median(cold)), warmMedianMs: r1(median(warm)), lines: last.stdout.split("\n").filter(Boolean).length };
  }
  return out;
}

export async function run({ browser }) {
  const started = Date.now();
  const built = await buildBundles();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-shell-bench-files-"));
  try {
    writeTree(dir);
    const native = {
      grep: nativeTimes(dir, ["grep", "-rn", "TODO", "."]),
      find: nativeTimes(dir, ["find", ".", "-name", "*.ts"]),
    };
    const chromium = await browserFigures(browser, built.browserFile);
    const node = await nodeFigures(built.nodeFile, dir);
    const ratio = (a, b) => r1(a / b);
    return {
      workload: { ...SPEC, todoFiles: SPEC.files / SPEC.todoEvery, commands: COMMANDS, fallbackCommands: FALLBACK },
      chromiumLightningFs: chromium,
      nodeFs: node,
      nativeGnu: native,
      ratios: {
        chromiumGrepWarmVsNative: ratio(chromium.grep.warmMedianMs, native.grep.medianMs),
        chromiumFindWarmVsNative: ratio(chromium.find.warmMedianMs, native.find.medianMs),
        chromiumGrepColdVsNative: ratio(chromium.grep.coldMedianMs, native.grep.medianMs),
        chromiumFindColdVsNative: ratio(chromium.find.coldMedianMs, native.find.medianMs),
        nodeGrepWarmVsNative: ratio(node.grep.warmMedianMs, native.grep.medianMs),
        nodeFindWarmVsNative: ratio(node.find.warmMedianMs, native.find.medianMs),
        target: "warm <= 3x native",
      },
      browserBundleKb: Math.round(built.browserBundleBytes / 1024),
      totalMs: Date.now() - started,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(built.dir, { recursive: true, force: true });
  }
}
