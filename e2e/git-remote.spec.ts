import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { test, expect, treeItem, runInTerminal as run } from "./fixtures";
import { startGitHttpServer } from "./helpers/git-http-server";

type Server = Awaited<ReturnType<typeof startGitHttpServer>>;

/** Native git, without blocking this process (the git server runs in it). */
async function native(server: Server, cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)("git", args, { cwd, env: server.env, encoding: "utf8" });
  return stdout;
}

function screen(page: Page) {
  return page.locator('[data-testid="terminal"]:visible .xterm-rows');
}


async function cloneFromStartPage(page: Page, url: string, history?: string) {
  await page.goto("/");
  const form = page.getByRole("form", { name: "Clone repository" });
  await form.getByLabel("Repository URL").fill(url);
  if (history) await form.getByLabel("History").selectOption({ label: history });
  await form.getByRole("button", { name: "Clone" }).click();
}

async function openTerminal(page: Page) {
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(screen(page)).toContainText("$", { timeout: 30_000 });
  await page.locator('[data-testid="terminal"]:visible').click();
}

// Remotes against native `git http-backend` on 127.0.0.1 (the e2e server allows exactly that address).

test("a server asking for credentials: the dialog names it, a refused token asks again, then the clone succeeds", async ({ page }) => {
  const token = "e2e-secret-token-4242";
  const server = await startGitHttpServer({ "hello.txt": "private content\n" }, { receivePack: true, auth: { username: "alice", password: token } });
  const requested: string[] = [];
  page.on("request", (r) => requested.push(r.url()));
  try {
    await page.goto("/");
    const form = page.getByRole("form", { name: "Clone repository" });
    await form.getByLabel("Repository URL").fill(server.url);
    await form.getByRole("button", { name: "Clone" }).click();

    const host = new URL(server.url).host;
    const dialog = page.getByRole("dialog", { name: "Git credentials" });
    await expect(dialog).toContainText(`Sign in to ${host}`);
    await dialog.getByLabel("Username").fill("alice");
    await dialog.getByLabel("Token or password").fill("not-the-token");
    await dialog.getByRole("button", { name: "Sign in" }).click();

    await expect(dialog.getByRole("alert")).toContainText(`${host} did not accept those credentials`);
    await expect(dialog.getByLabel("Username")).toHaveValue("alice");
    await dialog.getByLabel("Token or password").fill(token);
    await dialog.getByRole("button", { name: "Sign in" }).click();

    await page.waitForURL(/\/w\//);
    await expect(page.getByTestId("workspace-name")).toHaveText("repo");
    await treeItem(page, "hello.txt").click();
    await expect(page.getByTestId("code-editor")).toContainText("private content");
    expect(server.log.some((r) => r.authorized)).toBe(true);
    for (const url of [...requested, ...server.log.map((r) => r.url)]) {
      expect(url).not.toContain(token);
      expect(url).not.toContain(Buffer.from(`alice:${token}`).toString("base64"));
    }

    // The Source Control view lists the server (never the token) and forgets it on request.
    await page.getByRole("tab", { name: "Source Control" }).click();
    const scm = page.getByRole("region", { name: "Source Control" });
    await scm.getByText("Git credentials (1)").click();
    const origin = new URL(server.url).origin;
    await expect(scm.getByRole("list", { name: "Git credentials" })).toHaveText(new RegExp(`^${origin.replace(/[.]/g, "\\.")}\\s*Forget$`));
    await expect(scm).not.toContainText(token);
    await scm.getByRole("button", { name: `Forget the credentials for ${origin}` }).click();
    await expect(scm.getByText("Git credentials (0)")).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("tabula.git-credentials.v1"))).toBeNull();
  } finally {
    await server.close();
  }
});

test("round trip: clone from the start page, commit and push in the terminal, native git agrees; a native push comes back with git pull", async ({ page }) => {
  const server = await startGitHttpServer({ "hello.txt": "first line\n", "src/app.js": "export const v = 1;\n" }, { receivePack: true });
  const other = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-e2e-native-"));
  try {
    // Two commits on the server; the clone takes only the last one.
    await native(server, other, "clone", "-q", server.bare, ".");
    fs.writeFileSync(path.join(other, "hello.txt"), "first line\n");
    fs.writeFileSync(path.join(other, "notes.txt"), "older history\n");
    await native(server, other, "add", "notes.txt");
    await native(server, other, "commit", "-qm", "second commit");
    await native(server, other, "push", "-q", "origin", "main");
    fs.rmSync(other, { recursive: true, force: true });
    fs.mkdirSync(other);

    // The clone runs in a worker of its own (the page only shows its progress), ended when done.
    const workers: { url: string; closed: boolean }[] = [];
    page.on("worker", (w) => {
      const seen = { url: w.url(), closed: false };
      workers.push(seen);
      w.on("close", () => (seen.closed = true));
    });
    await cloneFromStartPage(page, server.url, "Last commit");
    await page.waitForURL(/\/w\//);
    // The start page runs no other worker: what started before the workspace opened is the clone's.
    const cloneWorkers = [...workers];
    expect(cloneWorkers).toHaveLength(1);
    await expect.poll(() => cloneWorkers[0]!.closed).toBe(true);
    await expect(treeItem(page, "notes.txt")).toBeVisible();
    await openTerminal(page);
    await run(page, "git log --oneline | wc -l");
    await expect(screen(page).locator(":scope > div").filter({ hasText: /^\s*1\s*$/ })).toHaveCount(1);

    await run(page, "git status");
    await expect(screen(page)).toContainText("Your branch is up to date with 'origin/main'.");
    await run(page, "echo 'from the app' >> hello.txt && git commit -qam 'edit in the app' && git status");
    await expect(screen(page)).toContainText("Your branch is ahead of 'origin/main' by 1 commit.");
    await expect(page.getByTestId("sync-status")).toHaveText("origin/main ↑1 ↓0");
    await run(page, "git push");
    await expect(screen(page)).toContainText("main -> main");
    await expect(page.getByTestId("sync-status")).toHaveText("origin/main ↑0 ↓0");
    await expect.poll(() => native(server, server.bare, "log", "-1", "--format=%s", "main")).toBe("edit in the app\n");
    expect(await native(server, server.bare, "show", "main:hello.txt")).toBe("first line\nfrom the app\n");
    await native(server, server.bare, "fsck", "--strict", "--no-dangling");

    // Someone else pushes with native git; the app pulls it.
    await native(server, other, "clone", "-q", server.url, ".");
    fs.writeFileSync(path.join(other, "src/app.js"), "export const v = 2;\n");
    await native(server, other, "commit", "-qam", "native change");
    await native(server, other, "push", "-q", "origin", "main");
    await run(page, "git pull");
    await expect(screen(page)).toContainText("Fast-forward");
    await expect(screen(page)).toContainText("src/app.js | 2 +-");
    await run(page, "cat src/app.js; git status -sb");
    await expect(screen(page)).toContainText("export const v = 2;");
    await expect(screen(page)).toContainText("## main...origin/main");
  } finally {
    fs.rmSync(other, { recursive: true, force: true });
    await server.close();
  }
});
