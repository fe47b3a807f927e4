/**
 * Takes docs/screenshot.png: the sample project with the file tree, the editor, the terminal
 * after a command, and the agent panel after a run of the built-in Demo model (its approvals
 * clicked, its checkpoint on the timeline). Run with `npm run screenshot`.
 */
import path from "node:path";
import { test, expect, createWorkspace, openTerminal, runInTerminal } from "../../e2e/fixtures";
import { ask } from "../../e2e/helpers/agent-ui";

test("README screenshot", async ({ page }) => {
  test.setTimeout(120_000);
  await createWorkspace(page, "my-app");
  const tree = page.getByRole("tree");
  await tree.getByRole("treeitem", { name: "src" }).click();
  await tree.getByRole("treeitem", { name: "greet.ts" }).click();

  await openTerminal(page);
  await runInTerminal(page, "git log --oneline && ls src");
  await expect(page.getByTestId("terminal")).toContainText("greet.ts");

  await ask(page, "Make the greeting friendlier and check the code still mentions it");
  // Approve what the Demo asks (an edit, then its commands) until its run ends.
  const approval = page.getByRole("group", { name: "Approval needed" });
  const send = page.getByRole("button", { name: "Send", exact: true });
  for (let i = 0; i < 10; i++) {
    await expect(approval.or(send)).toBeVisible({ timeout: 30_000 });
    if (await send.isVisible()) break;
    await approval.getByRole("button", { name: "Approve" }).click();
  }
  await expect(send).toBeVisible();
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText(/changed|Turn/);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.resolve(import.meta.dirname, "../../docs/screenshot.png") });
});
