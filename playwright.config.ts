import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.TABULA_E2E_PORT ?? 3100);

export default defineConfig({
  testDir: "e2e",
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [["list"], ["json", { outputFile: ".ci-reports/playwright.json" }]] : [["list"], ["json", { outputFile: ".ci-reports/playwright.json" }]],
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
    command: `node node_modules/next/dist/bin/next start -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    // The clone e2e tests clone from git servers on this machine: the proxy refuses loopback unless allowed.
    env: { TABULA_DATA_DIR: ".tabula-data/e2e", TABULA_GIT_PROXY_ALLOW: "127.0.0.1" },
  },
});
