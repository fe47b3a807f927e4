#!/usr/bin/env node
/**
 * Run only the shell benchmark (bench/03-shell.bench.mjs) without building or starting the
 * app: `node bench/shell/run-standalone.mjs`. Prints the figures as JSON.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

const here = path.dirname(fileURLToPath(import.meta.url));
const { run } = await import(path.join(here, "..", "03-shell.bench.mjs"));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
});
try {
  const figures = await run({ browser, baseURL: undefined });
  console.log(JSON.stringify({ shell: figures }, null, 2));
} finally {
  await browser.close();
}
