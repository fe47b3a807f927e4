import { test, expect, createWorkspace, treeItem, typeInEditor } from "./fixtures";

test("two tabs on one workspace: one writer, the other follows and can take over", async ({ page, context }) => {
  const url = await createWorkspace(page, "Two tabs");
  const second = await context.newPage();
  await second.goto(url);
  await expect(second.getByTestId("reader-banner")).toBeVisible();
  await expect(page.getByTestId("reader-banner")).toHaveCount(0);

  // The writer edits; the reader's tree and open editor follow.
  await treeItem(second, "README.md").click();
  await treeItem(page, "README.md").click();
  await typeInEditor(page, "Edited in tab one. ");
  await page.keyboard.press("Control+s");
  await expect(second.getByTestId("code-editor")).toContainText("Edited in tab one.", { timeout: 20_000 });
  await page.getByRole("button", { name: "New file" }).click();
  await page.getByLabel("New file name").fill("from-tab-one.txt");
  await page.getByLabel("New file name").press("Enter");
  await expect(treeItem(second, "from-tab-one.txt")).toBeVisible({ timeout: 20_000 });

  // The reader cannot write...
  await expect(second.getByRole("button", { name: "New file" })).toBeDisabled();
  // ...until it takes over; then the first tab becomes the reader.
  await second.getByRole("button", { name: "Edit here instead" }).click();
  await expect(second.getByTestId("reader-banner")).toHaveCount(0);
  await expect(page.getByTestId("reader-banner")).toBeVisible();
  await second.getByRole("button", { name: "New file" }).click();
  await second.getByLabel("New file name").fill("from-tab-two.txt");
  await second.getByLabel("New file name").press("Enter");
  await expect(treeItem(page, "from-tab-two.txt")).toBeVisible({ timeout: 20_000 });
  await expect(treeItem(page, "from-tab-one.txt")).toBeVisible();
});
