/**
 * Takes docs/screenshot.png: the sample project with the file tree, the editor, the terminal
 * after a command, and the agent panel after a run of the built-in Demo model (its approvals
 * clicked, its checkpoint on the timeline). Run with `npm run screenshot`.
 */
import path from "node:path";
import { test, expect, createWorkspace } from "../../e2e/fixtures";
import { ask } from "../../e2e/helpers/agent-ui";

test("README screenshot", async ({ page }) => {
  test.setTimeout(120_000);
  await createWorkspace(page, "my-app");
  const tree = page.getByRole("tree");
  await tree.getByRole("treeitem", { name: "src" }).click();
  await tree.getByRole("treeitem", { name: "greet.ts" }).click();

  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  const terminal = page.getByTestId("terminal");
  await terminal.click();
  await page.keyboard.type("git log --oneline && ls src");
  await page.keyboard.press("Enter");
  await expect(terminal).toContainText("greet.ts");

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
