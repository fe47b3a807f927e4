import { test, expect, createWorkspace, treeItem, editorText, typeInEditor, expandFolder } from "./fixtures";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ask, useMockModel, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

function git(cwd: string, args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: os.tmpdir() } }).trim();
}

test("export a session as a git bundle that native git clones; import it into a new workspace and continue", async ({ page }) => {
  await createWorkspace(page, "Exporter");
  await useMockModel(page, server.url);
  server.setScript([
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "src/greet.ts", old_str: "Hello", new_str: "Howdy" } }] },
    { text: "Greeting changed." },
  ]);
  await ask(page, "make the greeting friendlier");
  await page.getByRole("group", { name: "Approval needed" }).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Greeting changed.");
  // An untracked file made by hand after the run: part of the export.
  await page.getByRole("button", { name: "New file" }).click();
  await page.getByLabel("New file name").fill("notes.txt");
  await page.getByLabel("New file name").press("Enter");
  await typeInEditor(page, "my notes", "notes.txt");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("tab", { name: /notes\.txt/ }).getByLabel("unsaved changes")).toHaveCount(0);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("make-the-greeting-friendlier.bundle");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-e2e-bundle-"));
  try {
    const bundle = path.join(dir, "s.bundle");
    await file.saveAs(bundle);
    // Native git: verify, clone, fsck; the checkpoints are in the bundle.
    git(dir, ["clone", "-q", bundle, "clone"]);
    git(path.join(dir, "clone"), ["bundle", "verify", bundle]); // (verify needs a repository to run in)
    git(path.join(dir, "clone"), ["fsck", "--full"]);
    expect(fs.readFileSync(path.join(dir, "clone", "src/greet.ts"), "utf8")).toContain("Hello"); // the branch as committed
    expect(git(dir, ["bundle", "list-heads", bundle])).toMatch(/refs\/tabula\/checkpoints\/[^/]+\/1\n/);
    // The exported timeline now shows the snapshot taken for the export.
    await expect(page.getByLabel("Checkpoint timeline").getByRole("button", { name: /^Save point: Exported/ })).toBeVisible();

    // Import it as a new workspace from the start page.
    await page.goto("/");
    await page.getByTestId("import-bundle-input").setInputFiles(bundle);
    await page.waitForURL(/\/w\/[a-z2-7]{20}$/);
    await expect(page.getByTestId("workspace-name")).toHaveText("s");
    await treeItem(page, "notes.txt").click();
    await expect.poll(() => editorText(page)).toBe("my notes");
    await expandFolder(page, "src");
    await treeItem(page, "src/greet.ts").click();
    await expect.poll(() => editorText(page)).toContain("Howdy");
    // The conversation and its timeline came along.
    await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Greeting changed.");
    await page.getByLabel("Checkpoint timeline").getByRole("button", { name: /^Turn 1: make the greeting friendlier/ }).click();
    await expect(page.getByRole("region", { name: "Checkpoint preview" }).getByTestId("preview-file")).toHaveText([/removed\s*notes\.txt/, /modified\s*src\/greet\.ts\s*\+1 −1/]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a file that is not a bundle is refused and creates nothing", async ({ page }) => {
  await page.goto("/");
  const before = await page.getByRole("row").count();
  await page.getByTestId("import-bundle-input").setInputFiles({ name: "fake.bundle", mimeType: "application/octet-stream", buffer: Buffer.from("PK\x03\x04 not a bundle") });
  const importError = page.getByRole("alert").filter({ hasText: "Import failed" });
  await expect(importError).toContainText("This is not a git bundle");
  await expect(importError).toContainText("Nothing was created.");
  await expect(page.getByRole("row")).toHaveCount(before);
});
