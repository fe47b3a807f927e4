#!/usr/bin/env node
/**
 * CPU profile of engine ops in Chromium on the real-shaped repository (for tuning):
 *   node bench/checkpoints/profile-real-browser.mjs [ops=cold]
 *   e.g. cold,noChange:0,noChange:1   (the last op is profiled)
 * Builds the repository with 2,000 commits (the history's length does not change these ops'
 * work much and the build is quicker), prints each op's figures and phases, then the top
 * self-time functions of the last one.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { buildBrowserBundle } from "./build.mjs";
import { buildRealRepo, realShape } from "./real-shape.mjs";
import { packRepository, serve } from "./real-shape-chromium.mjs";
const here = path.dirname(fileURLToPath(import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prof-rs-"));
const shape = realShape({ files: 10000, dirs: 3500 });
const built = buildRealRepo(path.join(tmp, "n"), shape, { commits: 2000 });
const repo = packRepository(path.join(tmp, "n"));
const manifest = JSON.stringify({ files: repo.files, paths: built.paths });
const js = await buildBrowserBundle(path.join(here, "real-browser-entry.mjs"));
const server = await serve({
  "/": { type: "text/html", body: `<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="/bundle.js"></script>` },
  "/bundle.js": { type: "text/javascript", body: js },
  "/real/manifest.json": { type: "application/json", body: manifest },
  "/real/data.bin": { type: "application/octet-stream", body: repo.data },
});
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu"] });
const page = await browser.newPage();
await page.goto(server.url);
await page.waitForFunction(() => globalThis.realBench !== undefined);
await page.evaluate(() => globalThis.realBench.setup());
const ops = (process.argv[2] ?? "cold").split(",");
for (const [i, o] of ops.entries()) {
  const [name, rep = "0"] = o.split(":");
  const last = i === ops.length - 1;
  let cdp;
  if (last) { cdp = await page.context().newCDPSession(page); await cdp.send("Profiler.enable"); await cdp.send("Profiler.setSamplingInterval", { interval: 200 }); await cdp.send("Profiler.start"); }
  const r = await page.evaluate(([a, b]) => globalThis.realBench.op(a, b), [name, Number(rep)]);
  console.log(o, JSON.stringify(r));
  if (last) {
    const { profile } = await cdp.send("Profiler.stop");
    const byId = new Map(profile.nodes.map((x) => [x.id, x]));
    const self = new Map();
    profile.samples.forEach((s, k) => { const n = byId.get(s); const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`; self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[k] ?? 0)); });
    [...self].sort((a, b) => b[1] - a[1]).slice(0, 30).forEach(([k, t]) => console.log((t / 1000).toFixed(1).padStart(8), k));
  }
}
await browser.close(); await server.close(); fs.rmSync(tmp, { recursive: true, force: true });
