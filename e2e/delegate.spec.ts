/**
 * Sub-agents in Agent mode, with the mock model server: the model hands two questions to two
 * `delegate` explorers in one message, they run at the same time, each answer comes back to the
 * parent, each sub-agent's transcript opens from its row (also after a reload), their cost is on
 * the parent's meter, and they stay out of the session history.
 */
import { test, expect, createWorkspace } from "./fixtures";
import type { Page } from "@playwright/test";
import { ask, useMockModel as useMockModelAt, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();
const useMockModel = (page: Page) => useMockModelAt(page, server.url);

test("two delegate explorers run at the same time; their answers, transcripts and cost reach the parent", async ({ page }) => {
  await createWorkspace(page, "Delegate explorers");
  await useMockModel(page);
  server.setScript([
    {
      toolCalls: [
        { name: "delegate", args: { title: "Map the greeting", brief: "Read src/greet.ts and say what greet() returns." } },
        { name: "delegate", args: { title: "Find the callers", brief: "Find who calls greet()." } },
      ],
      usage: { inputTokens: 1000, outputTokens: 10 },
    },
    // The first sub-agent's answer is slow: the second sub-agent asks while it is still streaming.
    { text: "FIRST-REPORT: an answer that takes a while to arrive.", delayMs: 250, usage: { inputTokens: 5000, outputTokens: 10 } },
    { text: "SECOND-REPORT: a quick answer.", usage: { inputTokens: 5000, outputTokens: 10 } },
    { text: "Both sub-agents answered.", usage: { inputTokens: 1000, outputTokens: 10 } },
  ]);
  await ask(page, "Explain the greeting, using sub-agents");

  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript).toContainText("Both sub-agents answered.");
  const rows = transcript.locator('.tool-row[data-tool="delegate"]');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("data-status", "ok");
  await expect(rows.nth(1)).toHaveAttribute("data-status", "ok");
  // Explorers are read-only: nothing was asked.
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);

  // In parallel: the second sub-agent's request arrived before the first one's answer had ended.
  const posts = server.requests.filter((r) => r.method === "POST");
  expect(posts).toHaveLength(4);
  const [, first, second] = posts;
  // (A streamed answer is at least five events, so the slow one lasts at least 4 × 250 ms.)
  expect(first!.turn).toBe(1);
  expect(second!.at - first!.at).toBeLessThan(700);
  // Each sub-agent saw only its brief; the parent read both answers.
  expect(JSON.stringify(first!.body) + JSON.stringify(second!.body)).toContain("Find who calls greet()");
  expect(JSON.stringify(first!.body)).not.toContain("Explain the greeting, using sub-agents");
  const last = JSON.stringify(posts[3]!.body);
  expect(last).toContain("FIRST-REPORT");
  expect(last).toContain("SECOND-REPORT");

  // The parent's meter counts what the sub-agents spent: 1,010 × 2 of its own, 5,010 × 2 theirs.
  await expect(page.getByTestId("usage-meter")).toContainText("12,040 tokens");

  // Each sub-agent's transcript opens from its row.
  await transcript.getByRole("button", { name: "Transcript of sub-agent Find the callers" }).click();
  let dialog = page.getByRole("dialog", { name: "Transcript: Find the callers" });
  await expect(dialog).toContainText("Find who calls greet().");
  await expect(dialog).toContainText(/(FIRST|SECOND)-REPORT/);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);

  // After a reload: the same transcript, read back from storage; the sub-agents are not in the history.
  await page.reload();
  await expect(transcript).toContainText("Both sub-agents answered.", { timeout: 30_000 });
  await expect(page.getByTestId("usage-meter")).toContainText("12,040 tokens");
  await transcript.getByRole("button", { name: "Transcript of sub-agent Map the greeting" }).click();
  dialog = page.getByRole("dialog", { name: "Transcript: Map the greeting" });
  await expect(dialog).toContainText("Read src/greet.ts and say what greet() returns.");
  await expect(dialog).toContainText(/(FIRST|SECOND)-REPORT/);
  await dialog.getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "History", exact: true }).click();
  const history = page.getByRole("list", { name: "Sessions" });
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await expect(history).not.toContainText("Map the greeting");
});
