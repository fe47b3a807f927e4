#!/usr/bin/env node
/**
 * CPU profile of one engine op in Chromium (for tuning):
 *   node bench/checkpoints/profile-browser.mjs [files=10000] [op[:rep]=cold] [before=op:rep,op:rep,…]
 *   e.g. 10000 restore100:1 cold:0,warm100:0,warm100:1,restore100:0
 * Prints the top self-time functions and the op's phase timings.
 */
import http from "node:http";
import { chromium } from "@playwright/test";
import { buildBrowserBundle } from "./build.mjs";

const n = Number(process.argv[2] ?? 10000);
const op = process.argv[3] ?? "cold";
const before = (process.argv[4] ?? "").split(",").filter(Boolean);
const js = await buildBrowserBundle();
const server = http.createServer((req, res) => {
  res.writeHead(200, { "content-type": req.url === "/bundle.js" ? "text/javascript" : "text/html" });
  res.end(req.url === "/bundle.js" ? js : `<!doctype html><script type="module" src="/bundle.js"></script>`);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu"] });
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => globalThis.bench !== undefined);
  console.log("setup", await page.evaluate((c) => globalThis.bench.setup(c, 42), n));
  for (const b of before) {
    const [name, rep = "0"] = b.split(":");
    console.log(b, JSON.stringify(await page.evaluate(([a, r]) => globalThis.bench.op(a, r), [name, Number(rep)])));
  }
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
  await cdp.send("Profiler.start");
  const [opName, opRep = "0"] = op.split(":");
  const r = await page.evaluate(([a, rep]) => globalThis.bench.op(a, rep), [opName, Number(opRep)]);
  const { profile } = await cdp.send("Profiler.stop");
  console.log(op, JSON.stringify(r));
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const k = `${f.functionName || "(anon)"} ${f.url.split("/").pop()}:${f.lineNumber}`;
    self.set(k, (self.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(v / 1000).toFixed(0).padStart(7)} ms  ${k}`);
} finally {
  await browser.close();
  server.close();
}
