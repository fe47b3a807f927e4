/**
 * npm in the terminal, in real Chromium: package.json scripts, and `npm install` from a local
 * registry serving real packages (debug and ms, packed from this repository's node_modules) —
 * refused until the user allows package downloads under Models → Packages, then installed,
 * checked against their published integrity, and used by a script.
 */
import path from "node:path";
import { test, expect, createWorkspace, openTerminal, treeItem, terminalScreen as screen, terminalRow as row, runInTerminal as run } from "./fixtures";
import type { Page } from "@playwright/test";
import { startLocalRegistry, type LocalRegistry } from "../test/helpers/npm-registry";

let registry: LocalRegistry;
test.beforeAll(async () => {
  registry = await startLocalRegistry();
  registry.addDirectory(path.resolve("node_modules/ms"));
  registry.addDirectory(path.resolve("node_modules/debug"));
});
test.afterAll(() => registry.close());

async function workspaceWithTerminal(page: Page, name: string) {
  await createWorkspace(page, name);
  await openTerminal(page);
}

test("npm install is off until allowed, then installs from the registry; npm test runs a script that uses the package", async ({ page }) => {
  await workspaceWithTerminal(page, "Npm");
  await run(page, `printf '{"name":"app","version":"1.0.0","scripts":{"test":"node check.js"}}\\n' > package.json`);
  await run(page, `printf 'const ms = require("ms");\\nconsole.log("two hours is", ms("2h"), "ms");\\n' > check.js`);
  await expect(treeItem(page, "check.js")).toBeVisible();

  await run(page, "npm install debug");
  await expect(screen(page)).toContainText("package downloads are off", { timeout: 30_000 });

  // The user allows downloads from their registry, as a person does in the settings.
  await page.getByRole("button", { name: "Models" }).click();
  const dialog = page.getByRole("dialog", { name: "Models and keys" });
  const packages = dialog.getByRole("group", { name: "Packages" });
  await packages.getByLabel("Allow package downloads").check();
  await packages.getByLabel("npm registry").fill(registry.url);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);

  await page.getByTestId("terminal").click();
  await run(page, "npm install debug");
  await expect(row(page, /added 2 packages/)).toHaveCount(1, { timeout: 30_000 });
  await expect(treeItem(page, "package-lock.json")).toBeVisible();
  await expect(treeItem(page, "node_modules")).toBeVisible();
  await run(page, "npm test");
  await expect(row(page, /^> app@1\.0\.0 test\s*$/)).toHaveCount(1, { timeout: 30_000 });
  await expect(row(page, /^two hours is 7200000 ms\s*$/)).toHaveCount(1, { timeout: 30_000 });
  await run(page, "cat .gitignore");
  await expect(row(page, /^node_modules\/\s*$/)).toHaveCount(1);
  // Only the local registry was asked: documents and tarballs of debug and ms.
  expect(registry.requests.filter((r) => r.method === "GET").map((r) => r.path).sort()).toEqual(["/-/debug-4.4.3.tgz", "/-/ms-2.1.3.tgz", "/debug", "/ms"]);
});

test("a React app: npm install react react-dom, a TSX entry with a bare import and JSX, rendered and clickable in the preview", async ({ page }) => {
  registry.addDirectory(path.resolve("node_modules/react"));
  registry.addDirectory(path.resolve("node_modules/react-dom"));
  registry.addDirectory(path.resolve("node_modules/scheduler"));
  await workspaceWithTerminal(page, "React preview");
  await page.evaluate((url) => localStorage.setItem("tabula.packages.v1", JSON.stringify({ allowDownloads: true, registry: url })), registry.url);
  await run(page, `printf '{"name":"react-app","version":"1.0.0"}\\n' > package.json`);
  await run(page, "npm install react react-dom");
  await expect(row(page, /added 3 packages/)).toHaveCount(1, { timeout: 60_000 });
  await run(page, `printf '<!doctype html><html><head><title>Counter</title></head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\\n' > index.html`);
  await run(page, "mkdir -p src");
  await run(page, `printf 'import { useState } from "react";\\nimport { createRoot } from "react-dom/client";\\nimport "./app.css";\\nfunction Counter({ start }: { start: number }) {\\n  const [n, setN] = useState(start);\\n  return <button onClick={() => setN(n + 1)}>clicked {n} times</button>;\\n}\\ncreateRoot(document.getElementById("root")!).render(<Counter start={0} />);\\n' > src/main.tsx`);
  await run(page, `printf 'button { color: rgb(200, 0, 0); }\\n' > src/app.css`);
  await expect(treeItem(page, "src")).toBeVisible();

  await page.getByRole("button", { name: "Preview", exact: true }).click();
  const site = page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
  const button = site.getByRole("button", { name: "clicked 0 times" });
  await expect(button).toBeVisible({ timeout: 60_000 });
  await button.click();
  await expect(site.getByRole("button", { name: "clicked 1 times" })).toBeVisible();
  await expect(site.getByRole("button")).toHaveCSS("color", "rgb(200, 0, 0)");
  // Nothing but the local registry and this machine was asked for anything (the offline guard checks the rest).
  expect(registry.requests.some((r) => r.path === "/react-dom")).toBe(true);
});
