import type { Page } from "@playwright/test";
import { test, expect, createWorkspace, editorText, openTerminal, runInTerminal, treeItem } from "./fixtures";

/** The line (1-based) Monaco draws the cursor on: the visible line whose top the cursor shares. */
async function cursorLine(page: Page): Promise<number> {
  return page.evaluate(() => {
    const editor = document.querySelector('[data-testid="code-editor"] .monaco-editor')!;
    const cursor = editor.querySelector<HTMLElement>(".cursors-layer .cursor")!;
    const lines = Array.from(editor.querySelectorAll<HTMLElement>(".view-line")).map((l) => parseFloat(l.style.top));
    lines.sort((a, b) => a - b);
    // The first visible line's number from the gutter, plus how many lines down the cursor is.
    const numbers = Array.from(editor.querySelectorAll<HTMLElement>(".line-numbers")).map((n) => Number(n.textContent));
    const first = Math.min(...numbers.filter((n) => n > 0));
    return first + lines.indexOf(parseFloat(cursor.style.top));
  });
}

test("after a reload the workbench looks as it was left: the open tabs, the one in front, each file's cursor, the expanded folders", async ({ page }) => {
  await createWorkspace(page, "Restore view");
  await treeItem(page, "src").click();
  await treeItem(page, "src/math").click();
  await expect(treeItem(page, "src/math/sum.ts")).toBeVisible();

  await treeItem(page, "README.md").click();
  await page.getByTestId("code-editor").locator(".view-lines").click();
  await page.keyboard.press("Control+End");
  await expect.poll(() => cursorLine(page)).toBe(5);
  await treeItem(page, "src/greet.ts").click();
  await expect(page.getByTestId("code-editor").locator('.monaco-editor[data-uri="file:///src/greet.ts"]')).toBeVisible();
  await page.getByTestId("code-editor").locator(".view-lines").click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("ArrowDown");
  await expect.poll(() => cursorLine(page)).toBe(2);
  // The status bar says where the cursor is, and how much is selected.
  const cursorStatus = page.getByTestId("cursor-status");
  await expect(cursorStatus).toHaveText("Ln 2, Col 1");
  await page.keyboard.press("Shift+End");
  await expect(cursorStatus).toHaveText("Ln 2, Col 28 (27 selected)");
  await page.keyboard.press("Home");
  await page.keyboard.press("Home");
  await expect(cursorStatus).toHaveText("Ln 2, Col 1");

  // Switching the side bar away and back keeps the folders as they were.
  await page.getByRole("tab", { name: "Search" }).click();
  await page.getByRole("tab", { name: "Explorer" }).click();
  await expect(treeItem(page, "src/math/sum.ts")).toBeVisible();

  await page.waitForTimeout(600); // the cursor is remembered once it settles
  await page.reload();
  await expect(page.getByRole("tab", { name: /README\.md/ })).toBeVisible();
  await expect(page.getByRole("tab", { name: /greet\.ts/ })).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => editorText(page)).toContain("export function greet");
  await expect.poll(() => cursorLine(page)).toBe(2);
  await expect(cursorStatus).toHaveText("Ln 2, Col 1");
  await expect(treeItem(page, "src/math/sum.ts")).toBeVisible();
  await page.getByRole("tab", { name: /README\.md/ }).click();
  await expect.poll(() => editorText(page)).toContain("# Sample project");
  await expect.poll(() => cursorLine(page)).toBe(5);

  // A file deleted behind its open tab keeps the tab (with what it held) until the reload; then
  // it stays closed and the rest come back.
  await openTerminal(page);
  await runInTerminal(page, "rm src/greet.ts");
  await expect(treeItem(page, "src/greet.ts")).toHaveCount(0);
  await expect(page.getByRole("tab", { name: /greet\.ts/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("tab", { name: /README\.md/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tab", { name: /greet\.ts/ })).toHaveCount(0);
});

test("after a reload the terminals come back: the dock open, as many tabs, each in its directory, the same one in front", async ({ page }) => {
  await createWorkspace(page, "Restore terminals");
  await openTerminal(page);
  await runInTerminal(page, "mkdir -p tools/bin && cd tools");
  const active = page.locator('[data-testid="terminal"]:visible .xterm-rows');
  await expect(active).toContainText("~/tools");
  await page.getByRole("button", { name: "New terminal" }).click();
  const tabs = page.getByRole("tablist", { name: "Terminals" }).getByRole("tab");
  await expect(tabs).toHaveCount(2);
  await page.locator('[data-testid="terminal"]:visible').click();
  await runInTerminal(page, "cd src && echo in-second");
  await expect(active).toContainText("in-second");

  await page.reload();
  await expect(tabs).toHaveCount(2);
  await expect(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
  await page.locator('[data-testid="terminal"]:visible').click();
  await runInTerminal(page, "pwd");
  await expect(active.locator(":scope > div").filter({ hasText: /^\/workspace\/src\s*$/ })).toHaveCount(1);
  await tabs.nth(0).click();
  await page.locator('[data-testid="terminal"]:visible').click();
  await runInTerminal(page, "pwd");
  await expect(active.locator(":scope > div").filter({ hasText: /^\/workspace\/tools\s*$/ })).toHaveCount(1);

  // A directory gone since starts its terminal at the workspace's root; a closed dock stays closed.
  await page.getByRole("button", { name: "Close terminal 2" }).click();
  await page.locator('[data-testid="terminal"]:visible').click();
  await runInTerminal(page, "rm -r /workspace/tools");
  await expect(treeItem(page, "tools")).toHaveCount(0);
  await page.reload();
  await expect(tabs).toHaveCount(1);
  await page.locator('[data-testid="terminal"]:visible').click();
  await runInTerminal(page, "pwd");
  await expect(active.locator(":scope > div").filter({ hasText: /^\/workspace\s*$/ })).toHaveCount(1);
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(page.getByTestId("terminal")).toBeHidden();
  await page.reload();
  await expect(page.getByTestId("workspace-name")).toHaveText("Restore terminals");
  await expect(treeItem(page, "README.md")).toBeVisible();
  await expect(page.getByRole("tablist", { name: "Terminals" })).toHaveCount(0);
});
