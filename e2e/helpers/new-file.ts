import { expect, type Page } from "@playwright/test";
import { treeItem } from "../fixtures";

/** Create a file from the explorer and put `text` in it, then save (as a person pasting code). */
export async function newFile(page: Page, path: string, text: string) {
  await treeItem(page, "README.md").click(); // new files go next to the selection: start from the root
  await page.getByRole("button", { name: "New file" }).click();
  await page.getByLabel("New file name").fill(path);
  await page.getByLabel("New file name").press("Enter");
  const tab = page.getByRole("tab", { name: new RegExp(path.split("/").pop()!.replace(/\./g, "\\.")) });
  await expect(tab).toBeVisible();
  await page.getByTestId("code-editor").locator(".view-lines").click();
  // One line, typed key by key: Monaco's auto-closing brackets and quotes are overtyped as a
  // person's typing would overtype them (a newline between brackets would not be).
  expect(text).not.toContain("\n");
  await page.keyboard.type(text);
  await page.keyboard.press("Control+s");
  await expect(tab.getByLabel("unsaved changes")).toHaveCount(0);
}
