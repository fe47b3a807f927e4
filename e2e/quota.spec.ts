import { test, expect, createWorkspace, treeItem, typeInEditor, editorText } from "./fixtures";

test("a full storage quota gives a clear message and keeps the previous version of the file", async ({ page }) => {
  await createWorkspace(page, "Quota");
  await treeItem(page, "README.md").click();
  await expect.poll(() => editorText(page)).toContain("# Sample project");

  // Make IndexedDB refuse every write the way a full disk does (QuotaExceededError). Chromium's
  // CDP quota override is not enforced for the in-memory storage of a test context.
  await page.evaluate(() => {
    const put = IDBObjectStore.prototype.put;
    (window as unknown as { __restorePut: () => void }).__restorePut = () => (IDBObjectStore.prototype.put = put);
    IDBObjectStore.prototype.put = function () {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
  });
  const origin = new URL(page.url()).origin;

  // Paste a large block, as a person would.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  await page.evaluate((text) => navigator.clipboard.writeText(text), "big paste line\n".repeat(20_000));
  await typeInEditor(page, "x");
  await page.keyboard.press("Control+v");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("alert").filter({ hasText: "Storage is full" })).toContainText("previous version is intact");
  // The edit is still in the editor, unsaved: nothing typed is lost.
  await expect(page.getByRole("tab", { name: /README\.md/ }).getByLabel("unsaved changes")).toBeVisible();

  // On disk, the file is exactly as before.
  await page.evaluate(() => (window as unknown as { __restorePut: () => void }).__restorePut());
  page.once("dialog", (d) => d.accept());
  await page.goto(page.url());
  await treeItem(page, "README.md").click();
  await expect.poll(() => editorText(page)).toContain("# Sample project");
  expect(await editorText(page)).not.toContain("big paste");
});
