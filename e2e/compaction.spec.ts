import { test, expect, createWorkspace } from "./fixtures";
import { ask, useMockModel, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

test("/compact asks the model for a summary, says so in the transcript, and later requests carry it instead of the old messages", async ({ page }) => {
  await createWorkspace(page, "Compact");
  await useMockModel(page, server.url);
  server.setScript([{ text: "First answer about the parser." }, { text: "Second answer about the lexer." }, { text: "## Goal\nUnderstand the parser and the lexer." }, { text: "Third answer." }]);
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await ask(page, "explain the parser");
  await expect(transcript).toContainText("First answer about the parser.");
  await ask(page, "and the lexer");
  await expect(transcript).toContainText("Second answer about the lexer.");

  await ask(page, "/compact");
  await expect(page.getByTestId("command-output")).toHaveText(/^\/compact: Compacted 1 earlier message into a summary written by the model: about [\d,]+ → [\d,]+ tokens\.$/);
  const posts = () => server.requests.filter((r) => r.method === "POST");
  expect(posts()).toHaveLength(3);
  expect(JSON.stringify(posts()[2]!.body)).toContain("Summarise this part of the conversation");
  expect(JSON.stringify(posts()[2]!.body)).toContain("First answer about the parser.");
  // The transcript keeps every message; the model gets the summary instead of the folded one.
  await expect(transcript).toContainText("First answer about the parser.");

  await ask(page, "what next?");
  await expect(transcript).toContainText("Third answer.");
  const sent = JSON.stringify(posts()[3]!.body.messages);
  expect(sent).toContain("Understand the parser and the lexer.");
  expect(sent).not.toContain("First answer about the parser.");
  expect(sent).toContain("Second answer about the lexer.");
});
