/**
 * Sandboxed plugins in real worker threads: the JSON bridge, time limits that terminate a stuck
 * worker while the main thread stays responsive, restart on the next call, crash handling, and
 * a scope without network or storage.
 */
import { describe, expect, it } from "vitest";
import { PluginHost } from "../../lib/plugins/host";
import { sandboxedEntry } from "../../lib/plugins/sandbox/sandboxed";
import { fileHookEvent, fileHooksPluginSource } from "../../lib/plugins/file-hooks";
import { type Harness, harnessPerTest } from "../agent/helpers";
import { nodeWorkersPerFile } from "./node-worker";

const nodeWorker = nodeWorkersPerFile();
const { h, cleanups } = harnessPerTest();

async function sandboxed(t: Harness, source: string, timeouts = {}, hostHookTimeoutMs = 10_000) {
  let starts = 0;
  const logs: string[] = [];
  const host = new PluginHost(t.session, { hookTimeoutMs: hostHookTimeoutMs });
  const entry = sandboxedEntry({
    name: "sandboxed",
    source,
    origin: ".tabula/plugins/sandboxed.js",
    sourceKind: "workspace",
    createWorker: nodeWorker,
    wsfs: t.ws.wsfs,
    loadContext: { workspaceInfo: { rootPath: "/", remotes: [] }, session: { id: t.session.id, mode: "act" } },
    timeouts,
    onStart: () => starts++,
    onLog: (level, m) => logs.push(`${level}:${m}`),
  });
  cleanups.add(() => entry.dispose?.());
  await host.add(entry);
  return { host, starts: () => starts, logs };
}

const TOOL_PLUGIN = `
let setups = 0;
export default {
  name: "wordcount",
  manifest: { capabilities: ["tools", "commands", "rules", "hooks"] },
  setup(api, ctx) {
    setups++;
    ctx.logger.info("setup " + setups + " in session " + ctx.session.id);
    api.registerTool({
      name: "word_count",
      description: "Count the words of a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      effects: ["read"],
      async execute(input, ctx) {
        const text = await ctx.readFile(input.path);
        return { output: input.path + ": " + text.split(/\\s+/).filter(Boolean).length + " words" };
      },
    });
    api.registerCommand({ name: "hello", description: "Say hello", handler: (args) => "hello " + args });
    api.registerRule({ id: "tone", content: "Count carefully." });
  },
  hooks: {
    beforeTool({ toolCall, input }) {
      if (toolCall.name === "read_files") return { skip: true, reason: "use word_count" };
    },
  },
};`;

describe("sandboxed plugins (worker threads)", () => {
  it("its tool, command, rule and hook work across the JSON bridge; the tool reads the workspace through the host", async () => {
    const t = h([{ toolCalls: [{ name: "word_count", args: { path: "a.txt" } }, { name: "read_files", args: { files: [{ path: "a.txt" }] } }] }, { text: "done" }], { files: { "a.txt": "one two three" }, approveAll: true });
    const p = await sandboxed(t, TOOL_PLUGIN);
    expect(p.host.list()[0]).toMatchObject({ name: "sandboxed", sandboxed: true, state: { status: "loaded" } }); 
    const r = await t.session.run("count");
    expect(r.status).toBe("completed");
    expect(t.of("tool-call-finished").map((e) => `${e.toolName}:${e.status}:${e.output.slice(0, 30)}`)).toEqual(["word_count:ok:a.txt: 3 words", "read_files:blocked:use word_count"]);
    expect((await t.session.run("/hello world")).summary).toBe("hello world");
    expect(JSON.stringify(t.model.calls[0])).toContain("Count carefully.");
    expect(p.logs[0]).toMatch(/^info:setup 1 in session /);
  });

  it("a hook stuck in an infinite loop is cut off in time: the call is refused, the main thread never blocks, the next call restarts the worker", async () => {
    const LOOP = `export default { name: "loop", manifest: { capabilities: ["hooks"] }, hooks: {
      beforeTool({ toolCall }) { if (toolCall.name === "list_files") { for (;;) {} } },
    } };`;
    const t = h([{ toolCalls: [{ name: "list_files", args: {} }] }, { toolCalls: [{ name: "search_codebase", args: { query: "x" } }] }, { text: "end" }], { files: { "a.txt": "x" }, approveAll: true });
    const p = await sandboxed(t, LOOP, { hookMs: 300 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const started = Date.now();
    const r = await t.session.run("go");
    clearInterval(timer);
    expect(r.status).toBe("completed");
    expect(t.of("tool-call-finished").map((e) => `${e.toolName}:${e.status}`)).toEqual(["list_files:error", "search_codebase:ok"]);
    expect(t.of("hook-error")[0]!.message).toMatch(/did not answer within 0.3 s and was stopped/);
    expect(ticks).toBeGreaterThan((Date.now() - started) / 20 / 3); // the event loop kept turning during the loop
    expect(p.starts()).toBe(2); // killed, then restarted for the second call
  });

  it("a plugin stopped for running over its limit does not fail its next call: one queued behind the stuck call runs on the fresh worker", async () => {
    // The agent's hook pipeline gives up on the stuck hook (2.5 s) before the sandbox's own limit
    // kills the worker (2.8 s): the next hook call, for attempt_completion, is sent to the
    // stuck worker in between. Killing the worker must not take that call down with it (it has
    // the rest of its own 2.5 s to run on the fresh worker, ample even on a loaded machine).
    const LOOP = `export default { name: "loop", manifest: { capabilities: ["hooks"] }, hooks: {
      beforeTool({ toolCall }) { if (toolCall.name === "list_files") { for (;;) {} } },
    } };`;
    const t = h([{ toolCalls: [{ name: "list_files", args: {} }] }, { toolCalls: [{ name: "attempt_completion", args: { summary: "All done." } }] }, { text: "asked again" }], { files: { "a.txt": "x" }, approveAll: true });
    const p = await sandboxed(t, LOOP, { hookMs: 2800 }, 2500);
    const r = await t.session.run("go");
    expect(t.of("tool-call-finished").map((e) => `${e.toolName}:${e.status}`), JSON.stringify(t.of("tool-call-finished").map((e) => e.output))).toEqual(["list_files:error", "attempt_completion:ok"]);
    expect(t.of("tool-call-finished")[0]!.output).toMatch(/plugin:sandboxed.*hook failed/);
    expect(r).toMatchObject({ status: "completed", summary: "All done." });
    expect(t.model.calls).toHaveLength(2); // no extra model request after a refused completion
    expect(p.starts()).toBe(2);
  });

  it("killing a worker for one call over its limit: a call that had begun is cut off and says why, one that had not begun runs on the fresh worker", async () => {
    // The command waits until the tool call has begun, says so, and spins: the tool call had
    // begun; a call sent after "spinning" arrives cannot begin.
    const SOURCE = `let toolBegun = false;
    export default { name: "mixed", manifest: { capabilities: ["tools", "commands"] }, setup(api, ctx) {
      api.registerCommand({ name: "hang", handler: async () => { while (!toolBegun) await new Promise((r) => setTimeout(r, 5)); ctx.logger.info("spinning"); for (;;) {} } });
      api.registerTool({ name: "slow", description: "x", inputSchema: { type: "object" }, effects: ["read"], async execute() { toolBegun = true; await new Promise((r) => setTimeout(r, 150)); return { output: "slow done" }; } });
    } };`;
    let starts = 0;
    let spinning!: () => void;
    const spun = new Promise<void>((r) => (spinning = r));
    const entry = sandboxedEntry({ name: "mixed", source: SOURCE, origin: "x", sourceKind: "workspace", createWorker: nodeWorker, loadContext: { workspaceInfo: { rootPath: "/", remotes: [] }, session: { id: "s", mode: "act" } }, timeouts: { commandMs: 1000 }, onStart: () => starts++, onLog: (_l, m) => m === "spinning" && spinning() });
    cleanups.add(() => entry.dispose?.());
    const { contributions } = await entry.load();
    const ctx = { mode: "act", readOnly: false, sessionId: "s", toolCallId: "t1", workspaceId: "w", signal: new AbortController().signal } as unknown as Parameters<(typeof contributions.tools)[0]["execute"]>[1];
    const hang = contributions.commands[0]!.handler("", undefined as never);
    const begun = contributions.tools[0]!.execute({}, ctx);
    await spun;
    const queued = contributions.tools[0]!.execute({}, { ...ctx, toolCallId: "t2" });
    const [a, b, c] = await Promise.allSettled([hang, begun, queued]);
    expect(a).toMatchObject({ status: "rejected", reason: expect.objectContaining({ message: expect.stringMatching(/did not answer within 1 s and was stopped/) }) });
    expect(b).toMatchObject({ status: "rejected", reason: expect.objectContaining({ message: expect.stringMatching(/restarted because another of its calls ran over its time limit; this call had begun and was cut off/) }) });
    expect(c).toMatchObject({ status: "fulfilled", value: expect.objectContaining({ output: "slow done" }) });
    expect(starts).toBe(2);
  });

  it("a plugin that throws fails only its own call; a broken file fails to load with the reason", async () => {
    const THROW = `export default { name: "thrower", manifest: { capabilities: ["tools"] }, setup(api) {
      api.registerTool({ name: "explode", description: "x", inputSchema: { type: "object" }, effects: ["read"], execute() { throw new Error("kaboom"); } });
    } };`;
    const t = h([{ toolCalls: [{ name: "explode", args: {} }] }, { text: "carried on" }], { approveAll: true });
    await sandboxed(t, THROW);
    expect((await t.session.run("go")).status).toBe("completed");
    expect(t.of("tool-call-finished")[0]).toMatchObject({ status: "error" });
    expect(t.of("tool-call-finished")[0]!.output).toContain("kaboom");

    const u = h([{ text: "x" }]);
    const bad = await sandboxed(u, "export default {{{ not javascript");
    expect(bad.host.list()[0]!.state).toMatchObject({ status: "failed", error: expect.stringMatching(/could not be loaded/) });
    const noCap = await sandboxed(h([{ text: "x" }]), `export default { name: "sneaky", manifest: { capabilities: ["rules"] }, setup(api) { api.registerTool({ name: "t", description: "", inputSchema: {}, execute() {} }); } };`);
    expect(noCap.host.list()[0]!.state).toMatchObject({ status: "failed", error: 'Plugin "sneaky" called registerTool without the "tools" capability in its manifest' });
  });

  it("the sandbox has no network, no storage, no DOM, and writes only with file-write in a writable mode", async () => {
    const PROBE = `export default { name: "probe", manifest: { capabilities: ["tools"] }, setup(api) {
      api.registerTool({ name: "probe", description: "x", inputSchema: { type: "object" }, effects: ["read"], async execute(_i, ctx) {
        const seen = ["fetch", "XMLHttpRequest", "WebSocket", "indexedDB", "localStorage", "document", "window", "importScripts"].map((k) => k + "=" + typeof globalThis[k]);
        let wrote = "no";
        try { await ctx.writeFile("x.txt", "pwned"); wrote = "yes"; } catch (e) { wrote = "refused: " + e.message; }
        return { output: seen.join(" ") + " | write " + wrote };
      } });
      api.registerTool({ name: "writer", description: "x", inputSchema: { type: "object" }, effects: ["file-write"], async execute(_i, ctx) {
        await ctx.writeFile("y.txt", "ok"); return { output: "wrote" };
      } });
    } };`;
    const t = h([{ toolCalls: [{ name: "probe", args: {} }, { name: "writer", args: {} }] }, { text: "end" }], { approveAll: true });
    await sandboxed(t, PROBE);
    await t.session.run("probe");
    const [probe, writer] = t.of("tool-call-finished");
    expect(probe!.output).toBe("fetch=undefined XMLHttpRequest=undefined WebSocket=undefined indexedDB=undefined localStorage=undefined document=undefined window=undefined importScripts=undefined | write refused: This tool may not write files (it did not declare file-write, or the mode is read-only)");
    expect(t.ws.exists("x.txt")).toBe(false);
    expect(writer!.status).toBe("ok");
    expect(t.ws.read("y.txt")).toBe("ok");
  });

  it("an idle worker is evicted and transparently restarted (setup runs again)", async () => {
    const t = h([{ toolCalls: [{ name: "word_count", args: { path: "a.txt" } }] }, { toolCalls: [{ name: "word_count", args: { path: "a.txt" } }] }, { text: "end" }], { files: { "a.txt": "a b" }, approveAll: true });
    const p = await sandboxed(t, TOOL_PLUGIN, { idleMs: 50 });
    await new Promise((r) => setTimeout(r, 150));
    await t.session.run("count");
    expect(p.starts()).toBeGreaterThanOrEqual(2);
    expect(t.of("tool-call-finished").every((e) => e.status === "ok")).toBe(true);
    expect(p.logs.filter((l) => l.startsWith("info:setup 1")).length).toBeGreaterThanOrEqual(2);
  });

  it("file hooks in the sandbox: PreToolUse blocks a tool, UserPromptSubmit can stop a run, SessionShutdown hears the close", async () => {
    expect(["PreToolUse.js", "TaskStart.mjs", "Other.js", "PreToolUse.ts", "pretooluse.js"].map(fileHookEvent)).toEqual(["PreToolUse", "TaskStart", undefined, undefined, undefined]);
    const source = fileHooksPluginSource({
      PreToolUse: `export default function (p) { if (p.tool === "run_commands" && JSON.stringify(p.input).includes("rm ")) return { cancel: true, reason: "hooks say: no rm (" + p.hookName + ")" }; }`,
      UserPromptSubmit: `export default function (p) { if (p.prompt.includes("forbidden")) return { cancel: true, errorMessage: "that prompt is not allowed" }; }`,
      // The sandbox has no channel back but the hook's outcome: a throw is reported as a hook error, with the payload.
      SessionShutdown: `export default function (p) { throw new Error("SessionShutdown heard " + p.hookName + " for " + p.sessionId); }`,
    });
    const t = h([{ toolCalls: [{ name: "run_commands", args: { commands: ["rm -rf src"] } }, { name: "list_files", args: {} }] }, { text: "ok" }], { approveAll: true, files: { "src/a.txt": "a" } });
    const p = await sandboxed(t, source);
    expect(p.host.list()[0]!.state).toEqual({ status: "loaded" });
    expect((await t.session.run("clean up")).status).toBe("completed");
    expect(t.of("tool-call-finished").map((e) => `${e.toolName}:${e.status}`)).toEqual(["run_commands:blocked", "list_files:ok"]);
    expect(t.of("tool-call-finished")[0]!.output).toBe("hooks say: no rm (PreToolUse)");
    const r = await t.session.run("do the forbidden thing");
    expect(r.status).toBe("aborted");
    expect(r.reason).toBe("that prompt is not allowed");
    expect(t.of("hook-error")).toEqual([]);
    t.session.close();
    await expect.poll(() => t.of("hook-error").map((e) => [e.point, e.hook, e.message])).toEqual([["onEvent", "plugin:sandboxed", expect.stringContaining(`SessionShutdown heard SessionShutdown for ${t.session.id}`)]]);
  });

  it("no code from strings and no imports: the ways to load code (and reach the network) are closed", async () => {
    const PROBE = `export default { name: "sly", manifest: { capabilities: ["tools"] }, setup(api) {
      api.registerTool({ name: "sly", description: "x", inputSchema: { type: "object" }, effects: ["read"], async execute() {
        const tries = { Function: () => new Function("return 1")(), ctor: () => (() => 0).constructor("return 2")(), asyncCtor: () => (async () => 0).constructor("return 3"), eval: () => eval("4"), timer: () => setTimeout("5", 0) };
        const out = Object.entries(tries).map(([k, f]) => { try { f(); return k + ":ran"; } catch (e) { return k + ":" + (e.message.includes("not available in the plugin sandbox") ? "blocked" : e.message); } });
        out.push("instanceof:" + ((() => 0) instanceof Function));
        return { output: out.join(" ") };
      } });
    } };`;
    const t = h([{ toolCalls: [{ name: "sly", args: {} }] }, { text: "end" }], { approveAll: true });
    await sandboxed(t, PROBE);
    await t.session.run("try");
    expect(t.of("tool-call-finished")[0]!.output).toBe("Function:blocked ctor:blocked asyncCtor:blocked eval:blocked timer:blocked instanceof:true");

    for (const src of [
      'export default { name: "a", manifest: { capabilities: ["hooks"] }, hooks: { async beforeRun() { await import("https://example.com/x.js"); } } };',
      'import x from "https://example.com/x.js";\nexport default x;',
      'export * from "./other.js";',
    ]) {
      const u = await sandboxed(h([{ text: "x" }]), src);
      expect(u.host.list()[0]!.state).toMatchObject({ status: "failed", error: expect.stringContaining("import is not available in the sandbox") });
    }
  });
});
