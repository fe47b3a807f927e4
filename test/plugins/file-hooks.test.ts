/**
 * Every file hook event runs with its payload: the generated plugin (lib/plugins/file-hooks) is
 * loaded in-process, so each hook can record its call where the test reads it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fileHooksPluginSource, type FileHookEvent } from "../../lib/plugins/file-hooks";
import { PluginHost } from "../../lib/plugins/host";
import { inProcessEntry } from "../../lib/plugins/in-process";
import { harnessPerTest, nextEvent, type Harness } from "../agent/helpers";

type Call = { hookName: string } & Record<string, unknown>;
const calls = (globalThis as { __fileHookCalls?: Call[] }).__fileHookCalls = [] as Call[];
afterEach(() => void calls.splice(0));

/** A hook file that records its payload (and may answer with `answer`). */
const recorder = (answer = "undefined") => `export default function (p) { globalThis.__fileHookCalls.push(JSON.parse(JSON.stringify(p))); return ${answer}; }`;

const { h } = harnessPerTest();

async function withHooks(t: Harness, files: Partial<Record<FileHookEvent, string>>) {
  const host = new PluginHost(t.session);
  const ctx = { workspaceInfo: { rootPath: "/", remotes: [] }, session: { id: t.session.id, mode: "act" }, logger: { info() {}, warn() {}, error() {} } };
  const status = await host.add(inProcessEntry({ name: "workspace:file-hooks", origin: ".tabula/hooks/", source: fileHooksPluginSource(files), sourceKind: "workspace", ctx }));
  expect(status.state).toEqual({ status: "loaded" });
  return host;
}

const named = (name: string) => calls.filter((c) => c.hookName === name);

describe("file hooks", () => {
  it("TaskStart on the first run, TaskResume on later ones, each with the prompt, run and mode; TaskComplete after each", async () => {
    const t = h([{ text: "one" }, { text: "two" }]);
    await withHooks(t, { TaskStart: recorder(), TaskResume: recorder(), TaskComplete: recorder() });
    await t.session.run("first prompt");
    await t.session.run("second prompt");
    expect(calls.map((c) => c.hookName)).toEqual(["TaskStart", "TaskComplete", "TaskResume", "TaskComplete"]);
    expect(named("TaskStart")[0]).toEqual({ hookName: "TaskStart", sessionId: t.session.id, run: 1, mode: "act", prompt: "first prompt" });
    expect(named("TaskResume")[0]).toEqual({ hookName: "TaskResume", sessionId: t.session.id, run: 2, mode: "act", prompt: "second prompt" });
    expect(named("TaskComplete")[1]).toMatchObject({ hookName: "TaskComplete", sessionId: t.session.id, status: "completed" });
  });

  it("TaskStart can cancel the run with its reason", async () => {
    const t = h([{ text: "never" }]);
    await withHooks(t, { TaskStart: recorder(`{ cancel: true, reason: "not today" }`) });
    const r = await t.session.run("go");
    expect(r.status).toBe("aborted");
    expect(r.reason).toBe("not today");
    expect(named("TaskStart")).toHaveLength(1);
  });

  it("PostToolUse sees the tool, its input and output; a cancel stops the run", async () => {
    const t = h([{ toolCalls: [{ name: "read_files", args: { files: [{ path: "a.txt" }] } }] }, { toolCalls: [{ name: "list_files", args: {} }] }, { text: "end" }], { approveAll: true, files: { "a.txt": "alpha" } });
    await withHooks(t, { PostToolUse: recorder(`p.tool === "list_files" ? { cancel: true, reason: "enough listing" } : undefined`) });
    const r = await t.session.run("read");
    expect(named("PostToolUse").map((c) => c.tool)).toEqual(["read_files", "list_files"]);
    const first = named("PostToolUse")[0]!;
    expect(first).toMatchObject({ hookName: "PostToolUse", sessionId: t.session.id, tool: "read_files", input: { files: [{ path: "a.txt" }] }, isError: false });
    expect(first.output).toContain("alpha");
    expect(typeof first.durationMs).toBe("number");
    expect(r.reason).toBe("enough listing");
  });

  it("TaskError after a failed run, TaskCancel after a stopped one, with status and reason", async () => {
    const t = h([{ error: { status: 400, message: "bad request from the provider" } }, { text: "slow", delayMs: 5_000 }]);
    await withHooks(t, { TaskError: recorder(), TaskCancel: recorder(), TaskComplete: recorder() });
    const failed = await t.session.run("fail please");
    expect(failed.status).toBe("failed");
    expect(named("TaskError")).toEqual([{ hookName: "TaskError", sessionId: t.session.id, status: "failed", reason: failed.reason }]);
    const started = nextEvent(t.session, "model-request");
    const stopped = t.session.run("then stop");
    await started;
    t.session.stop();
    expect((await stopped).status).toBe("aborted");
    expect(named("TaskCancel")).toEqual([expect.objectContaining({ hookName: "TaskCancel", sessionId: t.session.id, status: "aborted" })]);
    expect(named("TaskComplete")).toEqual([]);
  });

  it("SessionShutdown when the session closes", async () => {
    const t = h([{ text: "x" }]);
    await withHooks(t, { SessionShutdown: recorder() });
    expect(named("SessionShutdown")).toEqual([]);
    t.session.close();
    await expect.poll(() => named("SessionShutdown")).toEqual([{ hookName: "SessionShutdown", sessionId: t.session.id }]);
  });
});
