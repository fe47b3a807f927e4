/**
 * The web preview: the workspace served as a site on the preview origin (another port of the same
 * server), beside the editor, reloading after a save, with the page's console — and unable to
 * read the app's storage, since it is the workspace's own code.
 */
import { test, expect, createWorkspace, openTerminal, runInTerminal as run, treeItem } from "./fixtures";
import { ask, useMockModel, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

test("the preview shows the workspace's page, its console errors, follows a save in the editor, and cannot read the app's storage", async ({ page }) => {
  await createWorkspace(page, "Preview site");
  await openTerminal(page);
  await run(page, `printf '<!doctype html><html><head><title>Demo</title></head><body><h1 id="t">Hello preview</h1><script src="app.js"></script></body></html>\\n' > index.html`);
  await run(page, `printf 'console.error("boom from app.js");\\nindexedDB.databases().then((d) => { document.body.insertAdjacentHTML("beforeend", "<p id=probe>storage: " + localStorage.length + " keys, " + d.length + " databases, cookies: [" + document.cookie + "]</p>"); });\\n' > app.js`);
  await expect(treeItem(page, "app.js")).toBeVisible();

  // The app itself keeps things there: what the preview sees below is the browser keeping them apart.
  expect(await page.evaluate(() => localStorage.length)).toBeGreaterThan(0);
  expect(await page.evaluate(async () => (await indexedDB.databases()).length)).toBeGreaterThan(0);

  await page.getByRole("button", { name: "Preview", exact: true }).click();
  const pane = page.getByRole("region", { name: "Web preview" });
  const site = page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
  await expect(site.getByRole("heading", { name: "Hello preview" })).toBeVisible({ timeout: 30_000 });
  // Another origin than the app's.
  const appOrigin = await page.evaluate(() => location.origin);
  const previewSrc = await page.locator('iframe[title="Preview"]').getAttribute("src");
  expect(new URL(previewSrc!).origin).not.toBe(appOrigin);

  // What the page printed comes to the Preview console.
  await expect(pane.getByRole("log", { name: "Preview console" })).toContainText("boom from app.js");
  await expect(pane.getByRole("button", { name: /Console \(\d+\) · 1 error$/ })).toBeVisible();
  // The page found none of the app's storage.
  await expect(site.locator("#probe")).toHaveText("storage: 0 keys, 0 databases, cookies: []");

  // Edit in the editor and save: the preview shows it a moment later.
  await treeItem(page, "index.html").click();
  const editor = page.getByTestId("code-editor").locator('.monaco-editor[data-uri="file:///index.html"]');
  // Near the start of the first line: with the preview open beside it, the editor's middle may be narrow.
  await editor.locator(".view-lines").click({ position: { x: 8, y: 6 } });
  await page.keyboard.press("Control+End");
  await page.keyboard.type("<p>Edited in the editor");
  await page.keyboard.press("Control+s");
  await expect(site.getByText("Edited in the editor")).toBeVisible({ timeout: 15_000 });
  // The console started again with the reloaded page: one run of app.js, one error.
  await expect(pane.getByRole("button", { name: /Console \(\d+\) · 1 error$/ })).toBeVisible();

  // Open in a tab of its own: the same page, served while the pane is open.
  const [tab] = await Promise.all([page.context().waitForEvent("page"), pane.getByRole("link", { name: "Open in new tab" }).click()]);
  await expect(tab.getByText("Edited in the editor")).toBeVisible({ timeout: 15_000 });
  expect(new URL(tab.url()).origin).not.toBe(await page.evaluate(() => location.origin));
  await tab.close();

  // TypeScript is compiled on the way, as an ES module.
  await page.getByTestId("terminal").click();
  await run(page, `printf 'const n: number = 6 * 7;\\ndocument.body.insertAdjacentHTML("beforeend", "<p id=ts>typed " + n + "</p>");\\n' > greet.ts`);
  await run(page, `printf '<!doctype html><title>TS</title><script type="module" src="greet.ts"></script>\\n' > ts.html`);
  await expect(treeItem(page, "ts.html")).toBeVisible();
  await pane.getByLabel("Preview address").fill("/ts.html");
  await pane.getByLabel("Preview address").press("Enter");
  await expect(site.locator("#ts")).toHaveText("typed 42");

  // A path that is not in the workspace says so, in the preview itself.
  await pane.getByLabel("Preview address").fill("/missing.html");
  await pane.getByLabel("Preview address").press("Enter");
  await expect(site.getByRole("heading", { name: "Not found in the workspace" })).toBeVisible();

  // The app's own pages are not served on the preview's port, nor the preview on the app's.
  const previewOrigin = new URL(previewSrc!).origin;
  expect((await page.request.get(`${previewOrigin}/`)).status()).toBe(404);
  expect((await page.request.get(`${previewOrigin}/api/preview`)).status()).toBe(404);
  expect((await page.request.get(`${appOrigin}/preview/host?session=abcdefgh`)).status()).toBe(404);
});

test("the agent checks its page with the preview tool: sees the error, fixes it, and sees the page run clean", async ({ page }) => {
  await createWorkspace(page, "Agent preview");
  // A secret the agent may not read (env-blocker, on by default): the preview must not serve it either.
  await openTerminal(page);
  await run(page, "printf 'API_KEY=sk-live-preview-secret\\n' > .env");
  await expect(treeItem(page, ".env")).toBeVisible();
  await useMockModel(page, server.url);
  const broken = '<!doctype html><html><head><title>Counter</title></head><body><h1>Count: 0</h1><script>startCounter()</script></body></html>';
  server.setScript([
    { toolCalls: [{ name: "preview", args: { path: "/.env" } }] },
    { toolCalls: [{ name: "editor", args: { command: "create", path: "index.html", file_text: broken } }] },
    { toolCalls: [{ name: "preview", args: { path: "/" } }] },
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "index.html", old_str: "startCounter()", new_str: "console.log('counter ready')" } }] },
    { toolCalls: [{ name: "preview", args: {} }] },
    { toolCalls: [{ name: "attempt_completion", args: { summary: "The counter page renders without errors." } }] },
  ]);
  await ask(page, "Make a counter page and check it in the preview");
  const approval = page.getByRole("group", { name: "Approval needed" });
  await expect(approval).toContainText("Apply edit?");
  await approval.getByRole("button", { name: "Approve" }).click();

  // The tool opened the preview pane by itself, and the page shows there.
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  const previews = transcript.locator('[data-tool="preview"]');
  await expect(page.getByRole("region", { name: "Web preview" })).toBeVisible({ timeout: 30_000 });
  await expect(previews.nth(1)).toHaveAttribute("data-status", "ok", { timeout: 30_000 });
  await expect(previews.nth(1)).toContainText("/: 1 error");

  await expect(approval).toContainText("Apply edit?");
  await approval.getByRole("button", { name: "Approve" }).click();
  await expect(previews.nth(2)).toHaveAttribute("data-status", "ok", { timeout: 30_000 });
  await expect(previews.nth(2)).toContainText("/: no errors");
  await expect(page.getByTestId("completion")).toBeVisible();

  // What the model read: the page's text and its uncaught error, then the clean run's console.
  expect(JSON.stringify(server.requests[1].body)).toContain("does not exist in the workspace");
  expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain("sk-live-preview-secret");
  const afterFirst = JSON.stringify(server.requests[3].body);
  expect(afterFirst).toContain("Page: / ");
  expect(afterFirst).toContain("Counter");
  expect(afterFirst).toContain("Count: 0");
  expect(afterFirst).toContain("startCounter is not defined");
  const afterSecond = JSON.stringify(server.requests[5].body);
  expect(afterSecond).toContain("[log] counter ready");
  const site = page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
  await expect(site.getByRole("heading", { name: "Count: 0" })).toBeVisible();
});
