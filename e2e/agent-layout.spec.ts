/** The agent panel's layout: nothing clipped or overflowing, from a narrow panel to a wide screen. */
import { test, expect, createWorkspace } from "./fixtures";
import type { Page } from "@playwright/test";

async function headerFits(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector(".agent-header")!;
    const box = header.getBoundingClientRect();
    const buttons = [...header.querySelectorAll("button")].map((b) => b.getBoundingClientRect());
    return { clipped: buttons.filter((b) => b.right > box.right + 0.5 || b.left < box.left - 0.5).length, overflow: header.scrollWidth - header.clientWidth };
  });
}

test("every header button, ⚙ included, is inside the panel at 1024–1920 px and at the panel's narrowest", async ({ page }) => {
  await createWorkspace(page, "Layout");
  await page.locator(".agent-header").waitFor();
  for (const width of [1024, 1280, 1440, 1920]) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(() => headerFits(page), { message: `at ${width} px` }).toEqual({ clipped: 0, overflow: 0 });
  }
  // Narrowest the splitter allows, moved with the keyboard as a person would.
  const splitter = page.getByRole("separator", { name: "Resize agent panel" });
  await splitter.focus();
  for (let i = 0; i < 20; i++) await page.keyboard.press("ArrowRight");
  await expect(splitter).toHaveAttribute("aria-valuenow", "280");
  await expect.poll(() => headerFits(page)).toEqual({ clipped: 0, overflow: 0 });
  await expect(page.getByRole("button", { name: "⚙" })).toBeVisible();
  await page.getByRole("button", { name: "⚙" }).click();
  await expect(page.getByRole("group", { name: "Session settings" })).toBeVisible();
});

test("a long unbroken token wraps inside the transcript instead of widening it", async ({ page }) => {
  await createWorkspace(page, "Long tokens");
  const token = "https://example.invalid/" + "a1b2c3d4".repeat(40);
  await page.getByLabel("Message the agent").fill(token);
  await page.getByLabel("Message the agent").press("Enter");
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript).toContainText("a1b2c3d4a1b2");
  const sizes = await transcript.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
});
