import { test, expect, createWorkspace, openTerminal, runInTerminal, treeItem } from "./fixtures";

test("find in files runs a catastrophic regex at once and explains an unsupported one", async ({ page }) => {
  await createWorkspace(page, "Regex search");
  // A file that makes a backtracking engine take longer than the universe's age on (a+)+$.
  await openTerminal(page);
  await runInTerminal(page, `echo ${"a".repeat(60)}! > slow.txt; echo aaaa >> slow.txt`);
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

test("find in files: files to include and to exclude narrow the search; past 2,000 lines 'Show more' pages on", async ({ page }) => {
  await createWorkspace(page, "Search paging");
  await openTerminal(page);
  await runInTerminal(page, "seq 1 2500 | sed 's/^/needle /' > many.txt && wc -l many.txt");
  await expect(treeItem(page, "many.txt")).toBeVisible();

  await page.locator("body").click();
  await page.keyboard.press("Control+Shift+F");
  const summary = page.getByTestId("search-summary");
  await page.getByLabel("Search in files").fill("needle");
  await expect(summary).toContainText("2,000 results in 1 file (more not shown)");
  await page.getByRole("button", { name: "Show 2,000 more" }).click();
  await expect(summary).toHaveText("2,500 results in 1 file");
  await expect(page.getByRole("button", { name: /Show .* more/ })).toHaveCount(0);

  // The sample mentions "greet" in src/ and in README.md: include and exclude pick among them.
  await page.getByLabel("Search in files").fill("greet");
  await expect(summary).toContainText(/results? in [2-9] files/);
  const results = page.getByRole("list", { name: "Search results" });
  await page.getByLabel("Files to include").fill("src");
  await expect(results.locator(".search-file")).toHaveText(["src/greet.ts", "src/index.ts"]);
  await page.getByLabel("Files to exclude").fill("index.ts");
  await expect(results.locator(".search-file")).toHaveText(["src/greet.ts"]);
  await page.getByLabel("Files to include").fill("");
  await page.getByLabel("Files to exclude").fill("src, many.txt");
  await expect(summary).toBeVisible();
  await expect(results.locator(".search-file", { hasText: /^src\/|many\.txt/ })).toHaveCount(0);
});
