import { test, expect, createWorkspace, editorText, openTerminal, runInTerminal, terminalRow, treeItem, typeInEditor, expandFolder } from "./fixtures";

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

test("replace in files: a preview of every change, a file left out, unsaved files untouched, and Undo puts it back", async ({ page }) => {
  await createWorkspace(page, "Search replace");
  // src/greet.ts is open with an unsaved edit: a replace must not write under it.
  await expandFolder(page, "src");
  await treeItem(page, "src/greet.ts").click();
  await typeInEditor(page, "// draft\n", "src/greet.ts");
  await expect(page.getByRole("tab", { name: /greet\.ts/ }).getByLabel("unsaved changes")).toBeVisible();

  await page.keyboard.press("Control+Shift+F");
  await page.getByLabel("Search in files").fill("greet");
  const results = page.getByRole("list", { name: "Search results" });
  await expect(results.locator(".search-file")).toHaveText(["src/greet.ts", "src/index.ts"]);
  await page.getByRole("button", { name: "Toggle Replace" }).click();
  await page.getByLabel("Replace", { exact: true }).fill("welcome");
  await page.getByRole("button", { name: "Replace all…" }).click();

  const preview = page.getByRole("region", { name: "Replace preview" });
  await expect(preview).toContainText("Replace 3 occurrences in 1 file with “welcome”?");
  const changes = preview.getByRole("list", { name: "Changes in src/index.ts" });
  await expect(changes.getByRole("listitem")).toHaveCount(2);
  await expect(changes.getByRole("listitem").first().locator("del")).toHaveText('import { greet } from "./greet";');
  await expect(changes.getByRole("listitem").first().locator("ins")).toHaveText('import { welcome } from "./welcome";');
  await expect(preview).toContainText("Not replaced in src/greet.ts: it has unsaved changes in the editor");
  // Unticking the only file leaves nothing to do; ticking it again brings it back.
  await preview.getByLabel("Replace in src/index.ts").uncheck();
  await expect(preview.getByRole("button", { name: "Replace", exact: true })).toBeDisabled();
  await preview.getByLabel("Replace in src/index.ts").check();
  await preview.getByRole("button", { name: "Replace", exact: true }).click();

  const status = page.getByRole("search").getByRole("status");
  await expect(status).toContainText("Replaced 3 occurrences in 1 file.");
  await expect(preview).toHaveCount(0);
  // The results follow the files: only the unsaved one still says greet.
  await expect(results.locator(".search-file")).toHaveText(["src/greet.ts"]);
  await openTerminal(page);
  await runInTerminal(page, "echo $(grep -o welcome src/index.ts | wc -l) welcome, $(grep -c draft src/greet.ts) draft");
  await expect(terminalRow(page, /^3 welcome, 0 draft\s*$/)).toBeVisible();

  await status.getByRole("button", { name: "Undo" }).click();
  await expect(status).toContainText("Put back 1 file.");
  await expect(results.locator(".search-file")).toHaveText(["src/greet.ts", "src/index.ts"]);
  await page.getByRole("tab", { name: "Explorer" }).click();
  await treeItem(page, "src/index.ts").click();
  await expect.poll(() => editorText(page)).toContain('import { greet } from "./greet";');
  // The unsaved edit is still there, unsaved.
  await expect(page.getByRole("tab", { name: /greet\.ts/ }).getByLabel("unsaved changes")).toBeVisible();
});
