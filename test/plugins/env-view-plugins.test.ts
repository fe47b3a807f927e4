/**
 * A sandboxed plugin's tool reads through the agent's file view: while env-blocker is on, a
 * `.env` is as absent for `ctx.readFile` / `ctx.listFiles` as for the agent's own tools.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentSession } from "../../lib/agent/session";
import { HiddenPathSet } from "../../lib/fs/hidden-view";
import { SessionPlugins } from "../../lib/plugins/session-plugins";
import { envBlocker } from "../../lib/plugins/builtin";
import { fakeCheckpoints, fakeShell, scripted, tempWs } from "../agent/helpers";
import { memoryStorage } from "./memory-storage";
import { buildWorkerBundle, nodeWorkerFactory } from "./node-worker";

let bundle: Awaited<ReturnType<typeof buildWorkerBundle>>;
beforeAll(async () => {
  bundle = await buildWorkerBundle();
});
afterAll(() => bundle.cleanup());

const READER = `export default { name: "reader", manifest: { capabilities: ["tools"] }, setup(api) {
  api.registerTool({ name: "peek", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } }, effects: ["read"],
    async execute(input, ctx) {
      const names = (await ctx.listFiles("")).join(",");
      try { return { output: "listed " + names + " | read " + (await ctx.readFile(input.path)) }; }
      catch (e) { return { output: "listed " + names + " | refused: " + e.message }; }
    } });
} };`;

describe("plugin tools and hidden paths", () => {
  it.each([true, false])("env-blocker on=%s: the plugin's tool sees a .env exactly as the agent does", async (blockerOn) => {
    const ws = tempWs({ ".env": "API_KEY=canary-9f2e", "README.md": "hello", ".tabula/plugins/reader.js": READER });
    const hiddenPaths = new HiddenPathSet();
    const session = new AgentSession({
      deps: { wsfs: ws.wsfs.hidingView(hiddenPaths), hiddenPaths, checkpoints: fakeCheckpoints(), shell: fakeShell().shell },
      model: scripted([{ toolCalls: [{ name: "peek", args: { path: ".env" } }, { name: "peek", args: { path: "README.md" } }] }, { text: "done" }]),
      workspaceId: "w1",
    });
    session.subscribe((e) => {
      if (e.type === "approval-requested") session.approve(e.approvalId);
    });
    const workers = nodeWorkerFactory(bundle.file);
    const storage = memoryStorage();
    if (!blockerOn) storage.setItem("tabula:plugins:w1", JSON.stringify({ "built-in:env-blocker": false }));
    const plugins = new SessionPlugins({
      session,
      wsfs: ws.wsfs,
      workspace: { id: "w1", trustedByDefault: true, provenance: "created here" },
      storage,
      createWorker: workers.create,
      builtins: () => [{ plugin: envBlocker, description: "env", enabledByDefault: true }],
      reloadDelayMs: 10,
    });
    try {
      plugins.start();
      await plugins.whenReady();
      // A workspace made here still shows its code once for review: accept it, as the user would.
      plugins.acceptChanges();
      await plugins.whenReady();
      const outputs: string[] = [];
      session.subscribe((e) => {
        if (e.type === "tool-call-finished") outputs.push(String(e.output));
      });
      await session.run("peek");
      expect(outputs).toHaveLength(2);
      if (blockerOn) {
        expect(outputs.join("\n")).not.toContain("canary-9f2e");
        expect(outputs[0]).not.toMatch(/listed [^|]*\.env[,| ]/);
        expect(outputs[0]).toMatch(/refused: .*env-blocker/);
      } else {
        expect(outputs[0]).toContain("read API_KEY=canary-9f2e");
      }
      expect(outputs[1]).toContain("read hello");
    } finally {
      plugins.dispose();
      await workers.terminateAll();
      ws.cleanup();
    }
  });
});
