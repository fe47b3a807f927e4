import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.TABULA_E2E_PORT ?? 3100);

// Shares published by the tests go to a fresh folder per run, never to a developer's
// ./.data/shares. This file is loaded again in every worker process: the folder is made once,
// by the runner, and handed down through the environment (the spec files read it too).
// (`--list` starts no server and runs no teardown: it needs no folder.)
const listing = process.argv.includes("--list");
if (!process.env.TABULA_E2E_SHARE_DIR && !listing) process.env.TABULA_E2E_SHARE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-e2e-shares-"));
const SHARE_DIR = process.env.TABULA_E2E_SHARE_DIR;

export default defineConfig({
  testDir: "e2e",
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // A stray test.only must not make a green run of one test.
  forbidOnly: true,
  // Safe to run in parallel: every test makes its own workspace (its own IndexedDB, in its own
  // browser context), every spec file its own mock servers on random ports, and the app server
  // keeps no state a test reads back but shares (random ids; 30 per 10 min per address).
  // Measured on 2 cores: 1 worker 6.7 min, 2 workers 4.2 min for the whole suite. CI (a machine
  // of its own) uses 2; elsewhere 1, since on a machine shared with other work a second worker
  // made a CPU-bound test (the stuck plugin) time out. TABULA_E2E_WORKERS overrides both.
  fullyParallel: false,
  workers: Number(process.env.TABULA_E2E_WORKERS ?? (process.env.CI ? 2 : 1)),
  retries: 0,
  reporter: [["list"], ["json", { outputFile: ".ci-reports/playwright.json" }]],
  globalTeardown: "./e2e/helpers/global-teardown.ts",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    // Playwright owns the server, so a killed run never leaves next-server holding the port.
    // scripts/serve.mjs: the app on PORT, the web preview on PORT + 1.
    command: `node scripts/serve.mjs -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    // The clone e2e tests clone from git servers on this machine: the proxy refuses loopback unless allowed.
    env: { ...(SHARE_DIR ? { TABULA_SHARE_DIR: SHARE_DIR } : {}), TABULA_GIT_PROXY_ALLOW: "127.0.0.1" },
  },
});
