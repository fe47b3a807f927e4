import { test, expect, treeItem, expandFolder } from "./fixtures";
import { zipSync, unzipSync, strToU8 } from "fflate";
import fs from "node:fs";
import { startGitHttpServer } from "./helpers/git-http-server";

const binary = Uint8Array.from({ length: 3000 }, (_, i) => (i * 37) % 256);
const archiveFiles: Record<string, Uint8Array> = {
  "proj/README.md": strToU8("# Zipped\n"),
  "proj/src/app.js": strToU8("console.log('from zip');\n"),
  "proj/src/ünïcode name.txt": strToU8("unicode ✓\n"),
  "proj/assets/logo.bin": binary,
  "proj/empty.txt": new Uint8Array(0),
};

test("import a .zip and export it again: every file is byte-identical", async ({ page }, info) => {
  const zipPath = info.outputPath("proj.zip");
  fs.writeFileSync(zipPath, zipSync(archiveFiles));
  await page.goto("/");
  await page.getByTestId("import-zip-input").setInputFiles(zipPath);
  await page.waitForURL(/\/w\//);
  await expect(page.getByTestId("workspace-name")).toHaveText("proj");
  await expect(treeItem(page, "README.md")).toBeVisible();
  await expandFolder(page, "assets");
  await treeItem(page, "assets/logo.bin").click();
  await expect(page.getByRole("status").filter({ hasText: "Binary file" })).toContainText("read-only hex preview");

  await page.goto("/");
  const row = page.getByRole("row").filter({ hasText: "proj" });
  const download = page.waitForEvent("download");
  await row.getByRole("button", { name: "Export .zip" }).click();
  const file = await (await download).path();
  const exported = unzipSync(new Uint8Array(fs.readFileSync(file)));
  const expected = Object.fromEntries(Object.entries(archiveFiles).map(([p, d]) => [p.slice("proj/".length), d]));
  expect(Object.keys(exported).sort()).toEqual(Object.keys(expected).sort());
  for (const [p, data] of Object.entries(expected)) expect(Buffer.from(exported[p]).equals(Buffer.from(data)), p).toBe(true);
});

test("an invalid zip gets a clear error and creates nothing", async ({ page }, info) => {
  const bad = info.outputPath("broken.zip");
  fs.writeFileSync(bad, "this is not a zip archive at all");
  await page.goto("/");
  const before = await page.getByRole("row").count();
  await page.getByTestId("import-zip-input").setInputFiles(bad);
  const importError = page.getByRole("alert").filter({ hasText: "Import failed" });
  await expect(importError).toContainText("not a .zip archive");
  await expect(importError).toContainText("Nothing was created");
  await expect(page.getByRole("row")).toHaveCount(before);

  // A zip whose entries escape the workspace is refused before anything is written.
  const evil = info.outputPath("evil.zip");
  fs.writeFileSync(evil, zipSync({ "ok.txt": strToU8("ok"), "../../escape.txt": strToU8("x") }));
  await page.getByTestId("import-zip-input").setInputFiles(evil);
  await expect(importError).toContainText("escape");
  await expect(page.getByRole("row")).toHaveCount(before);
});

test("clone a repository from a local git HTTP server through the proxy", async ({ page }) => {
  const server = await startGitHttpServer({ "hello.txt": "cloned content\n", "lib/util.js": "export const x = 1;\n" });
  try {
    await page.goto("/");
    const form = page.getByRole("form", { name: "Clone repository" });
    await form.getByLabel("Repository URL").fill(server.notGitUrl);
    await form.getByRole("button", { name: "Clone" }).click();
    await expect(form.getByRole("alert")).toContainText("not a git");

    await form.getByLabel("Repository URL").fill(server.url);
    await form.getByRole("button", { name: "Clone" }).click();
    await page.waitForURL(/\/w\//);
    await expect(page.getByTestId("workspace-name")).toHaveText("repo");
    await expect(treeItem(page, "hello.txt")).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Branch" })).toHaveValue("main");
    await treeItem(page, "hello.txt").click();
    await expect(page.getByTestId("code-editor")).toContainText("cloned content");
  } finally {
    await server.close();
  }
});

test("a folder that is a git repository keeps its history, branches and remote; ignored files stay out; export with history round-trips", async ({ page }, info) => {
  const { execFileSync } = await import("node:child_process");
  const path = await import("node:path");
  const src = info.outputPath("myrepo");
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Dev", "-c", "user.email=dev@example.com", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8" });
  const write = (p: string, s: string) => (fs.mkdirSync(path.dirname(path.join(src, p)), { recursive: true }), fs.writeFileSync(path.join(src, p), s));
  fs.mkdirSync(src, { recursive: true });
  git(src, "init", "-q");
  write(".gitignore", "node_modules/\n");
  write("index.js", "console.log(1);\n");
  git(src, "add", "-A");
  git(src, "commit", "-qm", "first commit");
  write("index.js", "console.log(2);\n");
  git(src, "commit", "-qam", "second commit");
  git(src, "branch", "feature");
  git(src, "remote", "add", "origin", "https://dev:secret-token@example.com/dev/myrepo.git");
  write("node_modules/dep/index.js", "module.exports = {};\n");
  write("index.js", "console.log(3);\n"); // a local change

  await page.goto("/");
  await page.getByTestId("import-folder-input").setInputFiles(src);
  await page.waitForURL(/\/w\//);
  await expect(page.getByTestId("workspace-name")).toHaveText("myrepo");
  const notes = page.getByTestId("import-notes");
  await expect(notes).toContainText("Imported with its git history.");
  await expect(notes).toContainText("Removed the credentials from the URL of remote 'origin'");
  await expect(notes).toContainText("Skipped 1 file the .gitignore files ignore: node_modules/ (1 file)");
  await expect(treeItem(page, "node_modules")).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: "Branch" })).toHaveValue("main");
  await expect(page.getByRole("combobox", { name: "Branch" }).locator("option", { hasText: "feature" })).toHaveCount(1);

  // The local change is a change against the imported history.
  await page.getByRole("tab", { name: "Source Control" }).click();
  const scm = page.getByRole("region", { name: "Source Control" });
  await expect(scm.getByRole("region", { name: "Changes", exact: true }).locator('li[data-path="index.js"]')).toBeVisible();
  await notes.getByRole("button", { name: "Dismiss" }).click();
  await expect(notes).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("workspace-name")).toHaveText("myrepo");
  await expect(page.getByTestId("import-notes")).toHaveCount(0);

  await page.goto("/");
  const row = page.getByRole("row").filter({ hasText: "myrepo" });
  const download = page.waitForEvent("download");
  await row.getByRole("button", { name: "Export with history" }).click();
  const file = await (await download).path();
  const out = info.outputPath("exported");
  for (const [p, data] of Object.entries(unzipSync(new Uint8Array(fs.readFileSync(file))))) {
    if (p.endsWith("/")) fs.mkdirSync(path.join(out, p), { recursive: true });
    else {
      fs.mkdirSync(path.dirname(path.join(out, p)), { recursive: true });
      fs.writeFileSync(path.join(out, p), data);
    }
  }
  expect(git(out, "log", "--all", "--format=%H %s")).toBe(git(src, "log", "--all", "--format=%H %s"));
  expect(git(out, "status", "--porcelain")).toBe(" M index.js\n");
  expect(git(out, "remote", "get-url", "origin")).toBe("https://example.com/dev/myrepo.git\n");
  git(out, "fsck", "--strict");
});
