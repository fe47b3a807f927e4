import { test, expect, createWorkspace, treeItem } from "./fixtures";

test("find in files runs a catastrophic regex at once and explains an unsupported one", async ({ page }) => {
  await createWorkspace(page, "Regex search");
  // A file that makes a backtracking engine take longer than the universe's age on (a+)+$.
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(page.getByTestId("terminal").locator(".xterm-rows")).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
  await page.keyboard.type(`echo ${"a".repeat(60)}! > slow.txt; echo aaaa >> slow.txt`);
  await page.keyboard.press("Enter");
  await expect(treeItem(page, "slow.txt")).toBeVisible();

  await page.locator("body").click();
  await page.keyboard.press("Control+Shift+F");
  await page.getByRole("button", { name: ".*" }).click();
  const started = Date.now();
  await page.getByLabel("Search in files").fill("(a+)+$");
  await expect(page.getByTestId("search-summary")).toContainText("1 result in 1 file");
  expect(Date.now() - started).toBeLessThan(10_000);
  await expect(page.getByRole("list", { name: "Search results" }).getByTitle("slow.txt:2")).toBeVisible();

  await page.getByLabel("Search in files").fill("greet(?=ing)");
  const alert = page.getByRole("search").getByRole("alert");
  await expect(alert).toContainText("Lookahead");
  await expect(alert).toContainText('"foobar"');
});
