import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test, expect, createWorkspace, treeItem, editorText, expandFolder } from "./fixtures";

/** The start page's table row of a workspace. */
const row = (page: import("@playwright/test").Page, name: string) => page.getByRole("table", { name: "Workspaces" }).getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });

test("import a folder with Import folder…: its files, nested folders included, become a workspace; a file over 5 MB opens read-only with a notice", async ({ page }) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-e2e-folder-"));
  const dir = path.join(root, "my-project");
  fs.mkdirSync(path.join(dir, "src", "deep"), { recursive: true });
  fs.writeFileSync(path.join(dir, "README.md"), "# My project\n");
  fs.writeFileSync(path.join(dir, "src", "main.ts"), "export const main = 42;\n");
  fs.writeFileSync(path.join(dir, "src", "deep", "util.ts"), "export const util = 'deep';\n");
  // 6 MB of text: over the editor's 5 MB limit.
  fs.writeFileSync(path.join(dir, "big.log.txt"), "0123456789abcdef\n".repeat((6 * 1024 * 1024) / 17 + 1));
  try {
    await page.goto("/");
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Import folder…" }).click();
    await (await chooser).setFiles(dir);
    await page.waitForURL(/\/w\/[a-z2-7]{20}$/);
    await expect(page.getByTestId("workspace-name")).toHaveText("my-project");
    await expect(treeItem(page, "README.md")).toBeVisible();
    await expandFolder(page, "src");
    await expandFolder(page, "src/deep");
    await treeItem(page, "src/deep/util.ts").click();
    await expect.poll(() => editorText(page)).toBe("export const util = 'deep';\n");
    // Imported files are committed: nothing shows as changed.
    await expect(treeItem(page, "src/deep/util.ts").locator(".git")).toHaveCount(0);

    await treeItem(page, "big.log.txt").click();
    const notice = page.getByRole("status").filter({ hasText: "Large file" });
    await expect(notice).toContainText(/Large file \(6\.0 MB\): the first .* are shown, read-only\./);
    await expect(page.locator(".editor-toolbar .badge")).toHaveText("read-only");
    // Typing changes nothing.
    await page.getByTestId("code-editor").locator(".view-lines").click();
    await page.keyboard.type("XYZ");
    await expect.poll(() => editorText(page)).not.toContain("XYZ");
    await expect(page.getByRole("tab", { name: /big\.log\.txt/ }).getByLabel("unsaved changes")).toHaveCount(0);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("rename and delete a workspace from the start page", async ({ page }) => {
  const url = await createWorkspace(page, "Old name");
  const id = url.split("/w/")[1]!;
  await page.goto("/");
  await row(page, "Old name").getByRole("button", { name: "Rename" }).click();
  await page.getByLabel("New workspace name").fill("New name");
  await page.getByLabel("New workspace name").press("Enter");
  await expect(row(page, "New name")).toBeVisible();
  await expect(row(page, "Old name")).toHaveCount(0);
  // The new name sticks: after a reload, and inside the workspace.
  await page.reload();
  await expect(row(page, "New name")).toBeVisible();
  await page.getByRole("link", { name: "New name", exact: true }).click();
  await expect(page.getByTestId("workspace-name")).toHaveText("New name");

  await page.goto("/");
  await row(page, "New name").getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete workspace?" });
  await expect(dialog).toContainText("New name");
  // Cancel first: nothing happens.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(row(page, "New name")).toBeVisible();
  await row(page, "New name").getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog", { name: "Delete workspace?" }).getByRole("button", { name: "Delete" }).click();
  await expect(row(page, "New name")).toHaveCount(0);
  await page.reload();
  await expect(page.locator(`tr[data-workspace-id="${id}"]`)).toHaveCount(0);
});
