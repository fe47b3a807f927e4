/** Small daily comforts of the workbench: error banners that go away, regex errors said once. */
import { test, expect, createWorkspace, treeItem } from "./fixtures";

test("an error banner leaves after the next action that works", async ({ page }) => {
  await createWorkspace(page, "Banners");
  await page.getByRole("button", { name: "New file" }).click();
  await page.getByLabel("New file name").fill("README.md");
  await page.getByLabel("New file name").press("Enter");
  const alert = page.getByRole("alert").filter({ hasText: "README.md already exists." });
  await expect(alert).toBeVisible();
  // Opening a file works: the banner about the failed create goes.
  await treeItem(page, "package.json").click();
  await expect(page.getByRole("tab", { name: /package\.json/ })).toHaveAttribute("aria-selected", "true");
  await expect(alert).toHaveCount(0);
});

test("find in files says a bad regular expression once, in the user's terms, and forgets it when fixed", async ({ page }) => {
  await createWorkspace(page, "Regex errors");
  await page.keyboard.press("Control+Shift+F");
  const search = page.getByRole("searchbox", { name: "Search in files" });
  await search.fill("gree(");
  await page.getByTitle("Regular expression").click();
  const alert = page.getByRole("search").getByRole("alert");
  await expect(alert).toHaveText("Invalid regular expression: missing closing ): `gree(`");
  await search.fill("gree(t)");
  await expect(alert).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Search results" })).toContainText("src/greet.ts");
});

test("after a reload the status bar ends on the branch and the file count, never stuck on loading", async ({ page }) => {
  await createWorkspace(page, "Loading states");
  const status = page.locator("footer.statusbar");
  await expect(status).toContainText("⎇ main");
  const count = await status.getByText(/^\d+ files$/).textContent();
  await page.reload();
  await expect(treeItem(page, "package.json")).toBeVisible();
  await expect(status).toContainText("⎇ main");
  await expect(status.getByText(/^\d+ files$/)).toHaveText(count!);
  await expect(page.getByText("Loading files…")).toHaveCount(0);
  await expect(status).not.toContainText("reading git…");
});

test("a very long file name is cut from its start and leaves the editor's toolbar buttons on screen", async ({ page }) => {
  await createWorkspace(page, "Long names");
  const name = "a-file-name-that-goes-on-and-on-" + "and-on-".repeat(30) + "end.ts";
  await page.getByRole("button", { name: "New file" }).click();
  await page.getByLabel("New file name").fill(name);
  await page.getByLabel("New file name").press("Enter");
  await expect(page.getByRole("tab", { name: new RegExp(name.slice(0, 20)) })).toHaveAttribute("aria-selected", "true");
  const toolbar = page.locator(".editor-toolbar");
  const save = toolbar.getByRole("button", { name: "Save" });
  await expect(save).toBeVisible();
  const viewport = page.viewportSize()!;
  const box = (await save.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(await toolbar.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  // The whole path is still there for the pointer.
  await expect(toolbar.locator(".editor-path")).toHaveAttribute("title", name);
});

test("two workspaces with the same name are told apart on the start page", async ({ page }) => {
  await createWorkspace(page, "Twin");
  await createWorkspace(page, "Twin");
  await createWorkspace(page, "Single");
  await page.goto("/");
  const rows = page.locator("tr[data-workspace-id]").filter({ has: page.getByRole("link", { name: "Twin", exact: true }) });
  await expect(rows).toHaveCount(2);
  const notes = rows.getByTestId("workspace-disambiguation");
  await expect(notes).toHaveCount(2);
  const [a, b] = await notes.allTextContents();
  expect(a).toMatch(/^created .+ · id \w{6}$/);
  expect(a).not.toBe(b);
  // A name used once needs no note.
  await expect(page.locator("tr[data-workspace-id]").filter({ has: page.getByRole("link", { name: "Single", exact: true }) }).getByTestId("workspace-disambiguation")).toHaveCount(0);
});

test("the side bar's tabs fit its width, each on one line, and Source Control is the Git tab", async ({ page }) => {
  await createWorkspace(page, "Side bar tabs");
  const strip = page.getByRole("tablist", { name: "Side bar" });
  const box = (await strip.boundingBox())!;
  for (const name of ["Explorer", "Search", "Source Control", "Problems"]) {
    const tab = strip.getByRole("tab", { name });
    const b = (await tab.boundingBox())!;
    expect(b.x + b.width, `${name} ends inside the side bar`).toBeLessThanOrEqual(box.x + box.width + 0.5);
    expect(b.height, `${name} on one line`).toBeLessThan(40);
  }
  await strip.getByRole("tab", { name: "Source Control" }).click();
  await expect(strip.getByRole("tab", { name: "Source Control" })).toHaveText("Git");
  await expect(strip.getByRole("tab", { name: "Source Control" })).toHaveAttribute("aria-selected", "true");
});
