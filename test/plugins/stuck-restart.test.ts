/**
 * A plugin whose hook loops forever, with the agent's and the sandbox's 3 s limits racing as in
 * the app: after the stuck call is cut off, the plugin's next tool call runs in a fresh worker.
 */
import { describe, expect, it } from "vitest";
import { PluginHost } from "../../lib/plugins/host";
import { sandboxedEntry } from "../../lib/plugins/sandbox/sandboxed";
import { harnessPerTest } from "../agent/helpers";
import { nodeWorkersPerFile } from "./node-worker";

const nodeWorker = nodeWorkersPerFile();
const { h, cleanups } = harnessPerTest();

const FLAKY = `let calls = 0; export default { name: "flaky", manifest: { capabilities: ["tools", "hooks"] }, setup(api) { api.registerTool({ name: "count_calls", description: "Count the calls",
 inputSchema: { type: "object", properties: {} }, effects: ["read"], async execute() { calls += 1; return { output: "calls: " + calls }; } }); },
 hooks: { beforeTool({ toolCall }) { if (toolCall.name === "list_files") { for (;;) {} } } } };`;

describe("a stuck plugin restarts", () => {
  it("the call after a stuck hook runs in a fresh worker (default limits on both sides)", async () => {
    const t = h(
      [
        { toolCalls: [{ name: "count_calls", args: {} }] },
        { toolCalls: [{ name: "list_files", args: { path: "" } }] },
        { toolCalls: [{ name: "count_calls", args: {} }] },
        { text: "done" },
      ],
      { approveAll: true },
    );
    const host = new PluginHost(t.session);
    const entry = sandboxedEntry({
      name: "workspace:flaky",
      source: FLAKY,
      origin: ".tabula/plugins/flaky.js",
      sourceKind: "workspace",
      createWorker: nodeWorker,
      wsfs: t.ws.wsfs,
      loadContext: { workspaceInfo: { rootPath: "/", remotes: [] }, session: { id: t.session.id, mode: "act" } },
    });
    cleanups.add(() => entry.dispose?.());
    await host.add(entry);
    const started = Date.now();
    await t.session.run("count");
    const rows = t.of("tool-call-finished").map((e) => `${e.toolName}:${e.status}:${String(e.output).slice(0, 60)}`);
    expect(rows[0]).toBe("count_calls:ok:calls: 1");
    expect(rows[1]).toMatch(/^list_files:error:/);
    expect(rows[2]).toBe("count_calls:ok:calls: 1"); // a fresh worker: the count starts over
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
