import { test, expect, createWorkspace } from "./fixtures";
import { ask } from "./helpers/agent-ui";

/** The first run a new user sees: the Demo (scripted) model, no key, on the sample project. */
test("the demo model: each tool row shows its own result, and the edit's diff opens", async ({ page }) => {
  await createWorkspace(page, "Demo run");
  await expect(page.getByTestId("model-label")).toHaveText("Demo (scripted)");
  await ask(page, "Show me what you can do");

  const approval = page.getByRole("group", { name: "Approval needed" });
  await expect(approval).toContainText("Apply edit?");
  await approval.getByRole("button", { name: "Approve" }).click();
  await expect(approval).toContainText("Run command?");
  await approval.getByRole("button", { name: "Approve" }).click();

  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(page.getByTestId("completion")).toHaveCount(1);
  await expect(page.getByTestId("completion")).toContainText("Changed greet()");

  // Three tool rows, each finished as itself (not as the completion).
  for (const tool of ["read_files", "editor", "run_commands"]) {
    await expect(transcript.locator(`[data-tool="${tool}"]`)).toHaveCount(1);
    await expect(transcript.locator(`[data-tool="${tool}"]`)).toHaveAttribute("data-status", "ok");
  }

  // Expanding a row shows what that call returned.
  const read = transcript.locator('[data-tool="read_files"]');
  await read.locator(".tool-head").click();
  await expect(read.locator(".tool-body")).toContainText("export function greet");
  await expect(read.locator(".tool-body")).not.toContainText("scripted demo");

  const run = transcript.locator('[data-tool="run_commands"]');
  await run.locator(".tool-head").click();
  await expect(run.locator(".tool-body")).toContainText("Welcome to Tabula");
  await expect(run.locator(".tool-body")).toContainText("M src/greet.ts");
  await expect(run.locator(".tool-body")).not.toContainText("This was the scripted demo");

  // The edit offers its diff, and the diff opens.
  await transcript.getByRole("button", { name: "Open diff of src/greet.ts" }).click();
  const diff = page.getByTestId("diff-editor");
  await expect(diff.locator(".original .view-lines")).toContainText("Hello, ${name}!`");
  await expect(diff.locator(".modified .view-lines:not(.line-delete)")).toContainText("Welcome to Tabula.");
});
