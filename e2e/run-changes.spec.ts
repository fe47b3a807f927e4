import { test, expect, createWorkspace, treeItem, editorText, typeInEditor, expandFolder } from "./fixtures";
import type { Page } from "@playwright/test";
import { ask, useMockModel, mockModelServerPerFile, autoApprove } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

const changesView = (page: Page, run: number) => page.getByRole("region", { name: `Changes of turn ${run}` });
const fileRows = (page: Page, run: number) => changesView(page, run).getByTestId("run-change-file");
const row = (page: Page, run: number, path: string) => fileRows(page, run).filter({ hasText: path });

async function runTurn(page: Page, prompt: string, done: string) {
  await ask(page, prompt);
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText(done);
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
}

test("after a turn, review its changes as a whole: diffs, revert one file, undo, revert all, keep all — kept across a reload", async ({ page }) => {
  await createWorkspace(page, "Review a run");
  await useMockModel(page, server.url);
  await autoApprove(page);
  server.setScript([
    {
      toolCalls: [
        { name: "editor", args: { command: "str_replace", path: "src/greet.ts", old_str: "Hello", new_str: "Howdy" } },
        { name: "editor", args: { command: "create", path: "src/farewell.ts", file_text: "export const bye = () => 'bye';\n" } },
        { name: "run_commands", args: { commands: ["rm README.md"] } },
      ],
    },
    { text: "All three done." },
  ]);
  await runTurn(page, "three changes", "All three done.");

  // The last message says what the turn changed.
  const line = page.getByTestId("run-changes-line");
  await expect(line).toContainText("Turn 1 changed 3 files");
  await line.getByRole("button", { name: "Review changes" }).click();
  await expect(fileRows(page, 1)).toHaveText([/deleted\s*README\.md\s*\+0 −\d+/, /added\s*src\/farewell\.ts\s*\+1 −0/, /modified\s*src\/greet\.ts\s*\+1 −1/]);

  // Each file's diff: before the turn (left) ↔ what it left (right).
  await changesView(page, 1).getByRole("button", { name: "src/greet.ts", exact: true }).click();
  const diff = page.getByTestId("diff-editor");
  await expect(diff).toContainText("Hello");
  await expect(diff).toContainText("Howdy");
  await expect(page.getByRole("tab", { name: /greet\.ts \(before turn 1 ↔ after\)/ })).toBeVisible();
  await page.getByRole("button", { name: "Close diff" }).click();

  // An edit by hand after the turn: the file says so (reverting it would undo that edit too).
  await expandFolder(page, "src");
  await treeItem(page, "src/greet.ts").click();
  await expect.poll(() => editorText(page)).toContain("Howdy");
  await typeInEditor(page, "MINE ", "src/greet.ts");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("tab", { name: /greet\.ts/ }).first().getByLabel("unsaved changes")).toHaveCount(0);
  await expect(row(page, 1, "src/greet.ts")).toContainText("changed since");
  await expect(row(page, 1, "src/farewell.ts")).not.toContainText("changed since");

  // Revert one file: only it goes back; Undo brings it back.
  await changesView(page, 1).getByRole("button", { name: "Revert src/farewell.ts" }).click();
  await expect(changesView(page, 1).getByTestId("revert-banner")).toContainText("Reverted src/farewell.ts to before turn 1 (1 file changed)");
  await expect(treeItem(page, "src/farewell.ts")).toHaveCount(0);
  await expect(row(page, 1, "src/farewell.ts")).toContainText("reverted");
  await expect(changesView(page, 1).getByRole("button", { name: "Revert src/farewell.ts" })).toBeDisabled();
  await expect(treeItem(page, "README.md")).toHaveCount(0);
  await changesView(page, 1).getByRole("button", { name: "Undo revert" }).click();
  await expect(treeItem(page, "src/farewell.ts")).toBeVisible();
  await expect(row(page, 1, "src/farewell.ts")).not.toContainText("reverted");

  // Revert all: every file as before the turn (the edit by hand on greet.ts too); Undo: all back, mine included.
  await changesView(page, 1).getByRole("button", { name: "Revert all" }).click();
  await expect(changesView(page, 1).getByTestId("revert-banner")).toContainText("Reverted turn 1's changes to before turn 1 (3 files changed)");
  await expect(treeItem(page, "README.md")).toBeVisible();
  await expect(treeItem(page, "src/farewell.ts")).toHaveCount(0);
  await expect.poll(() => editorText(page)).toContain("Hello");
  expect(await editorText(page)).not.toContain("MINE");
  await expect(changesView(page, 1).getByTestId("run-review")).toHaveText("· reverted");
  await changesView(page, 1).getByRole("button", { name: "Undo revert" }).click();
  await expect(treeItem(page, "README.md")).toHaveCount(0);
  await expect(treeItem(page, "src/farewell.ts")).toBeVisible();
  await expect.poll(() => editorText(page)).toMatch(/Howdy[^]*MINE/);
  await expect(changesView(page, 1).getByTestId("run-review")).toHaveCount(0);

  // Keep all: the view closes and the turn is marked reviewed, still after a reload.
  await changesView(page, 1).getByRole("button", { name: "Keep all" }).click();
  await expect(changesView(page, 1)).toHaveCount(0);
  await expect(line).toContainText("Turn 1 changed 3 files · kept");
  await page.reload();
  await expect(page.getByTestId("run-changes-line")).toContainText("Turn 1 changed 3 files · kept");
  // src was left expanded: the reload shows it so.
  await expect(treeItem(page, "src")).toHaveAttribute("aria-expanded", "true");
  await expect(treeItem(page, "src/farewell.ts")).toBeVisible();
});

test("an earlier turn's changes from the timeline: only that turn's files, reverted alone", async ({ page }) => {
  await createWorkspace(page, "Review from the timeline");
  await useMockModel(page, server.url);
  await autoApprove(page);
  server.setScript([
    { toolCalls: [{ name: "editor", args: { command: "create", path: "notes/one.md", file_text: "# one\n" } }] },
    { text: "Turn one done." },
    { toolCalls: [{ name: "editor", args: { command: "create", path: "notes/two.md", file_text: "# two\n" } }] },
    { text: "Turn two done." },
  ]);
  await runTurn(page, "first note", "Turn one done.");
  await runTurn(page, "second note", "Turn two done.");
  await expect(page.getByTestId("run-changes-line")).toHaveCount(1);
  await expect(page.getByTestId("run-changes-line")).toContainText("Turn 2 changed 1 file");

  await page.getByLabel("Checkpoint timeline").getByRole("button", { name: /^Turn 1: first note/ }).click();
  await page.getByRole("region", { name: "Checkpoint preview" }).getByRole("button", { name: "Changes of turn 1" }).click();
  await expect(page.getByRole("region", { name: "Checkpoint preview" })).toHaveCount(0);
  await expect(fileRows(page, 1)).toHaveText([/added\s*notes\/one\.md\s*\+1 −0/]);
  await changesView(page, 1).getByRole("button", { name: "Revert all" }).click();
  await expect(changesView(page, 1).getByTestId("revert-banner")).toContainText("(1 file changed)");
  await expandFolder(page, "notes");
  await expect(treeItem(page, "notes/two.md")).toBeVisible();
  await expect(treeItem(page, "notes/one.md")).toHaveCount(0);
  await changesView(page, 1).getByRole("button", { name: "Close the changes" }).click();
  await expect(changesView(page, 1)).toHaveCount(0);
});
