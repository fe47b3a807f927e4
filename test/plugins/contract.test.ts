import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validatePlugin, matchesTargeting } from "../../lib/plugins/manifest";
import { setupInProcess } from "../../lib/plugins/load";
import { PluginHost } from "../../lib/plugins/host";
import type { Plugin, PluginContext } from "../../lib/plugins/types";
import { defineTool } from "../../lib/tools/define";
import { harnessPerTest } from "../agent/helpers";

const { h } = harnessPerTest();

const ctx: PluginContext = { workspaceInfo: { rootPath: "/", remotes: [] }, session: { id: "s", mode: "act" }, logger: { info() {}, warn() {}, error() {} } };

function inProcess(host: PluginHost, plugin: Plugin) {
  return host.add({ name: plugin.name, source: "built-in", origin: "test", sandboxed: false, load: async () => { const p = validatePlugin(plugin); return { manifest: p.manifest, contributions: await setupInProcess(p, ctx) }; } });
}

describe("plugin manifests", () => {
  const cases: [string, unknown, RegExp][] = [
    ["not an object", 42, /expected an object export/],
    ["no name", { manifest: { capabilities: ["tools"] } }, /needs a name/],
    ["no manifest", { name: "p" }, /Invalid manifest for plugin "p": the manifest is missing/],
    ["empty capabilities", { name: "p", manifest: { capabilities: [] } }, /capabilities cannot be empty/],
    ["unknown capability", { name: "p", manifest: { capabilities: ["tools", "telepathy"] } }, /unknown capability "telepathy"/],
    ["providerIds not strings", { name: "p", manifest: { capabilities: ["tools"], providerIds: [1] } }, /Invalid manifest for plugin "p"/],
    ["hooks without capability", { name: "p", manifest: { capabilities: ["tools"] }, hooks: { beforeTool() {} } }, /Invalid manifest for plugin "p": it defines hooks without the "hooks" capability/],
    ["unknown hook", { name: "p", manifest: { capabilities: ["hooks"] }, hooks: { beforeEverything() {} } }, /unknown hook "beforeEverything"/],
  ];
  for (const [what, raw, re] of cases) it(`refuses ${what}`, () => expect(() => validatePlugin(raw)).toThrow(re));

  it("checks every register call against the capabilities", async () => {
    const calls: [string, (api: Parameters<NonNullable<Plugin["setup"]>>[0]) => void][] = [
      ["tools", (api) => api.registerTool(defineTool({ name: "t", description: "", inputSchema: z.object({}), effects: ["read"], execute: async () => ({ output: "" }) }))],
      ["commands", (api) => api.registerCommand({ name: "c", handler: () => "x" })],
      ["rules", (api) => api.registerRule({ id: "r", content: "x" })],
      ["messageBuilders", (api) => api.registerMessageBuilder({ name: "b", build: (m) => m })],
      ["providers", (api) => api.registerProvider({ id: "p", name: "P" })],
      ["automationEvents", (api) => api.registerAutomationEventType({ eventType: "e", source: "s" })],
      ["mcp", (api) => api.registerMcpServer({ name: "m", url: "http://127.0.0.1:1/mcp" })],
    ];
    for (const [cap, call] of calls) {
      const other = cap === "hooks" ? "tools" : "hooks";
      const plugin = validatePlugin({ name: "nosy", manifest: { capabilities: [other] }, setup: call });
      await expect(setupInProcess(plugin, ctx)).rejects.toThrow(`Plugin "nosy" called register`);
      const allowed = validatePlugin({ name: "ok", manifest: { capabilities: [cap] }, setup: call });
      await expect(setupInProcess(allowed, ctx)).resolves.toBeDefined();
    }
  });

  it("targeting limits a plugin to its providers and models", () => {
    expect(matchesTargeting({ capabilities: ["hooks"] }, undefined)).toBe(true);
    expect(matchesTargeting({ capabilities: ["hooks"], providerIds: ["anthropic"] }, { provider: "anthropic", modelId: "x" })).toBe(true);
    expect(matchesTargeting({ capabilities: ["hooks"], providerIds: ["anthropic"] }, { provider: "openai", modelId: "x" })).toBe(false);
    expect(matchesTargeting({ capabilities: ["hooks"], modelIds: ["m1"] }, { provider: "a", modelId: "m2" })).toBe(false);
  });
});

describe("plugins in a session", () => {
  it("every hook fires at its moment with its payload, after the mode guard, in load order", async () => {
    const t = h([{ toolCalls: [{ name: "list_files", args: {} }] }, { text: "done" }], { files: { "a.txt": "a" }, approveAll: true });
    const seen: string[] = [];
    const host = new PluginHost(t.session);
    const recorder = (tag: string): Plugin => ({
      name: tag,
      manifest: { capabilities: ["hooks"] },
      hooks: {
        beforeRun: ({ prompt }) => void seen.push(`${tag}:beforeRun:${prompt}`),
        beforeModel: ({ request }) => void seen.push(`${tag}:beforeModel:${request.tools.includes("list_files")}`),
        afterModel: ({ finishReason }) => void seen.push(`${tag}:afterModel:${finishReason}`),
        beforeTool: ({ toolCall }) => void seen.push(`${tag}:beforeTool:${toolCall.name}`),
        afterTool: ({ toolCall, result }) => void seen.push(`${tag}:afterTool:${toolCall.name}:${result.isError ? "error" : "ok"}`),
        afterRun: ({ result }) => void seen.push(`${tag}:afterRun:${result.status}`),
        onEvent: (e) => void (e.type === "run-finished" && seen.push(`${tag}:onEvent:run-finished`)),
      },
    });
    await inProcess(host, recorder("one"));
    await inProcess(host, recorder("two"));
    expect(t.session.hooks.list().map((r) => r.name)).toEqual(["plugin:one", "plugin:two"]);
    await t.session.run("go");
    await new Promise((r) => setTimeout(r, 10));
    const one = seen.filter((s) => s.startsWith("one:"));
    expect(one).toEqual([
      "one:beforeRun:go",
      "one:beforeModel:true",
      "one:afterModel:tool-calls",
      "one:beforeTool:list_files",
      "one:afterTool:list_files:ok",
      "one:beforeModel:true",
      "one:afterModel:stop",
      "one:afterRun:completed",
      "one:onEvent:run-finished",
    ]);
    // Load order within each point.
    expect(seen.indexOf("one:beforeTool:list_files")).toBeLessThan(seen.indexOf("two:beforeTool:list_files"));
  });

  it("skip refuses one call and the run goes on; stop ends the run", async () => {
    const t = h([{ toolCalls: [{ name: "list_files", args: {} }] }, { text: "carried on" }], { approveAll: true });
    const host = new PluginHost(t.session);
    await inProcess(host, { name: "skipper", manifest: { capabilities: ["hooks"] }, hooks: { beforeTool: () => ({ skip: true, reason: "not today" }) } });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(t.of("tool-call-finished")[0]).toMatchObject({ status: "blocked", blockedByPolicy: true });

    const u = h([{ toolCalls: [{ name: "list_files", args: {} }] }, { text: "never" }], { approveAll: true });
    const host2 = new PluginHost(u.session);
    await inProcess(host2, { name: "stopper", manifest: { capabilities: ["hooks"] }, hooks: { beforeTool: () => ({ stop: true, reason: "halt" }) } });
    const r2 = await u.session.run("go");
    expect(r2.status).not.toBe("completed");
    expect(r2.reason).toContain("halt");
    expect(u.model.calls).toHaveLength(1);
  });

  it("a beforeTool hook that throws or hangs refuses the call (fail closed); other hooks that fail let the run go on", async () => {
    const t = h([{ toolCalls: [{ name: "list_files", args: {} }] }, { toolCalls: [{ name: "list_files", args: {} }] }, { text: "end" }], { approveAll: true });
    const host = new PluginHost(t.session, { hookTimeoutMs: 50 });
    let n = 0;
    await inProcess(host, {
      name: "flaky",
      manifest: { capabilities: ["hooks"] },
      hooks: {
        beforeTool: () => (++n === 1 ? Promise.reject(new Error("boom")) : new Promise(() => undefined)),
        afterRun: () => {
          throw new Error("after");
        },
      },
    });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(t.of("tool-call-finished").map((e) => e.status)).toEqual(["error", "error"]); // a failed check is an error row
    expect(t.of("hook-error").map((e) => `${e.hook}:${e.point}`)).toEqual(["plugin:flaky:beforeTool", "plugin:flaky:beforeTool", "plugin:flaky:afterRun"]);
  });

  it("a failing setup contributes nothing and says why; disable detaches everything", async () => {
    const t = h([{ toolCalls: [{ name: "hello", args: { who: "x" } }] }, { text: "ok" }], { approveAll: true });
    const host = new PluginHost(t.session);
    const before = t.session.extensions.slashCommands.length;
    await inProcess(host, {
      name: "broken",
      manifest: { capabilities: ["commands"] },
      setup(api) {
        api.registerCommand({ name: "half", handler: () => "x" });
        throw new Error("setup exploded");
      },
    });
    expect(host.list()[0]).toMatchObject({ name: "broken", state: { status: "failed", error: "setup exploded" } });
    expect(t.session.extensions.slashCommands.length).toBe(before);

    await inProcess(host, {
      name: "greeter",
      manifest: { capabilities: ["tools", "commands", "rules"] },
      setup(api) {
        api.registerTool(defineTool({ name: "hello", description: "Say hello", inputSchema: z.object({ who: z.string() }), effects: ["read"], execute: async (i) => ({ output: `hello ${i.who}` }) }));
        api.registerCommand({ name: "wave", handler: () => "👋" });
        api.registerRule({ id: "tone", content: "Be kind." });
      },
    });
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(t.of("tool-call-finished")[0]).toMatchObject({ toolName: "hello", status: "ok", output: "hello x" });
    expect(t.session.extensions.slashCommands.map((c) => c.name)).toContain("wave");
    host.disable("greeter");
    expect(t.session.extensions.slashCommands.map((c) => c.name)).not.toContain("wave");
    expect(host.list().find((p) => p.name === "greeter")!.state).toEqual({ status: "disabled" });
  });
});

describe("trusted (in-process) workspace plugins", () => {
  it("load from source in the page, with JSON Schema tools made into zod-validated tools", async () => {
    const { inProcessEntry } = await import("../../lib/plugins/in-process");
    const t = h([{ toolCalls: [{ name: "add", args: { a: 2, b: 3 } }, { name: "add", args: { a: "x" } }] }, { text: "ok" }], { approveAll: true });
    const host = new PluginHost(t.session);
    const source = `export default { name: "adder", manifest: { capabilities: ["tools"] }, setup(api) {
      api.registerTool({ name: "add", description: "Add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }, effects: ["read"], execute: async (i) => String(i.a + i.b) });
    } };`;
    await host.add(inProcessEntry({ name: "workspace:adder", origin: ".tabula/plugins/adder.js", source, sourceKind: "workspace", ctx }));
    expect(host.list()[0]).toMatchObject({ sandboxed: false, state: { status: "loaded" } });
    await t.session.run("add");
    const [ok, bad] = t.of("tool-call-finished");
    expect(ok).toMatchObject({ status: "ok", output: "5" });
    expect(bad!.status).toBe("error");
    expect(bad!.output).toMatch(/Invalid arguments for add/);
  });
});

describe("plugin providers", () => {
  it("are listed by the settings store while the plugin runs, and never saved", async () => {
    const { ProviderSettingsStore } = await import("../../lib/providers");
    const { toProviderConfig } = await import("../../lib/plugins/providers");
    const t = h([{ text: "x" }]);
    const host = new PluginHost(t.session);
    await inProcess(host, { name: "local-llm", manifest: { capabilities: ["providers"] }, setup: (api) => api.registerProvider({ id: "my llm", name: "My LLM", baseURL: "http://127.0.0.1:9999/v1", models: ["tiny-1"] }) });
    const mem = new Map<string, string>();
    const store = new ProviderSettingsStore({ getItem: (k) => mem.get(k) ?? null, setItem: (k, v) => void mem.set(k, v), removeItem: (k) => void mem.delete(k) });
    store.setContributed(host.providers.map(toProviderConfig));
    const listed = (await store.load()).providers.find((p) => p.id === "plugin-my-llm");
    expect(listed).toMatchObject({ kind: "openai-compatible", label: "My LLM (plugin)", baseURL: "http://127.0.0.1:9999/v1", models: ["tiny-1"], needsKey: false });
    await store.chooseModel("act", { providerId: "plugin-my-llm", modelId: "tiny-1" });
    expect(await store.provider("plugin-my-llm")).toBeDefined();
    expect(JSON.parse(mem.get("tabula.providers.v1")!).providers.some((p: { id: string }) => p.id === "plugin-my-llm")).toBe(false);
    host.disable("local-llm");
    expect(host.providers).toEqual([]);
  });
});
