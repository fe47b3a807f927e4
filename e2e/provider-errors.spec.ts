import { test, expect, createWorkspace } from "./fixtures";
import { ask, useMockModel, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

test("an overloaded error inside the stream is retried; a failure after content stays in the transcript after a reload", async ({ page }) => {
  await createWorkspace(page, "Provider errors");
  await useMockModel(page, server.url);
  server.setScript([{ streamError: "Overloaded" }, { text: "Answered after the retry." }]);
  await ask(page, "Hello?");
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript).toContainText("Answered after the retry.");
  expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(2);

  server.setScript([{ text: "Half an answer", streamError: "Overloaded" }]);
  await ask(page, "Once more");
  await expect(transcript.getByRole("alert")).toContainText("overloaded");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  await expect(transcript).toContainText("Half an answer");

  await page.reload();
  await expect(transcript).toContainText("Half an answer");
  await expect(transcript.getByRole("alert")).toContainText("overloaded");
  await expect(transcript.getByTestId("run-end-notice")).toHaveCount(1);
});
