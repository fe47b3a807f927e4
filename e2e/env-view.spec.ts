import { test, expect, createWorkspace, treeItem } from "./fixtures";
import type { Page } from "@playwright/test";
import { ask, useMockModel, mockModelServerPerFile, autoApprove } from "./helpers/agent-ui";
import { newFile } from "./helpers/new-file";

const server = mockModelServerPerFile();
const SECRET = "super-secret-7c1e";


// The forms the static check of env-blocker does not see: only the agent's file view stops them.
const FORMS = ["cat .e*", "f=.env; cat $f", "cat $(echo LmVudg== | base64 -d)", "cat sub/.e?v.local", "ls -a . sub"];

test("with env-blocker on, the agent's shell cannot read .env in any form; switched off, it can", async ({ page }) => {
  await createWorkspace(page, "Env view");
  await useMockModel(page, server.url);
  await autoApprove(page);
  await newFile(page, ".env", `API_TOKEN=${SECRET}`);
  await newFile(page, "sub/.env.local", `LOCAL_TOKEN=${SECRET}-local`);
  await newFile(page, ".env.example", "API_TOKEN=");

  server.setScript([{ toolCalls: [{ name: "run_commands", args: { commands: [...FORMS, "cat .env.example"] } }] }, { text: "Looked." }]);
  await ask(page, "what is in the env?");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Looked.");
  const row = page.locator('[data-tool="run_commands"]').last();
  await expect(row).toHaveAttribute("data-status", "ok"); // it ran: nothing refused it before the shell
  const sent = JSON.stringify(server.requests.map((r) => r.body));
  expect(sent).not.toContain(SECRET);
  expect(sent).toContain("No such file or directory");
  expect(sent).toContain("API_TOKEN="); // the template reads

  // Switched off in the Plugins view, the same form reads the file (the test above could fail).
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  await page.getByLabel("Enable built-in:env-blocker").uncheck();
  await expect(page.locator('[data-plugin="built-in:env-blocker"]')).toHaveAttribute("data-state", "disabled");
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  server.setScript([{ toolCalls: [{ name: "run_commands", args: { commands: ["cat .e*"] } }] }, { text: "Read it." }]);
  await ask(page, "and now?");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Read it.");
  expect(JSON.stringify(server.requests.at(-1)!.body)).toContain(SECRET);
});
