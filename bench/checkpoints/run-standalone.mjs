#!/usr/bin/env node
/**
 * Just the checkpoint benchmark, without the app server:
 *   node bench/checkpoints/run-standalone.mjs            # 1k + 10k: node:fs, lfs (1k), Chromium
 *   TABULA_BENCH_SIZES=1000 node bench/checkpoints/run-standalone.mjs
 *   TABULA_BENCH_VERBOSE=1 …                              # every rep on stderr
 *   … --no-browser                                        # Node targets only
 * Writes bench/results/checkpoints.json and prints it.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { run } from "../02-checkpoints.bench.mjs";
import { benchFailures } from "../failures.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const browser = process.argv.includes("--no-browser")
  ? undefined
  : await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    });
try {
  const results = await run({ browser });
  fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
  fs.writeFileSync(path.join(root, "bench/results/checkpoints.json"), JSON.stringify(results, null, 2) + "\n");
  console.log(JSON.stringify(results, null, 2));
  const failures = benchFailures(results);
  if (failures.length) {
    process.stderr.write(`\nbench FAILED (${failures.length}):\n${failures.map((f) => `  ${f}`).join("\n")}\n`);
    process.exitCode = 1;
  }
} finally {
  await browser?.close();
}
process.exit(process.exitCode ?? 0);
