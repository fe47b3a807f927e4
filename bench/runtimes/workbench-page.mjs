/**
 * For the runtime benches that drive the app in Chromium: a fresh browser context, a new workspace
 * from the sample project, and its terminal open with the focus in it — as a person gets there.
 * The caller closes the context.
 */
export async function workspaceWithTerminal(browser, baseURL, name) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  try {
    await page.goto("/");
    const form = page.getByRole("form", { name: "Create workspace" });
    await form.getByLabel("Workspace name").fill(name);
    await form.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/w\/[a-z2-7]{20}$/);
    // The workbench is live (its tree read from IndexedDB) before the shortcut is pressed.
    await page.locator('[role="treeitem"][data-path="package.json"]').waitFor({ timeout: 60_000 });
    await page.locator("body").click();
    await page.keyboard.press("Control+`");
    await page.getByTestId("terminal").locator(".xterm-rows").getByText("$").first().waitFor({ timeout: 30_000 });
    await page.getByTestId("terminal").click();
    return { context, page };
  } catch (e) {
    await context.close();
    throw e;
  }
}
