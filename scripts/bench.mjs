#!/usr/bin/env node
/**
 * `npm run bench`: figures measured in Node and in real Chromium (Debian's, driven by Playwright),
 * printed as one JSON object and written to bench/results/latest.json. Benchmarks, not tests:
 * they report numbers and ratios, and fail (exit 1) only when a figure cannot be trusted: a target
 * crashed, or the engine's trees differ from native git's (see bench/failures.mjs).
 *
 * Each module in bench/ exports `run(ctx)` returning an object of figures; this runner builds the
 * app if needed, starts it, and hands every module a browser and the base URL.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { benchFailures } from "../bench/failures.mjs";

const PORT = Number(process.env.TABULA_BENCH_PORT ?? 3200);
const baseURL = `http://127.0.0.1:${PORT}`;
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

if (!fs.existsSync(".next/BUILD_ID") || process.argv.includes("--build")) {
  const r = spawnSync("npx", ["next", "build"], { stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const server = spawn("node", ["scripts/serve.mjs", "-p", String(PORT), "-H", "127.0.0.1"], { env, stdio: "ignore" });
const stop = () => server.kill("SIGTERM");
process.on("exit", stop);

async function waitForServer() {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(baseURL)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the app server did not come up");
}

const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const modules = fs
  .readdirSync("bench")
  .filter((f) => /^\d\d-.*\.bench\.mjs$/.test(f))
  .filter((f) => !only || f.includes(only))
  .sort();
// Runtimes (python3, …) keep their benches in bench/runtimes/, one file each.
const runtimeModules = fs.existsSync("bench/runtimes")
  ? fs.readdirSync("bench/runtimes").filter((f) => f.endsWith(".bench.mjs") && (!only || f.includes(only))).sort().map((f) => `runtimes/${f}`)
  : [];
modules.push(...runtimeModules);

await waitForServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
});
const results = { machine: { node: process.version, cpus: (await import("node:os")).cpus().length, at: new Date().toISOString() } };
try {
  for (const file of modules) {
    const mod = await import(path.resolve("bench", file));
    const name = file.replace(/^runtimes\//, "").replace(/^\d\d-|\.bench\.mjs$/g, "");
    process.stderr.write(`bench: ${name}…\n`);
    try {
      results[name] = await mod.run({ browser, baseURL });
    } catch (error) {
      results[name] = { error: String(error?.stack ?? error) };
    }
  }
} finally {
  await browser.close();
  stop();
}
fs.mkdirSync("bench/results", { recursive: true });
fs.writeFileSync("bench/results/latest.json", JSON.stringify(results, null, 2) + "\n");
console.log(JSON.stringify(results, null, 2));
const failures = benchFailures(results);
if (failures.length) {
  process.stderr.write(`\nbench FAILED (${failures.length}):\n${failures.map((f) => `  ${f}`).join("\n")}\n`);
  process.exit(1);
}
process.exit(0);
