/** Installable and offline: the manifest, and a revisited workspace that opens with the network off. */
import { test, expect, createWorkspace, treeItem, typeInEditor, editorText, terminalRow, runInTerminal } from "./fixtures";

test("the app is installable: a manifest with icons the browser can fetch", async ({ page, request }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBeTruthy();
  const manifest = await (await request.get(href!)).json();
  expect(manifest).toMatchObject({ name: "Tabula", start_url: "/", display: "standalone" });
  const sizes = manifest.icons.map((i: { sizes: string }) => i.sizes);
  expect(sizes).toEqual(expect.arrayContaining(["192x192", "512x512"]));
  for (const icon of manifest.icons) {
    const res = await request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/png");
  }
});

test("a workspace visited once opens, edits, saves and runs the terminal with the network off", async ({ page, context }) => {
  test.setTimeout(150_000);
  await createWorkspace(page, "Offline work");
  // Online: open a file and the terminal once, so their chunks are fetched, then wait for the
  // service worker to have them.
  await treeItem(page, "README.md").click();
  await expect.poll(() => editorText(page)).toContain("# Sample project");
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(page.getByTestId("terminal").locator(".xterm-rows")).toContainText("$", { timeout: 30_000 });
  await expect(page.locator("html")).toHaveAttribute("data-offline-ready", "true", { timeout: 30_000 });
  // A revisit, still online: now every file the page loads goes through the worker.
  await page.reload();
  await expect(treeItem(page, "README.md")).toBeVisible();
  // The terminal was left open: it comes back open.
  await expect(page.getByTestId("terminal").locator(".xterm-rows")).toContainText("$", { timeout: 30_000 });
  // node once online: the page fetches its sandbox's worker script, and the service worker keeps it.
  await page.getByTestId("terminal").click();
  await runInTerminal(page, `node -e "console.log('node ' + 'online')"`);
  await expect(terminalRow(page, /^node online\s*$/)).toHaveCount(1, { timeout: 30_000 });

  await context.setOffline(true);
  const url = page.url();
  await page.goto(url);
  await expect(treeItem(page, "README.md")).toBeVisible();
  await expect(page.getByTestId("workspace-name")).toHaveText("Offline work");
  await treeItem(page, "README.md").click();
  await expect.poll(() => editorText(page)).toContain("# Sample project");
  await typeInEditor(page, "Written offline. ", "README.md");
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("terminal").locator(".xterm-rows")).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
  await runInTerminal(page, "grep -c 'Written offline' README.md");
  await expect(terminalRow(page, /^1\s*$/)).toHaveCount(1);
  // Programs run offline too: the sandbox's script comes from the service worker's cache.
  await runInTerminal(page, `node -e "console.log('node ' + 'offline')"`);
  await expect(terminalRow(page, /^node offline\s*$/)).toHaveCount(1, { timeout: 30_000 });

  // The start page opens offline too, and lists the workspace.
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Offline work" })).toBeVisible();
  await context.setOffline(false);
});

test("the web preview opens with the network off, once it was opened online", async ({ page, context }) => {
  test.setTimeout(150_000);
  await createWorkspace(page, "Offline preview");
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(page.getByTestId("terminal").locator(".xterm-rows")).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
  await runInTerminal(page, `printf '<!doctype html><title>Offline page</title><h1>Seen offline</h1>\\n' > index.html`);
  await expect(treeItem(page, "index.html")).toBeVisible();
  const site = page.frameLocator('iframe[title="Preview"]').frameLocator('iframe[title="Previewed page"]');
  // Online: the preview opens (its service worker installs), and once more (the worker keeps the host page).
  for (let i = 0; i < 2; i++) {
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    await expect(site.getByRole("heading", { name: "Seen offline" })).toBeVisible({ timeout: 30_000 });
    await page.getByRole("button", { name: "Close preview" }).click();
    await expect(page.getByRole("region", { name: "Web preview" })).toHaveCount(0);
  }
  await expect(page.locator("html")).toHaveAttribute("data-offline-ready", "true", { timeout: 30_000 });
  await page.reload();
  await expect(treeItem(page, "index.html")).toBeVisible();

  await context.setOffline(true);
  await page.goto(page.url());
  await expect(treeItem(page, "index.html")).toBeVisible();
  await page.getByRole("button", { name: "Preview", exact: true }).click();
  await expect(site.getByRole("heading", { name: "Seen offline" })).toBeVisible({ timeout: 30_000 });
  await context.setOffline(false);
});
