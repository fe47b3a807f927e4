import { expect, type Page } from "@playwright/test";

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

export async function ask(page: Page, prompt: string) {
  await page.getByLabel("Message the agent").fill(prompt);
  await page.getByLabel("Message the agent").press("Enter");
}
