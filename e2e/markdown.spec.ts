import { test, expect, createWorkspace } from "./fixtures";
import { ask, mockModelServerPerFile, useMockModel } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

test("a Markdown table from the model renders as a table, not as pipes", async ({ page }) => {
  await createWorkspace(page, "Agent markdown");
  await useMockModel(page, server.url);
  server.setScript([{ text: "Files by size:\n\n| file | lines |\n| --- | ---: |\n| src/greet.ts | 3 |\n| README.md | 5 |\n\n- [x] ~~old~~ checked\n" }]);
  await ask(page, "Summarise the files as a table");
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  const table = transcript.getByRole("table");
  await expect(table).toBeVisible();
  await expect(table.getByRole("columnheader")).toHaveText(["file", "lines"]);
  await expect(table.getByRole("row").nth(1).getByRole("cell")).toHaveText(["src/greet.ts", "3"]);
  await expect(transcript).not.toContainText("| --- |");
  await expect(transcript.locator("del")).toHaveText("old");
  await expect(transcript.getByRole("checkbox")).toBeChecked();
});
