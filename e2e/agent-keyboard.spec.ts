/** The agent's approvals from the keyboard alone, and the tab title while the agent waits. */
import { test, expect, createWorkspace } from "./fixtures";
import type { Page } from "@playwright/test";
import { useMockModel as useMockModelAt, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();
const useMockModel = (page: Page) => useMockModelAt(page, server.url);

test("Enter approves, Esc rejects with feedback, A always allows; the tab title says when the agent waits", async ({ page }) => {
  await createWorkspace(page, "Keyboard approvals");
  await useMockModel(page);
  server.setScript([
    { toolCalls: [{ name: "editor", args: { command: "str_replace", path: "README.md", old_str: "Sample project", new_str: "Keyboard project" } }] },
    { toolCalls: [{ name: "run_commands", args: { commands: ["grep -c Keyboard README.md"] } }] },
    { toolCalls: [{ name: "run_commands", args: { commands: ["grep -n Keyboard README.md"] } }] },
    { toolCalls: [{ name: "run_commands", args: { commands: ["grep -c project README.md"] } }] },
    { toolCalls: [{ name: "attempt_completion", args: { summary: "Renamed, and checked." } }] },
  ]);
  const box = page.getByLabel("Message the agent");
  await box.click();
  await page.keyboard.type("Rename the project");
  await page.keyboard.press("Enter");

  const approval = page.getByRole("group", { name: "Approval needed" });
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  await expect(approval).toContainText("Apply edit?");
  await expect(page).toHaveTitle(/^\(Waiting for you\) Keyboard approvals — Tabula$/);
  // The card took focus: Enter approves the edit.
  await expect(approval.getByRole("button", { name: "Approve" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(transcript.locator('[data-tool="editor"]')).toHaveAttribute("data-status", "ok");

  // Esc rejects: focus goes to the feedback box, Enter there sends it.
  await expect(approval).toContainText("grep -c Keyboard README.md");
  await expect(approval.getByRole("button", { name: "Approve" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(approval.getByLabel("Feedback for the agent")).toBeFocused();
  await page.keyboard.type("Use -n instead");
  await page.keyboard.press("Enter");
  await expect(transcript.locator('[data-tool="run_commands"]').first()).toHaveAttribute("data-status", "rejected");
  await expect.poll(() => server.requests.length).toBeGreaterThan(2);
  expect(JSON.stringify(server.requests[2]!.body)).toContain("Use -n instead");

  // A approves and always allows commands starting like this one: the next grep needs no card.
  await expect(approval).toContainText("grep -n Keyboard README.md");
  await expect(approval.getByRole("button", { name: /Always allow/ })).toBeVisible();
  await page.keyboard.press("a");
  await expect(page.getByTestId("completion")).toBeVisible();
  await expect(transcript.locator('[data-tool="run_commands"]')).toHaveCount(3);
  await expect(transcript.locator('[data-tool="run_commands"]').nth(2)).toHaveAttribute("data-status", "ok");
  await expect(page).toHaveTitle("Keyboard approvals — Tabula");
});

test("in Plan mode a refused call says 'blocked by policy' at once, while the rest of its turn still waits", async ({ page }) => {
  await createWorkspace(page, "Blocked at once");
  await useMockModel(page);
  server.setScript([
    {
      toolCalls: [
        { name: "editor", args: { command: "str_replace", path: "README.md", old_str: "Sample", new_str: "Changed" } },
        { name: "ask_question", args: { question: "Which section should the plan cover?" } },
      ],
    },
    { text: "Planning the intro." },
  ]);
  await page.getByLabel("Message the agent").focus();
  await page.keyboard.press("Shift+Tab");
  await expect(page.getByRole("radio", { name: "Plan" })).toHaveAttribute("aria-checked", "true");
  await page.getByLabel("Message the agent").fill("Change the README");
  await page.getByLabel("Message the agent").press("Enter");
  const transcript = page.getByRole("log", { name: "Agent transcript" });
  // The question waits for an answer; the edit beside it is already shown as refused.
  await expect(page.getByText("Which section should the plan cover?")).toBeVisible();
  const edit = transcript.locator('[data-tool="editor"]');
  await expect(edit).toHaveAttribute("data-status", "blocked");
  await expect(edit).toContainText("blocked by policy");
});

test("the prompt from the keyboard alone: the palette focuses it, Ctrl+Enter sends, Esc stops, ↑/↓ walk past prompts, Tab reaches the controls with a visible focus", async ({ page }) => {
  await createWorkspace(page, "Keyboard prompt");
  await useMockModel(page);
  server.setScript([{ text: "First answer." }, { chunks: Array.from({ length: 60 }, (_, i) => `slow${i} `), delayMs: 200 }]);
  const box = page.getByLabel("Message the agent");
  const transcript = page.getByRole("log", { name: "Agent transcript" });

  await page.keyboard.press("Control+Shift+P");
  await page.keyboard.type("focus prompt");
  await page.keyboard.press("Enter");
  await expect(box).toBeFocused();
  await page.keyboard.type("first question");
  await page.keyboard.press("Control+Enter");
  await expect(transcript).toContainText("First answer.");
  await expect(box).toHaveValue("");

  await page.keyboard.type("a long one");
  await page.keyboard.press("Control+Enter");
  await expect(transcript).toContainText("slow2");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  await expect(transcript).toContainText("(stopped)");
  expect(await transcript.textContent()).not.toContain("slow59");

  // ↑ on an empty box brings back the last prompt, again the one before; ↓ comes back.
  await expect(box).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(box).toHaveValue("a long one");
  await page.keyboard.press("ArrowUp");
  await expect(box).toHaveValue("first question");
  await page.keyboard.press("ArrowDown");
  await expect(box).toHaveValue("a long one");

  // Tab leaves the box for the controls beside it, each showing where the focus is.
  for (const name of ["Act", "Plan"]) {
    await page.keyboard.press("Tab");
    const focused = page.locator(":focus");
    await expect(focused).toHaveText(name);
    expect(await focused.evaluate((el) => el.matches(":focus-visible") && getComputedStyle(el).outlineStyle !== "none")).toBe(true);
  }
});
