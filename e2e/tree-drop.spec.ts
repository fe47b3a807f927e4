/** Files dragged in from the desktop land in the folder they are dropped on; nothing is overwritten. */
import { test, expect, createWorkspace, treeItem, editorText, openTerminal, runInTerminal, expandFolder } from "./fixtures";
import type { Locator } from "@playwright/test";

/** What the browser hands the page when files are dragged in from the desktop. */
async function dropFiles(target: Locator, files: { name: string; text: string }[]) {
  await target.evaluate((el, list) => {
    const data = new DataTransfer();
    for (const f of list) data.items.add(new File([f.text], f.name, { type: "text/plain" }));
    el.dispatchEvent(new DragEvent("dragenter", { dataTransfer: data, bubbles: true, cancelable: true }));
    el.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
    el.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, files);
}

test("files dropped from the desktop go into the folder under them (a file row: its folder); a taken name becomes 'name copy'", async ({ page }) => {
  await createWorkspace(page, "Drop files");
  await dropFiles(treeItem(page, "src"), [
    { name: "notes.md", text: "# notes\n" },
    { name: "todo.txt", text: "- ship\n" },
  ]);
  await expect(page.getByRole("status").filter({ hasText: "Added 2 files to src." })).toBeVisible();
  await expandFolder(page, "src");
  await expect(treeItem(page, "src/notes.md")).toBeVisible();
  await expect(treeItem(page, "src/todo.txt")).toBeVisible();

  // Onto a file row: beside that file. greet.ts is taken there, so it comes in as "greet copy.ts"
  // (opened, as a single dropped file is) and the original is untouched.
  await dropFiles(treeItem(page, "src/index.ts"), [{ name: "greet.ts", text: "dropped from the desktop\n" }]);
  await expect(page.getByRole("status").filter({ hasText: "greet.ts as greet copy.ts (the name was taken)" })).toBeVisible();
  await expect.poll(() => editorText(page)).toBe("dropped from the desktop\n");
  await treeItem(page, "src/greet.ts").click();
  await expect.poll(() => editorText(page)).toContain("export function greet");

  // Onto the tree's empty space: the workspace root.
  await dropFiles(page.getByRole("tree", { name: "Files" }), [{ name: "CHANGELOG.md", text: "## 1.0\n" }]);
  await expect(treeItem(page, "CHANGELOG.md")).toBeVisible();

  // A row dragged within the tree onto a file row moves into that file's folder.
  await treeItem(page, "CHANGELOG.md").dragTo(treeItem(page, "src/index.ts"));
  await expect(treeItem(page, "src/CHANGELOG.md")).toBeVisible();
  await expect(treeItem(page, "CHANGELOG.md")).toHaveCount(0);

  // All of it is on disk: the terminal sees the files.
  await openTerminal(page);
  await runInTerminal(page, "cat src/todo.txt src/CHANGELOG.md");
  await expect(page.getByTestId("terminal")).toContainText("## 1.0");
  await expect(page.getByTestId("terminal")).toContainText("- ship");
});

test("files or a .zip dropped on the start page's Import become a workspace; a file dropped where nothing takes it is refused, not opened by the browser", async ({ page }) => {
  await page.goto("/");
  const region = page.getByRole("region", { name: "Import" });
  await dropFiles(region, [
    { name: "index.html", text: "<h1>hi</h1>\n" },
    { name: "style.css", text: "h1 { color: red }\n" },
  ]);
  await page.waitForURL(/\/w\/[a-z2-7]{20}$/);
  await expect(page.getByTestId("workspace-name")).toHaveText("Dropped files");
  await expect(treeItem(page, "index.html")).toBeVisible();
  await expect(treeItem(page, "style.css")).toBeVisible();

  // The title bar takes no files: the drop is refused (the browser would otherwise leave the app for the file).
  const url = page.url();
  const taken = await page.getByTestId("workspace-name").evaluate((el) => {
    const data = new DataTransfer();
    data.items.add(new File(["x"], "stray.txt", { type: "text/plain" }));
    el.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
    return !el.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  expect(taken).toBe(true);
  expect(page.url()).toBe(url);
  await expect(treeItem(page, "stray.txt")).toHaveCount(0);

  // A .zip dropped on the start page is imported as an archive (its one top folder dropped).
  const { zipSync, strToU8 } = await import("fflate");
  const zip = Buffer.from(zipSync({ "site/README.md": strToU8("# zipped\n"), "site/src/a.ts": strToU8("export {};\n") })).toString("base64");
  await page.goto("/");
  await page.getByRole("region", { name: "Import" }).evaluate((el, b64) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "site.zip", { type: "application/zip" }));
    el.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
    el.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, zip);
  await page.waitForURL(/\/w\/[a-z2-7]{20}$/);
  await expect(page.getByTestId("workspace-name")).toHaveText("site");
  await expect(treeItem(page, "README.md")).toBeVisible();
  await expect(treeItem(page, "src")).toBeVisible();
});
