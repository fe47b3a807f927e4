import { test, expect, createWorkspace } from "./fixtures";
import type { Locator, Page } from "@playwright/test";
import { ask, useMockModel, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

const transcript = (page: Page) => page.getByRole("log", { name: "Agent transcript" });
const prompt = (page: Page, text: string) => transcript(page).locator(".msg.user").filter({ hasText: text });

/** Press Tab, as a keyboard user does, until `target` has the focus (or give up after `max` presses). */
async function tabTo(page: Page, target: Locator, max = 60) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Not reached with ${max} presses of Tab`);
}

const width = async (l: Locator) => (await l.boundingBox())?.width ?? 0;

test("a prompt's Edit and Fork are reached with Tab, shown while focused, and work with Enter", async ({ page }) => {
  await createWorkspace(page, "Keyboard actions");
  await useMockModel(page, server.url);
  server.setScript([{ text: "Answer one." }, { text: "Answer two." }]);
  await ask(page, "question one");
  await expect(transcript(page)).toContainText("Answer one.");
  await ask(page, "question two");
  await expect(transcript(page)).toContainText("Answer two.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  const edit = prompt(page, "question one").getByRole("button", { name: "Edit", exact: true });
  const fork = prompt(page, "question one").getByRole("button", { name: "Fork", exact: true });
  const actions = prompt(page, "question one").locator(".msg-actions");
  // Out of the way until the pointer or the focus is on the prompt.
  await page.mouse.move(0, 0);
  expect(await width(actions)).toBeLessThanOrEqual(1);

  // From the panel's header, forward through the panel to the first prompt's Edit.
  await page.getByRole("button", { name: "History", exact: true }).focus();
  await tabTo(page, edit);
  await expect(edit).toBeFocused();
  await expect.poll(() => width(actions)).toBeGreaterThan(20);
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Edit prompt")).toHaveValue("question one");
  await page.getByRole("button", { name: "Cancel" }).press("Enter");
  await expect(page.getByLabel("Edit prompt")).toHaveCount(0);

  await page.getByRole("button", { name: "History", exact: true }).focus();
  await tabTo(page, fork);
  await page.keyboard.press("Enter");
  await expect(page.locator(".agent-title")).toHaveText(/^Fork of /);
  await expect(transcript(page)).toContainText("question one");
  await expect(transcript(page)).not.toContainText("Answer two.");
});
