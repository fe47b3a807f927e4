import { test, expect, createWorkspace, treeItem, editorText, expandFolder } from "./fixtures";
import type { Page } from "@playwright/test";
import { ask, useMockModel, mockModelServerPerFile, autoApprove } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

const transcript = (page: Page) => page.getByRole("log", { name: "Agent transcript" });

async function turn(page: Page, prompt: string, done: string) {
  await ask(page, prompt);
  await expect(transcript(page)).toContainText(done);
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
}

/** The user message bubble holding `text`. */
const prompt = (page: Page, text: string) => transcript(page).locator(".msg.user").filter({ hasText: text });

/** Its Edit / Fork links show when the pointer is over it (and the agent is idle). */
async function promptAction(page: Page, text: string, action: "Edit" | "Fork" | "Re-run") {
  await prompt(page, text).hover();
  await prompt(page, text).getByRole("button", { name: action, exact: true }).click();
}

test("sessions are listed in History; search looks through whole transcripts and opens a session at the message found", async ({ page }) => {
  await createWorkspace(page, "Session search");
  await useMockModel(page, server.url);
  server.setScript([
    { text: "Looking at the code.", toolCalls: [{ name: "read_files", args: { files: [{ path: "src/math/sum.ts" }] } }] },
    { text: "The parser is fixed." },
    { text: "Notes written." },
  ]);
  await turn(page, "Fix the parser bug", "The parser is fixed.");
  await page.getByRole("button", { name: "New", exact: true }).click();
  await expect(transcript(page)).not.toContainText("The parser is fixed.");
  await turn(page, "Write the release notes", "Notes written.");

  await page.getByRole("button", { name: "History", exact: true }).click();
  const list = page.getByRole("list", { name: "Sessions" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  const results = page.getByRole("list", { name: "Search results" });
  // A file name that only a tool call holds finds its session, saying where.
  await page.getByLabel("Search sessions").fill("sum.ts");
  await expect(results.getByTestId("session-result")).toHaveCount(1);
  await expect(results.getByTestId("session-result")).toContainText("Fix the parser bug");
  const hit = results.getByRole("button", { name: /tool call read_files: read_files src\/math\/sum\.ts/ });
  await expect(hit).toBeVisible();
  // Every word must occur in the session, in any message; case does not matter.
  await page.getByLabel("Search sessions").fill("PARSER looking");
  await expect(results.getByTestId("session-result")).toHaveCount(1);
  await page.getByLabel("Search sessions").fill("parser notes");
  await expect(results).toContainText("No session mentions “parser notes”.");
  await page.getByLabel("Search sessions").fill("notes");
  await expect(results.getByTestId("session-result")).toContainText("Write the release notes");

  // Open the other session at the message a hit names: it is scrolled to and marked.
  await page.getByLabel("Search sessions").fill("sum.ts");
  await hit.click();
  await expect(transcript(page)).toContainText("The parser is fixed.");
  await expect(transcript(page)).not.toContainText("Notes written.");
  const found = transcript(page).locator('[data-focused="true"]');
  await expect(found).toContainText("Looking at the code.");
  await expect(found).toBeInViewport();
  await expect(found).toHaveCount(0, { timeout: 5000 }); // the mark fades

  await page.getByRole("button", { name: "History", exact: true }).click();
  await page.getByLabel("Search sessions").fill("");
  await list.getByRole("button", { name: "Write the release notes", exact: true }).click();
  await expect(transcript(page)).toContainText("Notes written.");
});

test("edit & resend with 'also restore files': that turn's changes are undone, the edited prompt runs instead", async ({ page }) => {
  await createWorkspace(page, "Edit resend");
  await useMockModel(page, server.url);
  await autoApprove(page);
  server.setScript([
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "src/greet.ts", old_str: "Hello", new_str: "Howdy" } }] },
    { text: "Greeting changed." },
    { toolCalls: [{ name: "editor", args: { command: "create", path: "src/farewell.ts", file_text: "export const bye = 1;\n" } }] },
    { text: "Farewell added." },
    { text: "Nothing to add this time." },
  ]);
  await turn(page, "change the greeting", "Greeting changed.");
  await turn(page, "add a farewell module", "Farewell added.");
  await expandFolder(page, "src");
  await expect(treeItem(page, "src/farewell.ts")).toBeVisible();

  await promptAction(page, "add a farewell module", "Edit");
  await page.getByLabel("Edit prompt").fill("just say hi");
  await page.getByLabel("also restore files to before this turn").check();
  await page.getByRole("button", { name: "Resend" }).click();
  await expect(transcript(page)).toContainText("Nothing to add this time.");
  // The files went back to before turn 2; turn 1's edit stays.
  await expect(treeItem(page, "src/farewell.ts")).toHaveCount(0);
  await treeItem(page, "src/greet.ts").click();
  await expect.poll(() => editorText(page)).toContain("Howdy");
  // The conversation: turn 1, then the edited prompt; the old turn 2 is gone, for the model too.
  await expect(transcript(page)).not.toContainText("add a farewell module");
  await expect(transcript(page)).not.toContainText("Farewell added.");
  const last = JSON.stringify(server.requests.at(-1)!.body.messages);
  expect(last).toContain("change the greeting");
  expect(last).toContain("just say hi");
  expect(last).not.toContain("add a farewell module");
});

test("fork from a prompt: a new session with the conversation up to there; the original stays whole", async ({ page }) => {
  await createWorkspace(page, "Fork");
  await useMockModel(page, server.url);
  server.setScript([{ text: "Answer one." }, { text: "Answer two." }, { text: "Answer in the fork." }]);
  await turn(page, "question one", "Answer one.");
  await turn(page, "question two", "Answer two.");
  await promptAction(page, "question one", "Fork");
  await expect(page.locator(".agent-title")).toHaveText(/^Fork of /);
  await expect(transcript(page)).toContainText("question one");
  await expect(transcript(page)).not.toContainText("Answer two.");
  await turn(page, "continue here", "Answer in the fork.");
  const sent = JSON.stringify(server.requests.at(-1)!.body.messages);
  expect(sent).toContain("question one");
  expect(sent).toContain("continue here");
  expect(sent).not.toContain("Answer two.");

  await page.getByRole("button", { name: "History", exact: true }).click();
  const list = page.getByRole("list", { name: "Sessions" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await list.getByRole("button", { name: /^question one/i }).and(list.locator("button:not([aria-label])")).click();
  await expect(transcript(page)).toContainText("Answer two.");
  await expect(transcript(page)).not.toContainText("Answer in the fork.");
});

test("re-run a past prompt in a fork, restoring the files first: the new session runs it on the files of then; the original stays whole", async ({ page }) => {
  await createWorkspace(page, "Rerun");
  await useMockModel(page, server.url);
  await autoApprove(page);
  server.setScript([
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "src/greet.ts", old_str: "Hello", new_str: "Howdy" } }] },
    { text: "Greeting changed." },
    { text: "Second answer." },
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "src/greet.ts", old_str: "Hello", new_str: "Hiya" } }] },
    { text: "Changed it another way." },
  ]);
  await turn(page, "change the greeting", "Greeting changed.");
  await turn(page, "anything else?", "Second answer.");

  await promptAction(page, "change the greeting", "Re-run");
  const confirm = page.getByRole("group", { name: "Re-run this prompt" });
  await confirm.getByLabel("also restore files to before this turn").check();
  await confirm.getByRole("button", { name: "Fork & re-run" }).click();
  await expect(page.locator(".agent-title")).toHaveText("Re-run: change the greeting");
  await expect(transcript(page)).toContainText("Changed it another way.");
  await expect(transcript(page)).not.toContainText("Second answer.");
  // The prompt ran on the files as they were before the turn (Hello was there to replace).
  await expandFolder(page, "src");
  await treeItem(page, "src/greet.ts").click();
  await expect.poll(() => editorText(page)).toContain("Hiya");
  const sent = server.requests.filter((r) => r.method === "POST").at(-2)!.body.messages as { role: string }[];
  expect(sent.filter((m) => m.role === "user")).toHaveLength(1);

  await page.getByRole("button", { name: "History", exact: true }).click();
  const list = page.getByRole("list", { name: "Sessions" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await list.getByRole("button", { name: "change the greeting", exact: true }).click();
  await expect(transcript(page)).toContainText("Second answer.");
  await expect(transcript(page)).not.toContainText("Changed it another way.");
});
