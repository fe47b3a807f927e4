import { expect, type Page } from "@playwright/test";
import { test } from "../fixtures";
import { startMockModelServer, type MockModelServer } from "./mock-model-server";

/** Point the app's Anthropic provider at a local mock server, as a user would in the settings. */
export async function useMockModel(page: Page, serverUrl: string) {
  await page.getByRole("button", { name: "Models" }).click();
  const dialog = page.getByRole("dialog", { name: "Models and keys" });
  await dialog.getByLabel("Anthropic base URL").fill(`${serverUrl}/v1`);
  await dialog.getByLabel("Anthropic API key").fill("sk-test-secret-key");
  await dialog.getByLabel("Model in Act mode").selectOption({ label: "Anthropic · claude-sonnet-4-5" });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("model-label")).toHaveText("Anthropic · claude-sonnet-4-5");
}

/** Send a prompt as a person does: once the last run is over (Send, not Stop: Enter does not send while a run goes on). */
export async function ask(page: Page, prompt: string) {
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel("Message the agent").fill(prompt);
  await page.getByLabel("Message the agent").press("Enter");
}

/**
 * One mock model server for the spec file that calls this (started before its tests, reset
 * before each, closed after): the returned object always speaks for the running server.
 */
export function mockModelServerPerFile(): MockModelServer {
  let s: MockModelServer | undefined;
  test.beforeAll(async () => {
    s = await startMockModelServer();
  });
  test.afterAll(async () => {
    await s?.close();
  });
  test.beforeEach(() => s!.reset());
  return new Proxy({} as MockModelServer, {
    get(_target, key) {
      if (!s) throw new Error("The mock model server is not started yet (use it inside a test)");
      const v = (s as unknown as Record<PropertyKey, unknown>)[key];
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(s) : v;
    },
  });
}

/** Turn on auto-approval of edits (and commands) in the session settings, as a user does. */
export async function autoApprove(page: Page, what: { commands?: boolean } = { commands: true }) {
  await page.getByRole("button", { name: "⚙" }).click();
  const settings = page.getByRole("group", { name: "Session settings" });
  await settings.getByLabel("edits").check();
  if (what.commands) await settings.getByLabel("commands").check();
  await page.getByRole("button", { name: "⚙" }).click();
}
