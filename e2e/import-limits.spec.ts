import { test, expect, createWorkspace } from "./fixtures";
import { zipSync, strToU8 } from "fflate";
import fs from "node:fs";

const MB = 1024 * 1024;

test("a .zip that expands past 50 MB asks first with its total; past the hard limit it is refused; other workspaces stay", async ({ page }, info) => {
  await createWorkspace(page, "Keep me", "Empty");
  await page.goto("/");
  const keep = page.getByRole("row").filter({ hasText: "Keep me" });
  await expect(keep).toBeVisible();
  const rows = await page.getByRole("row").count();

  // 51 MB of zeros deflate to ~50 KB: the size the user is asked about is the expanded one.
  const large = info.outputPath("large.zip");
  fs.writeFileSync(large, zipSync({ "big.bin": new Uint8Array(51 * MB), "README.md": strToU8("# large\n") }, { level: 9 }));
  expect(fs.statSync(large).size).toBeLessThan(200 * 1024);
  const input = page.getByTestId("import-zip-input");
  await input.setInputFiles(large);
  const ask = page.getByRole("dialog", { name: "Import a large archive?" });
  await expect(ask).toContainText("This archive expands to 51.0 MB in 2 files");
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toHaveCount(0);
  await expect(page.getByRole("row")).toHaveCount(rows);

  // Past the hard limit: refused from the directory alone, before anything is expanded.
  const bomb = info.outputPath("bomb.zip");
  fs.writeFileSync(bomb, zipSync({ "bomb.bin": new Uint8Array(300 * MB) }, { level: 9 }));
  await input.setInputFiles(bomb);
  const refused = page.getByRole("alert").filter({ hasText: "Import refused" });
  await expect(refused).toContainText("The archive expands to 300.0 MB in 1 file; this browser imports at most 256.0 MB.");
  await expect(refused).toContainText("Nothing was created");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("row")).toHaveCount(rows);
  await expect(keep).toBeVisible();

  // The large one again, and this time yes: it is imported.
  await input.setInputFiles(large);
  await ask.getByRole("button", { name: "Import" }).click();
  await page.waitForURL(/\/w\/[a-z2-7]{20}$/, { timeout: 60_000 });
  await expect(page.getByTestId("workspace-name")).toHaveText("large");
  await page.goto("/");
  await expect(page.getByRole("row").filter({ hasText: "Keep me" })).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(rows + 1);
});
