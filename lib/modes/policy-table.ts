/**
 * The policy table of each mode, projected from its profile (profiles.ts), and what is computed
 * from it: the tool surface offered to the model, the prompt preamble that names it, and the
 * decision for one call.
 *
 * A decision has two layers of rules, each read by `evaluate()` (last match wins):
 *   1. the mode's rules: may the call run at all in this mode? A deny here refuses the call
 *      before anyone is asked, and no user choice can lift it (Plan and Review never write).
 *   2. the approval rules: the defaults (ask; calls that need no approval run) with the user's
 *      auto-approve choices layered over them (lib/agent/approvals.ts): allow or ask.
 *
 * Plan's mode rules, for example (the last match wins):
 *   *                  | *          | *                → allow
 *   *                  | process    | *                → deny   (not on a read-only surface)
 *   … file-write, file-delete, vcs-write, network (the same)
 *   run_commands       | *          | *                → allow  (the shell is, read-only)
 *   attempt_completion | *          | *                → deny
 *   *                  | file-write | *                → deny   (would change files) … and so on
 *   *                  | process    | (unreadable)     → deny   (its commands cannot be checked)
 *   *                  | process    | (writes)         → deny   (`rm x` would change files)
 *   *                  | process    | (guard loading)  → deny   (try again)
 *   add_review_node …  | *          | *                → deny   (another mode's verb)
 *   submit_plan, exit_plan_mode, ask_question          → allow  (pinned)
 *
 * Framework-free.
 */
import { approvalRules } from "../agent/approvals";
import type { AgentMode, ApprovalSettings } from "../agent/types";
import { callApproval, callEffects, type ApprovalCategory, type EffectClass, type ToolDefinition } from "../tools/define";
import { prepareCommandGuard } from "./command-guard";
import { evaluate, LOADING, UNREADABLE, WRITES, type GuardedCall, type PolicyCall, type PolicyDecision, type PolicyRule, type ToolPolicy } from "./policy";
import { ALWAYS_PINNED, MODE_PROFILES, modeProfile, type ModeProfile, type ToolTier } from "./profiles";
import { MODE_TOOL_NAMES, modeTools } from "./tools";

/** The effects a tool may not have to be on a surface of this tier. */
const EFFECTS_ABOVE: Record<ToolTier, readonly EffectClass[]> = {
  read: ["file-write", "file-delete", "vcs-write", "process", "network"],
  write: ["process", "network"],
  execute: [],
};

function projectModeRules(p: ModeProfile): PolicyRule[] {
  const notAvailable = `{tool} is not available in ${p.label} mode.`;
  const readOnly = (what: string) => `${p.label} mode is read-only: ${what}.${p.instead ? ` ${p.instead}` : ""}`;
  const pinned = [...p.outputVerbs, ...p.gates, ...ALWAYS_PINNED];
  const rule = (tool: string, effect: PolicyRule["effect"], command: string, action: PolicyRule["action"], reason?: string): PolicyRule =>
    reason === undefined ? { tool, effect, command, action } : { tool, effect, command, action, reason };
  const rules: PolicyRule[] = [rule("*", "*", "*", "allow")];
  for (const e of EFFECTS_ABOVE[p.surface.maxTier]) if (!p.surface.allowEffects?.includes(e)) rules.push(rule("*", e, "*", "deny", notAvailable));
  for (const t of p.surface.allow) rules.push(rule(t, "*", "*", "allow"));
  for (const t of p.surface.deny) rules.push(rule(t, "*", "*", "deny", notAvailable));
  for (const e of p.deniedEffects) rules.push(rule("*", e, "*", "deny", readOnly("{tool} would change files")));
  if (p.worktree === "read-only") {
    // After the surface, so a refused command says what it would do.
    rules.push(rule("*", "process", UNREADABLE, "deny", readOnly("the commands of {tool} cannot be checked")));
    rules.push(rule("*", "process", WRITES, "deny", readOnly("`{command}` would change files ({why})")));
    rules.push(
      rule("*", "process", LOADING, "deny", `${p.label} mode is read-only and the command check is still loading, so commands cannot run yet. Try again.`),
    );
  }
  for (const t of MODE_TOOL_NAMES) if (!pinned.includes(t)) rules.push(rule(t, "*", "*", "deny", notAvailable));
  for (const t of pinned) rules.push(rule(t, "*", "*", "allow"));
  return rules;
}

const MODE_RULES = new Map<AgentMode, readonly PolicyRule[]>();

/** The mode's rules (layer 1): what may run at all in `mode`. */
export function modeRules(mode: AgentMode): readonly PolicyRule[] {
  let rules = MODE_RULES.get(mode);
  if (!rules) MODE_RULES.set(mode, (rules = Object.freeze(projectModeRules(modeProfile(mode)))));
  return rules;
}

/** Both layers of `mode`'s table, for display and for tests. */
export function policyTable(mode: AgentMode, settings: ApprovalSettings): { mode: readonly PolicyRule[]; approval: readonly PolicyRule[] } {
  return { mode: modeRules(mode), approval: approvalRules(settings) };
}

// ---- calls as the policy sees them ----------------------------------------------------------

const COMMAND_FIELDS = ["commands", "command", "cmd", "cmds", "script", "commandLine", "command_line", "shell"];

/** True when the tool runs shell commands: `run_commands`, or any tool declaring the "process" effect. */
export function runsCommands(call: GuardedCall): boolean {
  return call.name === "run_commands" || (call.tool?.effects.includes("process") ?? false);
}

/** The command lines in a call's input, or undefined when none can be found. */
export function commandsOf(input: unknown): string[] | undefined {
  if (typeof input === "string") return [input];
  if (typeof input !== "object" || input === null) return undefined;
  const out: string[] = [];
  let found = false;
  for (const key of COMMAND_FIELDS) {
    const v = (input as Record<string, unknown>)[key];
    if (typeof v === "string") {
      out.push(v);
      found = true;
    } else if (Array.isArray(v)) {
      for (const x of v) {
        if (typeof x !== "string") return undefined;
        out.push(x);
      }
      found = true;
    }
  }
  return found ? out : undefined;
}

/**
 * A call as the policy sees it: every effect the tool declares or this input has, its approval
 * kind, and its commands (from the input, unless `commands` gives them, e.g. a plan's preview).
 */
export function policyCall(call: GuardedCall, commands?: readonly string[]): PolicyCall {
  const t = call.tool;
  const effects = new Set<EffectClass>(t?.effects ?? []);
  if (t) for (const e of callEffects(t as ToolDefinition, call.input)) effects.add(e);
  const runs = runsCommands(call);
  if (runs) effects.add("process");
  const category: ApprovalCategory = t ? callApproval(t as ToolDefinition, call.input) : "none";
  return { name: call.name, effects: [...effects], category, runsCommands: runs, commands: commands ?? (runs ? commandsOf(call.input) : undefined) };
}

// ---- decisions ----------------------------------------------------------------------------

/** Layer 1 only: deny when `mode` does not let the call run at all, else allow. */
export function admit(call: PolicyCall, mode: AgentMode): PolicyDecision {
  if (!MODE_PROFILES[mode]) return { action: "deny", reason: `Unknown mode "${String(mode)}": the call was not run.` };
  return evaluate(modeRules(mode), call);
}

/**
 * The decision for one call in `mode` with the user's `settings`: deny (with the reason) when
 * the mode forbids it, whatever the user allowed; else allow or ask, from the approval rules.
 */
export function decide(call: PolicyCall, mode: AgentMode, settings: ApprovalSettings): PolicyDecision {
  const admitted = admit(call, mode);
  if (admitted.action === "deny") return admitted;
  return evaluate(approvalRules(settings), call);
}

/** How long admitting a command may wait for the command parser to load (then it is refused). */
export const COMMAND_GUARD_LOAD_MS = 20_000;

async function commandGuardLoaded(): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, COMMAND_GUARD_LOAD_MS)));
  // A failure or a timeout leaves the parser unloaded, and the (guard loading) rule refuses.
  await Promise.race([prepareCommandGuard().catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

/**
 * The mode profiles' policy, for a session: admits what the mode's rules admit (loading the
 * command parser first when a read-only mode has commands to check), and decides an admitted
 * call with the approval rules and the user's choices (prefixes against the plan's commands only).
 */
export const modePolicy: ToolPolicy = {
  async admit(call, mode) {
    const c = policyCall(call);
    if (c.commands?.length && MODE_PROFILES[mode]?.worktree === "read-only") await commandGuardLoaded();
    return admit(c, mode);
  },
  decide(call, _mode, settings, commands) {
    return evaluate(approvalRules(settings), policyCall(call, commands ?? []));
  },
};

// ---- projections: the surface and the preamble ---------------------------------------------

/** Whether a tool is on the mode's surface: the mode's rules admit it, whatever its input. */
export function isOnSurface(mode: AgentMode, tool: Pick<ToolDefinition, "name" | "effects">): boolean {
  const call: PolicyCall = { name: tool.name, effects: tool.effects, category: "none", runsCommands: false };
  return admit(call, mode).action !== "deny";
}

/**
 * The tools offered in `mode`, in the given order; the mode's own output verbs and gates are
 * added when missing (from lib/modes/tools).
 */
export function toolsOnSurface(mode: AgentMode, tools: readonly ToolDefinition[]): ToolDefinition[] {
  const p = modeProfile(mode);
  const out = tools.filter((t) => isOnSurface(mode, t));
  const have = new Set(out.map((t) => t.name));
  for (const t of modeTools()) {
    if ((p.outputVerbs.includes(t.name) || p.gates.includes(t.name)) && !have.has(t.name)) {
      out.push(t);
      have.add(t.name);
    }
  }
  return out;
}

/** The mode paragraph of the system prompt: the guidance, then exactly the tools on the surface. */
export function systemPromptPreamble(mode: AgentMode, tools: readonly ToolDefinition[]): string {
  const p = modeProfile(mode);
  const names = toolsOnSurface(mode, tools).map((t) => t.name);
  const parts = [p.guidance];
  parts.push(names.length > 0 ? `Tools available in ${p.label} mode: ${names.join(", ")}.` : `No tools are available in ${p.label} mode.`);
  return parts.join("\n\n");
}
