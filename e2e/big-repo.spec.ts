import { test, expect, runInTerminal, terminalScreen, treeItem } from "./fixtures";
import { zipSync, strToU8 } from "fflate";
import fs from "node:fs";
import type { Page } from "@playwright/test";
// The benchmark's generator of a real repository's shape: ~10k files in ~3.5k folders, nested .gitignores.
import { realShape } from "../bench/checkpoints/real-shape-plan.mjs";

// A repository of this size takes a while to import on a loaded machine.
test.describe.configure({ timeout: 240_000 });

const shape = realShape({ files: 10_000, dirs: 3_500 });
// One word that only three files hold, early, in the middle and last in path order.
const sortedPaths = shape.files.map((f) => f.path).sort();
const needles = [sortedPaths[3]!, sortedPaths[Math.floor(sortedPaths.length / 2)]!, sortedPaths[sortedPaths.length - 1]!];

async function importBigRepo(page: Page, zipPath: string) {
  const entries: Record<string, Uint8Array> = {};
  for (const f of [...shape.files, ...shape.ignored]) {
    // The needle is in an ignored folder too, where find in files must not look.
    const needle = needles.includes(f.path) || f.path === "node_modules/pkg/index.js";
    entries[`big/${f.path}`] = strToU8(needle ? `${f.data}\nconst zebrafinch = 1;\n` : f.data);
  }
  fs.writeFileSync(zipPath, zipSync(entries, { level: 0 }));
  await page.goto("/");
  await page.getByTestId("import-zip-input").setInputFiles(zipPath);
  await page.waitForURL(/\/w\//, { timeout: 180_000 });
  await expect(page.getByTestId("workspace-name")).toHaveText("big");
  await expect(page.getByRole("tree", { name: "Files" }).getByRole("treeitem").first()).toBeVisible({ timeout: 60_000 });
}

test("a 10,000-file repository: the tree keeps a bounded number of rows in the page, find in files streams its results, the tree shows before status ends, typing stays responsive while status and a search run", async ({ page }, info) => {
  // When the first row of the tree enters the page, as the page's clock tells it.
  await page.addInitScript(() => {
    const w = window as unknown as { firstRowAt?: number };
    new MutationObserver((_, observer) => {
      if (!document.querySelector('[role="tree"] [role="treeitem"]')) return;
      w.firstRowAt = performance.now();
      observer.disconnect();
    }).observe(document, { subtree: true, childList: true });
  });
  await importBigRepo(page, info.outputPath("big.zip"));
  // The tree is drawn first; git status (colours, branch) over 10,000 files comes after.
  await page.waitForFunction(() => performance.getEntriesByName("tabula:status-end").length > 0, null, { timeout: 60_000 });
  const order = await page.evaluate(() => ({ firstRowAt: (window as unknown as { firstRowAt?: number }).firstRowAt, statusEnd: performance.getEntriesByName("tabula:status-end")[0]!.startTime }));
  expect(order.firstRowAt, JSON.stringify(order)).toBeDefined();
  expect(order.firstRowAt!, JSON.stringify(order)).toBeLessThan(order.statusEnd);
  const tree = page.getByRole("tree", { name: "Files" });
  const rows = tree.getByRole("treeitem");

  // Open many folders from the keyboard: Right opens a folder (or steps into an open one), Down moves on.
  await rows.first().click();
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
  }
  // Hundreds of lines are open in the tree; the page holds a screenful of them.
  const lineCount = await tree.evaluate((el) => Math.round(el.scrollHeight / 24));
  expect(lineCount).toBeGreaterThan(200);
  expect(await rows.count()).toBeLessThan(80);

  // End goes to the last line: it is in the page, selected and visible; still a bounded set of rows.
  await page.keyboard.press("End");
  const last = tree.locator('[role="treeitem"][aria-selected="true"]');
  await expect(last).toBeInViewport();
  expect(await rows.count()).toBeLessThan(80);
  // Rows say where they sit among their siblings, since most of their siblings are not in the page.
  await expect(last).toHaveAttribute("aria-posinset", /^\d+$/);
  // Scrolling back to the top shows the first rows again.
  await page.keyboard.press("Home");
  await expect(rows.first()).toBeInViewport();
  expect(await rows.count()).toBeLessThan(80);

  // Find in files: the first results show while the rest of the repository is still being read.
  await page.locator("body").click();
  await page.keyboard.press("Control+Shift+F");
  const summary = page.getByTestId("search-summary");
  await summary.or(page.getByLabel("Search in files")).first().waitFor();
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seenSummaries: string[] }).seenSummaries = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="search-summary"]')?.textContent;
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByLabel("Search in files").fill("zebrafinch");
  await expect(summary).toHaveText("3 results in 3 files", { timeout: 60_000 });
  const seen = await page.evaluate(() => (window as unknown as { seenSummaries: string[] }).seenSummaries);
  // Before the end it said both how far it was and what it had found so far.
  expect(seen.some((s) => /^Searching… [\d,]+ (of [\d,]+ )?files · [12] results? in [12] files?$/.test(s)), seen.join(" | ")).toBe(true);
  const results = page.getByRole("list", { name: "Search results" });
  for (const path of needles) await expect(results.getByText(path, { exact: true })).toBeVisible();
  await expect(results.getByText("node_modules/pkg/index.js")).toHaveCount(0);

  // Typing stays responsive while git status and a search both read the whole repository (a moved
  // HEAD re-walks status over every file; a word found nowhere makes the search read them all).
  const target = needles[1]!;
  await results.locator(`.search-hit[title^="${target}:"]`).click();
  const editor = page.getByTestId("code-editor").locator(`.monaco-editor[data-uri="file:///${target}"]`);
  await expect(editor).toBeVisible();
  await page.evaluate(() => {
    const w = window as unknown as { slowestInput: number; keysAt: number[]; searchStartAt?: number; searchDoneAt?: number };
    w.slowestInput = 0;
    w.keysAt = [];
    // Event Timing: from the key press to the frame that shows its effect.
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (/^key|input$/.test(e.name)) w.slowestInput = Math.max(w.slowestInput, e.duration);
    }).observe({ type: "event", durationThreshold: 16 } as PerformanceObserverInit);
    addEventListener("keydown", () => w.keysAt.push(performance.now()), true);

    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="search-summary"]')?.textContent ?? "";
      if (text.startsWith("Searching")) w.searchStartAt ??= performance.now();
      if (text === "0 results in 0 files") w.searchDoneAt ??= performance.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // A save looks at the saved file only: status is not walked again over 10,000 files.
  await editor.locator(".view-lines").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\n// saved");
  await page.keyboard.press("Control+s");
  await page.getByRole("tab", { name: "Explorer" }).click();
  await expect(tree.locator('[role="treeitem"][aria-selected="true"]')).toContainText(target.split("/").pop()!);
  await expect(tree.locator('[role="treeitem"][aria-selected="true"] .git')).toHaveText("M");
  await page.getByRole("tab", { name: "Search" }).click();
  const afterSave = await page.evaluate(() => (performance.getEntriesByName("tabula:status-end").at(-1) as PerformanceMark).detail);
  expect(afterSave).toEqual({ full: false, paths: 1 });
  // A new branch moves HEAD: status is walked again over every file (by the terminal's git,
  // whose walk the workbench then shares); then a search that reads every file, and keys typed
  // while it runs. How long the walk takes varies with the machine (0.5 s to 12.6 s in CI runs),
  // so the keys must fall inside the search, and inside the walk when it lasted long enough to
  // type into; none may wait long for its frame.
  await page.keyboard.press("Control+`");
  await expect(terminalScreen(page)).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
  await runInTerminal(page, "git checkout -b busy");
  const walkStartAt = await (
    await page.waitForFunction(() => {
      const start = performance.getEntriesByName("tabula:status-walk-start").at(-1)?.startTime ?? 0;
      const end = performance.getEntriesByName("tabula:status-walk-end").at(-1)?.startTime ?? 0;
      return start > end ? start : 0; // a walk of the whole tree has begun and not ended (its start)
    })
  ).jsonValue();
  await page.getByLabel("Search in files").fill("quokkanowhere");
  await expect(summary).toHaveText(/^Searching/);
  await editor.locator(".view-lines").click();
  const typed = "const typedWhileBusy = 1;";
  await page.keyboard.type(`\n${typed}`, { delay: 15 });
  await expect(editor.locator(".view-lines")).toContainText(typed);
  await expect(summary).toHaveText("0 results in 0 files", { timeout: 60_000 });
  // That walk's end (not a later one's).
  await page.waitForFunction((from) => performance.getEntriesByName("tabula:status-walk-end").some((e) => e.startTime > from), walkStartAt, { timeout: 60_000 });
  const timing = await page.evaluate((walkStartAt) => {
    const w = window as unknown as { slowestInput: number; keysAt: number[]; searchStartAt?: number; searchDoneAt?: number };
    const walkDoneAt = performance.getEntriesByName("tabula:status-walk-end").find((e) => e.startTime > walkStartAt)!.startTime;
    const during = (from: number, to: number) => w.keysAt.filter((k) => k > from && k < to).length;
    return { slowestInput: w.slowestInput, keysDuringWalk: during(walkStartAt, walkDoneAt), keysDuringSearch: during(w.searchStartAt ?? Infinity, w.searchDoneAt ?? 0), walkMs: Math.round(walkDoneAt - walkStartAt), searchMs: Math.round((w.searchDoneAt ?? 0) - (w.searchStartAt ?? 0)) };
  }, walkStartAt);
  // Keys were typed while each ran, and no key waited long for its frame: before the walks were
  // sliced a search held the page for 1.2 s at a time (and the Problems store for seconds).
  // Measured here: 180–290 ms alone, ~600 ms beside a second test worker.
  expect(timing.keysDuringSearch, JSON.stringify(timing)).toBeGreaterThan(0);
  expect(timing.keysDuringWalk > 0 || timing.walkMs < 2_000, `a walk of ${timing.walkMs} ms with no key typed during it: ${JSON.stringify(timing)}`).toBe(true);
  expect(timing.slowestInput, JSON.stringify(timing)).toBeLessThan(1000);
});
