/**
 * Orchestrate mode in the panel, with the mock model server: the model proposes a team, the card
 * shows it, only the user's click runs it, the Team view follows each task to done, each
 * member's transcript opens from it, and the synthesis lands in the parent conversation. The
 * mock server answers requests in order, so the tasks depend on each other (and maxParallel is
 * 1): the order of requests is the order of the script.
 */
import { test, expect, createWorkspace, treeItem, editorText, expandFolder } from "./fixtures";
import type { Page } from "@playwright/test";
import { ask, useMockModel as useMockModelAt, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();
const useMockModel = (page: Page) => useMockModelAt(page, server.url);

const proposal = {
  goal: "Explain the greeting",
  roles: [{ name: "explorer", brief: "Read the code and report facts.", mode: "plan", tools: ["read_files", "list_files"] }],
  tasks: [
    { key: "map-greet", title: "Map the greeting", description: "Read src/greet.ts and quote what greet() returns.", role: "explorer", dependsOn: [], acceptance: "The greeting is quoted." },
    { key: "map-callers", title: "Find the callers", description: "List who calls greet().", role: "explorer", dependsOn: ["map-greet"], acceptance: "Every caller is listed." },
    { key: "map-tests", title: "Find the tests", description: "List the tests of greet().", role: "explorer", dependsOn: ["map-greet"], acceptance: "Every test is listed." },
  ],
  synthesis: { role: "explorer", inputs: ["map-greet", "map-callers", "map-tests"], output: "A one-paragraph explanation of the greeting." },
  budget: { tokens: 200_000, usd: 2, maxParallel: 1, wallMs: 600_000 },
};

test("a proposed team runs only once approved; the Team view follows it to done and the synthesis reaches the conversation", async ({ page }) => {
  await createWorkspace(page, "Orchestrate team");
  await useMockModel(page);
  server.setScript([
    { toolCalls: [{ name: "propose_orchestration", args: proposal }] },
    { text: "GREET-REPORT: greet() returns Hello.", delayMs: 400 },
    { text: "CALLERS-REPORT: nothing calls greet() yet." },
    { text: "TESTS-REPORT: no test covers greet()." },
    { text: "SYNTHESIS: greet() says Hello, has no callers and no tests." },
  ]);
  await page.getByRole("radio", { name: "Orchestrate" }).click();
  await expect(page.getByRole("radio", { name: "Orchestrate" })).toHaveAttribute("aria-checked", "true");
  await ask(page, "Explain the greeting with a team");

  const card = page.getByRole("group", { name: "Team proposal" });
  await expect(card).toContainText("Team proposal: Explain the greeting");
  await expect(card.locator("[data-role=explorer]")).toContainText("plan (read-only)");
  await expect(card.locator("li[data-key]").first()).toContainText("Map the greeting");
  await expect(card.locator('li[data-key="map-callers"]')).toContainText("after: Map the greeting");
  await expect(card.getByTestId("proposal-synthesis")).toContainText("explorer merges Map the greeting, Find the callers, Find the tests");
  await expect(card.getByTestId("proposal-budget")).toContainText("200,000 tokens · $2 · 1 at a time · 10 min");
  // Nothing ran: the proposal waits for the user.
  await page.waitForTimeout(300);
  expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(1);

  await card.getByRole("button", { name: "Approve & run" }).click();
  const team = page.getByRole("region", { name: "Team", exact: true });
  const task = (key: string) => team.locator(`li[data-key="${key}"]`);
  await expect(task("map-greet")).toHaveAttribute("data-state", "running");
  await expect(task("map-callers")).toHaveAttribute("data-state", "waiting");
  await expect(task("map-tests")).toHaveAttribute("data-state", "waiting");
  await expect(card.getByTestId("proposal-status")).toHaveText("Approved by you: the team is below.");
  await expect(task("map-greet")).toHaveAttribute("data-state", "done");
  await expect(task("map-callers")).toHaveAttribute("data-state", "done");
  await expect(task("map-tests")).toHaveAttribute("data-state", "done");
  await expect(task("synthesis")).toHaveAttribute("data-state", "done");
  await expect(team.getByTestId("team-status")).toHaveText("done");
  await expect(team.getByTestId("team-cost")).toContainText("of 200,000 tokens");
  await expect(team.getByTestId("team-cost")).not.toContainText(/^0 of/);
  await expect(team.getByRole("button", { name: "Stop all" })).toHaveCount(0);

  // The synthesis is posted into the parent conversation.
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript).toContainText("The team finished: Explain the greeting");
  await expect(transcript).toContainText("SYNTHESIS: greet() says Hello, has no callers and no tests.");
  await expect(transcript).toContainText("(3 tasks;");
  // The figures for the record: what the team cost, as the Team view shows it.
  console.log(`three-task team: ${await team.getByTestId("team-cost").textContent()}`);

  // Each member's transcript is one click away.
  await team.getByRole("button", { name: "Transcript of Map the greeting" }).click();
  const dialog = page.getByRole("dialog", { name: "Transcript: Map the greeting" });
  await expect(dialog).toContainText("Your task: Map the greeting");
  await expect(dialog).toContainText("GREET-REPORT: greet() returns Hello.");
  await expect(dialog.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);

  // The later tasks were handed the first one's report (not each other's); the synthesis got all three.
  const posts = server.requests.filter((r) => r.method === "POST");
  expect(posts).toHaveLength(5);
  expect(JSON.stringify(posts[2]!.body)).toContain("GREET-REPORT");
  expect(JSON.stringify(posts[3]!.body)).toContain("GREET-REPORT");
  expect(JSON.stringify(posts[3]!.body)).not.toContain("CALLERS-REPORT");
  for (const r of ["GREET-REPORT", "CALLERS-REPORT", "TESTS-REPORT"]) expect(JSON.stringify(posts[4]!.body)).toContain(r);

  // After a reload the card keeps its answer and the Team view how the team ended; a member's
  // transcript is read back from storage; nothing runs again.
  await page.reload();
  await expect(transcript).toContainText("The team finished: Explain the greeting", { timeout: 30_000 });
  await expect(card.getByTestId("proposal-status")).toHaveText("Approved by you: the team is below.");
  await expect(card.getByRole("button", { name: "Approve & run" })).toHaveCount(0);
  await expect(team.getByTestId("team-status")).toHaveText("done");
  await expect(task("map-callers")).toHaveAttribute("data-state", "done");
  await expect(team.getByTestId("team-cost")).toContainText("of 200,000 tokens");
  await team.getByRole("button", { name: "Transcript of Find the tests" }).click();
  const kept = page.getByRole("dialog", { name: "Transcript: Find the tests" });
  await expect(kept).toContainText("TESTS-REPORT: no test covers greet().");
  await kept.getByRole("button", { name: "Close" }).click();
  await expect(team.getByRole("button", { name: "Restore files to before the team" })).toBeEnabled();
  expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(5);
});

test("rejecting a proposal with feedback runs nothing; the model reads the feedback and proposes again", async ({ page }) => {
  await createWorkspace(page, "Orchestrate reject");
  await useMockModel(page);
  const single = { ...proposal, tasks: [proposal.tasks[0]], synthesis: { ...proposal.synthesis, inputs: ["map-greet"] } };
  server.setScript([{ toolCalls: [{ name: "propose_orchestration", args: proposal }] }, { toolCalls: [{ name: "propose_orchestration", args: single }] }]);
  await page.getByRole("radio", { name: "Orchestrate" }).click();
  await ask(page, "Explain the greeting with a team");
  const cards = page.getByRole("group", { name: "Team proposal" });
  const first = cards.first();
  await first.getByRole("button", { name: "Reject…" }).click();
  await first.getByLabel("What should change in the team").fill("Use a single task");
  await first.getByRole("button", { name: "Send feedback" }).click();
  await expect(first.getByTestId("proposal-status")).toHaveText("Rejected: Use a single task");
  // The revision is a new proposal (a rejection ends the two-minute wait), waiting for an answer of its own.
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(1).locator("li[data-key]")).toHaveCount(1);
  await expect(cards.nth(1).getByRole("button", { name: "Approve & run" })).toBeEnabled();
  await expect(page.getByRole("region", { name: "Team", exact: true })).toHaveCount(0);
  const posts = server.requests.filter((r) => r.method === "POST");
  expect(posts).toHaveLength(2);
  expect(JSON.stringify(posts[1]!.body)).toContain("Use a single task");
});

test("a plan card's Approve & run as a team runs the steps in dependency order, a step's edit is approved from its transcript, and the summary is posted", async ({ page }) => {
  await createWorkspace(page, "Orchestrate plan team");
  await useMockModel(page);
  server.setScript([
    {
      toolCalls: [
        {
          name: "submit_plan",
          args: {
            goal: "Check the greeting",
            nodes: [
              { key: "check", title: "Check the output", description: "Confirm what greet() prints.", dependsOn: ["read"] },
              { key: "read", title: "Read the greeting", description: "Read src/greet.ts.", dependsOn: [] },
            ],
          },
        },
      ],
    },
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "src/greet.ts", old_str: "Hello", new_str: "Howdy" } }] },
    { text: "READ-DONE: it says Howdy now." },
    { text: "CHECK-DONE: the output is Howdy." },
    { text: "REVIEW: both steps are done; nothing is left open." },
  ]);
  await page.getByRole("radio", { name: "Plan" }).click();
  await ask(page, "Plan a check of the greeting");
  const card = page.getByRole("group", { name: "Plan" });
  await card.getByRole("button", { name: "Approve & run as a team" }).click();
  const team = page.getByRole("region", { name: "Team", exact: true });
  // The step's child changes a file: it asks, like any edit, and the Team view says it waits for the user.
  await expect(team.locator('li[data-key="read"]').getByTestId("task-state")).toHaveText("waiting for you: open its transcript");
  await expect(team.locator('li[data-key="check"]')).toHaveAttribute("data-state", "waiting");
  await team.getByRole("button", { name: "Transcript of Read the greeting" }).click();
  const dialog = page.getByRole("dialog", { name: "Transcript: Read the greeting" });
  await dialog.getByRole("group", { name: "Approval needed" }).getByRole("button", { name: "Approve" }).click();
  await expect(dialog).toContainText("READ-DONE: it says Howdy now.");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(team.locator('li[data-key="read"]')).toHaveAttribute("data-state", "done");
  await expect(team.locator('li[data-key="check"]')).toHaveAttribute("data-state", "done");
  await expect(team.locator('li[data-key="check"]')).toContainText("after: Read the greeting");
  await expect(team.getByTestId("team-status")).toHaveText("done");
  await expect(card.getByRole("button", { name: "Approve & run as a team" })).toHaveCount(0);
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("REVIEW: both steps are done; nothing is left open.");
  // The plan stayed a plan: the session did not switch to Act.
  await expect(page.getByRole("radio", { name: "Plan" })).toHaveAttribute("aria-checked", "true");
  const posts = server.requests.filter((r) => r.method === "POST");
  expect(posts).toHaveLength(5);
  // The dependency order: "read" ran before "check", which was told what "read" found.
  expect(JSON.stringify(posts[1]!.body)).toContain("Your task: Read the greeting");
  expect(JSON.stringify(posts[3]!.body)).toContain("Your task: Check the output");
  expect(JSON.stringify(posts[3]!.body)).toContain("READ-DONE");
  // The approved edit is in the workspace.
  await expandFolder(page, "src");
  await treeItem(page, "src/greet.ts").click();
  await expect.poll(() => editorText(page)).toContain("Howdy");
  // The whole orchestration is undone in one step: the files as they were before its first task.
  await team.getByRole("button", { name: "Restore files to before the team" }).click();
  await page.getByRole("dialog", { name: "Restore files to before the team?" }).getByRole("button", { name: "Restore files" }).click();
  await expect(team.getByRole("status")).toContainText("Files restored to before the team (1 file changed)");
  await expect.poll(() => editorText(page)).toContain("Hello");
  await team.getByRole("button", { name: "Undo restore" }).click();
  await expect(team.getByRole("button", { name: "Restore files to before the team" })).toBeVisible();
  await expect.poll(() => editorText(page)).toContain("Howdy");

  // On the parent's timeline the team is one point, before it ran: its preview is the whole
  // team undone, and restoring it (files only) is the same one step.
  const timeline = page.getByLabel("Checkpoint timeline");
  const teamTick = timeline.getByRole("button", { name: /^Team: Check the greeting: before it ran \(3 sessions, / });
  await expect(teamTick).toHaveCount(1);
  await teamTick.click();
  const preview = page.getByRole("region", { name: "Checkpoint preview" });
  await expect(preview.getByRole("list", { name: "Files that differ from now" }).getByRole("listitem")).toHaveText([/modified\s*src\/greet\.ts/]);
  await expect(preview.getByRole("button", { name: "Restore conversation…" })).toHaveCount(0);
  await preview.getByRole("button", { name: "Restore files…" }).click();
  await page.getByRole("dialog", { name: "Restore files" }).getByRole("button", { name: "Restore" }).click();
  await expect(page.getByTestId("restore-banner")).toContainText("Restored files to Team: Check the greeting");
  await expect.poll(() => editorText(page)).toContain("Hello");
});

test("Stop on a running task stops its child and blocks what depends on it; the report reaches the conversation", async ({ page }) => {
  await createWorkspace(page, "Orchestrate stop");
  await useMockModel(page);
  server.setScript([
    { toolCalls: [{ name: "propose_orchestration", args: proposal }] },
    { text: "A very long report that streams out slowly, one small piece at a time, and never gets to the end.", delayMs: 500 },
  ]);
  await page.getByRole("radio", { name: "Orchestrate" }).click();
  await ask(page, "Explain the greeting with a team");
  await page.getByRole("group", { name: "Team proposal" }).getByRole("button", { name: "Approve & run" }).click();
  const team = page.getByRole("region", { name: "Team", exact: true });
  const task = (key: string) => team.locator(`li[data-key="${key}"]`);
  await expect(task("map-greet")).toHaveAttribute("data-state", "running");
  await team.getByRole("button", { name: "Stop Map the greeting" }).click();
  await expect(task("map-greet")).toHaveAttribute("data-state", "failed");
  await expect(task("map-greet").getByTestId("task-reason")).toHaveText("Stopped by the user.");
  await expect(task("map-callers")).toHaveAttribute("data-state", "blocked");
  await expect(task("map-tests")).toHaveAttribute("data-state", "blocked");
  await expect(task("synthesis")).toHaveAttribute("data-state", "blocked");
  await expect(team.getByTestId("team-status")).toHaveText("did not finish");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("The team did not finish");
  // The child hung up on the model mid-answer; nothing else was asked.
  await expect.poll(() => server.requests.find((r) => r.turn === 1)?.abortedByClient).toBe(true);
  expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(2);
});
