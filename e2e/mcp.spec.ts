import { test, expect, createWorkspace } from "./fixtures";
import { ask, useMockModel, mockModelServerPerFile } from "./helpers/agent-ui";
import { startSdkServer } from "../test/plugins/helpers/mcp-sdk-server";

const server = mockModelServerPerFile();

test("an MCP server (the official SDK's) added with a token: its tools and resources reach the model, the token only the server, removal ends the session", async ({ page }) => {
  const mcp = await startSdkServer({ stateful: true, json: false }, { cors: true, instructions: "Prefer echo." });
  const token = "mcp-e2e-token-5b1f0c";
  try {
    await createWorkspace(page, "MCP SDK");
    await useMockModel(page, server.url);
    await page.getByRole("button", { name: "Plugins", exact: true }).click();
    await page.getByLabel("MCP server name").fill("sdk");
    await page.getByLabel("MCP server URL").fill(mcp.url);
    await page.getByLabel("MCP server token").fill(token);
    await page.getByRole("button", { name: "Add MCP server" }).click();
    const row = page.locator('[data-plugin="mcp:sdk"]');
    await expect(row).toHaveAttribute("data-state", "loaded");
    await expect(row).toContainText("rules"); // the server's instructions became a rule
    await page.getByRole("button", { name: "Plugins", exact: true }).click();

    server.setScript([{ toolCalls: [{ name: "mcp__sdk__resources", args: {} }] }, { text: "Read the resources." }]);
    await ask(page, "read the docs");
    const approval = page.getByRole("group", { name: "Approval needed" });
    await expect(approval).toContainText("mcp__sdk__resources");
    await approval.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Read the resources.");
    const tool = page.locator('[data-tool="mcp__sdk__resources"]');
    await tool.click();
    await expect(tool).toContainText("hello from a resource");
    await expect(tool).toContainText("file:///docs/guide.md");

    // The model saw the server's instructions and the tool result's text.
    const sent = JSON.stringify(server.requests.filter((r) => r.method === "POST").at(-1));
    expect(sent).toContain("Prefer echo.");
    expect(sent).toContain("hello from a resource");
    expect(sent).not.toContain(token);

    // The token went to the server on every request, and is kept apart from the server list.
    expect(mcp.seen.headers.filter((h) => h.method !== "OPTIONS").every((h) => h.authorization === `Bearer ${token}`)).toBe(true);
    const stored = await page.evaluate(() => ({ servers: localStorage.getItem("tabula:mcp-servers") ?? "", sessions: JSON.stringify(Object.keys(localStorage)) }));
    expect(stored.servers).toContain("sdk");
    expect(stored.servers).not.toContain(token);

    await page.getByRole("button", { name: "Plugins", exact: true }).click();
    await row.getByRole("button", { name: "Remove" }).click();
    await expect(row).toHaveCount(0);
    await expect.poll(() => mcp.seen.sessionsDeleted.length).toBe(1);
  } finally {
    await mcp.close();
  }
});
