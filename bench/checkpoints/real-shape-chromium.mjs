/**
 * The real-shaped workload in real Chromium: native git builds the repository (as for the
 * Node figures), the page fetches all of it (working tree and .git, packs included) and
 * writes it into IndexedDB for lightning-fs, then the engine runs REAL_SCHEDULE in the page
 * while native git runs the same plans on its own copy, interleaved op by op.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildBrowserBundle } from "./build.mjs";
import { buildRealRepo, realNativeDriver, realShape, REAL_SCHEDULE } from "./real-shape.mjs";
import { runSchedule } from "./runner.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Every file of the repository but native git's index and sample hooks, as one blob. */
export function packRepository(dir) {
  const files = [];
  const chunks = [];
  let offset = 0;
  const walk = (rel) => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (r === ".git/index" || r === ".git/hooks" || r.startsWith(".git/bench-")) continue;
      const st = fs.lstatSync(path.join(dir, r));
      if (st.isDirectory()) walk(r);
      else if (st.isFile()) {
        const data = fs.readFileSync(path.join(dir, r));
        files.push({ path: r, size: data.length, offset, exec: (st.mode & 0o100) !== 0 });
        chunks.push(data);
        offset += data.length;
      }
    }
  };
  walk("");
  return { files, data: Buffer.concat(chunks) };
}

export function serve(routes) {
  const server = http.createServer((req, res) => {
    const route = routes[req.url] ?? routes["/"];
    res.writeHead(200, { "content-type": route.type, "cache-control": "no-store" });
    res.end(route.body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) })),
  );
}

export async function runRealShapeChromium({ browser, files = 10_000, log }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-real-chromium-"));
  let server;
  let page;
  try {
    const t0 = performance.now();
    const shape = realShape({ files, dirs: Math.round(files * 0.35) });
    const nativeDir = path.join(tmp, "native");
    const commits = Number(process.env.TABULA_BENCH_REAL_COMMITS ?? 10_000);
    const built = buildRealRepo(nativeDir, shape, { commits });
    const repo = packRepository(nativeDir);
    const manifest = JSON.stringify({ files: repo.files, paths: built.paths });
    const js = await buildBrowserBundle(path.join(here, "real-browser-entry.mjs"));
    server = await serve({
      "/": { type: "text/html", body: `<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="/bundle.js"></script>` },
      "/bundle.js": { type: "text/javascript", body: js },
      "/real/manifest.json": { type: "application/json", body: manifest },
      "/real/data.bin": { type: "application/octet-stream", body: repo.data },
    });
    const context = await browser.newContext();
    page = await context.newPage();
    await page.goto(server.url + (process.env.TABULA_BENCH_NO_STAMP ? "?nostamp" : ""));
    await page.waitForFunction(() => globalThis.realBench !== undefined);
    const loaded = await page.evaluate(() => globalThis.realBench.setup());
    const setup = {
      files: shape.files.length,
      directories: shape.dirCount,
      maxDepth: shape.maxDepth,
      commits,
      packMB: Math.round(built.packBytes / 1e5) / 10,
      shippedMB: Math.round(repo.data.length / 1e5) / 10,
      buildMs: Math.round(performance.now() - t0),
      fetchMs: Math.round(loaded.fetchMs),
      populateMs: Math.round(loaded.populateMs),
    };
    const engine = { op: (name, rep) => page.evaluate(([a, b]) => globalThis.realBench.op(a, b), [name, rep]) };
    const native = realNativeDriver(nativeDir, built.paths);
    try {
      const result = await runSchedule(engine, native, REAL_SCHEDULE, log);
      return { ...result, setup };
    } finally {
      native.close();
      await page.evaluate(() => globalThis.realBench.teardown()).catch(() => undefined);
      await context.close();
    }
  } finally {
    await server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
