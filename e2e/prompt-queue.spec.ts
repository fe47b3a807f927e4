import { test, expect, createWorkspace } from "./fixtures";
import type { Page } from "@playwright/test";
import { ask, useMockModel, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

const box = (page: Page) => page.getByLabel("Message the agent");
const queued = (page: Page) => page.getByRole("region", { name: "Queued messages" }).getByTestId("queued-prompt");
const userText = (m: { role: string; content: unknown }) =>
  typeof m.content === "string" ? m.content : (m.content as { type: string; text?: string }[]).map((p) => p.text ?? "").join("");
/** The prompts the model received, in order (the last user message of each request). */
const promptsSent = () => server.requests.filter((r) => r.method === "POST").map((r) => userText((r.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === "user").at(-1)!));

test("messages written during a run wait in line and go one per finished run; Edit takes one back into the box", async ({ page }) => {
  await createWorkspace(page, "Queue");
  await useMockModel(page, server.url);
  server.setScript([
    { chunks: Array.from({ length: 16 }, (_, i) => `part${i} `), delayMs: 250 },
    { text: "Answer to the second." },
    { text: "Answer to the fourth." },
  ]);
  await ask(page, "first question");
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript).toContainText("part1");

  // While it streams: Enter queues (the box empties, nothing is sent yet), so does the Queue button.
  await box(page).fill("second question");
  await box(page).press("Enter");
  await expect(box(page)).toHaveValue("");
  await box(page).fill("third question");
  await page.getByRole("button", { name: "Queue", exact: true }).click();
  await box(page).fill("fourth question");
  await box(page).press("Enter");
  await expect(queued(page)).toHaveText([/Next:\s*second question/, /Queued:\s*third question/, /Queued:\s*fourth question/]);
  expect(promptsSent()).toEqual(["first question"]);

  // Take the third back into the box: what was typed there stays, the message goes after it.
  await box(page).fill("draft in progress");
  await page.getByRole("button", { name: "Edit queued message 2" }).click();
  await expect(box(page)).toHaveValue("draft in progress\nthird question");
  await expect(queued(page)).toHaveText([/second question/, /fourth question/]);
  await box(page).fill("");

  // The first run ends: the second goes by itself, then the fourth after it.
  await expect(transcript).toContainText("Answer to the second.", { timeout: 30_000 });
  await expect(transcript).toContainText("Answer to the fourth.");
  await expect(page.getByRole("region", { name: "Queued messages" })).toHaveCount(0);
  expect(promptsSent()).toEqual(["first question", "second question", "fourth question"]);
});

test("a stopped run pauses the queue: nothing goes until Send next; × drops a message", async ({ page }) => {
  await createWorkspace(page, "Queue paused");
  await useMockModel(page, server.url);
  server.setScript([{ chunks: Array.from({ length: 40 }, (_, i) => `slow${i} `), delayMs: 250 }, { text: "Answer to the later one." }]);
  await ask(page, "a long one");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("slow1");
  await box(page).fill("later one");
  await box(page).press("Enter");
  await box(page).fill("never mind this");
  await box(page).press("Enter");
  await page.getByRole("button", { name: "Stop" }).click();

  await expect(page.getByTestId("queue-paused")).toContainText("Stopped by the user: the queued messages wait.");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  await page.waitForTimeout(500); // the pause holds: nothing is sent behind the user's back
  expect(promptsSent()).toEqual(["a long one"]);

  await page.getByRole("button", { name: "Drop queued message 2" }).click();
  await expect(queued(page)).toHaveText([/later one/]);
  await page.getByTestId("queue-paused").getByRole("button", { name: "Send next" }).click();
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Answer to the later one.");
  await expect(page.getByRole("region", { name: "Queued messages" })).toHaveCount(0);
  expect(promptsSent()).toEqual(["a long one", "later one"]);
});
