import { test, expect, createWorkspace, treeItem, editorText, guardOffline } from "./fixtures";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { ask, useMockModel, mockModelServerPerFile, autoApprove } from "./helpers/agent-ui";
import { formatBytes } from "../lib/editor/file-kind";
import { newFile } from "./helpers/new-file";

const server = mockModelServerPerFile();

const KEY = "sk-ant-api03-LEAKLEAKLEAKLEAKLEAK0123456789";

/** A fresh browser profile: no workspace, no key — someone else opening the link. */
async function stranger(browser: Browser, leaks: string[]) {
  const context = await browser.newContext();
  await guardOffline(context, leaks);
  return { context, page: await context.newPage() };
}


test("share with a preview and redaction, replay and scrub in a fresh browser, fork, revoke", async ({ page, browser }) => {
  await createWorkspace(page, "Sharer");
  // The user keeps a key in .env (the agent could not write it: env-blocker hides .env from it).
  await newFile(page, ".env", `ANTHROPIC_API_KEY=${KEY}`);
  await useMockModel(page, server.url);
  await autoApprove(page, { commands: false });
  server.setScript([
    {
      toolCalls: [
        { name: "editor", args: { command: "str_replace", path: "src/greet.ts", old_str: "Hello", new_str: "Howdy" } },
        { name: "editor", args: { command: "create", path: "src/config.ts", file_text: `export const key = "${KEY}";\n` } },
      ],
    },
    { text: "Done: greeting, config." },
  ]);
  await ask(page, "friendlier greeting and a config");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Done: greeting, config.");

  await page.getByRole("button", { name: "Share", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Share this session" });
  const preview = dialog.getByTestId("share-preview");
  await expect(preview.getByTestId("share-transcript")).toContainText("secrets redacted (anthropic-key)");
  await expect(preview.getByTestId("share-file").filter({ hasText: ".env" })).toContainText("left out (.env file)");
  await expect(preview.getByTestId("share-file").filter({ hasText: "src/config.ts" })).toContainText("secret(s) redacted");
  await dialog.getByLabel("Link expires").selectOption({ label: "7 days" });
  await dialog.getByRole("button", { name: "Publish link" }).click();
  await expect(dialog.getByTestId("share-result")).toContainText("stored on this server");
  const url = await dialog.getByLabel("Share link").inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{22}$/);
  // The link carries the origin this page is on (127.0.0.1, not the server's "localhost").
  expect(new URL(url).origin).toBe(new URL(page.url()).origin);
  // The server keeps it in this run's own share folder (playwright.config.ts), not ./.data.
  const id = url.split("/s/")[1]!;
  expect(fs.readdirSync(process.env.TABULA_E2E_SHARE_DIR!).sort()).toEqual(expect.arrayContaining([`${id}.json`, `${id}.zip`]));
  expect(fs.existsSync(path.join(".data", "shares", `${id}.zip`))).toBe(false);

  const leaks: string[] = [];
  const other = await stranger(browser, leaks);
  await other.page.goto(url);
  await expect(other.page.getByTestId("replay-title")).toHaveText("friendlier greeting and a config");
  const transcript = other.page.getByRole("log", { name: "Shared transcript" });
  await expect(transcript).toContainText("Done: greeting, config.");
  expect(await other.page.content()).not.toContain(KEY);
  // Scrub to the start of turn 1: the original greeting, no config yet, never the .env.
  const timeline = other.page.getByLabel("Checkpoint timeline");
  await timeline.getByRole("button", { name: /^Turn 1:/ }).click();
  const files = other.page.getByRole("list", { name: "Files at this point" });
  await expect(files.getByRole("button", { name: "src/greet.ts" })).toBeVisible();
  await expect(files.getByRole("button", { name: "src/config.ts" })).toHaveCount(0);
  await files.getByRole("button", { name: "src/greet.ts" }).click();
  await expect(other.page.getByTestId("file-viewer")).toContainText("Hello");
  await expect(transcript.locator(".after-point").first()).toBeVisible();
  // Each step of the turn: what that call changed, as a diff (the last step is the turn's end).
  await timeline.getByRole("button", { name: /^Turn 1 · step 1: editor src\/greet\.ts/ }).click();
  const changed = other.page.getByRole("list", { name: "Changed at this point" });
  await expect(changed).toContainText("src/greet.ts");
  await changed.getByRole("button", { name: /src\/greet\.ts/ }).click();
  await expect(other.page.getByTestId("diff-editor")).toContainText("Howdy");
  await timeline.getByRole("button", { name: /^Turn 1 · step 2: editor src\/config\.ts/ }).click();
  await expect(changed).toContainText("src/config.ts");
  await expect(changed).not.toContainText("src/greet.ts");
  await expect(changed).not.toContainText(".env");
  await files.getByRole("button", { name: "src/config.ts" }).click();
  await expect(other.page.getByTestId("file-viewer")).toContainText("[REDACTED:anthropic-key]");

  // Fork: a workspace of one's own with the files and the conversation.
  await other.page.getByRole("button", { name: "Fork into my workspaces" }).click();
  await other.page.waitForURL(/\/w\/[a-z2-7]{20}$/);
  await treeItem(other.page, "src").click();
  await treeItem(other.page, "src/greet.ts").click();
  await expect.poll(() => editorText(other.page)).toContain("Howdy");
  await expect(treeItem(other.page, ".env")).toHaveCount(0);
  await expect(other.page.getByRole("log", { name: "Agent transcript" })).toContainText("Done: greeting, config.");

  // Revoke: the link says so.
  await dialog.getByRole("button", { name: `Revoke ${url}` }).click();
  await expect(dialog.getByRole("list", { name: "Links you shared" })).toContainText("revoked");
  await other.page.goto(url);
  await expect(other.page.getByTestId("replay-error")).toHaveText("This link was revoked by the person who shared it.");
  await other.context.close();
  expect(leaks).toEqual([]);
});

test("a small session travels inside the link (no upload); a damaged link says so", async ({ page, browser }) => {
  await createWorkspace(page, "Tiny", "Empty");
  await page.getByRole("button", { name: "New save point" }).click();
  await page.getByLabel("Save point name").fill("empty start");
  await page.getByLabel("Save point name").press("Enter");
  await expect(page.getByLabel("Checkpoint timeline").getByRole("button", { name: /^Save point: empty start/ })).toBeVisible();
  let uploads = 0;
  page.on("request", (r) => {
    if (r.url().includes("/api/shares") && r.method() === "POST") uploads++;
  });
  await page.getByRole("button", { name: "Share", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Share this session" });
  await dialog.getByRole("button", { name: "Publish link" }).click();
  await expect(dialog.getByTestId("share-result")).toContainText("inside the link itself (nothing was uploaded)");
  const url = await dialog.getByLabel("Share link").inputValue();
  expect(url).toMatch(/\/s#[A-Za-z0-9_-]+$/);
  expect(uploads).toBe(0);

  const leaks: string[] = [];
  const other = await stranger(browser, leaks);
  await other.page.goto(url);
  await expect(other.page.getByText("read-only replay · 1 checkpoint")).toBeVisible();
  await expect(other.page.getByLabel("Checkpoint timeline").getByRole("button", { name: /^Save point: empty start/ })).toBeVisible();
  await other.page.goto(url.slice(0, -10) + "!!");
  await other.page.reload();
  await expect(other.page.getByTestId("replay-error")).toContainText("damaged");
  // Cut short, or a few characters changed in the middle: the user's terms, not the library's.
  const [base, frag] = url.split("#") as [string, string];
  const mid = Math.floor(frag.length / 2);
  for (const broken of [frag.slice(0, mid), frag.slice(0, mid) + (frag.slice(mid, mid + 8) === "AAAAAAAA" ? "BBBBBBBB" : "AAAAAAAA") + frag.slice(mid + 8)]) {
    await other.page.goto(`${base}#${broken}`);
    await other.page.reload();
    const error = other.page.getByTestId("replay-error");
    await expect(error).toContainText("This link is damaged or incomplete");
    await expect(error).not.toContainText(/isomorphic-git|Pako|file an issue/i);
  }
  await other.context.close();
  expect(leaks).toEqual([]);
});

test("the share preview lists each file with its size; a ticked .env goes in redacted; the link's kind follows the size", async ({ page, browser }) => {
  await createWorkspace(page, "Share sizes");
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  const screen = page.getByTestId("terminal").locator(".xterm-rows");
  await expect(screen).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
  await page.keyboard.type(`printf 'TOKEN=${KEY}\\nPLAIN=hello\\n' > .env && wc -c .env README.md`);
  await page.keyboard.press("Enter");
  await expect(screen).toContainText(/\d+ README\.md/);
  const sizes = new Map([...((await screen.textContent()) ?? "").matchAll(/(\d+) (\.env|README\.md)/g)].map((m) => [m[2]!, Number(m[1])]));
  await page.getByRole("button", { name: "New save point" }).click();
  await page.getByLabel("Save point name").press("Enter");

  // Small: the preview's sizes are the files' sizes; the link carries the session itself.
  await page.getByRole("button", { name: "Share", exact: true }).click();
  let dialog = page.getByRole("dialog", { name: "Share this session" });
  const row = (p: string) => dialog.getByTestId("share-file").filter({ has: page.locator("code", { hasText: new RegExp(`^${p.replace(".", "\\.")}$`) }) });
  await expect(row("README.md")).toContainText(formatBytes(sizes.get("README.md")!));
  await expect(row(".env")).toContainText(formatBytes(sizes.get(".env")!));
  await expect(row(".env")).toContainText("left out (.env file)");
  await dialog.getByLabel("Include .env").check();
  await expect(row(".env")).toContainText("included (secrets still redacted)");
  await dialog.getByRole("button", { name: "Publish link" }).click();
  await expect(dialog.getByTestId("share-result")).toContainText("inside the link itself");
  const small = await dialog.getByLabel("Share link").inputValue();
  expect(small).toMatch(/\/s#/);
  await dialog.getByRole("button", { name: "Done" }).click();

  const leaks: string[] = [];
  const other = await stranger(browser, leaks);
  await other.page.goto(small);
  const files = other.page.getByRole("list", { name: "Files at this point" });
  await files.getByRole("button", { name: ".env" }).click();
  await expect(other.page.getByTestId("file-viewer")).toContainText("PLAIN=hello");
  await expect(other.page.getByTestId("file-viewer")).toContainText("[REDACTED:");
  expect(await other.page.content()).not.toContain(KEY);

  // Large (a file of ~2 MB of digits): the same dialog stores it on the server instead.
  await page.getByTestId("terminal").click();
  await page.keyboard.type("seq 1000000 1090000 > a.tmp && cat a.tmp a.tmp a.tmp > numbers.txt && rm a.tmp && wc -c numbers.txt");
  await page.keyboard.press("Enter");
  await expect(screen).toContainText(/\d+ numbers\.txt/);
  await page.getByRole("button", { name: "New save point" }).click();
  await page.getByLabel("Save point name").press("Enter");
  await page.getByRole("button", { name: "Share", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Share this session" });
  await expect(row("numbers.txt")).toContainText(/\d(\.\d)? MB/);
  await dialog.getByRole("button", { name: "Publish link" }).click();
  await expect(dialog.getByTestId("share-result")).toContainText("stored on this server");
  const large = await dialog.getByLabel("Share link").inputValue();
  expect(large).toMatch(/\/s\/[A-Za-z0-9_-]{22}$/);
  await other.page.goto(large);
  await expect(other.page.getByRole("list", { name: "Files at this point" }).getByRole("button", { name: "numbers.txt" })).toBeVisible();
  await other.context.close();
  expect(leaks).toEqual([]);
});
