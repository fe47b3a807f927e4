/**
 * Mode profiles: every layer (tool surface, guard, shell view, prompt) computed from one profile.
 */
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { MODE_GUARD_PRIORITY as AGENT_MODE_GUARD_PRIORITY, HookRegistry, type HookSnapshot } from "../../lib/agent/hooks";
import { AGENT_MODES, type AgentMode } from "../../lib/agent/types";
import {
  createModeGuard,
  DEFAULT_MODE,
  isOnSurface,
  MODE_GUARD_PRIORITY,
  MODE_IDS,
  MODE_PROFILES,
  MODE_TOOL_NAMES,
  modeGuardHooks,
  modeOutputHooks,
  modeSwitchNotice,
  missingOutputNudge,
  prepareCommandGuard,
  shellIsReadOnly,
  systemPromptPreamble,
  toolsOnSurface,
  toolTier,
} from "../../lib/modes";
import { builtinTools, defineTool, type EffectClass, type ToolDefinition } from "../../lib/tools";

/** A plugin's tools: one per effect class, plus one that runs commands under its own name. */
function pluginTools(): ToolDefinition[] {
  const effects: EffectClass[] = ["read", "file-write", "file-delete", "vcs-write", "process", "network", "user-interaction"];
  const tools: ToolDefinition[] = effects.map((e) =>
    defineTool({ name: `plugin_${e.replace("-", "_")}`, description: `A plugin tool (${e})`, inputSchema: z.object({}), effects: [e], execute: async () => ({ output: "" }) }),
  );
  tools.push(
    defineTool({
      name: "plugin_shell",
      description: "Runs a command",
      inputSchema: z.object({ command: z.string() }),
      effects: ["process"],
      execute: async () => ({ output: "" }),
    }) as ToolDefinition,
  );
  return tools;
}

const allTools = (): ToolDefinition[] => [...builtinTools(), ...pluginTools()];

beforeAll(async () => {
  await prepareCommandGuard();
});

describe("profiles", () => {
  it("one profile per agent mode; Act is the default, labelled Act, read-write with no output verb", () => {
    expect([...MODE_IDS].sort()).toEqual([...AGENT_MODES].sort());
    expect(DEFAULT_MODE).toBe("act");
    const act = MODE_PROFILES.act;
    expect(act.label).toBe("Act");
    expect(act.worktree).toBe("read-write");
    expect(act.outputVerbs).toEqual([]);
    expect(MODE_PROFILES.plan.outputVerbs).toEqual(["submit_plan"]);
    expect(MODE_PROFILES.plan.gates).toEqual(["exit_plan_mode"]);
    expect(MODE_PROFILES.plan.outputVerbs).not.toContain("exit_plan_mode");
    expect(MODE_PROFILES.review.outputVerbs).toEqual(["add_review_node", "finalize_review"]);
    expect(MODE_GUARD_PRIORITY).toBe(AGENT_MODE_GUARD_PRIORITY);
  });

  it("shellIsReadOnly follows the worktree state", () => {
    expect(shellIsReadOnly("act")).toBe(false);
    expect(shellIsReadOnly("plan")).toBe(true);
    expect(shellIsReadOnly("review")).toBe(true);
  });

  it("tiers come from effects: read < write < execute", () => {
    const byName = new Map(builtinTools().map((t) => [t.name, t]));
    expect(toolTier(byName.get("read_files")!)).toBe("read");
    expect(toolTier(byName.get("editor")!)).toBe("write");
    expect(toolTier(byName.get("apply_patch")!)).toBe("write");
    expect(toolTier(byName.get("run_commands")!)).toBe("execute");
  });

  for (const mode of AGENT_MODES as readonly AgentMode[]) {
    describe(`${mode} mode`, () => {
      it("no tool on the surface has a denied effect class", () => {
        const denied = MODE_PROFILES[mode].deniedEffects;
        const surface = toolsOnSurface(mode, allTools());
        const offending = surface.filter((t) => t.effects.some((e) => denied.includes(e))).map((t) => t.name);
        expect(offending).toEqual([]);
      });

      it("the preamble names exactly the tools on the surface", () => {
        const tools = allTools();
        const surface = new Set(toolsOnSurface(mode, tools).map((t) => t.name));
        const preamble = systemPromptPreamble(mode, tools);
        const everyName = new Set([...tools.map((t) => t.name), ...MODE_TOOL_NAMES]);
        for (const name of everyName) {
          const named = new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`).test(preamble);
          expect(named, `${name} ${surface.has(name) ? "missing from" : "wrongly in"} the ${mode} preamble`).toBe(surface.has(name));
        }
      });

      it("its output verbs, gates and ask_question are pinned (present even if the tool list lacks them)", () => {
        const p = MODE_PROFILES[mode];
        const names = toolsOnSurface(mode, allTools()).map((t) => t.name);
        for (const v of [...p.outputVerbs, ...p.gates, "ask_question"]) expect(names).toContain(v);
        const bare = toolsOnSurface(mode, []).map((t) => t.name);
        expect(bare.sort()).toEqual([...p.outputVerbs, ...p.gates].sort());
        // Other modes' verbs never appear.
        for (const other of MODE_TOOL_NAMES.filter((n) => !p.outputVerbs.includes(n) && !p.gates.includes(n))) expect(names).not.toContain(other);
        // The guard never blocks them.
        const guard = createModeGuard(() => mode);
        for (const v of [...p.outputVerbs, ...p.gates, "ask_question"]) expect(guard({ name: v, input: {} })).toBeUndefined();
      });
    });
  }

  it("Act offers everything but the other modes' tools; Plan and Review keep reading tools and the shell only", () => {
    const names = (m: AgentMode) => toolsOnSurface(m, allTools()).map((t) => t.name);
    expect(names("act")).toEqual(allTools().map((t) => t.name));
    for (const m of ["plan", "review"] as const) {
      const n = names(m);
      for (const t of ["read_files", "list_files", "search_codebase", "run_commands", "ask_question", "plugin_read", "plugin_user_interaction"]) expect(n).toContain(t);
      for (const t of ["editor", "apply_patch", "attempt_completion", "plugin_file_write", "plugin_file_delete", "plugin_vcs_write", "plugin_process", "plugin_shell", "plugin_network"]) {
        expect(n).not.toContain(t);
      }
    }
  });
});

describe("mode guard", () => {
  const byName = new Map(allTools().map((t) => [t.name, t]));
  const call = (name: string, input: unknown) => ({ name, input, tool: byName.get(name) });

  it("refuses edits in Plan mode, naming the mode and what to do instead", () => {
    const guard = createModeGuard(() => "plan");
    expect(guard(call("editor", { command: "create", path: "a.txt", file_text: "x" }))).toEqual({
      skip: true,
      reason: "Plan mode is read-only: editor would change files. Submit a plan with submit_plan instead.",
    });
    expect(guard(call("apply_patch", { patch: "" }))?.reason).toMatch(/^Plan mode is read-only: apply_patch would change files\./);
    const review = createModeGuard(() => "review");
    expect(review(call("editor", { command: "create", path: "a.txt", file_text: "x" }))?.reason).toBe(
      "Review mode is read-only: editor would change files. Record findings with add_review_node and finish with finalize_review instead.",
    );
  });

  it("checks every command of run_commands (string or list) and allows read-only ones", () => {
    const guard = createModeGuard(() => "plan");
    expect(guard(call("run_commands", { commands: "ls -la && git status" }))).toBeUndefined();
    expect(guard(call("run_commands", { commands: ["cat a.txt", "grep -rn TODO ."] }))).toBeUndefined();
    const r = guard(call("run_commands", { commands: ["cat a.txt", "echo x > f"] }));
    expect(r?.skip).toBe(true);
    expect(r?.reason).toBe("Plan mode is read-only: `echo x > f` would change files (output redirection to f). Submit a plan with submit_plan instead.");
    expect(guard(call("run_commands", { commands: ["git -C . commit -m x"] }))?.reason).toMatch(/git commit records a commit/);
  });

  it("checks any tool that declares it runs commands, and refuses one whose commands it cannot find", () => {
    const shellTool = defineTool({ name: "my_shell", description: "", inputSchema: z.object({ script: z.string() }), effects: ["process"], execute: async () => ({ output: "" }) });
    const opaque = defineTool({ name: "opaque_runner", description: "", inputSchema: z.object({ x: z.number() }), effects: ["process"], execute: async () => ({ output: "" }) });
    const guard = createModeGuard(() => "plan");
    // Its commands are checked first, so the refusal says what they would do…
    expect(guard({ name: "my_shell", input: { script: "rm -rf ." }, tool: shellTool })?.reason).toBe(
      "Plan mode is read-only: `rm -rf .` would change files (rm deletes files). Submit a plan with submit_plan instead.",
    );
    // …and a plugin's command tool is not on the read-only surface in any case.
    expect(guard({ name: "my_shell", input: { script: "ls" }, tool: shellTool })?.reason).toBe("my_shell is not available in Plan mode.");
    // Without its definition, a call named run_commands is still checked.
    expect(guard({ name: "run_commands", input: { commands: "rm -rf ." } })?.reason).toMatch(/rm deletes files/);
    expect(guard({ name: "opaque_runner", input: { x: 1 }, tool: opaque })?.skip).toBe(true);
  });

  it("allows everything on Act's surface, commands included", () => {
    const guard = createModeGuard(() => "act");
    expect(guard(call("editor", { command: "create", path: "a.txt", file_text: "x" }))).toBeUndefined();
    expect(guard(call("run_commands", { commands: "rm -rf build" }))).toBeUndefined();
    expect(guard({ name: "submit_plan", input: {} })?.reason).toBe("submit_plan is not available in Act mode.");
  });

  it("reads the mode at call time: a switch mid-run is seen by the very next call", () => {
    let mode: AgentMode = "act";
    const guard = createModeGuard(() => mode);
    const edit = call("editor", { command: "str_replace", path: "a.txt", old_str: "a", new_str: "b" });
    expect(guard(edit)).toBeUndefined();
    mode = "plan";
    expect(guard(edit)?.reason).toMatch(/^Plan mode is read-only/);
    mode = "act";
    expect(guard(edit)).toBeUndefined();
  });

  it("the editor's view command is a read, but the editor is off the read-only surface anyway", () => {
    expect(isOnSurface("plan", byName.get("editor")!)).toBe(false);
    expect(createModeGuard(() => "plan")(call("editor", { command: "view", path: "a.txt" }))?.skip).toBe(true);
  });
});

describe("hooks", () => {
  const snapshot = (mode: AgentMode, runId = "r1"): HookSnapshot => ({ sessionId: "s", workspaceId: "w", runId, run: 1, iteration: 1, mode, messages: [] });
  const byName = new Map(allTools().map((t) => [t.name, t]));

  it("modeGuardHooks registers before plugins and refuses with skip + reason; the registry runs it first", async () => {
    let mode: AgentMode = "plan";
    const reg = modeGuardHooks(() => mode);
    expect(reg.name).toBe("mode-guard");
    expect(reg.priority).toBe(AGENT_MODE_GUARD_PRIORITY);
    const registry = new HookRegistry();
    const seen: string[] = [];
    registry.register({ name: "plugin", hooks: { beforeTool: () => void seen.push("plugin") } });
    registry.register(reg);
    expect(registry.list()[0]!.name).toBe("mode-guard");

    const run = async (name: string, input: unknown) => {
      let decision: { skip?: boolean; reason?: string } | undefined;
      await registry.runChain<unknown, { skip?: boolean; reason?: string }>(
        "beforeTool",
        () => ({ snapshot: snapshot(mode), tool: byName.get(name), toolCall: { id: "c1", name }, input }),
        (r) => {
          if (r?.skip) decision = r;
          return !!r?.skip;
        },
        () => undefined,
        true,
      );
      return decision;
    };
    expect(await run("run_commands", { commands: "sed -i s/a/b/ f" })).toEqual({
      skip: true,
      reason: "Plan mode is read-only: `sed -i s/a/b/ f` would change files (sed -i edits files in place). Submit a plan with submit_plan instead.",
    });
    expect(seen).toEqual([]); // short-circuited before the plugin
    expect(await run("run_commands", { commands: "grep -rn x ." })).toBeUndefined();
    expect(seen).toEqual(["plugin"]);
    mode = "act";
    expect(await run("run_commands", { commands: "sed -i s/a/b/ f" })).toBeUndefined();
  });

  it("modeGuardHooks defaults to the snapshot's mode", async () => {
    const reg = modeGuardHooks();
    const r = await reg.hooks.beforeTool!({ snapshot: snapshot("review"), tool: byName.get("editor"), toolCall: { id: "c", name: "editor" }, input: { command: "create" } });
    expect(r).toMatchObject({ skip: true });
    expect((r as { reason: string }).reason).toMatch(/^Review mode is read-only/);
  });

  it("modeOutputHooks nudges once per run when Plan ends without a plan, and not after submit_plan", async () => {
    const reg = modeOutputHooks();
    const h = reg.hooks;
    const textOnly = { id: "m", role: "assistant" as const, content: [{ type: "text" as const, text: "Here is my plan: …" }], createdAt: 0 };
    const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, requests: 1 };
    const first = await h.afterModel!({ snapshot: snapshot("plan"), message: textOnly, finishReason: "stop", usage });
    expect(first).toEqual({ continueWith: missingOutputNudge("plan") });
    expect(await h.afterModel!({ snapshot: snapshot("plan"), message: textOnly, finishReason: "stop", usage })).toBeUndefined();
    // Another run, after a successful submit_plan: no nudge.
    await h.afterTool!({ snapshot: snapshot("plan", "r2"), tool: byName.get("read_files")!, toolCall: { id: "c", name: "submit_plan" }, input: {}, result: { output: "ok" }, durationMs: 1 });
    expect(await h.afterModel!({ snapshot: snapshot("plan", "r2"), message: textOnly, finishReason: "stop", usage })).toBeUndefined();
    // Act never nudges.
    expect(await h.afterModel!({ snapshot: snapshot("act", "r3"), message: textOnly, finishReason: "stop", usage })).toBeUndefined();
  });

  it("mode switch notices and nudges read well", () => {
    expect(modeSwitchNotice("plan", "act")).toMatch(/^The user switched the session from Plan mode to Act mode\./);
    expect(modeSwitchNotice("act", "plan")).toMatch(/read-only.*submit_plan/);
    expect(modeSwitchNotice("act", "review")).toMatch(/finalize_review/);
    expect(missingOutputNudge("act")).toBeUndefined();
    expect(missingOutputNudge("plan")).toMatch(/submit_plan/);
    expect(missingOutputNudge("plan")).toMatch(/no plan|needed no plan/);
    expect(missingOutputNudge("review")).toMatch(/finalize_review/);
  });
});
