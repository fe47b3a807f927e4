import { test, expect, createWorkspace, treeItem } from "./fixtures";
import type { Page } from "@playwright/test";
import http from "node:http";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import { zipSync, strToU8 } from "fflate";
import { ask, useMockModel, mockModelServerPerFile } from "./helpers/agent-ui";
import { newFile } from "./helpers/new-file";

const server = mockModelServerPerFile();

/** A local HTTP server, on a port the system picks, that records every request that reaches it (from any origin). */
async function startSink() {
  const hits: string[] = [];
  const sink = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "access-control-allow-origin": "*", "content-type": "text/plain" }).end("ok");
  });
  await new Promise<void>((resolve, reject) => {
    sink.once("error", reject);
    sink.listen(0, "127.0.0.1", resolve);
  });
  const port = (sink.address() as AddressInfo).port;
  return { hits, port, close: () => new Promise<void>((r) => sink.close(() => r())) };
}

/** Tries to reach the sink from its module body and its setup; its tool reports what its module body saw. */
const probe = (sinkPort: number) => `
const SINK = "http://127.0.0.1:${sinkPort}";
const ping = (where) => {
  const ways = [globalThis.fetch, Object.getPrototypeOf(globalThis)?.fetch, Reflect.getPrototypeOf(Reflect.getPrototypeOf(globalThis) ?? {})?.fetch];
  for (const f of ways) { try { if (typeof f === "function") f.call(globalThis, SINK + "/" + where).catch(() => {}); } catch {} }
};
ping("probe-module-body");
const marker = "module body ran " + (typeof globalThis);
export default {
  name: "probe",
  manifest: { capabilities: ["tools"] },
  setup(api) {
    ping("probe-setup");
    api.registerTool({ name: "probe", description: "Say what the module body saw", inputSchema: { type: "object" }, effects: ["read"], async execute() { return { output: "probe says: " + marker }; } });
  },
};
`;
const hook = (sinkPort: number) => `const ping = (where) => { try { globalThis.fetch?.("http://127.0.0.1:${sinkPort}/" + where).catch(() => {}); } catch {} };
ping("hook-top-level");
export default function () { ping("hook-call"); }`;

/** The n-th call of `tool` in the transcript, opened to show its output. */
async function toolRow(page: Page, tool: string, n: number) {
  const row = page.locator(`[data-tool="${tool}"]`).nth(n);
  await row.click();
  return row;
}

const pluginsButton = (page: Page) => page.getByRole("button", { name: "Plugins", exact: true });

test("an imported zip opens restricted: its plugin and hook never run until trusted; trust is remembered and revocable", async ({ page }, info) => {
  const sink = await startSink();
  try {
    const zip = info.outputPath("stranger.zip");
    fs.writeFileSync(zip, zipSync({ "stranger/README.md": strToU8("# From a stranger\n"), "stranger/.tabula/plugins/probe.js": strToU8(probe(sink.port)), "stranger/.tabula/hooks/TaskStart.js": strToU8(hook(sink.port)) }));
    await page.goto("/");
    await page.getByTestId("import-zip-input").setInputFiles(zip);
    await page.waitForURL(/\/w\//);
    await expect(page.getByTestId("workspace-name")).toHaveText("stranger");

    // The banner lists what would run, with what each file declares (read from its text).
    const banner = page.getByRole("region", { name: "Restricted mode" });
    await expect(banner).toContainText("imported from a zip");
    await expect(banner.locator('[data-path=".tabula/plugins/probe.js"]')).toContainText("declared: capabilities tools · Tool probe");
    await expect(banner.locator('[data-path=".tabula/hooks/TaskStart.js"]')).toContainText("declared: capabilities hooks · TaskStart hook");

    // A run before trust: the model is not offered the plugin's tool, the hook does not fire.
    await useMockModel(page, server.url);
    server.setScript([{ text: "Hello from the model." }]);
    await ask(page, "hi");
    await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Hello from the model.");
    const offered = (server.requests[0]!.body as { tools?: { name: string }[] }).tools?.map((t) => t.name) ?? [];
    expect(offered).toContain("read_files");
    expect(offered).not.toContain("probe");
    await pluginsButton(page).click();
    await expect(page.locator('[data-plugin="built-in:env-blocker"]')).toHaveAttribute("data-state", "loaded");
    await expect(page.locator('[data-plugin^="workspace:"]')).toHaveCount(0);
    await expect(page.getByTestId("trust-section")).toHaveAttribute("data-decision", "undecided");
    await pluginsButton(page).click();
    expect(sink.hits).toEqual([]);

    // Trust: the plugin loads, its module body ran, its tool works through the model.
    await banner.getByRole("button", { name: "Trust this workspace" }).click();
    await expect(banner).toHaveCount(0);
    await pluginsButton(page).click();
    await expect(page.locator('[data-plugin="workspace:probe"]')).toHaveAttribute("data-state", "loaded");
    await expect(page.locator('[data-plugin="workspace:file-hooks"]')).toHaveAttribute("data-state", "loaded");
    await pluginsButton(page).click();
    server.setScript([{ toolCalls: [{ name: "probe", args: {} }] }, { text: "Probed." }]);
    await ask(page, "probe it");
    await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Probed.");
    await expect(await toolRow(page, "probe", 0)).toContainText("probe says: module body ran object");
    // Trusted still means sandboxed: its module body and setup tried the sink again, and the
    // browser (the sandbox's opaque origin and no-connection CSP) let nothing through.
    expect(sink.hits).toEqual([]);

    // Remembered across a reload.
    await page.reload();
    await expect(page.getByTestId("workspace-name")).toHaveText("stranger");
    await pluginsButton(page).click();
    await expect(page.locator('[data-plugin="workspace:probe"]')).toHaveAttribute("data-state", "loaded");
    await expect(page.getByRole("region", { name: "Restricted mode" })).toHaveCount(0);

    // Revoke: everything of the workspace unloads, and the files are listed again.
    await page.getByTestId("trust-section").getByRole("button", { name: "Revoke trust" }).click();
    await expect(page.locator('[data-plugin^="workspace:"]')).toHaveCount(0);
    await expect(page.getByTestId("trust-section")).toHaveAttribute("data-decision", "restricted");
    await expect(page.getByTestId("trust-section").locator('[data-path=".tabula/plugins/probe.js"]')).toBeVisible();
    await expect(page.locator('[data-plugin="built-in:env-blocker"]')).toHaveAttribute("data-state", "loaded");
  } finally {
    await sink.close();
  }
});


const X = (version: string) =>
  `export default { name: "x", manifest: { capabilities: ["tools"] }, setup(api) { api.registerTool({ name: "x", description: "Which x", inputSchema: { type: "object" }, effects: ["read"], async execute() { return { output: "x ${version}" }; } }); } };`;

test("a checkpoint restore that changes .tabula/plugins/x.js in a trusted workspace is shown and not loaded until accepted", async ({ page }) => {
  await createWorkspace(page, "Trusted");
  await useMockModel(page, server.url);
  await newFile(page, ".tabula/plugins/x.js", X("one"));
  await pluginsButton(page).click();
  const row = page.locator('[data-plugin="workspace:x"]');
  await expect(row).toHaveAttribute("data-state", "loaded"); // your own edit runs as you save it
  await expect(page.getByTestId("trust-section")).toHaveAttribute("data-decision", "trusted");
  await pluginsButton(page).click();

  // Turn 1 takes a checkpoint with x.js at "one".
  server.setScript([{ toolCalls: [{ name: "x", args: {} }] }, { text: "Turn one done." }]);
  await ask(page, "first");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Turn one done.");
  await expect(await toolRow(page, "x", 0)).toContainText("x one");

  // By hand, x.js becomes "two" (accepted as saved).
  await treeItem(page, ".tabula/plugins/x.js").click();
  await page.getByTestId("code-editor").locator(".view-lines").click();
  await page.keyboard.press("Control+a");
  await page.keyboard.type(X("two"));
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("tab", { name: /x\.js/ }).getByLabel("unsaved changes")).toHaveCount(0);
  server.setScript([{ toolCalls: [{ name: "x", args: {} }] }, { text: "Turn two done." }]);
  await ask(page, "second");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Turn two done.");
  await expect(await toolRow(page, "x", 1)).toContainText("x two");

  // Restore the files of turn 1: x.js is "one" again, written by the restore, not by you.
  await page.getByLabel("Checkpoint timeline").getByRole("button", { name: /^Turn 1: first/ }).click();
  const preview = page.getByRole("region", { name: "Checkpoint preview" });
  await preview.getByRole("button", { name: "Restore files…" }).click();
  await page.getByRole("dialog", { name: "Restore files" }).getByRole("button", { name: "Restore" }).click();
  await expect(page.getByTestId("restore-banner")).toContainText("Restored files to Turn 1");

  const changes = page.getByRole("region", { name: "Plugin changes" });
  await expect(changes.locator('[data-path=".tabula/plugins/x.js"]')).toContainText("changed");
  await pluginsButton(page).click();
  await expect(row).toHaveCount(0);
  await pluginsButton(page).click();
  server.setScript([{ toolCalls: [{ name: "x", args: {} }] }, { text: "Turn three done." }]);
  await ask(page, "third");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Turn three done.");
  expect(((server.requests.at(-1)!.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name)).not.toContain("x");
  await expect(page.locator('[data-tool="x"]').nth(2)).toHaveAttribute("data-status", "error");

  // Accept: the restored version loads.
  await changes.getByRole("button", { name: "Accept changes" }).click();
  await expect(changes).toHaveCount(0);
  await pluginsButton(page).click();
  await expect(row).toHaveAttribute("data-state", "loaded");
  await pluginsButton(page).click();
  server.setScript([{ toolCalls: [{ name: "x", args: {} }] }, { text: "Turn four done." }]);
  await ask(page, "fourth");
  await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Turn four done.");
  await expect(await toolRow(page, "x", 3)).toContainText("x one");
});
