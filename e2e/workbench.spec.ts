import { test, expect, createWorkspace, treeItem, typeInEditor, editorText } from "./fixtures";
import type { Page } from "@playwright/test";

const selected = (page: Page) => page.locator('[role="treeitem"][aria-selected="true"]');

test("the file tree works from the keyboard alone: arrows, Home/End, expand/collapse, Enter opens, F2 renames, Delete deletes", async ({ page }) => {
  await createWorkspace(page, "Keyboard tree");
  const tree = page.getByRole("tree", { name: "Files" });
  await expect(treeItem(page, "package.json")).toBeVisible(); // the rows are there to move over
  await tree.focus();
  await page.keyboard.press("Home");
  await expect(selected(page)).toHaveAttribute("data-path", "docs");
  await page.keyboard.press("ArrowDown");
  await expect(selected(page)).toHaveAttribute("data-path", "src");
  // → opens the folder, → again steps into it, ← goes back to the folder, ← closes it.
  await page.keyboard.press("ArrowRight");
  await expect(treeItem(page, "src")).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("ArrowRight");
  await expect(selected(page)).toHaveAttribute("data-path", /^src\//);
  await page.keyboard.press("ArrowLeft");
  await expect(selected(page)).toHaveAttribute("data-path", "src");
  await page.keyboard.press("ArrowLeft");
  await expect(treeItem(page, "src")).toHaveAttribute("aria-expanded", "false");
  await expect(treeItem(page, "src/greet.ts")).toHaveCount(0);
  await page.keyboard.press("End");
  await expect(selected(page)).toHaveAttribute("data-path", "package.json");
  // Enter opens the file in the editor.
  await page.keyboard.press("Enter");
  await expect(page.getByRole("tab", { name: /package\.json/ })).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => editorText(page)).toContain('"name"');
  // F2 renames the selected file.
  await tree.focus();
  await page.keyboard.press("F2");
  await expect(page.getByLabel("New name")).toBeFocused();
  await page.getByLabel("New name").fill("pkg.json");
  await page.keyboard.press("Enter");
  await expect(treeItem(page, "pkg.json")).toBeVisible();
  await expect(treeItem(page, "package.json")).toHaveCount(0);
  // Delete removes it (with an undo).
  await treeItem(page, "pkg.json").click();
  await tree.focus();
  await page.keyboard.press("Delete");
  await expect(treeItem(page, "pkg.json")).toHaveCount(0);
  await expect(page.getByRole("status").getByRole("button", { name: "Undo" })).toBeVisible();
});

test("the file tree is resizable by dragging its edge (and with the arrow keys); the width is remembered", async ({ page }) => {
  await createWorkspace(page, "Resize tree");
  const splitter = page.getByRole("separator", { name: "Resize sidebar" });
  const tree = page.getByRole("tree", { name: "Files" });
  const before = (await tree.boundingBox())!.width;
  const handle = (await splitter.boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 120, handle.y + handle.height / 2, { steps: 6 });
  await page.mouse.up();
  await expect.poll(async () => (await tree.boundingBox())!.width).toBeGreaterThan(before + 100);
  const dragged = Number(await splitter.getAttribute("aria-valuenow"));
  await splitter.focus();
  await page.keyboard.press("ArrowLeft");
  await expect(splitter).toHaveAttribute("aria-valuenow", String(dragged - 16));
  await page.reload();
  await expect(page.getByRole("separator", { name: "Resize sidebar" })).toHaveAttribute("aria-valuenow", String(dragged - 16));
  expect(Math.round((await page.getByRole("tree", { name: "Files" }).boundingBox())!.width)).toBeGreaterThan(before + 80);
});

test("autosave: with the box ticked, an edit is saved without Ctrl+S and survives a reload", async ({ page }) => {
  await createWorkspace(page, "Autosave");
  await treeItem(page, "README.md").click();
  await page.getByLabel("Autosave").check();
  await typeInEditor(page, "AUTOSAVED ");
  const tab = page.getByRole("tab", { name: /README\.md/ });
  // Dirty first, then clean on its own.
  await expect(tab.getByLabel("unsaved changes")).toBeVisible();
  await expect(tab.getByLabel("unsaved changes")).toHaveCount(0);
  await expect(treeItem(page, "README.md").locator(".git")).toHaveText("M");
  await page.reload();
  await treeItem(page, "README.md").click();
  await expect.poll(() => editorText(page)).toContain("AUTOSAVED ");
  // The choice is remembered.
  await expect(page.getByLabel("Autosave")).toBeChecked();
});

test("light and dark follow the OS colour scheme, live", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await createWorkspace(page, "Themes");
  await treeItem(page, "README.md").click();
  const monaco = page.getByTestId("code-editor").locator(".monaco-editor").first();
  await expect(monaco).toHaveClass(/vs-dark/);
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(30, 31, 34)");
  await page.emulateMedia({ colorScheme: "light" });
  await expect(monaco).not.toHaveClass(/vs-dark/);
  await expect(page.locator("body")).not.toHaveCSS("background-color", "rgb(30, 31, 34)");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(monaco).toHaveClass(/vs-dark/);
});

test("the branch picker creates a branch, and switching back brings main's files into the tree and the editor", async ({ page }) => {
  await createWorkspace(page, "Branches");
  const picker = page.getByRole("combobox", { name: "Branch" });
  await expect(picker).toHaveValue("main");
  await picker.selectOption({ label: "+ New branch…" });
  const dialog = page.getByRole("dialog", { name: "New branch" });
  const name = dialog.getByRole("textbox", { name: "Branch name" });
  // A name git refuses, then one that is taken: the dialog stays, saying why.
  await name.fill("bad..name");
  await name.press("Enter");
  await expect(dialog.getByRole("alert")).toContainText("not a valid branch name");
  await name.fill("main");
  await dialog.getByRole("button", { name: "Create branch" }).click();
  await expect(dialog.getByRole("alert")).toContainText('A branch named "main" already exists');
  await expect(picker).toHaveValue("main");
  await name.fill("feature");
  await name.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(picker).toHaveValue("feature");
  // On the branch: change a file and commit it from the terminal.
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  const screen = page.getByTestId("terminal").locator(".xterm-rows");
  await expect(screen).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
  await page.keyboard.type("echo 'on the branch' > README.md && git commit -qam 'branch change' && git branch --show-current");
  await page.keyboard.press("Enter");
  await expect(screen.locator(":scope > div").filter({ hasText: /^feature\s*$/ })).toHaveCount(1);
  await treeItem(page, "README.md").click();
  await expect.poll(() => editorText(page)).toBe("on the branch\n");

  await picker.selectOption({ label: "⎇ main" });
  await expect(picker).toHaveValue("main");
  await expect.poll(() => editorText(page)).toContain("# Sample project");
  await picker.selectOption({ label: "⎇ feature" });
  await expect.poll(() => editorText(page)).toBe("on the branch\n");
});

test("a chosen colour theme wins over the OS for the page, the editor, the diff editor and the terminal, and is remembered", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await createWorkspace(page, "Theme choice");
  await treeItem(page, "README.md").click();
  const monaco = page.getByTestId("code-editor").locator(".monaco-editor").first();
  await expect(monaco).not.toHaveClass(/vs-dark/);
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  // xterm paints its theme background on its scrollable element.
  const terminal = page.getByTestId("terminal").locator(".xterm-scrollable-element").first();
  await expect(terminal).toHaveCSS("background-color", "rgb(255, 255, 255)");

  const choose = async (label: RegExp) => {
    await page.keyboard.press("Control+Shift+P");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    await palette.getByRole("combobox").fill("color theme");
    await palette.getByRole("combobox").press("Enter");
    const pick = page.getByRole("dialog", { name: "Color theme" });
    await pick.getByRole("option", { name: label }).click();
    await expect(pick).toBeHidden();
  };
  await choose(/^Dark/);
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(30, 31, 34)");
  await expect(monaco).toHaveClass(/vs-dark/);
  await expect(terminal).toHaveCSS("background-color", "rgb(30, 31, 34)");
  // The OS switching does not override a choice...
  await page.emulateMedia({ colorScheme: "dark" });
  await page.emulateMedia({ colorScheme: "light" });
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(30, 31, 34)");
  // ...and the choice survives a reload, the diff editor included.
  await page.reload();
  await treeItem(page, "README.md").click();
  await page.getByRole("button", { name: "Diff vs HEAD" }).click();
  await expect(page.getByTestId("diff-editor").locator(".monaco-editor.modified-in-monaco-diff-editor")).toHaveClass(/vs-dark/);
  // System: follows the OS again, live.
  await choose(/^System/);
  await expect(page.locator("body")).not.toHaveCSS("background-color", "rgb(30, 31, 34)");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(30, 31, 34)");
  await expect(page.getByTestId("diff-editor").locator(".monaco-editor.modified-in-monaco-diff-editor")).toHaveClass(/vs-dark/);
});
