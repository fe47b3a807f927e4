import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { validatePlugin } from "../../lib/plugins/manifest";
import { setupInProcess } from "../../lib/plugins/load";
import { PluginHost } from "../../lib/plugins/host";
import { commandReadsEnv, envBlocker } from "../../lib/plugins/builtin/env-blocker";
import { gitignoreGuard } from "../../lib/plugins/builtin/gitignore-guard";
import { gitSubcommand, protectedBranchGuard } from "../../lib/plugins/builtin/protected-branch-guard";
import { simpleCommands } from "../../lib/plugins/builtin/command-words";
import type { Plugin, PluginContext } from "../../lib/plugins/types";
import { git } from "../checkpoints/helpers";
import { type Harness, harnessPerTest } from "../agent/helpers";

const { h } = harnessPerTest();

async function attach(t: Harness, plugin: Plugin) {
  const host = new PluginHost(t.session);
  const ctx: PluginContext = { workspaceInfo: { rootPath: t.ws.dir, remotes: [] }, session: { id: t.session.id, mode: "act" }, logger: console, workspace: { fs: t.ws.wsfs.fs, dir: t.ws.dir } };
  await host.add({ name: plugin.name, source: "built-in", origin: "built-in", sandboxed: false, load: async () => { const p = validatePlugin(plugin); return { manifest: p.manifest, contributions: await setupInProcess(p, ctx) }; } });
  expect(host.list()[0]!.state).toEqual({ status: "loaded" });
  return host;
}

describe("env-blocker", () => {
  it("refuses commands that read .env files, not their templates", () => {
    for (const c of ["cat .env", "source ./.env", ". .env", "grep KEY .env.local", "cat config/.env.production", "cp .env /tmp/x", "env $(cat .env) node app.js", "cat .env*", "x=$(<.env)", "head -n1 '.env'", "ls && cat .env", "cat conf/.ENV", "cat .Env.Local"])
      expect(commandReadsEnv(c), c).toBe(true);
    for (const c of ["cat .env.example", "cp .env.sample .env.template", "ls -la", "echo environment", "cat src/env.ts", "grep -r dotenv src"]) expect(commandReadsEnv(c), c).toBe(false);
  });

  it("in a session: read_files .env and cat .env are refused; .env.example reads fine; search results lose .env lines", async () => {
    const t = h(
      [
        { toolCalls: [{ name: "read_files", args: { files: [{ path: ".env" }] } }] },
        { toolCalls: [{ name: "run_commands", args: { commands: ["cat .env"] } }] },
        { toolCalls: [{ name: "read_files", args: { files: [{ path: ".env.example" }] } }] },
        { toolCalls: [{ name: "editor", args: { command: "view", path: "sub/.env.local" } }] },
        { text: "done" },
      ],
      { files: { ".env": "TOKEN=supersecret\n", ".env.example": "TOKEN=\n", "sub/.env.local": "X=1\n" }, approveAll: true },
    );
    await attach(t, envBlocker);
    expect((await t.session.run("read the env")).status).toBe("completed");
    const done = t.of("tool-call-finished");
    expect(done.map((e) => `${e.toolName}:${e.status}`)).toEqual(["read_files:blocked", "run_commands:blocked", "read_files:ok", "editor:blocked"]);
    expect(done[0]!.output).toContain("env-blocker");
    expect(done[2]!.output).toContain("TOKEN=");
    expect(JSON.stringify(t.model.calls)).not.toContain("supersecret");
    expect(t.deps.sh.commands.map((c) => c.command)).not.toContain("cat .env");
  });

  it("drops .env matches from search results", async () => {
    const t = h([{ toolCalls: [{ name: "search_codebase", args: { query: "TOKEN" } }] }, { text: "ok" }], { files: { ".env": "TOKEN=supersecret\n", "a.ts": "const TOKEN = 1;\n" }, approveAll: true });
    await attach(t, envBlocker);
    await t.session.run("find");
    const out = t.of("tool-call-finished")[0]!.output;
    expect(out).toContain("a.ts");
    expect(out).not.toContain("supersecret");
  });
});

describe("gitignore-guard", () => {
  it("skips reads and edits of ignored paths", async () => {
    const t = h(
      [
        { toolCalls: [{ name: "read_files", args: { files: [{ path: "dist/out.js" }] } }] },
        { toolCalls: [{ name: "editor", args: { command: "create", path: "logs/x.log", file_text: "x" } }] },
        { toolCalls: [{ name: "read_files", args: { files: [{ path: "src/a.ts" }] } }] },
        { text: "ok" },
      ],
      { files: { ".gitignore": "dist/\n*.log\n", "dist/out.js": "x", "src/a.ts": "a" }, approveAll: true },
    );
    await attach(t, gitignoreGuard());
    await t.session.run("go");
    expect(t.of("tool-call-finished").map((e) => `${e.toolName}:${e.status}`)).toEqual(["read_files:blocked", "editor:blocked", "read_files:ok"]);
    expect(t.ws.exists("logs/x.log")).toBe(false);
  });
});

describe("protected-branch-guard", () => {
  it("finds git subcommands behind options", () => {
    expect(simpleCommands("git -C . commit -m 'x' && git push origin main").map(gitSubcommand)).toEqual(["commit", "push"]);
    expect(gitSubcommand(["/usr/bin/git", "--no-pager", "log"])).toBe("log");
    expect(gitSubcommand(["echo", "git", "push"])).toBeUndefined();
  });

  it("stops the run on git push, and on a commit while main is checked out (not on a feature branch)", async () => {
    const t = h([{ toolCalls: [{ name: "run_commands", args: { commands: ["git push origin main"] } }] }, { text: "never" }], { approveAll: true });
    git(t.ws.dir, ["init", "-q"]);
    await attach(t, protectedBranchGuard());
    const r = await t.session.run("ship it");
    expect(r.status).not.toBe("completed");
    expect(r.reason).toContain("does not push");

    const u = h([{ toolCalls: [{ name: "run_commands", args: { commands: ["git commit -am wip"] } }] }, { text: "never" }], { approveAll: true, files: { "a.txt": "a" } });
    git(u.ws.dir, ["init", "-q"]);
    await attach(u, protectedBranchGuard());
    expect((await u.session.run("commit")).reason).toContain("no commits to main");

    const v = h([{ toolCalls: [{ name: "run_commands", args: { commands: ["git commit -am wip"] } }] }, { text: "fine" }], { approveAll: true, files: { "a.txt": "a" } });
    git(v.ws.dir, ["init", "-q"]);
    git(v.ws.dir, ["checkout", "-q", "-b", "feature"]);
    fs.writeFileSync(path.join(v.ws.dir, "b.txt"), "b");
    await attach(v, protectedBranchGuard());
    expect((await v.session.run("commit")).status).toBe("completed");
  });
});

describe("custom-compaction", () => {
  it("keeps the first prompt and the recent window, summarising the middle (roles, tools, files, highlights)", async () => {
    const { customCompactionBuilder } = await import("../../lib/plugins/builtin/custom-compaction");
    const msgs: import("../../lib/agent/messages").AgentMessage[] = [{ id: "u0", role: "user", kind: "prompt", createdAt: 0, run: 1, content: [{ type: "text", text: "the original task" }] }];
    for (let i = 1; i <= 20; i++) {
      msgs.push({ id: `a${i}`, role: "assistant", createdAt: i, run: 1, content: [{ type: "text", text: `step ${i} ` + "x".repeat(400) }, { type: "tool-call", toolCallId: `c${i}`, toolName: i % 2 ? "read_files" : "editor", input: i % 2 ? { files: [{ path: `f${i}.ts` }] } : { command: "create", path: `g${i}.ts`, file_text: "" } }] });
      msgs.push({ id: `t${i}`, role: "tool", createdAt: i, run: 1, content: [{ type: "tool-result", toolCallId: `c${i}`, toolName: "x", output: { type: "text", value: "ok" } }] } as never);
    }
    const b = customCompactionBuilder({ maxInputTokens: 500, recentMessages: 5 });
    const ctx = { sessionId: "s", modelId: "m", contextWindow: 100_000, system: "", compaction: undefined, setCompaction() {} } as never;
    const out = await b.build(msgs, ctx);
    expect(out[0]!.id).toBe("u0");
    expect(out[1]).toMatchObject({ role: "user", kind: "summary" });
    const summary = (out[1]!.content[0] as { text: string }).text;
    expect(summary).toMatch(/summarised by custom-compaction: 36 messages \(0 from the user, 18 from the assistant, 18 tool results\)/);
    expect(summary).toContain("read_files ×9, editor ×9");
    expect(summary).toContain("f1.ts");
    expect(summary).toContain("- step 18 ");
    expect(out[2]!.role).not.toBe("tool"); // the window opens on a call, not on an orphan result
    expect(out.slice(2).map((m) => m.id)).toEqual(["a19", "t19", "a20", "t20"]);
    // Under budget: untouched.
    expect(await customCompactionBuilder({ maxInputTokens: 1e9 }).build(msgs, ctx)).toBe(msgs);
  });
});

describe("background-terminal", () => {
  it("starts a command without holding the run; its end is steered into the next request; status and delete work", async () => {
    const { backgroundTerminal } = await import("../../lib/plugins/builtin/background-terminal");
    const t = h(
      [
        { toolCalls: [{ name: "background_start", args: { command: "build --slow" } }] },
        { toolCalls: [{ name: "background_status", args: {} }] },
        { text: "started" },
        { toolCalls: [{ name: "background_start", args: { command: "watch --forever" } }] },
        { toolCalls: [{ name: "background_delete", args: { id: "bg2" } }] },
        { toolCalls: [{ name: "background_status", args: {} }, { name: "background_delete", args: { id: "bg2" } }] },
        { text: "saw it end" },
      ],
      { approveAll: true },
    );
    let finish: (v: { stdout: string; stderr: string; exitCode: number }) => void = () => undefined;
    t.deps.sh.responses.set("build --slow", new Promise((r) => (finish = r)));
    const plugin = backgroundTerminal();
    const host = new PluginHost(t.session);
    const ctx: PluginContext = { workspaceInfo: { rootPath: "/", remotes: [] }, session: { id: t.session.id, mode: "act", steer: (x) => t.session.steer(x) }, logger: console };
    await host.add({ name: "bg", source: "built-in", origin: "", sandboxed: false, load: async () => { const p = validatePlugin(plugin); return { manifest: p.manifest, contributions: await setupInProcess(p, ctx) }; } });
    expect((await t.session.run("build it")).status).toBe("completed");
    const [start, status] = t.of("tool-call-finished");
    expect(start!.output).toContain("Started bg1");
    expect(status!.output).toMatch(/bg1 `build --slow`: running for \d+ s/);
    finish({ stdout: "line1\nBUILD OK", stderr: "", exitCode: 0 });
    await vi.waitFor(() => expect(t.session.state.messages.at(-1)).toMatchObject({ role: "user", kind: "notice" }));
    expect(JSON.stringify(t.session.state.messages.at(-1))).toMatch(/Background task bg1 `build --slow`: exited with code 0 after \d+ s.*BUILD OK/);
    // Next run: its first request carries the notice; a second task is started, then deleted.
    t.deps.sh.hang.add("watch --forever");
    expect((await t.session.run("and?")).status).toBe("completed");
    expect(JSON.stringify(t.model.calls[3])).toContain("BUILD OK");
    const [, , start2, del, status2, delAgain] = t.of("tool-call-finished");
    expect(start2!.output).toContain("Started bg2");
    expect(del).toMatchObject({ status: "ok", output: "Deleted bg2." });
    // Deleting stopped the command itself (its abort signal fired), and forgot the task.
    await vi.waitFor(() => expect(t.deps.sh.commands.find((c) => c.command === "watch --forever")?.aborted).toBe(true));
    expect(status2!.output).toContain("bg1 `build --slow`");
    expect(status2!.output).not.toContain("bg2");
    expect(delAgain).toMatchObject({ status: "error" });
    expect(delAgain!.output).toContain("No background task bg2.");
  });
});
