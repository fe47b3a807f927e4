import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { test, expect, treeItem, typeInEditor, expandFolder } from "./fixtures";
import { startGitHttpServer } from "./helpers/git-http-server";

type Server = Awaited<ReturnType<typeof startGitHttpServer>>;

/** Native git, without blocking this process (the git server runs in it). */
async function native(server: Server, cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)("git", args, { cwd, env: server.env, encoding: "utf8" });
  return stdout;
}

async function nativeCommit(server: Server, file: string, content: string, message: string) {
  const other = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-e2e-scm-"));
  try {
    await native(server, other, "clone", "-q", server.bare, ".");
    fs.writeFileSync(path.join(other, file), content);
    await native(server, other, "commit", "-qam", message);
    await native(server, other, "push", "-q", "origin", "main");
  } finally {
    fs.rmSync(other, { recursive: true, force: true });
  }
}

function view(page: Page) {
  return page.getByRole("region", { name: "Source Control" });
}
function group(page: Page, name: "Changes" | "Staged Changes" | "Merge Changes") {
  return view(page).getByRole("region", { name, exact: true });
}
function fileRow(page: Page, g: "Changes" | "Staged Changes" | "Merge Changes", file: string) {
  return group(page, g).locator(`li[data-path="${file}"]`);
}

async function cloneAndOpenView(page: Page, server: Server) {
  await page.goto("/");
  const form = page.getByRole("form", { name: "Clone repository" });
  await form.getByLabel("Repository URL").fill(server.url);
  await form.getByRole("button", { name: "Clone" }).click();
  await page.waitForURL(/\/w\//);
  await expect(treeItem(page, "hello.txt")).toBeVisible();
  await page.getByRole("tab", { name: "Source Control" }).click();
  await expect(view(page).getByTestId("scm-branch")).toHaveText("⎇ main");
  await expect(view(page).getByTestId("scm-tracking")).toHaveText("origin/main ↑0 ↓0");
}

async function editAndSave(page: Page, file: string, text: string) {
  await page.getByRole("tab", { name: "Explorer" }).click();
  await treeItem(page, file).click();
  await typeInEditor(page, "", file); // click into the file's editor
  await page.keyboard.press("Control+Home");
  await page.keyboard.type(text);
  await page.keyboard.press("Control+s");
  await page.getByRole("tab", { name: "Source Control" }).click();
}

test("Source Control view: stage, unstage, commit with Ctrl+Enter, push; native git agrees; a native push comes back with Pull", async ({ page }) => {
  const server = await startGitHttpServer({ "hello.txt": "first line\n", "src/app.js": "export const v = 1;\n" }, { receivePack: true });
  try {
    await cloneAndOpenView(page, server);
    await expect(group(page, "Changes")).toContainText("No changes.");

    await editAndSave(page, "hello.txt", "edited in the app ");
    await expect(fileRow(page, "Changes", "hello.txt")).toContainText("M");
    await fileRow(page, "Changes", "hello.txt").hover();
    await view(page).getByRole("button", { name: "Stage hello.txt" }).click();
    await expect(fileRow(page, "Staged Changes", "hello.txt")).toBeVisible();
    await expect(group(page, "Changes")).toContainText("No changes.");
    await fileRow(page, "Staged Changes", "hello.txt").hover();
    await view(page).getByRole("button", { name: "Unstage hello.txt" }).click();
    await expect(fileRow(page, "Changes", "hello.txt")).toBeVisible();
    await expect(group(page, "Staged Changes")).toHaveCount(0);

    // Nothing staged: the view offers to stage everything and commit.
    const box = view(page).getByLabel("Commit message");
    await box.click();
    await page.keyboard.type("Edit hello from the view");
    await page.keyboard.press("Control+Enter");
    const ask = view(page).getByRole("alertdialog", { name: "No staged changes" });
    await expect(ask).toBeVisible();
    await ask.getByRole("button", { name: "Stage all and commit" }).click();
    await expect(view(page).getByRole("status").filter({ hasText: "Committed." })).toBeVisible();
    await expect(box).toHaveValue("");
    await expect(view(page).getByTestId("scm-tracking")).toHaveText("origin/main ↑1 ↓0");

    await view(page).getByRole("button", { name: "Push", exact: true }).click();
    await expect(view(page).getByTestId("scm-tracking")).toHaveText("origin/main ↑0 ↓0");
    expect(await native(server, server.bare, "log", "-1", "--format=%s", "main")).toBe("Edit hello from the view\n");
    expect(await native(server, server.bare, "show", "main:hello.txt")).toBe("edited in the app first line\n");
    await native(server, server.bare, "fsck", "--strict", "--no-dangling");
    await view(page).getByText(/^Output/).click();
    await expect(view(page).getByTestId("scm-output")).toContainText("$ git push");
    await expect(view(page).getByTestId("scm-output")).toContainText("main -> main");

    // Someone else pushes; Fetch shows it behind, Pull brings it into the tree and the editor.
    await nativeCommit(server, "src/app.js", "export const v = 2;\n", "native change");
    await view(page).getByRole("button", { name: "Fetch" }).click();
    await expect(view(page).getByTestId("scm-tracking")).toHaveText("origin/main ↑0 ↓1");
    await view(page).getByRole("button", { name: "Pull" }).click();
    await expect(view(page).getByTestId("scm-tracking")).toHaveText("origin/main ↑0 ↓0");
    await page.getByRole("tab", { name: "Explorer" }).click();
    await expandFolder(page, "src");
    await treeItem(page, "src/app.js").click();
    await expect(page.getByTestId("code-editor")).toContainText("export const v = 2;");
  } finally {
    await server.close();
  }
});

test("Source Control view: discard is undoable; a conflicting Sync lists the conflict, the merge editor resolves it, pushed", async ({ page }) => {
  const server = await startGitHttpServer({ "hello.txt": "base line\n" }, { receivePack: true });
  try {
    await cloneAndOpenView(page, server);

    // Discard, then Undo: the edit comes back.
    await editAndSave(page, "hello.txt", "my idea ");
    await fileRow(page, "Changes", "hello.txt").hover();
    await view(page).getByRole("button", { name: "Discard changes in hello.txt" }).click();
    await expect(view(page).getByRole("status").filter({ hasText: "Discarded hello.txt." })).toBeVisible();
    await expect(group(page, "Changes")).toContainText("No changes.");
    await expect(page.getByTestId("code-editor")).toContainText("base line");
    await expect(page.getByTestId("code-editor")).not.toContainText("my idea");
    await view(page).getByRole("button", { name: "Undo" }).click();
    await expect(fileRow(page, "Changes", "hello.txt")).toBeVisible();
    await expect(page.getByTestId("code-editor")).toContainText("my idea base line");

    // Commit ours; the server gets a conflicting change; Sync merges and stops on the conflict.
    await view(page).getByRole("button", { name: "Stage all changes" }).click();
    await view(page).getByLabel("Commit message").fill("ours");
    await view(page).getByRole("button", { name: "Commit", exact: true }).click();
    await expect(view(page).getByTestId("scm-tracking")).toHaveText("origin/main ↑1 ↓0");
    await nativeCommit(server, "hello.txt", "their line\n", "theirs");
    await view(page).getByRole("button", { name: "Sync" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "CONFLICT" })).toHaveText(/CONFLICT \(content\): Merge conflict in hello\.txt/);
    await expect(fileRow(page, "Merge Changes", "hello.txt")).toBeVisible();
    await expect(page.getByTestId("code-editor")).toContainText("<<<<<<< HEAD");

    // The merge editor: both sides next to each other; Accept Both, Undo, Accept Both, Complete Merge.
    await fileRow(page, "Merge Changes", "hello.txt").getByRole("button", { name: /hello\.txt/ }).first().click();
    const merge = page.getByRole("region", { name: "Merge editor" });
    await expect(merge.getByRole("status")).toHaveText("1 conflict left");
    const conflict = merge.getByRole("region", { name: "Conflict 1" });
    await expect(conflict.getByLabel("Current")).toHaveText("my idea base line");
    await expect(conflict.getByLabel("Incoming")).toHaveText("their line");
    await expect(merge.getByRole("button", { name: "Complete Merge" })).toBeDisabled();
    await conflict.getByRole("button", { name: "Accept Incoming" }).click();
    await expect(merge.getByRole("status")).toHaveText("No conflicts left");
    await merge.getByRole("button", { name: "Undo" }).click();
    await expect(merge.getByRole("status")).toHaveText("1 conflict left");
    await merge.getByRole("region", { name: "Conflict 1" }).getByRole("button", { name: "Accept Both" }).click();
    await expect(merge.getByTestId("merge-result")).toHaveText("my idea base line\ntheir line\n", { useInnerText: true });
    await merge.getByRole("button", { name: "Complete Merge" }).click();
    await expect(merge).toHaveCount(0);
    await expect(fileRow(page, "Staged Changes", "hello.txt")).toBeVisible();
    await expect(group(page, "Merge Changes")).toHaveCount(0);
    // An empty message concludes the merge with git's prepared one.
    await expect(view(page).getByLabel("Commit message")).toHaveAttribute("placeholder", /^Merge: /);
    await view(page).getByRole("button", { name: "Commit", exact: true }).click();
    await expect(view(page).getByRole("status").filter({ hasText: "Committed." })).toBeVisible();
    await view(page).getByRole("button", { name: "Push", exact: true }).click();
    await expect(view(page).getByTestId("scm-tracking")).toHaveText("origin/main ↑0 ↓0");
    expect(await native(server, server.bare, "show", "main:hello.txt")).toBe("my idea base line\ntheir line\n");
    expect(await native(server, server.bare, "log", "-1", "--format=%s", "main")).toMatch(/^Merge branch 'main' of /);
    expect((await native(server, server.bare, "log", "-1", "--format=%P", "main")).trim().split(" ")).toHaveLength(2);
    await native(server, server.bare, "fsck", "--strict", "--no-dangling");

    // The History lists the merge first, with both lines of work below it; a click shows the commit.
    await view(page).getByRole("button", { name: "History" }).click();
    const commits = view(page).getByRole("list", { name: "Commits" }).locator("li");
    await expect(commits.first()).toContainText(/Merge branch 'main' of /);
    await expect(commits.first()).toContainText("HEAD -> main");
    await expect(commits.filter({ hasText: "theirs" })).toHaveCount(1);
    await expect(commits.filter({ hasText: "ours" })).toHaveCount(1);
    await commits.first().getByRole("button").click();
    await expect(view(page).getByTestId("commit-details")).toContainText("hello.txt");
  } finally {
    await server.close();
  }
});

test("Source Control view: a modify/delete conflict is settled with Keep and Delete (undoable), concluded and pushed; native git agrees", async ({ page }) => {
  const server = await startGitHttpServer({ "hello.txt": "hello\n", "keep.txt": "base keep\n", "drop.txt": "base drop\n" }, { receivePack: true });
  try {
    await cloneAndOpenView(page, server);
    // Ours: keep.txt deleted from the tree, drop.txt edited; committed.
    await page.getByRole("tab", { name: "Explorer" }).click();
    await treeItem(page, "keep.txt").click({ button: "right" });
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await expect(treeItem(page, "keep.txt")).toHaveCount(0);
    await editAndSave(page, "drop.txt", "our ");
    await view(page).getByRole("button", { name: "Stage all changes" }).click();
    await view(page).getByLabel("Commit message").fill("ours");
    await view(page).getByRole("button", { name: "Commit", exact: true }).click();
    await expect(view(page).getByTestId("scm-tracking")).toHaveText("origin/main ↑1 ↓0");

    // Theirs: keep.txt edited, drop.txt deleted. Sync stops on both.
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-e2e-scm-"));
    try {
      await native(server, other, "clone", "-q", server.bare, ".");
      fs.writeFileSync(path.join(other, "keep.txt"), "their keep\n");
      await native(server, other, "rm", "-q", "drop.txt");
      await native(server, other, "commit", "-qam", "theirs");
      await native(server, other, "push", "-q", "origin", "main");
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
    await view(page).getByRole("button", { name: "Sync" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "CONFLICT" })).toContainText("CONFLICT (modify/delete)");
    await expect(fileRow(page, "Merge Changes", "keep.txt")).toContainText("deleted by us");
    await expect(fileRow(page, "Merge Changes", "drop.txt")).toContainText("deleted by them");

    // Keep their keep.txt; delete drop.txt, undo, delete again.
    await view(page).getByRole("button", { name: "Keep keep.txt" }).click();
    await expect(fileRow(page, "Merge Changes", "keep.txt")).toHaveCount(0);
    await expect(fileRow(page, "Staged Changes", "keep.txt")).toBeVisible();
    await view(page).getByRole("button", { name: "Delete drop.txt" }).click();
    await expect(view(page).getByRole("status").filter({ hasText: "Deleted drop.txt." })).toBeVisible();
    await expect(group(page, "Merge Changes")).toHaveCount(0);
    await view(page).getByRole("button", { name: "Undo" }).click();
    await expect(view(page).getByRole("status").filter({ hasText: "Put drop.txt back." })).toBeVisible();
    await page.getByRole("tab", { name: "Explorer" }).click();
    await treeItem(page, "drop.txt").click();
    await expect(page.getByTestId("code-editor")).toContainText("our base drop");
    await treeItem(page, "drop.txt").click({ button: "right" });
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await expect(treeItem(page, "drop.txt")).toHaveCount(0);
    await page.getByRole("tab", { name: "Source Control" }).click();

    // An empty message concludes the merge; pushed, native git has their keep.txt and no drop.txt.
    await view(page).getByRole("button", { name: "Commit", exact: true }).click();
    await expect(view(page).getByRole("status").filter({ hasText: "Committed." })).toBeVisible();
    await view(page).getByRole("button", { name: "Push", exact: true }).click();
    await expect(view(page).getByTestId("scm-tracking")).toHaveText("origin/main ↑0 ↓0");
    expect(await native(server, server.bare, "show", "main:keep.txt")).toBe("their keep\n");
    expect(await native(server, server.bare, "ls-tree", "--name-only", "main")).toBe("hello.txt\nkeep.txt\n");
    expect((await native(server, server.bare, "log", "-1", "--format=%P", "main")).trim().split(" ")).toHaveLength(2);
    await native(server, server.bare, "fsck", "--strict", "--no-dangling");
  } finally {
    await server.close();
  }
});

test("Source Control view: stage one hunk of a file, commit it, unstage a hunk again; native git sees exactly that", async ({ page }) => {
  const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join("");
  const server = await startGitHttpServer({ "hello.txt": "hello\n", "long.txt": text }, { receivePack: true });
  try {
    await cloneAndOpenView(page, server);
    // Two separate edits: at the top and at the bottom of long.txt.
    await page.getByRole("tab", { name: "Explorer" }).click();
    await treeItem(page, "long.txt").click();
    await typeInEditor(page, "", "long.txt");
    await page.keyboard.press("Control+Home");
    await page.keyboard.type("top edit ");
    await page.keyboard.press("Control+End");
    // A word typed here must not be in the file already: Monaco would offer it as a word-based
    // suggestion and Enter would accept that instead of ending the line.
    await page.keyboard.type("bottom addition\n");
    await page.keyboard.press("Control+s");
    await page.getByRole("tab", { name: "Source Control" }).click();

    await view(page).getByRole("button", { name: "Show hunks of long.txt" }).click();
    const hunks = view(page).getByRole("list", { name: "Changes in long.txt, hunk by hunk" });
    await expect(hunks.getByRole("listitem")).toHaveCount(2);
    await expect(hunks.getByRole("listitem", { name: "Hunk 1 of long.txt" })).toContainText("+top edit line 1");
    await expect(hunks.getByRole("listitem", { name: "Hunk 2 of long.txt" })).toContainText("+bottom addition");
    await hunks.getByRole("button", { name: "Stage hunk 2 of long.txt" }).click();
    // The file is now both staged (the bottom edit) and changed (the top edit).
    await expect(fileRow(page, "Staged Changes", "long.txt")).toBeVisible();
    await expect(hunks.getByRole("listitem")).toHaveCount(1);
    await expect(hunks.getByRole("listitem", { name: "Hunk 1 of long.txt" })).toContainText("+top edit line 1");

    await view(page).getByLabel("Commit message").fill("bottom only");
    await view(page).getByRole("button", { name: "Commit", exact: true }).click();
    await expect(view(page).getByRole("status").filter({ hasText: "Committed." })).toBeVisible();
    await view(page).getByRole("button", { name: "Push", exact: true }).click();
    await expect(view(page).getByTestId("scm-tracking")).toHaveText("origin/main ↑0 ↓0");
    expect(await native(server, server.bare, "show", "main:long.txt")).toBe(text + "bottom addition\n");

    // Stage the top edit, then take it back out from the staged list: it stays in the file, unstaged.
    await hunks.getByRole("button", { name: "Stage hunk 1 of long.txt" }).click();
    await expect(fileRow(page, "Changes", "long.txt")).toHaveCount(0);
    await view(page).getByRole("button", { name: "Show hunks of long.txt" }).click();
    const staged = view(page).getByRole("list", { name: "Changes in long.txt, hunk by hunk" });
    await staged.getByRole("button", { name: "Unstage hunk 1 of long.txt" }).click();
    await expect(fileRow(page, "Staged Changes", "long.txt")).toHaveCount(0);
    await expect(fileRow(page, "Changes", "long.txt")).toBeVisible();
    await expect(page.getByTestId("code-editor")).toContainText("top edit line 1");
  } finally {
    await server.close();
  }
});
