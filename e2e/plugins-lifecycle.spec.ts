import { test, expect, createWorkspace, treeItem, expandFolder } from "./fixtures";
import type { Page } from "@playwright/test";
import { ask, useMockModel, mockModelServerPerFile, autoApprove } from "./helpers/agent-ui";
import { newFile } from "./helpers/new-file";

const server = mockModelServerPerFile();


const transcript = (page: Page) => page.getByRole("log", { name: "Agent transcript" });

test("built-in plugins: gitignore-guard and custom-compaction are off until switched on", async ({ page }) => {
  await createWorkspace(page, "Built-ins");
  await useMockModel(page, server.url);
  await autoApprove(page);
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  for (const on of ["env-blocker", "protected-branch-guard", "background-terminal", "goto-definition"]) {
    await expect(page.locator(`[data-plugin="built-in:${on}"]`)).toHaveAttribute("data-state", "loaded");
  }
  for (const off of ["gitignore-guard", "custom-compaction"]) {
    await expect(page.locator(`[data-plugin="built-in:${off}"]`)).toHaveAttribute("data-state", "disabled");
    await expect(page.getByLabel(`Enable built-in:${off}`)).not.toBeChecked();
  }
  await page.getByRole("button", { name: "Plugins", exact: true }).click();

  // Off: the agent may write into an ignored folder (dist/ is in the sample's .gitignore).
  server.setScript([{ toolCalls: [{ name: "editor", args: { command: "create", path: "dist/one.js", file_text: "1\n" } }] }, { text: "Wrote one." }]);
  await ask(page, "write one");
  await expect(transcript(page)).toContainText("Wrote one.");
  await expect(transcript(page).locator('[data-tool="editor"]')).toHaveAttribute("data-status", "ok");

  // On: the same kind of call is refused.
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  await page.getByLabel("Enable built-in:gitignore-guard").check();
  await expect(page.locator('[data-plugin="built-in:gitignore-guard"]')).toHaveAttribute("data-state", "loaded");
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  server.setScript([{ toolCalls: [{ name: "editor", args: { command: "create", path: "dist/two.js", file_text: "2\n" } }] }, { text: "Could not write two." }]);
  await ask(page, "write two");
  await expect(transcript(page)).toContainText("Could not write two.");
  await expect(transcript(page).locator('[data-tool="editor"]').nth(1)).toHaveAttribute("data-status", "blocked");
  await expandFolder(page, "dist");
  await expect(treeItem(page, "dist/one.js")).toBeVisible();
  await expect(treeItem(page, "dist/two.js")).toHaveCount(0);
});

// A module-level counter shows which worker answered: a restarted plugin starts again from 0.
const FLAKY = [
  'let calls = 0; export default { name: "flaky", manifest: { capabilities: ["tools", "hooks"] }, setup(api) { api.registerTool({ name: "count_calls", description: "Count the calls",',
  ' inputSchema: { type: "object", properties: {} }, effects: ["read"], async execute() { calls += 1; return { output: "calls: " + calls }; } }); },',
  ' hooks: { beforeTool({ toolCall }) { if (toolCall.name === "search_codebase") { for (;;) {} } } } };',
].join("");

// The agent's 3 s hook limit and the sandbox's race: the stuck call is refused as an error (a
// check that failed), the worker is stopped, and the next call runs in a fresh one. This test
// also caught the loop guard counting count_calls "3 times in a row" across the refused call.
test("a plugin stuck in a loop is stopped, then restarted on its next call, and its tool works again", async ({ page }) => {
  await createWorkspace(page, "Restart");
  await useMockModel(page, server.url);
  await newFile(page, ".tabula/plugins/flaky.js", FLAKY);
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  await expect(page.locator('[data-plugin="workspace:flaky"]')).toHaveAttribute("data-state", "loaded");
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  server.setScript([
    { toolCalls: [{ name: "count_calls", args: {} }] },
    { toolCalls: [{ name: "count_calls", args: {} }] },
    { toolCalls: [{ name: "search_codebase", args: { query: "greet" } }] },
    { toolCalls: [{ name: "count_calls", args: {} }] },
    { text: "All counted." },
  ]);
  await ask(page, "count");
  await expect(transcript(page)).toContainText("All counted.", { timeout: 30_000 });
  const counts = transcript(page).locator('[data-tool="count_calls"]');
  await expect(counts).toHaveCount(3);
  for (let i = 0; i < 3; i++) await counts.nth(i).click();
  await expect(counts.nth(0)).toContainText("calls: 1");
  await expect(counts.nth(1)).toContainText("calls: 2");
  // The loop was cut off (its hook refused the call) ...
  const stuck = transcript(page).locator('[data-tool="search_codebase"]');
  await expect(stuck).toHaveAttribute("data-status", "error");
  await stuck.click();
  await expect(stuck).toContainText("timed out");
  // ... and the next call ran in a fresh worker: the count starts over.
  await expect(counts.nth(2)).toHaveAttribute("data-status", "ok");
  await expect(counts.nth(2)).toContainText("calls: 1");
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  await expect(page.locator('[data-plugin="workspace:flaky"]')).toHaveAttribute("data-state", "loaded");
});

// Where a plugin's code runs shows in what its module can reach: a sandboxed one has no document.
const WHERE =
  'export default { name: "where", manifest: { capabilities: ["tools"] }, setup(api) { api.registerTool({ name: "where_am_i", description: "Say where this runs", inputSchema: { type: "object", properties: {} }, effects: ["read"], async execute() { return { output: "document=" + typeof globalThis.document + " origin=" + globalThis.origin }; } }); } };';

test("ticking 'in page' runs a workspace plugin in the page instead of the sandbox, and unticking puts it back", async ({ page }) => {
  await createWorkspace(page, "In page");
  await useMockModel(page, server.url);
  await newFile(page, ".tabula/plugins/where.js", WHERE);
  const plugins = page.getByRole("button", { name: "Plugins", exact: true });
  const row = page.locator('[data-plugin="workspace:where"]');
  await plugins.click();
  await expect(row).toHaveAttribute("data-state", "loaded");
  await expect(row).toContainText("sandboxed");
  await plugins.click();

  const call = async (n: number) => {
    server.setScript([{ toolCalls: [{ name: "where_am_i", args: {} }] }, { text: `Answer ${n}.` }]);
    await ask(page, `where ${n}`);
    await expect(transcript(page)).toContainText(`Answer ${n}.`);
    const tool = transcript(page).locator('[data-tool="where_am_i"]').nth(n);
    await tool.click();
    return tool;
  };
  await expect(await call(0)).toContainText("document=undefined origin=null");

  await plugins.click();
  // A controlled box: it shows the new state once the plugin has reloaded (awaited below).
  await row.getByLabel("Run workspace:where in the page").click();
  await expect(row).toContainText("in-process");
  await plugins.click();
  await expect(await call(1)).toContainText(`document=object origin=${new URL(page.url()).origin}`);

  await plugins.click();
  await row.getByLabel("Run workspace:where in the page").click();
  await expect(row).toContainText("sandboxed");
  await plugins.click();
  await expect(await call(2)).toContainText("document=undefined origin=null");
});
