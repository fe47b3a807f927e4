import { test, expect, createWorkspace, treeItem, typeInEditor } from "./fixtures";
import type { Page } from "@playwright/test";
import { ask, useMockModel, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

const timeline = (page: Page) => page.getByLabel("Checkpoint timeline");
const preview = (page: Page) => page.getByRole("region", { name: "Checkpoint preview" });

async function savePoint(page: Page, name: string) {
  await timeline(page).getByRole("button", { name: "New save point" }).click();
  await page.getByLabel("Save point name").fill(name);
  await page.getByLabel("Save point name").press("Enter");
  await expect(timeline(page).getByRole("button", { name: new RegExp(`^Save point: ${name}`) })).toBeVisible();
}

async function editAndSave(page: Page, path: string, text: string) {
  await treeItem(page, path).click();
  await typeInEditor(page, text, path);
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("tab", { name: new RegExp(path.replace(".", "\\.")) }).getByLabel("unsaved changes")).toHaveCount(0);
}

test("dragging the timeline handle from now previews each point it passes, writing nothing", async ({ page }) => {
  await createWorkspace(page, "Drag");
  await savePoint(page, "one");
  await editAndSave(page, "README.md", "TWO ");
  await savePoint(page, "two");
  await editAndSave(page, "README.md", "THREE ");
  await savePoint(page, "three");

  const slider = page.getByRole("slider", { name: "Scrub checkpoints" });
  await expect(slider).toHaveAttribute("aria-valuetext", "Now");
  const track = (await page.locator(".timeline-track").boundingBox())!;
  const handle = (await slider.boundingBox())!;
  const y = handle.y + handle.height / 2;
  // Ticks sit at 0, 1/3 and 2/3 of the track; now at its right end.
  await page.mouse.move(handle.x + handle.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width * (2 / 3), y, { steps: 5 });
  await expect(slider).toHaveAttribute("aria-valuetext", /^Save point: three/);
  await page.mouse.move(track.x + track.width * (1 / 3), y, { steps: 5 });
  await expect(slider).toHaveAttribute("aria-valuetext", /^Save point: two/);
  await expect(preview(page).getByTestId("preview-file")).toHaveText([/modified\s*README\.md/]);
  await page.mouse.move(track.x + 1, y, { steps: 5 });
  await page.mouse.up();
  await expect(slider).toHaveAttribute("aria-valuetext", /^Save point: one/);
  await expect(page.getByTestId("timeline-position")).toContainText("Save point · one");
  // Previewing wrote nothing: the file still has both edits.
  await expect(treeItem(page, "README.md").locator(".git")).toHaveText("M");
  // Back to now: the preview closes.
  await slider.focus();
  await page.keyboard.press("End");
  await expect(slider).toHaveAttribute("aria-valuetext", "Now");
  await expect(preview(page)).toHaveCount(0);
});

/** "Checkpoints use 12.3 KB (…" → bytes. */
async function storageBytes(page: Page): Promise<number> {
  const text = (await page.getByTestId("storage-meter").textContent()) ?? "";
  const m = /Checkpoints use ([\d.]+) (B|KB|MB|GB)/.exec(text);
  if (!m) throw new Error(`no storage figure in: ${text}`);
  return Number(m[1]) * { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[m[2] as "B"];
}

test("All checkpoints lists the points of every session, and its storage figure grows with what they hold", async ({ page }) => {
  await createWorkspace(page, "Sessions' checkpoints");
  await useMockModel(page, server.url);
  server.setScript([{ text: "First session answer." }]);
  await ask(page, "first session prompt");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("First session answer.");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "All checkpoints" }).click();
  const entries = page.getByTestId("history-entry");
  // A turn is checkpointed before it runs and after it ends.
  await expect(entries).toHaveCount(2);
  await expect(page.getByTestId("storage-meter")).toContainText("2 checkpoints");
  const before = await storageBytes(page);
  await page.getByRole("button", { name: "All checkpoints" }).click();

  // A second session, after a large new file (~290 KB of digits).
  await page.getByRole("button", { name: "New", exact: true }).click();
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  const screen = page.getByTestId("terminal").locator(".xterm-rows");
  await expect(screen).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
  await page.keyboard.type("seq 100000 150000 > numbers.txt && wc -c numbers.txt");
  await page.keyboard.press("Enter");
  await expect(screen).toContainText("numbers.txt");
  await savePoint(page, "with numbers");

  await page.getByRole("button", { name: "All checkpoints" }).click();
  await expect(entries).toHaveCount(3);
  await expect(entries.nth(0)).toContainText("Save point: with numbers");
  await expect(entries.nth(0)).toContainText("(this session)");
  const firstSession = entries.filter({ hasText: /first session prompt/i });
  await expect(firstSession).toHaveCount(2);
  await expect(firstSession.filter({ hasText: "(this session)" })).toHaveCount(0);
  await expect(page.getByTestId("storage-meter")).toContainText("3 checkpoints");
  // seq's output compresses, but not below ~50 KB.
  expect(await storageBytes(page)).toBeGreaterThan(before + 50 * 1024);
  // The other session's point opens that session.
  await firstSession.first().getByRole("button").click();
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("First session answer.");
});
