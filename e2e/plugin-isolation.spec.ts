/**
 * The plugin sandbox holds by construction, in real Chromium: a hostile plugin
 * (e2e/fixtures/probe-plugin.js), installed the way a user installs one, tries every way out
 * in its module body, its setup and its tool — network (fetch and the originals on the
 * prototype chain, XHR, WebSocket, EventSource, sendBeacon, importScripts, import() of a
 * remote module in three spellings, nested workers, code from strings), the app's storage
 * (IndexedDB, caches, localStorage, cookies), the app's BroadcastChannels, and forged RPCs to
 * the host. A local sink server records every request it gets: it must get none, the page must
 * hear nothing, no app data may appear in what the probe saw, and its sanctioned tool (a
 * workspace read inside its own call) must still work.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { test, expect, createWorkspace } from "./fixtures";
import { sandboxDocument } from "../lib/plugins/sandbox/iframe-worker";
import { ask, useMockModel, mockModelServerPerFile } from "./helpers/agent-ui";
import { newFile } from "./helpers/new-file";

const server = mockModelServerPerFile();
// The sink listens on a free port of 127.0.0.1 (TABULA_SINK_PORT to pin one); the probe is told its origin.
const SINK_PORT = Number(process.env.TABULA_SINK_PORT ?? 0);
const SECRET = "canary-secret-5f2e9c";
const WORKSPACE = "Isolation canary 7781";

/** The first string anywhere in `value` that satisfies `test`. */
function findString(value: unknown, test: (s: string) => boolean): string | undefined {
  if (typeof value === "string") return test(value) ? value : undefined;
  if (value && typeof value === "object") for (const v of Object.values(value)) {
    const found = findString(v, test);
    if (found !== undefined) return found;
  }
  return undefined;
}

type Sink = { origin: string; requests: string[]; close(): Promise<void> };

async function startSink(): Promise<Sink> {
  const requests: string[] = [];
  const srv = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "access-control-allow-origin": "*", "content-type": "text/javascript" });
    res.end("export default 'sink reached';");
  });
  srv.on("upgrade", (req, socket) => {
    requests.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => srv.listen(SINK_PORT, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, requests, close: () => new Promise((r) => srv.close(() => r())) };
}

function probeSource(sink: Sink): string {
  const source = fs.readFileSync(new URL("./fixtures/probe-plugin.js", import.meta.url), "utf8").replaceAll("__SINK_ORIGIN__", sink.origin);
  expect(source).toContain(`const SINK = "${sink.origin}"`);
  return source;
}

/** A control: the page itself can reach the sink, so a probe that got through would be seen. */
async function expectSinkReachable(page: Page, sink: Sink) {
  expect(await page.evaluate((origin) => fetch(`${origin}/control`).then((r) => r.status), sink.origin)).toBe(200);
  expect(sink.requests).toEqual(["GET /control"]);
  sink.requests.length = 0;
}

test("a hostile plugin reaches no network, no app storage and no host call outside its own; its sanctioned tool works", async ({ page }) => {
  const sink = await startSink();
  try {
    const url = await createWorkspace(page, WORKSPACE);
    const workspaceId = url.split("/").pop()!;
    await useMockModel(page, server.url);
    await newFile(page, ".env", `API_TOKEN=${SECRET}`);

    await expectSinkReachable(page, sink);
    // The page listens where a plugin could try to talk to the app.
    await page.evaluate((id) => {
      const heard: string[] = [];
      (window as unknown as { __heard: string[] }).__heard = heard;
      for (const name of ["tabula", `tabula-ws-${id}`]) new BroadcastChannel(name).addEventListener("message", (e) => JSON.stringify(e.data).includes("probe") && heard.push(`channel ${name}: ${JSON.stringify(e.data)}`));
      window.addEventListener("message", (e) => JSON.stringify(e.data ?? null).includes("host.readFile") && heard.push(`window: ${JSON.stringify(e.data)}`));
    }, workspaceId);

    const probe = probeSource(sink);
    await page.getByRole("button", { name: "Plugins", exact: true }).click();
    await page.getByTestId("install-plugin-input").setInputFiles({ name: "probe.js", mimeType: "text/javascript", buffer: Buffer.from(probe) });
    const row = page.locator('[data-plugin="user:probe"]');
    await expect(row).toHaveAttribute("data-state", "loaded");
    await expect(row).toContainText("sandboxed");
    // Each plugin worker lives in its own sandboxed iframe: scripts only, no same-origin.
    await expect(page.locator("iframe[data-plugin-sandbox]").first()).toHaveAttribute("sandbox", "allow-scripts");
    await page.getByRole("button", { name: "Plugins", exact: true }).click();

    server.setScript([{ toolCalls: [{ name: "probe", args: { workspaceId } }] }, { text: "Probed." }]);
    await ask(page, "run the probe");
    await expect(page.getByRole("log", { name: "Agent transcript" })).toContainText("Probed.", { timeout: 60_000 });
    await expect(page.locator('[data-tool="probe"]')).toHaveAttribute("data-status", "ok");

    // What the probe saw is its tool result, as the model received it.
    const report = findString(server.requests[1]!.body, (s) => s.startsWith("sanctioned read of README.md"))!.split("\n");
    console.log(`probe report (${report.length} lines):\n${report.join("\n")}`);

    expect(report[0]).toMatch(/^sanctioned read of README.md: \S/); // the sanctioned path works
    for (const where of ["body", "setup", "tool"]) {
      for (const name of ["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon", "importScripts", "import call of a remote url", "import with a comment before the paren", "import with whitespace before the paren", "nested Worker", "(async () => {}).constructor", "indexedDB.databases()", "indexedDB.open(tabula-registry)", "caches", "localStorage", "cookies", "BroadcastChannel", "self.constructor.prototype.fetch", "Object.getPrototypeOf(self).fetch", "Reflect.getPrototypeOf(globalThis).fetch", "forged readFile on the captured port"]) {
        expect(report.some((l) => l.startsWith(`${where}/${name}: `)), `${where}/${name} was tried`).toBe(true);
      }
      expect(report).toContain(`${where}/origin: origin is "null"`);
    }
    expect(report.filter((l) => l.includes("GOT")), "probes that got something").toEqual([]);
    // Forged reads outside any call of the host's (setup) and with a made-up token (tool) are refused by the host.
    expect(report.find((l) => l.startsWith("setup/forged readFile"))).toMatch(/refused \(readFile is only available while the host runs one of this plugin's tools/);
    expect(report.find((l) => l.startsWith("tool/forged readFile"))).toMatch(/refused \(readFile is only available while/);

    expect(sink.requests, "requests that reached the sink").toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __heard: string[] }).__heard)).toEqual([]);
    const seen = report.join("\n");
    for (const secret of [SECRET, WORKSPACE, "sk-test-secret-key"]) expect(seen, `the probe saw ${secret}`).not.toContain(secret);
  } finally {
    await sink.close();
  }
});

test("the sandbox document alone holds: without the runtime's hardening, the browser still refuses every way out", async ({ page }) => {
  // The app's own sandbox document (the same srcdoc, CSP and bootstrap), with a worker that
  // deletes nothing: the probe runs against the browser's guarantees only.
  const sink = await startSink();
  try {
    const url = await createWorkspace(page, WORKSPACE);
    const workspaceId = url.split("/").pop()!;
    await expectSinkReachable(page, sink);
    const worker = `onmessage = (e) => {
      const port = e.ports[0];
      import(${JSON.stringify("data:text/javascript;base64,")} + ${JSON.stringify(Buffer.from(probeSource(sink)).toString("base64"))}).then(async (m) => {
        let tool;
        await m.default.setup({ registerTool: (t) => (tool = t) }, { logger: { info() {} } });
        const r = await tool.execute({ workspaceId: ${JSON.stringify(workspaceId)} }, { readFile: async () => "not used" });
        port.postMessage(r.output);
      }, (err) => port.postMessage("the probe did not load: " + err.message));
    };`;
    const output = await page.evaluate(
      ({ srcdoc, worker, id }) =>
        new Promise<{ output: string; heard: string[] }>((resolve) => {
          const heard: string[] = [];
          for (const name of ["tabula", `tabula-ws-${id}`]) new BroadcastChannel(name).addEventListener("message", (e) => JSON.stringify(e.data).includes("probe") && heard.push(`channel ${name}: ${JSON.stringify(e.data)}`));
          window.addEventListener("message", (e) => JSON.stringify(e.data ?? null).includes("host.readFile") && heard.push(`window: ${JSON.stringify(e.data)}`));
          const frame = document.createElement("iframe");
          frame.setAttribute("sandbox", "allow-scripts");
          frame.srcdoc = srcdoc;
          const channel = new MessageChannel();
          channel.port1.onmessage = (e) => setTimeout(() => resolve({ output: String(e.data), heard }), 300);
          frame.onload = () => frame.contentWindow!.postMessage({ type: "tabula-sandbox-start", runtime: worker, name: "bare" }, "*", [channel.port2]);
          document.body.append(frame);
        }),
      { srcdoc: sandboxDocument("e2e0nonce"), worker, id: workspaceId },
    );
    const report = output.output.split("\n");
    console.log(`bare probe report (${report.length} lines):\n${report.join("\n")}`);
    expect(report.length, output.output).toBeGreaterThan(60);
    for (const where of ["body", "setup", "tool"]) expect(report).toContain(`${where}/origin: origin is "null"`);
    expect(report.filter((l) => l.includes("GOT")), "probes that got something").toEqual([]);
    expect(sink.requests, "requests that reached the sink").toEqual([]);
    expect(output.heard).toEqual([]);
    for (const secret of [WORKSPACE, "sk-test-secret-key"]) expect(output.output).not.toContain(secret);
  } finally {
    await sink.close();
  }
});
