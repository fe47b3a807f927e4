/**
 * The policy table: evaluate() (last match wins, per command the strictest), the mode's rules
 * projected from the profiles, the user's choices layered over the approval defaults, and a
 * mode's deny that no user choice lifts.
 */
import { z } from "zod";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { approvalRules, surfacePolicy, userRules } from "../../lib/agent/approvals";
import { AGENT_MODES, DEFAULT_APPROVALS, type AgentMode, type ApprovalSettings } from "../../lib/agent/types";
import {
  decide,
  evaluate,
  formatRules,
  isOnSurface,
  LOADING,
  MODE_PROFILES,
  MODE_TOOL_NAMES,
  modePolicy,
  modeRules,
  modeTools,
  policyCall,
  policyTable,
  prepareCommandGuard,
  toolTier,
  UNREADABLE,
  WRITES,
  type PolicyCall,
  type PolicyRule,
} from "../../lib/modes";
import { builtinTools, defineTool, type EffectClass, type ToolDefinition } from "../../lib/tools";

beforeAll(async () => {
  await prepareCommandGuard();
});

const call = (over: Partial<PolicyCall> = {}): PolicyCall => ({ name: "t", effects: [], category: "edit", runsCommands: false, ...over });
const rule = (tool: string, effect: PolicyRule["effect"], command: string, action: PolicyRule["action"], reason?: string): PolicyRule => ({ tool, effect, command, action, reason });

describe("evaluate", () => {
  it("takes the last matching rule, and asks when none matches", () => {
    const rules = [rule("*", "*", "*", "deny"), rule("t", "*", "*", "ask"), rule("t", "approval:edit", "*", "allow")];
    expect(evaluate(rules, call()).action).toBe("allow");
    expect(evaluate(rules, call({ category: "read" })).action).toBe("ask");
    expect(evaluate(rules, call({ name: "u" })).action).toBe("deny");
    // Order is the whole meaning: the same rules reversed give the catch-all.
    expect(evaluate([...rules].reverse(), call()).action).toBe("deny");
    expect(evaluate([], call())).toEqual({ action: "ask" });
    expect(evaluate([rule("u", "*", "*", "allow")], call()).action).toBe("ask");
  });

  it("matches tool names exactly or by a trailing *, effects by class or by approval kind", () => {
    expect(evaluate([rule("mcp_*", "*", "*", "allow")], call({ name: "mcp_fetch" })).action).toBe("allow");
    expect(evaluate([rule("mcp_*", "*", "*", "allow")], call({ name: "mcp" })).action).toBe("ask");
    expect(evaluate([rule("*", "network", "*", "deny")], call({ effects: ["read", "network"] })).action).toBe("deny");
    expect(evaluate([rule("*", "network", "*", "deny")], call({ effects: ["read"] })).action).toBe("ask");
    expect(evaluate([rule("*", "approval:command", "*", "allow")], call({ category: "command" })).action).toBe("allow");
    expect(evaluate([rule("*", "approval:command", "*", "allow")], call({ category: "edit" })).action).toBe("ask");
  });

  it("decides per command, and the strictest wins: every command must be allowed", () => {
    const rules = [rule("*", "*", "*", "ask"), rule("*", "*", "ls", "allow"), rule("*", "*", "git status", "allow"), rule("*", "*", "rm", "deny", "no {command}")];
    expect(evaluate(rules, call({ commands: ["ls -l", "git status --short"] })).action).toBe("allow");
    expect(evaluate(rules, call({ commands: ["ls -l", "cat x"] })).action).toBe("ask");
    expect(evaluate(rules, call({ commands: ["cat x", "rm -rf .", "ls"] }))).toMatchObject({ action: "deny", reason: "no rm -rf ." });
    // A prefix matches at a word boundary, and only a simple command.
    expect(evaluate(rules, call({ commands: ["lsblk"] })).action).toBe("ask");
    // A compound line matches no prefix at all (neither ls nor rm): prefixes are for simple lines.
    expect(evaluate(rules, call({ commands: ["ls; rm -rf ."] })).action).toBe("ask");
    expect(evaluate(rules, call({ commands: ["ls && cat x"] })).action).toBe("ask");
    // No commands: prefix rules cannot match.
    expect(evaluate(rules, call()).action).toBe("ask");
    expect(evaluate(rules, call({ commands: [] })).action).toBe("ask");
  });

  it("asks the command guard for (writes), and fills the reason in", () => {
    const rules = [rule("*", "*", "*", "allow"), rule("*", "process", WRITES, "deny", "{tool}: `{command}` would change files ({why})")];
    const c = call({ name: "sh", effects: ["process"], runsCommands: true });
    expect(evaluate(rules, { ...c, commands: ["ls", "grep -rn x ."] }).action).toBe("allow");
    expect(evaluate(rules, { ...c, commands: ["ls", "echo x > f"] })).toMatchObject({ action: "deny", reason: "sh: `echo x > f` would change files (output redirection to f)" });
    expect(evaluate(rules, { ...c, commands: ["git commit -m x"] }).reason).toMatch(/git commit records a commit/);
  });

  it("(unreadable) matches a call that runs commands the policy cannot find", () => {
    const rules = [rule("*", "*", "*", "allow"), rule("*", "process", UNREADABLE, "deny")];
    expect(evaluate(rules, call({ effects: ["process"], runsCommands: true })).action).toBe("deny");
    expect(evaluate(rules, call({ effects: ["process"], runsCommands: true, commands: [] })).action).toBe("allow");
    expect(evaluate(rules, call({ effects: ["process"] })).action).toBe("allow");
  });

  it("(guard loading) matches while the command parser is not loaded, and (writes) does not", async () => {
    vi.resetModules();
    const fresh = await import("../../lib/modes/policy");
    const rules = [rule("*", "*", "*", "allow"), rule("*", "process", fresh.WRITES, "deny", "writes"), rule("*", "process", fresh.LOADING, "deny", "loading")];
    const c = call({ effects: ["process"], runsCommands: true, commands: ["ls"] });
    expect(fresh.evaluate(rules, c)).toMatchObject({ action: "deny", reason: "loading" });
    expect(LOADING).toBe(fresh.LOADING);
  });

  it("formats a table one rule a line", () => {
    expect(formatRules([rule("*", "approval:read", "*", "allow"), rule("run_commands", "*", "npm test", "allow")])).toBe(
      "* | approval:read | * → allow\nrun_commands | * | npm test → allow",
    );
  });
});

// ---- the tables -----------------------------------------------------------------------------

const everything: ApprovalSettings = { autoApprove: { read: true, edit: true, command: true }, allowedCommandPrefixes: ["rm", "echo", "git commit"] };

function pluginTools(): ToolDefinition[] {
  const effects: EffectClass[] = ["read", "file-write", "file-delete", "vcs-write", "process", "network", "user-interaction"];
  return effects.map((e) =>
    defineTool({ name: `plugin_${e.replace("-", "_")}`, description: e, inputSchema: z.object({}), effects: [e], execute: async () => ({ output: "" }) }),
  ) as ToolDefinition[];
}
const tools = [...builtinTools(), ...modeTools(), ...pluginTools()];
const byName = new Map(tools.map((t) => [t.name, t]));
const of = (name: string, input: unknown, commands?: string[]) => policyCall({ name, input, tool: byName.get(name) }, commands);

const edit = () => of("editor", { command: "create", path: "a.txt", file_text: "x" });
const read = () => of("read_files", { paths: ["a.txt"] });
const shell = (commands: string | string[]) => of("run_commands", { commands });

describe("decide, per mode", () => {
  it("Act: reads run, edits and commands ask, by default", () => {
    expect(decide(read(), "act", DEFAULT_APPROVALS).action).toBe("allow");
    expect(decide(edit(), "act", DEFAULT_APPROVALS).action).toBe("ask");
    expect(decide(shell("ls"), "act", DEFAULT_APPROVALS).action).toBe("ask");
    expect(decide(shell("rm -rf build"), "act", DEFAULT_APPROVALS).action).toBe("ask");
    expect(decide(of("ask_question", { question: "?" }), "act", DEFAULT_APPROVALS).action).toBe("allow");
    expect(decide(of("submit_plan", {}), "act", DEFAULT_APPROVALS)).toMatchObject({ action: "deny", reason: "submit_plan is not available in Act mode." });
  });

  for (const mode of ["plan", "review"] as const) {
    const label = MODE_PROFILES[mode].label;
    it(`${label}: reads run, reading commands ask, edits and writing commands are denied with the mode's reason`, () => {
      expect(decide(read(), mode, DEFAULT_APPROVALS).action).toBe("allow");
      expect(decide(shell("ls -la && git status"), mode, DEFAULT_APPROVALS).action).toBe("ask");
      const e = decide(edit(), mode, DEFAULT_APPROVALS);
      expect(e.action).toBe("deny");
      expect(e.reason).toBe(`${label} mode is read-only: editor would change files. ${MODE_PROFILES[mode].instead}`);
      expect(decide(shell(["cat a", "rm -rf ."]), mode, DEFAULT_APPROVALS).reason).toBe(
        `${label} mode is read-only: \`rm -rf .\` would change files (rm deletes files). ${MODE_PROFILES[mode].instead}`,
      );
      expect(decide(of("plugin_network", {}), mode, DEFAULT_APPROVALS)).toMatchObject({ action: "deny", reason: `plugin_network is not available in ${label} mode.` });
      expect(decide(of("attempt_completion", { result: "x" }), mode, DEFAULT_APPROVALS).action).toBe("deny");
    });
  }

  it("a gate asks whatever the user allowed", () => {
    expect(decide(of("exit_plan_mode", { summary: "go" }), "plan", everything).action).toBe("ask");
    expect(decide(of("exit_plan_mode", { summary: "go" }), "act", everything).action).toBe("deny");
  });
});

describe("user rules layered over the defaults", () => {
  it("each switch and each prefix is one rule, after the defaults", () => {
    expect(userRules(DEFAULT_APPROVALS)).toEqual([{ tool: "*", effect: "approval:read", command: "*", action: "allow" }]);
    const rules = approvalRules({ autoApprove: { read: false, edit: true, command: false }, allowedCommandPrefixes: [" npm test ", "", "ls"] });
    expect(formatRules(rules).split("\n").slice(-3)).toEqual(["* | approval:edit | * → allow", "* | approval:command | npm test → allow", "* | approval:command | ls → allow"]);
  });

  it("a user allow turns the default ask into allow, in every mode the call is admitted", () => {
    const edits: ApprovalSettings = { ...DEFAULT_APPROVALS, autoApprove: { ...DEFAULT_APPROVALS.autoApprove, edit: true } };
    expect(decide(edit(), "act", edits).action).toBe("allow");
    const noReads: ApprovalSettings = { ...DEFAULT_APPROVALS, autoApprove: { read: false, edit: false, command: false } };
    expect(decide(read(), "act", noReads).action).toBe("ask");
    const prefixes: ApprovalSettings = { ...DEFAULT_APPROVALS, allowedCommandPrefixes: ["ls", "git status"] };
    for (const mode of AGENT_MODES) {
      expect(decide(shell(["ls -l", "git status"]), mode, prefixes).action, mode).toBe("allow");
      expect(decide(shell(["ls -l", "cat x"]), mode, prefixes).action, mode).toBe("ask");
    }
    // The approval layer reads a plan's preview commands when the caller gives them.
    expect(decide(of("run_commands", { commands: "x" }, ["ls src"]), "act", prefixes).action).toBe("allow");
  });

  it("in Plan and Review, a mode's deny is never lifted by a user allow", () => {
    for (const mode of ["plan", "review"] as const) {
      for (const c of [edit(), of("apply_patch", { patch: "" }), shell("rm -rf ."), shell("echo x > f"), shell("git commit -m x"), of("plugin_vcs_write", {})]) {
        expect(decide(c, mode, everything).action, `${c.name} ${c.commands?.join(" ") ?? ""} in ${mode}`).toBe("deny");
        expect(decide(c, "act", everything).action).toBe("allow");
      }
      // A user rule naming the tool itself cannot lift it either.
      const named = { tool: "editor", effect: "*", command: "*", action: "allow" } as const;
      expect(evaluate([...policyTable(mode, everything).approval, named], edit()).action).toBe("allow"); // the approval layer alone would…
      expect(decide(edit(), mode, everything).action).toBe("deny"); // …but the mode decides first.
    }
  });

  it("unknown modes deny", () => {
    expect(decide(read(), "nope" as AgentMode, everything)).toMatchObject({ action: "deny", reason: 'Unknown mode "nope": the call was not run.' });
  });
});

describe("the surface is the table's reading of the profile", () => {
  // The profile read directly, as the surface was defined before the table: the oracle.
  const TIER: Record<string, number> = { read: 0, write: 1, execute: 2 };
  function readProfile(mode: AgentMode, t: ToolDefinition): boolean {
    const p = MODE_PROFILES[mode];
    if ([...p.outputVerbs, ...p.gates, "ask_question"].includes(t.name)) return true;
    if (MODE_TOOL_NAMES.includes(t.name)) return false;
    if (p.surface.deny.includes(t.name)) return false;
    if (t.effects.some((e) => p.deniedEffects.includes(e))) return false;
    if (p.surface.allow.includes(t.name)) return true;
    // Effects the profile admits above its tier (Orchestrate's network reads) do not count.
    const counted = t.effects.filter((e) => !(p.surface.allowEffects ?? []).includes(e));
    return TIER[toolTier({ effects: counted })]! <= TIER[p.surface.maxTier]!;
  }

  for (const mode of AGENT_MODES) {
    it(`${mode}: isOnSurface agrees with the profile for every tool`, () => {
      for (const t of tools) expect(isOnSurface(mode, t), t.name).toBe(readProfile(mode, t));
    });
  }

  it("the mode rules are one frozen table per mode, read-only modes with the command guard's rows", () => {
    expect(modeRules("plan")).toBe(modeRules("plan"));
    expect(Object.isFrozen(modeRules("plan"))).toBe(true);
    const commandRows = (m: AgentMode) => modeRules(m).filter((r) => r.command !== "*").map((r) => r.command);
    expect(commandRows("act")).toEqual([]);
    expect(commandRows("plan")).toEqual([UNREADABLE, WRITES, LOADING]);
    expect(commandRows("review")).toEqual([UNREADABLE, WRITES, LOADING]);
  });
});

describe("modePolicy: what a session asks", () => {
  const guarded = (name: string, input: unknown) => ({ name, input, tool: byName.get(name) });

  it("admit refuses what the mode forbids, before anything else, and lets the rest on", async () => {
    expect(await modePolicy.admit(guarded("editor", { command: "create", path: "a", file_text: "x" }), "plan")).toMatchObject({ action: "deny", reason: expect.stringMatching(/^Plan mode is read-only: editor/) });
    expect((await modePolicy.admit(guarded("run_commands", { commands: "echo x > f" }), "review")).reason).toMatch(/^Review mode is read-only: `echo x > f` would change files/);
    expect((await modePolicy.admit(guarded("run_commands", { commands: "echo x > f" }), "act")).action).toBe("allow");
    expect((await modePolicy.admit(guarded("run_commands", { commands: "cat f" }), "plan")).action).toBe("allow");
  });

  it("decide (of an admitted call) matches prefixes against the plan's commands only", () => {
    const prefixes: ApprovalSettings = { ...DEFAULT_APPROVALS, allowedCommandPrefixes: ["ls"] };
    const shellCall = guarded("run_commands", { commands: "ls" });
    expect(modePolicy.decide(shellCall, "act", prefixes, ["ls"]).action).toBe("allow");
    // No preview commands: no prefix can match (as before the table).
    expect(modePolicy.decide(shellCall, "act", prefixes).action).toBe("ask");
    expect(modePolicy.decide(guarded("editor", { command: "create", path: "a", file_text: "x" }), "act", DEFAULT_APPROVALS).action).toBe("ask");
    expect(modePolicy.decide(guarded("read_files", { paths: ["a"] }), "plan", DEFAULT_APPROVALS).action).toBe("allow");
  });
});

describe("surfacePolicy: a session without the mode profiles", () => {
  const policy = surfacePolicy((mode, name) => mode === "act" || name !== "editor", (m) => m.toUpperCase());
  const guarded = (name: string, input: unknown) => ({ name, input, tool: byName.get(name) });

  it("refuses a tool off its surface, and decides the rest with the approval rules", async () => {
    const e = guarded("editor", { command: "create", path: "a", file_text: "x" });
    expect(await policy.admit(e, "act")).toEqual({ action: "allow" });
    expect(await policy.admit(e, "plan")).toEqual({ action: "deny", reason: 'The tool "editor" is not available in PLAN mode, so the call was refused. Use the tools offered in this mode.' });
    expect(policy.decide(e, "act", DEFAULT_APPROVALS).action).toBe("ask");
    expect(policy.decide(e, "act", everything).action).toBe("allow");
    expect(policy.decide(guarded("editor", { command: "view", path: "a" }), "act", DEFAULT_APPROVALS).action).toBe("allow");
    expect(policy.decide(guarded("run_commands", { commands: "ls" }), "plan", { ...DEFAULT_APPROVALS, allowedCommandPrefixes: ["ls"] }, ["ls"]).action).toBe("allow");
  });
});
