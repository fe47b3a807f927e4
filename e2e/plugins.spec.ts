import { test, expect, createWorkspace, treeItem } from "./fixtures";
import { ask, useMockModel, mockModelServerPerFile, autoApprove } from "./helpers/agent-ui";
import { newFile } from "./helpers/new-file";

const server = mockModelServerPerFile();

const SHOUT = [
  'export default { name: "shout", manifest: { capabilities: ["tools"] }, setup(api, ctx) { ctx.logger.info("ready"); api.registerTool({ name: "shout", description: "Say it louder",',
  ' inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, effects: ["read"],',
  ' async execute(input) { const probe = ["document", "localStorage", "indexedDB", "fetch"].map((k) => k + "=" + typeof globalThis[k]).join(" "); return { output: input.text.toUpperCase() + " | " + probe }; } }); } };',
].join("");

test("a plugin dropped into .tabula/plugins appears in the Plugins view, sandboxed, and the model calls its tool", async ({ page }) => {
  await createWorkspace(page, "Plugins");
  await useMockModel(page, server.url);
  await newFile(page, ".tabula/plugins/shout.js", SHOUT);
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  const row = page.locator('[data-plugin="workspace:shout"]');
  await expect(row).toHaveAttribute("data-state", "loaded");
  await expect(row).toContainText("sandboxed");
  await expect(row).toContainText("capabilities: tools");
  await expect(page.locator('[data-plugin="built-in:env-blocker"]')).toHaveAttribute("data-state", "loaded");
  await page.getByRole("button", { name: "Plugins", exact: true }).click();

  server.setScript([{ toolCalls: [{ name: "shout", args: { text: "hello plugins" } }] }, { text: "Shouted." }]);
  await ask(page, "shout it");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Shouted.");
  await page.locator('[data-tool="shout"]').click();
  // The plugin's tool ran in its worker: no page, no storage (keys live in localStorage), no network.
  await expect(page.locator('[data-tool="shout"]')).toContainText("HELLO PLUGINS | document=undefined localStorage=undefined indexedDB=undefined fetch=undefined");
  expect((server.requests[0].body as { tools?: { name: string }[] }).tools?.map((t) => t.name)).toContain("shout");

  // Disable it: the next request no longer offers the tool.
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  await page.getByLabel("Enable workspace:shout").uncheck();
  await expect(row).toHaveAttribute("data-state", "disabled");
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  server.setScript([{ text: "No tool." }]);
  await ask(page, "again");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("No tool.");
  const offered = (server.requests.at(-1)!.body as { tools?: { name: string }[] }).tools?.map((t) => t.name) ?? [];
  expect(offered).toContain("read_files");
  expect(offered).not.toContain("shout");
});

test("env-blocker refuses cat .env and read_files .env, while .env.example reads fine", async ({ page }) => {
  await createWorkspace(page, "Env");
  await useMockModel(page, server.url);
  await autoApprove(page);
  await newFile(page, ".env", "API_TOKEN=super-secret-value");
  await newFile(page, ".env.example", "API_TOKEN=");
  server.setScript([
    { toolCalls: [{ name: "read_files", args: { files: [{ path: ".env" }] } }] },
    { toolCalls: [{ name: "run_commands", args: { commands: ["cat .env"] } }] },
    { toolCalls: [{ name: "read_files", args: { files: [{ path: ".env.example" }] } }] },
    { text: "Checked the env." },
  ]);
  await ask(page, "what is in the env?");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Checked the env.");
  const rows = page.locator("[data-tool]");
  await expect(rows.nth(0)).toHaveAttribute("data-status", "blocked");
  await expect(rows.nth(1)).toHaveAttribute("data-status", "blocked");
  await expect(rows.nth(2)).toHaveAttribute("data-status", "ok");
  await rows.nth(0).click();
  await expect(rows.nth(0)).toContainText("env-blocker");
  expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain("super-secret-value");
  expect(JSON.stringify(server.requests[3].body)).toContain("API_TOKEN=");
});

test("a file hook on PreToolUse blocks a tool; a plugin stuck in a loop is cut off and the tab stays responsive", async ({ page }) => {
  await createWorkspace(page, "Hooks");
  await useMockModel(page, server.url);
  await newFile(page, ".tabula/hooks/PreToolUse.js", `export default function (p) { if (p.tool === "list_files") return { cancel: true, reason: "Listing is off in this repo, says " + p.hookName }; }`);
  await newFile(page, ".tabula/plugins/spin.js", `export default { name: "spin", manifest: { capabilities: ["hooks"] }, hooks: { beforeTool({ toolCall }) { if (toolCall.name === "search_codebase") { for (;;) {} } } } };`);
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  await expect(page.locator('[data-plugin="workspace:file-hooks"]')).toHaveAttribute("data-state", "loaded");
  await expect(page.locator('[data-plugin="workspace:spin"]')).toHaveAttribute("data-state", "loaded");
  await page.getByRole("button", { name: "Plugins", exact: true }).click();

  server.setScript([
    { toolCalls: [{ name: "list_files", args: {} }] },
    { toolCalls: [{ name: "search_codebase", args: { query: "greet" } }] },
    { toolCalls: [{ name: "read_files", args: { files: [{ path: "README.md" }] } }] },
    { text: "All done." },
  ]);
  await ask(page, "look around");
  const rows = page.locator("[data-tool]");
  await expect(rows.nth(0)).toHaveAttribute("data-status", "blocked");
  await rows.nth(0).click();
  await expect(rows.nth(0)).toContainText("Listing is off in this repo, says PreToolUse");
  // While the plugin spins (up to 3 s), the page still answers: type in the composer.
  const box = page.getByLabel("Message the agent");
  await box.fill("still responsive");
  await expect(box).toHaveValue("still responsive");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("All done.", { timeout: 20_000 });
  // The stuck check is an error (not a policy decision), and the next call was not touched by the restart.
  await expect(rows.nth(1)).toHaveAttribute("data-status", "error");
  await expect(rows.nth(2)).toHaveAttribute("data-status", "ok");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("spin");
  await expect(treeItem(page, ".tabula")).toBeVisible();
});

test("an attempt_completion that a plugin refuses is shown as refused, not as Completed", async ({ page }) => {
  await createWorkspace(page, "Refused completion");
  await useMockModel(page, server.url);
  await newFile(page, ".tabula/plugins/notyet.js", `export default { name: "notyet", manifest: { capabilities: ["hooks"] }, hooks: { beforeTool({ toolCall }) { if (toolCall.name === "attempt_completion") return { skip: true, reason: "Not done yet, says notyet" }; } } };`);
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  await expect(page.locator('[data-plugin="workspace:notyet"]')).toHaveAttribute("data-state", "loaded");
  await page.getByRole("button", { name: "Plugins", exact: true }).click();
  server.setScript([{ toolCalls: [{ name: "attempt_completion", args: { summary: "Finished everything." } }] }, { text: "Then I carry on." }]);
  await ask(page, "finish");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Then I carry on.");
  const row = page.locator('[data-tool="attempt_completion"]');
  await expect(row).toHaveAttribute("data-status", "blocked");
  await expect(page.getByTestId("completion")).toHaveCount(0);
  await row.click();
  await expect(row).toContainText("Not done yet, says notyet");
});

test("an MCP server added in the Plugins view: its tools reach the model and wait for approval in Act mode", async ({ page }) => {
  const http = await import("node:http");
  const mcp = http.createServer(async (req, res) => {
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-expose-headers": "mcp-session-id" };
    if (req.method === "OPTIONS") return void res.writeHead(204, cors).end();
    if (req.method !== "POST") return void res.writeHead(405, cors).end(); // no GET stream, no DELETE
    let body = "";
    for await (const chunk of req) body += chunk;
    const msg = JSON.parse(body) as { id?: number; method: string; params?: { arguments?: { text?: string } } };
    if (msg.id === undefined) return void res.writeHead(202, cors).end();
    const result =
      msg.method === "initialize"
        ? { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "echo", version: "1" } }
        : msg.method === "tools/list"
          ? { tools: [{ name: "echo", description: "Echo text back", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }] }
          : { content: [{ type: "text", text: `echo: ${msg.params?.arguments?.text}` }] };
    res.writeHead(200, { ...cors, "content-type": "text/event-stream", "mcp-session-id": "s1" }).end(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: msg.id, result })}\n\n`);
  });
  await new Promise<void>((r) => mcp.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(mcp.address() as { port: number }).port}/mcp`;
  try {
    await createWorkspace(page, "MCP");
    await useMockModel(page, server.url);
    await page.getByRole("button", { name: "Plugins", exact: true }).click();
    await page.getByLabel("MCP server name").fill("echo");
    await page.getByLabel("MCP server URL").fill(url);
    await page.getByRole("button", { name: "Add MCP server" }).click();
    await expect(page.locator('[data-plugin="mcp:echo"]')).toHaveAttribute("data-state", "loaded");
    await page.getByRole("button", { name: "Plugins", exact: true }).click();
    server.setScript([{ toolCalls: [{ name: "mcp__echo__echo", args: { text: "over MCP" } }] }, { text: "Echoed." }]);
    await ask(page, "echo something");
    const approval = page.getByRole("group", { name: "Approval needed" });
    await expect(approval).toContainText("mcp__echo__echo");
    await approval.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Echoed.");
    await page.locator('[data-tool="mcp__echo__echo"]').click();
    await expect(page.locator('[data-tool="mcp__echo__echo"]')).toContainText("echo: over MCP");
  } finally {
    await new Promise((r) => mcp.close(r));
  }
});

test("goto_definition runs the TypeScript language service in its worker", async ({ page }) => {
  await createWorkspace(page, "Definitions");
  await useMockModel(page, server.url);
  server.setScript([{ toolCalls: [{ name: "goto_definition", args: { file: "src/index.ts", line: 1, symbol: "greet" } }] }, { text: "Found it." }]);
  await ask(page, "where is greet defined?");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Found it.");
  const row = page.locator('[data-tool="goto_definition"]');
  await expect(row).toHaveAttribute("data-status", "ok");
  await row.click();
  await expect(row).toContainText("src/greet.ts:1:17 (function greet)");
});
