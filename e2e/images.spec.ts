import { test, expect, createWorkspace } from "./fixtures";
import type { Page } from "@playwright/test";
import { useMockModel, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

/** A valid 1×1 PNG. */
const PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const attached = (page: Page) => page.getByRole("list", { name: "Attached images" });

test("attach a screenshot, send it with the prompt: the model gets it as an image, the transcript shows it, after a reload too; shares leave it out by default", async ({ page }) => {
  await createWorkspace(page, "Images");
  await useMockModel(page, server.url);
  server.setScript([{ text: "A single red pixel." }]);
  await page.getByLabel("Attach images").setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: Buffer.from(PNG_B64, "base64") });
  await expect(attached(page).getByRole("img", { name: "shot.png" })).toBeVisible();
  await page.getByLabel("Message the agent").fill("what is in this screenshot?");
  await page.getByLabel("Message the agent").press("Enter");

  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript).toContainText("A single red pixel.");
  await expect(attached(page)).toHaveCount(0);
  const post = server.requests.find((r) => r.method === "POST")!;
  const content = post.body.messages[0].content as { type: string; source?: { type: string; media_type: string; data: string }; text?: string }[];
  expect(content.map((p) => p.type)).toEqual(["image", "text"]);
  expect(content[0]!.source).toEqual({ type: "base64", media_type: "image/png", data: PNG_B64 });
  expect(content[1]!.text).toContain("what is in this screenshot?");
  const shown = transcript.getByRole("list", { name: "Images sent with this message" }).getByRole("img", { name: "shot.png" });
  await expect(shown).toBeVisible();
  expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  await page.reload();
  await expect(page.getByRole("log", { name: "Agent transcript" }).getByRole("img", { name: "shot.png" })).toBeVisible();

  await page.getByRole("button", { name: "Share", exact: true }).click();
  const option = page.getByTestId("share-images");
  await expect(option).toContainText("Include the 1 image sent with prompts (left out");
  await expect(option.getByRole("checkbox")).not.toBeChecked();
});

test("paste or drop images on the prompt box, remove them; a file that is not an image is refused with a clear message", async ({ page }) => {
  await createWorkspace(page, "Paste images");
  await useMockModel(page, server.url);
  const box = page.getByLabel("Message the agent");
  await box.click();
  // A screenshot on the clipboard, as the browser hands it over on Ctrl+V.
  await box.evaluate((el, b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], "clipboard.png", { type: "image/png" }));
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, PNG_B64);
  await expect(attached(page).getByRole("img", { name: "clipboard.png" })).toBeVisible();
  await expect(attached(page)).toContainText("1 KB");
  await page.getByRole("button", { name: "Remove image 1" }).click();
  await expect(attached(page)).toHaveCount(0);

  // Files dropped on the prompt box, as from the desktop: the image comes in, the other is refused.
  await box.evaluate((el, b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
    data.items.add(new File(["plain text"], "readme.txt", { type: "text/plain" }));
    el.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
    el.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, PNG_B64);
  await expect(attached(page).getByRole("img", { name: "dropped.png" })).toBeVisible();
  await expect(page.getByTestId("image-error")).toHaveText('"readme.txt" is not a PNG, JPEG, GIF or WebP image.');
  await page.getByRole("button", { name: "Remove image 1" }).click();

  await page.getByLabel("Attach images").setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just text, named like an image") });
  await expect(page.getByTestId("image-error")).toHaveText('"notes.png" is not a PNG, JPEG, GIF or WebP image.');
  await expect(attached(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeDisabled();
});
