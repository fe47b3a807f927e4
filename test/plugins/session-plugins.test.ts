/**
 * The session's plugin lifecycle (discover → trust → load → attach → reload on change) over a
 * real workspace on disk, real sandbox workers (Node worker threads) and a scripted model.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { transform } from "sucrase";
import { SessionPlugins, type SessionPluginsOptions } from "../../lib/plugins/session-plugins";
import { envBlocker } from "../../lib/plugins/builtin";
import { contentHash } from "../../lib/plugins/workspace-code";
import { harnessPerTest, type Harness } from "../agent/helpers";
import { memoryStorage } from "./memory-storage";
import { buildWorkerBundle, nodeWorkerFactory } from "./node-worker";

// Count TypeScript compilations: a restricted workspace's code must not even be compiled.
vi.mock("sucrase", async (original) => {
  const real = await original<typeof import("sucrase")>();
  return { ...real, transform: vi.fn(real.transform) };
});

let bundle: Awaited<ReturnType<typeof buildWorkerBundle>>;
beforeAll(async () => {
  bundle = await buildWorkerBundle();
});
afterAll(() => bundle.cleanup());

const { h, cleanups } = harnessPerTest();

/** A plugin whose module body leaves a marker that its tool reports. */
const MARKER = (text: string) => `const body = "module body ran: ${text}";
export default { name: "marker", manifest: { capabilities: ["tools"] }, setup(api) {
  api.registerTool({ name: "marker", description: "Report the marker", inputSchema: { type: "object" }, effects: ["read"], async execute() { return { output: body }; } });
} };`;
const TS_PLUGIN = `const n: number = 1; export default { name: "typed", manifest: { capabilities: ["tools"] as string[] } };`;
const HOOK = `export default function (p) { if (p.tool === "list_files") return { cancel: true, reason: "hook ran" }; }`;

function setup(t: Harness, opts: { trustedByDefault: boolean; storage?: ReturnType<typeof memoryStorage> }) {
  const workers = nodeWorkerFactory(bundle.file);
  const storage = opts.storage ?? memoryStorage();
  const make = (extra: Partial<SessionPluginsOptions> = {}) => {
    const p = new SessionPlugins({
      session: t.session,
      wsfs: t.ws.wsfs,
      workspace: { id: "w1", trustedByDefault: opts.trustedByDefault, provenance: "imported from a zip (proj)" },
      storage,
      createWorker: workers.create,
      builtins: () => [{ plugin: envBlocker, description: "env", enabledByDefault: true }],
      reloadDelayMs: 10,
      ...extra,
    });
    cleanups.add(() => {
      p.dispose();
      return workers.terminateAll().then(() => undefined);
    });
    return p;
  };
  return { make, workers, storage };
}

const states = (p: SessionPlugins) => p.getSnapshot().statuses.map((s) => `${s.name}:${s.state.status}`);
/** Wait for a reload started by a file change to finish (bounded by vi.waitFor's timeout). */
async function settled(p: SessionPlugins, until: () => boolean) {
  await vi.waitFor(() => expect(until() && !p.getSnapshot().loading).toBe(true), { timeout: 5000, interval: 10 });
  await p.whenReady();
}
const toolOutputs = (t: Harness) => t.of("tool-call-finished").map((e) => `${e.toolName}:${e.status}:${e.output}`);

describe("SessionPlugins", () => {
  it("restricted: built-in and installed plugins load; no workspace plugin or hook starts, compiles or registers; the files are listed as declared", async () => {
    const t = h([{ toolCalls: [{ name: "marker", args: {} }] }, { text: "done" }], {
      approveAll: true,
      files: { ".tabula/plugins/marker.js": MARKER("v1"), ".tabula/plugins/typed.ts": TS_PLUGIN, ".tabula/hooks/PreToolUse.js": HOOK },
    });
    const { make, workers, storage } = setup(t, { trustedByDefault: false });
    const p = make();
    storage.setItem("tabula:user-plugins", JSON.stringify([{ id: "user:mine", fileName: "mine.js", source: `export default { name: "mine", manifest: { capabilities: ["rules"] }, setup(api) { api.registerRule({ id: "r", content: "be nice" }); } };`, installedAt: 0 }]));
    vi.mocked(transform).mockClear();
    p.start();
    await p.whenReady();
    expect(states(p)).toEqual(["built-in:env-blocker:loaded", "user:mine:loaded"]);
    expect(workers.started()).toBe(1); // the installed plugin's worker, and no other
    expect(transform).not.toHaveBeenCalled();
    const trust = p.getSnapshot().trust;
    expect(trust.decision).toBe("undecided");
    expect(trust.provenance).toBe("imported from a zip (proj)");
    expect(trust.files.map((f) => [f.path, f.declared.capabilities.join(","), f.declared.registers.join(",")])).toEqual([
      [".tabula/hooks/PreToolUse.js", "hooks", "PreToolUse hook"],
      [".tabula/plugins/marker.js", "tools", "Tool marker"],
      [".tabula/plugins/typed.ts", "tools", ""],
    ]);
    await t.session.run("use the marker");
    expect(toolOutputs(t)[0]).toMatch(/^marker:error:/);

    // Stay restricted: remembered, still nothing runs.
    p.stayRestricted();
    expect(p.getSnapshot().trust.decision).toBe("restricted");
    const again = make();
    again.start();
    await again.whenReady();
    expect(again.getSnapshot().trust.decision).toBe("restricted");
    expect(states(again)).toEqual(["built-in:env-blocker:loaded", "user:mine:loaded"]);

    // The control: once trusted, the same files are compiled and loaded.
    again.trustWorkspace();
    await again.whenReady();
    expect(vi.mocked(transform).mock.calls.map((c) => c[1].filePath)).toEqual([".tabula/plugins/typed.ts"]);
    expect(states(again)).toEqual(["built-in:env-blocker:loaded", "workspace:marker:loaded", "workspace:typed:loaded", "workspace:file-hooks:loaded", "user:mine:loaded"]);
  });

  it("trust loads exactly what was shown; revoking unloads every workspace plugin at once and is remembered", async () => {
    const t = h(
      [{ toolCalls: [{ name: "marker", args: {} }] }, { toolCalls: [{ name: "list_files", args: {} }] }, { text: "done" }, { toolCalls: [{ name: "marker", args: {} }] }, { text: "after" }],
      { approveAll: true, files: { ".tabula/plugins/marker.js": MARKER("v1"), ".tabula/hooks/PreToolUse.js": HOOK } },
    );
    const { make, storage } = setup(t, { trustedByDefault: false });
    const p = make();
    p.start();
    await p.whenReady();
    p.trustWorkspace();
    await p.whenReady();
    expect(states(p)).toEqual(["built-in:env-blocker:loaded", "workspace:marker:loaded", "workspace:file-hooks:loaded"]);
    expect(p.getSnapshot().trust).toMatchObject({ decision: "trusted", files: [] });
    await t.session.run("go");
    expect(toolOutputs(t)).toEqual(["marker:ok:module body ran: v1", "list_files:blocked:hook ran"]);

    // A reload (new instance, same storage) keeps the trust.
    const reloaded = make();
    reloaded.start();
    await reloaded.whenReady();
    expect(states(reloaded)).toContain("workspace:marker:loaded");
    reloaded.dispose();

    p.revokeTrust();
    // At once: before the reload that follows, every workspace entry is already off.
    expect(p.getSnapshot().statuses.filter((s) => s.source === "workspace").map((s) => s.state.status)).toEqual(["disabled", "disabled"]);
    await p.whenReady();
    expect(states(p)).toEqual(["built-in:env-blocker:loaded"]);
    expect(p.getSnapshot().trust.decision).toBe("restricted");
    expect(JSON.parse(storage.getItem("tabula:workspace-trust:w1")!)).toEqual({ decision: "restricted", accepted: {} });
    await t.session.run("again");
    expect(toolOutputs(t).at(-1)).toMatch(/^marker:error:/);
  });

  it("a write by the agent (or git, a restore) to trusted code is held back and listed until accepted; the user's own edits load as saved", async () => {
    const t = h([{ toolCalls: [{ name: "marker", args: {} }] }, { text: "1" }, { toolCalls: [{ name: "marker", args: {} }] }, { text: "2" }, { toolCalls: [{ name: "marker", args: {} }] }, { text: "3" }], { approveAll: true });
    const { make } = setup(t, { trustedByDefault: true });
    const p = make();
    p.start();
    await p.whenReady();
    expect(p.getSnapshot().trust).toMatchObject({ decision: "trusted", files: [] });

    // The user writes a plugin in the editor: accepted as saved, loaded.
    await t.ws.wsfs.writeFile(".tabula/plugins/marker.js", MARKER("by hand"), { origin: "editor" });
    // whenReady waits for the reload the change scheduled: a run sent right after the save sees the plugin.
    await p.whenReady();
    expect(states(p)).toContain("workspace:marker:loaded");
    expect(p.getSnapshot().trust.files).toEqual([]);
    await t.session.run("1");
    expect(toolOutputs(t).at(-1)).toBe("marker:ok:module body ran: by hand");

    // The agent rewrites it and adds a hook: neither loads; both are listed.
    await t.ws.wsfs.writeFile(".tabula/plugins/marker.js", MARKER("by the agent"), { origin: "agent" });
    await t.ws.wsfs.writeFile(".tabula/hooks/PreToolUse.js", HOOK, { origin: "agent" });
    await settled(p, () => p.getSnapshot().trust.files.length === 2);
    expect(p.getSnapshot().trust.files.map((f) => `${f.path}:${f.change}`)).toEqual([".tabula/hooks/PreToolUse.js:added", ".tabula/plugins/marker.js:changed"]);
    expect(states(p)).toEqual(["built-in:env-blocker:loaded"]);
    await t.session.run("2");
    expect(toolOutputs(t).at(-1)).toMatch(/^marker:error:/);

    // A user edit of a file the agent also touched in the same window stays held back.
    await t.ws.wsfs.writeFile(".tabula/plugins/marker.js", MARKER("mixed"), { origin: "editor" });
    await t.ws.wsfs.writeFile(".tabula/plugins/marker.js", MARKER("mixed, agent last"), { origin: "git" });
    const last = contentHash(new TextEncoder().encode(MARKER("mixed, agent last")));
    await settled(p, () => p.getSnapshot().trust.files.some((f) => f.hash === last));
    expect(states(p)).not.toContain("workspace:marker:loaded");

    // Accept: loads exactly the shown content.
    p.acceptChanges();
    await p.whenReady();
    expect(p.getSnapshot().trust.files).toEqual([]);
    expect(states(p)).toEqual(["built-in:env-blocker:loaded", "workspace:marker:loaded", "workspace:file-hooks:loaded"]);
    await t.session.run("3");
    expect(toolOutputs(t).at(-1)).toBe("marker:ok:module body ran: mixed, agent last");

    // Removing a plugin file by another hand is listed as removed, and accepting forgets it.
    await t.ws.wsfs.remove(".tabula/hooks/PreToolUse.js", { origin: "agent" });
    await settled(p, () => p.getSnapshot().trust.files.length === 1);
    expect(p.getSnapshot().trust.files.map((f) => `${f.path}:${f.change}`)).toEqual([".tabula/hooks/PreToolUse.js:removed"]);
    p.acceptChanges();
    await p.whenReady();
    expect(p.getSnapshot().trust.files).toEqual([]);
  });

  it("a rename in the file tree is the user's own edit: the plugin loads under its new name, the old path is forgotten", async () => {
    const t = h([{ text: "x" }]);
    const { make } = setup(t, { trustedByDefault: true });
    const p = make();
    p.start();
    await p.whenReady();
    await t.ws.wsfs.writeFile(".tabula/plugins/marker.js", MARKER("v1"), { origin: "editor" });
    await p.whenReady();
    await t.ws.wsfs.rename(".tabula/plugins/marker.js", ".tabula/plugins/renamed.js", { origin: "tree" });
    await p.whenReady();
    expect(states(p)).toEqual(["built-in:env-blocker:loaded", "workspace:renamed:loaded"]);
    expect(Object.keys(p.trust.get().accepted)).toEqual([".tabula/plugins/renamed.js"]);
    expect(p.getSnapshot().trust.files).toEqual([]);
  });

  it("a change that happens between showing and accepting is not accepted with it", async () => {
    const t = h([{ text: "x" }], { files: { ".tabula/plugins/marker.js": MARKER("shown") } });
    const { make } = setup(t, { trustedByDefault: false });
    const p = make({ reloadDelayMs: 60_000 }); // the change below is not picked up before the click
    p.start();
    await p.whenReady();
    await t.ws.wsfs.writeFile(".tabula/plugins/marker.js", MARKER("swapped"), { origin: "agent" });
    p.trustWorkspace();
    await p.whenReady();
    expect(states(p)).toEqual(["built-in:env-blocker:loaded"]);
    expect(p.getSnapshot().trust.files.map((f) => `${f.path}:${f.change}`)).toEqual([".tabula/plugins/marker.js:changed"]);
  });
});
