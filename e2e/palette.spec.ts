import type { Page } from "@playwright/test";
import { test, expect, createWorkspace, treeItem, editorText } from "./fixtures";

/** The command palette's input and list. */
function palette(page: Page) {
  const dialog = page.getByRole("dialog", { name: "Command palette" });
  return { dialog, input: dialog.getByRole("combobox"), options: dialog.getByRole("option") };
}

async function openFileFromTree(page: Page, path: string) {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) await treeItem(page, parts.slice(0, i).join("/")).click();
  await treeItem(page, path).click();
  await expect(page.getByTestId("code-editor").locator(`.monaco-editor[data-uri="file:///${path}"]`)).toBeVisible();
}

test("Ctrl+Shift+P lists the commands with their shortcuts, filters as you type, Enter runs one", async ({ page }) => {
  await createWorkspace(page, "Palette test");
  await expect(treeItem(page, "README.md")).toBeVisible();
  await page.locator("body").click();

  await page.keyboard.press("Control+Shift+P");
  const p = palette(page);
  await expect(p.input).toBeFocused();
  // Every area of the workbench is there, each shortcut next to its command.
  for (const label of ["File: New File…", "Search: Find in Files", "Go: Go to File…", "Git: Create Branch…", "Terminal: Toggle Terminal", "View: Show All Commands"])
    await expect(p.options.filter({ hasText: label })).toHaveCount(1);
  await expect(p.options.filter({ hasText: "Terminal: Toggle Terminal" })).toContainText("Ctrl+`");
  await expect(p.options.filter({ hasText: "View: Show All Commands" })).toContainText("Ctrl+Shift+P");
  await expect(p.options.filter({ hasText: "Go: Go to File…" })).toContainText("Ctrl+P");

  // Fuzzy: "tgterm" is Toggle Terminal, and nothing about files.
  await p.input.fill("tgterm");
  await expect(p.options.first()).toContainText("Terminal: Toggle Terminal");
  await expect(p.options.filter({ hasText: "New File" })).toHaveCount(0);
  await expect(page.getByRole("tablist", { name: "Terminals" })).toHaveCount(0);
  await p.input.press("Enter");
  await expect(p.dialog).toHaveCount(0);
  await expect(page.getByRole("tablist", { name: "Terminals" })).toBeVisible();

  // Recently used first when the palette opens again; Escape closes it.
  await page.locator("body").click();
  await page.keyboard.press("Control+Shift+P");
  await expect(p.options.first()).toContainText("Terminal: Toggle Terminal");
  await expect(p.options.first()).toContainText("recently used");
  await p.input.press("ArrowDown");
  await expect(p.options.nth(1)).toHaveAttribute("aria-selected", "true");
  await p.input.press("Escape");
  await expect(p.dialog).toHaveCount(0);
});

test("New File and Create Branch ask in the palette and do what the explorer and branch picker do", async ({ page }) => {
  await createWorkspace(page, "Palette ask test");
  await expect(treeItem(page, "README.md")).toBeVisible();
  await page.locator("body").click();

  await page.keyboard.press("Control+Shift+P");
  const p = palette(page);
  await p.input.fill("new file");
  await expect(p.options.first()).toContainText("File: New File…");
  await p.input.press("Enter");
  const ask = page.getByRole("dialog", { name: "New file path" });
  await expect(ask).toBeVisible();
  // A bad name is refused as it is typed; nothing is created.
  await ask.getByRole("combobox").fill("src/../x.ts");
  await expect(ask.getByRole("alert")).toContainText("is not a valid path");
  await ask.getByRole("combobox").press("Enter");
  await expect(ask).toBeVisible();
  await ask.getByRole("combobox").fill("src/util.ts");
  await ask.getByRole("combobox").press("Enter");
  await expect(ask).toHaveCount(0);
  await expect(page.getByRole("tab", { name: /util\.ts/ })).toHaveAttribute("aria-selected", "true");
  await expect(treeItem(page, "src/util.ts")).toBeVisible();

  await page.keyboard.press("Control+Shift+P");
  await p.input.fill("create branch");
  await p.input.press("Enter");
  const branch = page.getByRole("dialog", { name: /New branch name/ });
  await branch.getByRole("combobox").fill("feature-x");
  await branch.getByRole("combobox").press("Enter");
  await expect(page.locator(".statusbar")).toContainText("⎇ feature-x");

  // Switch back through a pick list of the branches.
  await page.keyboard.press("Control+Shift+P");
  await p.input.fill("switch branch");
  await p.input.press("Enter");
  const pick = page.getByRole("dialog", { name: "Branch to switch to" });
  await expect(pick.getByRole("option", { name: /feature-x/ })).toContainText("current");
  await pick.getByRole("combobox").fill("main");
  await pick.getByRole("combobox").press("Enter");
  await expect(page.locator(".statusbar")).toContainText("⎇ main");
});

test("F1 inside the editor opens the command palette, not Monaco's own list; Escape returns to the editor", async ({ page }) => {
  await createWorkspace(page, "Palette F1 test");
  await openFileFromTree(page, "src/greet.ts");
  await page.getByTestId("code-editor").locator(".view-lines").click();
  await expect(page.getByTestId("code-editor").locator(".monaco-editor.focused")).toBeVisible();

  await page.keyboard.press("F1");
  const p = palette(page);
  await expect(p.dialog).toBeVisible();
  await expect(p.input).toBeFocused();
  await expect(page.locator(".quick-input-widget:visible")).toHaveCount(0);
  await p.input.fill("toggle agent");
  await expect(p.options.first()).toContainText("View: Toggle Agent Panel");
  await p.input.press("Escape");
  await expect(p.dialog).toHaveCount(0);
  // Focus is back in the editor: typing edits the file.
  await page.keyboard.type("// typed after F1\n");
  await expect.poll(() => editorText(page)).toContain("// typed after F1");

  // The agent's commands are there too: switching the mode shows in the panel.
  await expect(page.getByRole("radiogroup", { name: "Mode" })).toBeVisible();
  await page.keyboard.press("F1");
  await p.input.fill("switch to plan");
  await expect(p.options.first()).toContainText("Agent: Switch to Plan Mode");
  await p.input.press("Enter");
  await expect(page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Plan" })).toHaveAttribute("aria-checked", "true");
});

test("Ctrl+P is fuzzy, goes to file:line:column, and lists recently opened files first", async ({ page }) => {
  await createWorkspace(page, "Quick open test");
  await expect(treeItem(page, "README.md")).toBeVisible();
  await page.locator("body").click();

  const quick = page.getByRole("dialog", { name: "Quick open" });
  const input = page.getByLabel("Search files by name");
  await page.keyboard.press("Control+p");
  await input.fill("smts");
  await expect(quick.getByRole("option").first()).toContainText("sum.ts");
  await expect(quick.getByRole("option").first()).toContainText("src/math");
  await input.press("Enter");
  await expect(page.getByRole("tab", { name: /sum\.ts/ })).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => editorText(page)).toContain("export const sum");

  // greet.ts:2:3 puts the cursor on line 2 before its third character: what is typed lands there.
  await page.keyboard.press("Control+p");
  await input.fill("greet.ts:2:3");
  await expect(quick.getByRole("status")).toHaveText("Go to line 2, column 3");
  await input.press("Enter");
  await expect(page.getByRole("tab", { name: /greet\.ts/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("code-editor").locator(".line-numbers.active-line-number")).toHaveText("2");
  await page.keyboard.type("X");
  await expect.poll(() => editorText(page)).toContain("  Xreturn `Hello");

  // An empty query: the files opened so far, most recent first, marked as such.
  await page.keyboard.press("Control+p");
  const options = quick.getByRole("option");
  await expect(options.nth(0)).toContainText("greet.ts");
  await expect(options.nth(0)).toContainText("recently opened");
  await expect(options.nth(1)).toContainText("sum.ts");
  await expect(options.nth(2)).not.toContainText("recently opened");
  await input.press("Escape");
  await expect(quick).toHaveCount(0);
});
