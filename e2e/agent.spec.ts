import { test, expect, createWorkspace, treeItem, editorText, expandFolder } from "./fixtures";
import type { Page } from "@playwright/test";
import { ask, useMockModel as useMockModelAt, mockModelServerPerFile } from "./helpers/agent-ui";

const useMockModel = (page: Page) => useMockModelAt(page, server.url);

const server = mockModelServerPerFile();

test("the agent reads a file, edits it after approval, runs a command after approval, and completes", async ({ page }) => {
  await createWorkspace(page, "Agent run");
  await useMockModel(page);
  server.setScript([
    { text: "Let me look at the greeting.", toolCalls: [{ name: "read_files", args: { files: [{ path: "src/greet.ts" }] } }] },
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "src/greet.ts", old_str: "Hello", new_str: "Howdy" } }] },
    { toolCalls: [{ name: "run_commands", args: { commands: ["grep -n Howdy src/greet.ts"] } }] },
    { toolCalls: [{ name: "attempt_completion", args: { summary: "The greeting now says Howdy." } }] },
  ]);
  await ask(page, "Make the greeting friendlier");

  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript).toContainText("Let me look at the greeting.");
  await expect(transcript.locator('[data-tool="read_files"]')).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("checkpoint-notice")).toContainText("Checkpoint of run 1 saved");

  const approval = page.getByRole("group", { name: "Approval needed" });
  await expect(approval).toContainText("Apply edit?");
  await expect(approval.getByLabel("Proposed change")).toContainText("+  return `Howdy");
  await approval.getByRole("button", { name: "Approve" }).click();

  await expect(approval).toContainText("Run command?");
  await expect(approval.getByLabel("Command")).toContainText("$ grep -n Howdy src/greet.ts");
  await approval.getByRole("button", { name: "Approve" }).click();

  await expect(transcript.locator('[data-tool="run_commands"]')).toHaveAttribute("data-status", "ok");
  await expect(page.getByTestId("completion")).toBeVisible();
  await expect(transcript).toContainText("The greeting now says Howdy.");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();

  // The editor shows the change, and the tree marks the file modified.
  await expandFolder(page, "src");
  await treeItem(page, "src/greet.ts").click();
  await expect.poll(() => editorText(page)).toContain("Howdy");
  await expect(treeItem(page, "src/greet.ts").locator(".git")).toHaveText("M");

  // The model saw the tool results; the key went only to the provider, in its header.
  expect(server.requests.length).toBe(4);
  expect(server.requests[0].headers["x-api-key"]).toBe("sk-test-secret-key");
  expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain("sk-test-secret-key");
  expect(JSON.stringify(server.requests[3].body)).toContain("Howdy");
});

test("a rejected edit leaves the file alone and the model reads the feedback", async ({ page }) => {
  await createWorkspace(page, "Agent reject");
  await useMockModel(page);
  server.setScript([
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "README.md", old_str: "Sample project", new_str: "Renamed project" } }] },
    { text: "Understood, I will leave it." },
  ]);
  await ask(page, "Rename the project");
  const approval = page.getByRole("group", { name: "Approval needed" });
  await approval.getByRole("button", { name: "Reject…" }).click();
  await approval.getByLabel("Feedback for the agent").fill("Keep the current name");
  await approval.getByRole("button", { name: "Reject" }).click();
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Understood, I will leave it.");
  await expect(page.getByRole("log", { name: "Agent transcript" }).locator('[data-tool="editor"]')).toHaveAttribute("data-status", "rejected");
  expect(JSON.stringify(server.requests[1].body)).toContain("Keep the current name");
  await treeItem(page, "README.md").click();
  await expect.poll(() => editorText(page)).toContain("# Sample project");
  await expect(treeItem(page, "README.md").locator(".git")).toHaveCount(0);
});

test("stop during a slow stream, then reload: the session resumes with the whole history", async ({ page }) => {
  await createWorkspace(page, "Agent stop");
  await useMockModel(page);
  server.setScript([{ chunks: Array.from({ length: 60 }, (_, i) => `word${i} `), delayMs: 250 }, { text: "Continuing the story." }]);
  await ask(page, "Tell me a long story");
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript).toContainText("word3");
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  await expect(transcript).toContainText("(stopped)");
  // The stream really stopped: the browser hung up on the model mid-answer.
  await expect.poll(() => server.requests[0]?.abortedByClient).toBe(true);
  expect(server.requests).toHaveLength(1);
  const shown = (await transcript.textContent()) ?? "";
  const lastWord = Math.max(...[...shown.matchAll(/word(\d+)/g)].map((m) => Number(m[1])));
  expect(lastWord).toBeLessThan(59);

  await page.reload();
  const resumed = page.getByRole("log", { name: "Agent transcript" });
  await expect(resumed).toContainText("Tell me a long story");
  await expect(resumed).toContainText(`word${lastWord}`);
  // Resume: a follow-up goes out with everything before it.
  await ask(page, "Go on");
  await expect(resumed).toContainText("Continuing the story.");
  expect(server.requests).toHaveLength(2);
  const messages = server.requests[1]!.body.messages as { role: string; content: unknown }[];
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  expect(JSON.stringify(messages[0]!.content)).toContain("Tell me a long story");
  expect(JSON.stringify(messages[1]!.content)).toContain(`word${lastWord}`);
  expect(JSON.stringify(messages[1]!.content)).not.toContain("word59");
  expect(JSON.stringify(messages[2]!.content)).toContain("Go on");
});

test("Plan mode refuses an edit and a writing command without asking, and shows the block", async ({ page }) => {
  await createWorkspace(page, "Agent plan");
  await useMockModel(page);
  server.setScript([
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "README.md", old_str: "Sample", new_str: "Changed" } }] },
    { toolCalls: [{ name: "run_commands", args: { commands: ["echo x > README.md"] } }] },
    { text: "I can only plan here." },
    { text: "No plan is needed." },
  ]);
  await page.getByLabel("Message the agent").focus();
  await page.keyboard.press("Shift+Tab");
  await expect(page.getByRole("radio", { name: "Plan" })).toHaveAttribute("aria-checked", "true");
  await ask(page, "Change the README");
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript).toContainText("No plan is needed.");
  const edit = transcript.locator('[data-tool="editor"]');
  const cmd = transcript.locator('[data-tool="run_commands"]');
  await expect(edit).toHaveAttribute("data-status", "blocked");
  await expect(cmd).toHaveAttribute("data-status", "blocked");
  await expect(cmd).toContainText("blocked by policy");
  await expect(cmd).toContainText("Plan mode");
  await expect(page.getByRole("group", { name: "Approval needed" })).toHaveCount(0);
  await treeItem(page, "README.md").click();
  await expect.poll(() => editorText(page)).toContain("# Sample project");
  await expect(treeItem(page, "README.md").locator(".git")).toHaveCount(0);
});

test("code blocks are highlighted and an agent edit opens as a Monaco diff", async ({ page }) => {
  await createWorkspace(page, "Agent diff");
  await useMockModel(page);
  server.setScript([
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "src/greet.ts", old_str: "Hello", new_str: "Howdy" } }] },
    { text: "Changed it:\n\n```ts\nexport const greeting = `Howdy`;\n```\n" },
  ]);
  await ask(page, "Change the greeting");
  await page.getByRole("group", { name: "Approval needed" }).getByRole("button", { name: "Approve" }).click();
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript.locator('[data-highlight="ts"] span[class*="mtk"]').first()).toBeVisible();
  await transcript.getByRole("button", { name: "Open diff of src/greet.ts" }).click();
  const diff = page.getByTestId("diff-editor");
  await expect(diff.locator(".original .view-lines")).toContainText("Hello");
  await expect(diff.locator(".modified .view-lines:not(.line-delete)")).toContainText("Howdy");
  await expect(page.getByRole("tab", { name: /agent edit/ })).toBeVisible();
});

test("a provider that answers HTML, and a dropped stream, end in clear messages", async ({ page }) => {
  await createWorkspace(page, "Agent bad input");
  await useMockModel(page);
  server.setScript([{ raw: { status: 200, contentType: "text/html", body: "<!doctype html><html><body>Sign in</body></html>" } }]);
  await ask(page, "Hello?");
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript.getByRole("alert")).toContainText("HTML page");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();

  server.setScript([{ chunks: ["partial ", "answer ", "that ", "stops"], dropAfter: 2 }, { text: "Recovered answer." }]);
  await ask(page, "Try again");
  await expect(transcript).toContainText("Recovered answer.");
  await expect(transcript).toContainText(/dropped/);
});

test("Plan mode delivers a plan card; approving it switches to Act and the plan becomes the run's brief", async ({ page }) => {
  await createWorkspace(page, "Agent plan card");
  await useMockModel(page);
  server.setScript([
    {
      toolCalls: [
        {
          name: "submit_plan",
          args: {
            goal: "Make the greeting friendlier",
            nodes: [
              { key: "check", title: "Check the output", description: "Run grep to confirm.", dependsOn: ["edit"] },
              { key: "edit", title: "Change the greeting", description: "Replace Hello with Howdy in src/greet.ts.", dependsOn: [] },
            ],
          },
        },
      ],
    },
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "src/greet.ts", old_str: "Hello", new_str: "Howdy" } }] },
    { toolCalls: [{ name: "attempt_completion", args: { summary: "Plan carried out." } }] },
  ]);
  await page.getByRole("radio", { name: "Plan" }).click();
  await ask(page, "Plan a friendlier greeting");
  const card = page.getByRole("group", { name: "Plan" });
  await expect(card).toContainText("Make the greeting friendlier");
  // Steps in dependency order: the edit before the check that depends on it.
  await expect(card.locator("li").first()).toContainText("Change the greeting");
  await expect(card.locator("li").nth(1)).toContainText("after Change the greeting");
  await expect(page.getByRole("radio", { name: "Plan" })).toHaveAttribute("aria-checked", "true");

  await card.getByRole("button", { name: "Approve & switch to Act" }).click();
  await expect(page.getByRole("radio", { name: "Act" })).toHaveAttribute("aria-checked", "true");
  await page.getByRole("group", { name: "Approval needed" }).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("completion")).toContainText("Plan carried out.");
  expect(JSON.stringify(server.requests[1].body)).toContain("Replace Hello with Howdy");
  await expandFolder(page, "src");
  await treeItem(page, "src/greet.ts").click();
  await expect.poll(() => editorText(page)).toContain("Howdy");
});

test("Review mode records findings and a verdict, shown in the panel and on the lines in the editor", async ({ page }) => {
  await createWorkspace(page, "Agent review");
  await useMockModel(page);
  server.setScript([
    {
      toolCalls: [
        {
          name: "add_review_node",
          args: { kind: "bug", priority: "P0", confidence: 0.9, anchor: { file: "src/greet.ts", startLine: 2, endLine: 2 }, body: "The greeting ignores empty names." },
        },
      ],
    },
    { toolCalls: [{ name: "add_review_node", args: { kind: "suggestion", priority: "P3", confidence: 0.5, body: "Add a test for greet()." } }] },
    { toolCalls: [{ name: "finalize_review", args: { verdict: "ship", summary: "Mostly fine." } }] },
  ]);
  await page.getByRole("radio", { name: "Review" }).click();
  await page.getByRole("button", { name: "Review changes" }).click();
  const panel = page.getByRole("region", { name: "Review" });
  // An open P0 bug forces the verdict to block, whatever the model asked for.
  await expect(page.getByTestId("review-verdict")).toContainText("Verdict: block (raised from ship)");
  await expect(panel.getByRole("list", { name: "Findings" }).locator("li")).toHaveCount(2);
  await panel.getByRole("button", { name: "src/greet.ts:2", exact: true }).click();
  await expect(page.getByRole("tab", { name: /greet\.ts/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("code-editor").locator(".review-line.severe")).toHaveCount(1);
  const download = page.waitForEvent("download");
  await panel.getByRole("button", { name: "Export Markdown" }).click();
  const file = await (await download).path();
  const text = (await import("node:fs")).readFileSync(file, "utf8");
  expect(text).toContain("Verdict: block");
  expect(text).toContain("The greeting ignores empty names.");

  // Resolve the blocker, dismiss the nit: their marks leave the editor, the open count and what the open ones allow say so.
  await expect(panel.getByTestId("review-open")).toHaveText("2 of 2 open");
  await panel.getByRole("button", { name: "Resolve the finding at src/greet.ts:2" }).click();
  await expect(page.getByTestId("code-editor").locator(".review-line")).toHaveCount(0);
  await expect(panel.getByTestId("review-open")).toHaveText("1 of 2 open · the open ones allow ship");
  await panel.getByRole("button", { name: "Dismiss the finding at the repository" }).click();
  await expect(panel.getByTestId("review-open")).toHaveText("0 of 2 open · the open ones allow ship");
  await expect(panel.locator('li[data-status="resolved"]')).toContainText("resolved");
  await expect(panel.locator('li[data-status="dismissed"]')).toContainText("Add a test for greet().");
  // Kept with the session: after a reload too; Reopen brings the mark back.
  await page.reload();
  await expect(page.getByRole("region", { name: "Review" }).getByTestId("review-open")).toHaveText("0 of 2 open · the open ones allow ship");
  await page.getByRole("region", { name: "Review" }).getByRole("button", { name: "Reopen the finding at src/greet.ts:2" }).click();
  await expect(page.getByRole("region", { name: "Review" }).getByTestId("review-open")).toHaveText("1 of 2 open");
  await page.getByRole("region", { name: "Review" }).getByRole("button", { name: "src/greet.ts:2", exact: true }).click();
  await expect(page.getByTestId("code-editor").locator(".review-line.severe")).toHaveCount(1);
});

test("switching to Plan mid-run takes effect at the very next tool call", async ({ page }) => {
  await createWorkspace(page, "Agent switch");
  await useMockModel(page);
  server.setScript([
    {
      chunks: Array.from({ length: 12 }, (_, i) => `thinking${i} `),
      delayMs: 250,
      toolCalls: [{ name: "editor", args: { command: "str_replace", path: "README.md", old_str: "Sample", new_str: "Changed" } }],
    },
    { text: "Understood, read-only now." },
    { text: "No plan needed." },
  ]);
  await ask(page, "Edit the README");
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(transcript).toContainText("thinking2");
  await page.getByRole("radio", { name: "Plan" }).click();
  await expect(transcript.locator('[data-tool="editor"]')).toHaveAttribute("data-status", "blocked");
  await expect(page.getByRole("group", { name: "Approval needed" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  await expect(treeItem(page, "README.md").locator(".git")).toHaveCount(0);
});
