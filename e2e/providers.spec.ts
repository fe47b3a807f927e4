import { test, expect, createWorkspace } from "./fixtures";
import type { Page } from "@playwright/test";
import { ask, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

/**
 * Set up one of the OpenAI-compatible presets as a person would: its base URL (the mock model
 * server stands in for the real one), its key when it has one, "List models", then pick the
 * model for Act mode.
 */
async function usePreset(page: Page, label: string, opts: { key?: string; listModels?: boolean; model: string }) {
  await page.getByRole("button", { name: "Models" }).click();
  const dialog = page.getByRole("dialog", { name: "Models and keys" });
  await dialog.getByLabel(`${label} base URL`).fill(`${server.url}/v1`);
  if (opts.key) await dialog.getByLabel(`${label} API key`).fill(opts.key);
  if (opts.listModels) {
    await dialog.getByRole("group", { name: label }).getByRole("button", { name: "List models" }).click();
    await expect(dialog.getByRole("group", { name: label })).toContainText("3 models");
  }
  await dialog.getByLabel("Model in Act mode").selectOption({ label: `${label} · ${opts.model}` });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("model-label")).toHaveText(`${label} · ${opts.model}`);
}

for (const preset of [
  { label: "OpenRouter", key: "sk-or-test-key", model: "qwen/qwen3-coder" },
  { label: "Ollama (local)", model: "mock-model", listModels: true },
  { label: "LM Studio (local)", model: "gpt-4o-mini", listModels: true },
]) {
  test(`the ${preset.label} preset streams an answer from its server`, async ({ page }) => {
    await createWorkspace(page, `Preset ${preset.label}`);
    await usePreset(page, preset.label, preset);
    server.setScript([{ chunks: ["first-chunk ", "second-chunk ", "third-chunk ", "last-chunk"], delayMs: 600 }]);
    await ask(page, "Say something");
    const transcript = page.getByRole("log", { name: "Agent transcript" });
    // Streaming: the first words are on screen while the answer is still coming.
    await expect(transcript).toContainText("first-chunk");
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    await expect(transcript).not.toContainText("last-chunk");
    await expect(transcript).toContainText("last-chunk");
    await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();

    const call = server.requests.find((r) => r.method === "POST")!;
    expect(call.api).toBe("openai");
    expect(call.path).toBe("/v1/chat/completions");
    expect(call.body.model).toBe(preset.model);
    expect(call.body.stream).toBe(true);
    expect(JSON.stringify(call.body.messages)).toContain("Say something");
    if (preset.key) expect(call.headers.authorization).toBe(`Bearer ${preset.key}`);
    else expect(call.headers.authorization ?? "").not.toContain("sk-");
  });
}
