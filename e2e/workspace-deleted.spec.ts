import { test, expect, createWorkspace, treeItem, typeInEditor, editorText } from "./fixtures";

test("deleting a workspace open in another tab: the delete says so, the open tab stops saving and recreates it from what it kept", async ({ page, context }) => {
  const url = await createWorkspace(page, "Doomed");
  // An unsaved edit in the open tab: it must survive the deletion.
  await treeItem(page, "README.md").click();
  await typeInEditor(page, "Unsaved line. ");
  await expect(page.getByRole("tab", { name: /README\.md/ }).getByLabel("unsaved changes")).toBeVisible();

  const start = await context.newPage();
  await start.goto("/");
  const row = start.getByRole("row").filter({ hasText: "Doomed" });
  await row.getByRole("button", { name: "Delete" }).click();
  const confirm = start.getByRole("dialog", { name: "Delete workspace?" });
  await expect(confirm.getByTestId("open-elsewhere")).toContainText("It is open in another tab");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(start.getByRole("row").filter({ hasText: "Doomed" })).toHaveCount(0);

  // The open tab learned at once, and will not save any more.
  const gone = page.getByRole("alertdialog", { name: "Workspace deleted" });
  await expect(gone).toBeVisible();
  await expect(gone).toContainText(/kept \d+ files/);

  const download = page.waitForEvent("download");
  await gone.getByRole("button", { name: "Download .zip" }).click();
  expect((await download).suggestedFilename()).toBe("Doomed.zip");

  await gone.getByLabel("Name of the new workspace").fill("Rescued");
  await gone.getByRole("button", { name: "Save as a new workspace" }).click();
  await page.waitForURL((u) => /\/w\/[a-z2-7]{20}$/.test(u.pathname) && u.href !== url);
  await expect(page.getByTestId("workspace-name")).toHaveText("Rescued");
  await treeItem(page, "README.md").click();
  await expect.poll(() => editorText(page)).toContain("Unsaved line.");

  // The deleted workspace stays deleted (nothing was written back into it).
  await start.reload();
  await expect(start.getByRole("row").filter({ hasText: "Doomed" })).toHaveCount(0);
  await expect(start.getByRole("row").filter({ hasText: "Rescued" })).toHaveCount(1);
  await start.goto(url);
  await expect(start.getByRole("alert").filter({ hasText: "does not exist" })).toBeVisible();
  // Its storage is gone and stays gone: the cut-off tab did not write it back into being.
  const dbName = `tabula-ws-${new URL(url).pathname.split("/").pop()}`;
  await expect.poll(() => start.evaluate(async (name) => (await indexedDB.databases()).some((d) => d.name === name), dbName)).toBe(false);
});
