/**
 * Clone figures: the real-shaped repository (bench/checkpoints/real-shape.mjs: 10,000 files in
 * 3,500 directories, a long history, packed with deltas as a server keeps it) served by native
 * `git http-backend` on 127.0.0.1;
 *   - native `git clone` from that server (the reference, same run),
 *   - the app's clone in real Chromium: through the app's proxy (lib/server/git-proxy.ts,
 *     on the page's origin as in the app) into lightning-fs on IndexedDB, in a worker as the
 *     start page runs it, and on the page's thread; with the longest main-thread task of each,
 *   - isomorphic-git's own clone, the figure before (TABULA_BENCH_CLONE_ISOGIT=1: ~1 minute).
 * Target (issue: git round trip): within 3× native git. Every clone is checked: the HEAD it
 * checked out and the number of files are native git's.
 * Standalone: `node bench/07-clone.bench.mjs` (TABULA_BENCH_CLONE_COMMITS, _FILES to shrink it).
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { buildBrowserBundle } from "./checkpoints/build.mjs";
import { buildRealRepo, realShape } from "./checkpoints/real-shape.mjs";
import { serveGit } from "./git/http-backend.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const FILES = Number(process.env.TABULA_BENCH_CLONE_FILES ?? 10_000);
const COMMITS = Number(process.env.TABULA_BENCH_CLONE_COMMITS ?? 5_000);
const RUNS = 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r1 = (x) => Math.round(x * 10) / 10;

/** A browser bundle with Buffer as the app has it (Next's polyfill). */
function browserBundle(entry) {
  return buildBrowserBundle(entry, {
    // Next's compiled polyfill names its own directory (unused in a browser).
    define: { __dirname: '"/"' },
    alias: { buffer: "next/dist/compiled/buffer/index.js" },
    inject: [path.join(here, "git/buffer-shim.mjs")],
  });
}

/** The app's proxy handler, bundled for Node from its TypeScript. */
async function loadProxy(dir) {
  const out = path.join(dir, "proxy.mjs");
  await build({
    stdin: { contents: `export { createGitProxy } from "./lib/server/git-proxy.ts";\nexport { parseAllowList } from "./lib/server/git-proxy-address.ts";\n`, resolveDir: root, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outfile: out,
    logLevel: "error",
  });
  const m = await import(pathToFileURL(out).href);
  return m.createGitProxy({ allow: m.parseAllowList("127.0.0.1") });
}

/** node:http → the proxy's fetch-style handler → node:http, the response streamed. */
async function callProxy(proxy, req, res) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const response = await proxy(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const c of response.body) res.write(c);
  res.end();
}

/** Native git, without blocking this process: the git server runs in it. */
async function nativeClone(url, dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  const t = performance.now();
  await promisify(execFile)("git", ["clone", "-q", url, dir], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });
  return performance.now() - t;
}

export async function run({ browser } = {}) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-clone-"));
  let server;
  let context;
  try {
    const t0 = performance.now();
    const work = path.join(tmp, "work");
    buildRealRepo(work, realShape({ files: FILES, dirs: Math.round(FILES * 0.35) }), { commits: COMMITS });
    const bare = path.join(tmp, "srv", "repo.git");
    execFileSync("git", ["clone", "-q", "--bare", work, bare]);
    execFileSync("git", ["repack", "-adq", "--depth=50", "--window=50"], { cwd: bare });
    const packMB = r1(fs.readdirSync(path.join(bare, "objects/pack")).reduce((n, f) => n + fs.statSync(path.join(bare, "objects/pack", f)).size, 0) / 1e6);
    const [pageJs, workerJs, proxy] = await Promise.all([
      browserBundle(path.join(here, "git/clone-entry.mjs")),
      browserBundle(path.join(root, "lib/workspaces/clone.worker.ts")),
      loadProxy(tmp),
    ]);
    server = await serveGit(path.join(tmp, "srv"), async (req, res) => {
      if (req.url === "/" || req.url === "/bundle.js" || req.url === "/clone-worker.js") {
        const js = req.url === "/bundle.js" ? pageJs : workerJs;
        res.writeHead(200, { "content-type": req.url === "/" ? "text/html" : "text/javascript", "cache-control": "no-store" });
        res.end(req.url === "/" ? `<!doctype html><meta charset="utf-8"><title>clone bench</title><script type="module" src="/bundle.js"></script>` : js);
        return true;
      }
      if (req.url.startsWith("/api/git-proxy")) {
        await callProxy(proxy, req, res);
        return true;
      }
      return false;
    });
    const url = `${server.base}/repo.git`;
    const nativeDir = path.join(tmp, "native");
    const nativeRuns = [];
    for (let i = 0; i < RUNS; i++) nativeRuns.push(await nativeClone(url, nativeDir));
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: nativeDir, encoding: "utf8" }).trim();
    const files = Number(execFileSync("git", ["ls-files"], { cwd: nativeDir, encoding: "utf8" }).split("\n").filter(Boolean).length);
    const setupMs = Math.round(performance.now() - t0);

    const figures = { nativeMs: r1(median(nativeRuns)), nativeRunsMs: nativeRuns.map(r1) };
    const failures = [];
    if (browser) {
      context = await browser.newContext();
      const page = await context.newPage();
      page.on("pageerror", (e) => process.stderr.write(`page error: ${e.message}\n`));
      await page.goto(server.base + "/");
      await page.waitForFunction(() => globalThis.cloneBench !== undefined);
      const kinds = ["worker", "page", ...(process.env.TABULA_BENCH_CLONE_ISOGIT ? ["isomorphic-git"] : [])];
      for (const kind of kinds) {
        const runs = [];
        for (let i = 0; i < (kind === "isomorphic-git" ? 1 : RUNS); i++) {
          const r = await page.evaluate(([k, u]) => globalThis.cloneBench(k, u), [kind, url]);
          runs.push(r);
          if (r.files !== files) failures.push(`${kind}: ${r.files} files checked out, native git has ${files}`);
          if (!r.head.includes("refs/heads/main")) failures.push(`${kind}: HEAD is ${r.head}`);
        }
        const mid = [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
        figures[kind] = { chromiumMs: mid.ms, ratio: r1(mid.ms / figures.nativeMs), runsMs: runs.map((r) => r.ms), longestMainThreadTaskMs: mid.longestTaskMs, phasesMs: mid.phases };
      }
    }
    return { repository: { files, commits: COMMITS, packMB, head, setupMs }, figures, ...(failures.length ? { failures } : {}) };
  } finally {
    await context?.close();
    await server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu"] });
  try {
    console.log(JSON.stringify(await run({ browser }), null, 2));
  } finally {
    await browser.close();
  }
  process.exit(0);
}
