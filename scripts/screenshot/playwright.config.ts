/**
 * `npm run screenshot`: the README's picture of the IDE, taken by driving the built app as a
 * person would (the e2e suite's server and browser settings; this folder's one spec). Needs a
 * build (`npx next build`) first, as the e2e tests do.
 */
import path from "node:path";
import { defineConfig } from "@playwright/test";
import base from "../../playwright.config";

const root = path.resolve(import.meta.dirname, "../..");

export default defineConfig({
  ...base,
  testDir: ".",
  reporter: [["list"]],
  globalTeardown: undefined,
  // The server starts from the project's root (the config's folder is the default).
  webServer: { ...(base.webServer as object), cwd: root } as typeof base.webServer,
  use: { ...base.use, viewport: { width: 1440, height: 900 }, colorScheme: "dark", deviceScaleFactor: 1 },
});
