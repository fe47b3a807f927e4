import { test, expect, createWorkspace, treeItem, typeInEditor, editorText, expandFolder } from "./fixtures";

test("create a workspace, create a file, type, save, reload: the content is still there", async ({ page }) => {
  await createWorkspace(page, "Persist test");
  await expect(treeItem(page, "README.md")).toBeVisible();
  await expect(treeItem(page, "src")).toBeVisible();

  await page.getByRole("button", { name: "New file" }).click();
  await page.getByLabel("New file name").fill("notes.txt");
  await page.getByLabel("New file name").press("Enter");
  await expect(page.getByRole("tab", { name: /notes\.txt/ })).toBeVisible();
  await typeInEditor(page, "hello tabula", "notes.txt");
  await expect(page.getByRole("tab", { name: /notes\.txt/ }).getByLabel("unsaved changes")).toBeVisible();
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("tab", { name: /notes\.txt/ }).getByLabel("unsaved changes")).toHaveCount(0);
  // A new file is untracked: the tree says so.
  await expect(treeItem(page, "notes.txt").locator(".git")).toHaveText("U");

  await page.reload();
  await treeItem(page, "notes.txt").click();
  await expect.poll(() => editorText(page)).toBe("hello tabula");
});

test("rename, move by drag and drop, delete and undo in the file tree", async ({ page }) => {
  await createWorkspace(page, "Tree ops");
  await treeItem(page, "README.md").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Rename…" }).click();
  await page.getByLabel("New name").fill("INTRO.md");
  await page.getByLabel("New name").press("Enter");
  await expect(treeItem(page, "INTRO.md")).toBeVisible();
  await expect(treeItem(page, "README.md")).toHaveCount(0);

  await treeItem(page, "INTRO.md").dragTo(treeItem(page, "docs"));
  await expandFolder(page, "docs");
  await expect(treeItem(page, "docs/INTRO.md")).toBeVisible();
  await expect(treeItem(page, "INTRO.md")).toHaveCount(0);

  await treeItem(page, "docs/INTRO.md").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(treeItem(page, "docs/INTRO.md")).toHaveCount(0);
  await page.getByRole("status").getByRole("button", { name: "Undo" }).click();
  await expect(treeItem(page, "docs/INTRO.md")).toBeVisible();
  await treeItem(page, "docs/INTRO.md").click();
  await expect.poll(() => editorText(page)).toContain("# Sample project");

  // Keyboard: select with arrows, F2 renames.
  await treeItem(page, "package.json").click();
  // The click opens package.json, and an opened file becomes the tree's selection: wait for it, as a
  // person sees the editor switch, so the selection is not moved back under the arrow keys.
  await expect(page.getByRole("tab", { name: /package\.json/ })).toHaveAttribute("aria-selected", "true");
  await page.getByRole("tree", { name: "Files" }).focus();
  await page.keyboard.press("ArrowUp");
  await expect(page.locator('[role="treeitem"][aria-selected="true"]')).toHaveAttribute("data-path", ".gitignore");
  await page.keyboard.press("F2");
  await page.getByLabel("New name").fill(".gitignore-renamed");
  await page.keyboard.press("Enter");
  await expect(treeItem(page, ".gitignore-renamed")).toBeVisible();
  await expect(treeItem(page, ".gitignore")).toHaveCount(0);
});

test("find in files lists matches and a click jumps to the line; Ctrl+P opens by name", async ({ page }) => {
  await createWorkspace(page, "Search test");
  await page.locator("body").click();
  await page.keyboard.press("Control+Shift+F");
  await page.getByLabel("Search in files").fill("greet");
  await expect(page.getByTestId("search-summary")).toContainText("3 results in 2 files");
  const results = page.getByRole("list", { name: "Search results" });
  await expect(results).toContainText("src/greet.ts");
  await expect(results).toContainText("src/index.ts");
  await results.getByTitle("src/greet.ts:1").click();
  await expect(page.getByRole("tab", { name: /greet\.ts/ })).toHaveAttribute("aria-selected", "true");

  await page.keyboard.press("Control+p");
  await page.getByLabel("Search files by name").fill("sum");
  await page.getByLabel("Search files by name").press("Enter");
  await expect(page.getByRole("tab", { name: /sum\.ts/ })).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => editorText(page)).toContain("export const sum");
});

test("diff of a modified file against HEAD in the Monaco diff editor", async ({ page }) => {
  await createWorkspace(page, "Diff test");
  await expandFolder(page, "src");
  await treeItem(page, "src/greet.ts").click();
  await typeInEditor(page, "// changed line\n", "src/greet.ts");
  await page.keyboard.press("Control+s");
  await expect(treeItem(page, "src/greet.ts").locator(".git")).toHaveText("M");
  await page.getByRole("button", { name: "Diff vs HEAD" }).click();
  const diff = page.getByTestId("diff-editor");
  await expect(diff.locator(".modified .view-lines:not(.line-delete)")).toContainText("changed line");
  await expect(diff.locator(".original .view-lines")).not.toContainText("changed line");
});
