import { test, expect, createWorkspace } from "./fixtures";
import { ask, mockModelServerPerFile } from "./helpers/agent-ui";

const server = mockModelServerPerFile();

test("a local model shows an unknown price until the user enters one; the meter then counts its cost", async ({ page }) => {
  await createWorkspace(page, "Custom price");
  await page.getByRole("button", { name: "Models" }).click();
  const dialog = page.getByRole("dialog", { name: "Models and keys" });
  await dialog.getByLabel("Ollama (local) base URL").fill(`${server.url}/v1`);
  await dialog.getByLabel("Ollama (local) models").fill("mock-model");
  await dialog.getByLabel("Model in Act mode").selectOption({ label: "Ollama (local) · mock-model" });

  const prices = dialog.getByRole("group", { name: "Prices" });
  const row = prices.locator('[data-model="mock-model"]');
  await expect(row.getByTestId("price-source")).toHaveText("unknown price");
  await expect(row.getByLabel("Context window of mock-model")).toHaveValue("32768");
  await row.getByLabel("Input price of mock-model", { exact: true }).fill("100");
  await row.getByLabel("Output price of mock-model", { exact: true }).fill("200.5");
  await expect(row.getByTestId("price-source")).toHaveText("your price");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("model-label")).toHaveText("Ollama (local) · mock-model");

  server.setScript([{ text: "Priced answer.", usage: { inputTokens: 1000, outputTokens: 100 } }]);
  await ask(page, "hi");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Priced answer.");
  // 1000 × $100/M + 100 × $200.5/M = $0.12
  await expect(page.getByTestId("usage-meter")).toContainText("$0.12");

  // The price is kept: the dialog shows it as the user's after a reload.
  await page.reload();
  await page.getByRole("button", { name: "Models" }).click();
  const again = page.getByRole("dialog", { name: "Models and keys" }).getByRole("group", { name: "Prices" }).locator('[data-model="mock-model"]');
  await expect(again.getByLabel("Output price of mock-model", { exact: true })).toHaveValue("200.5");
  await expect(again.getByTestId("price-source")).toHaveText("your price");
});
