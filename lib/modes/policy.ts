/**
 * Policy as data: rules of the shape `tool | effect | command → allow | ask | deny`, read by one
 * `evaluate()` that takes the last rule matching a call (so a table reads from the general to the
 * particular, and a later layer overrides an earlier one), as OpenCode's permission rules do.
 *
 * The columns:
 *   tool     "*", a tool name, or a name ending in "*" (a prefix)
 *   effect   "*", an effect class the call has ("file-write"), or the approval kind that governs
 *            it ("approval:edit"; see ApprovalCategory)
 *   command  "*", a command prefix the call's command starts with at a word boundary ("npm test"),
 *            or one of the command guard's verdicts: WRITES (it would change files), LOADING (the
 *            guard cannot check yet), UNREADABLE (the call runs commands the policy cannot find)
 *
 * A call that runs several commands is evaluated once per command and the strictest answer wins
 * (deny, then ask, then allow), so "every command is allowed" is what lets a call run.
 *
 * The tables themselves (per mode, and the user's auto-approve choices) are in policy-table.ts
 * and lib/agent/approvals.ts. Command parsing is the command guard's (command-guard.ts).
 *
 * Framework-free.
 */
import type { AgentMode, ApprovalSettings } from "../agent/types";
import type { ApprovalCategory, EffectClass, ToolDefinition } from "../tools/define";
import { findFileEditingCommand, GUARD_LOADING_REASON } from "./command-guard";

export type PolicyAction = "allow" | "ask" | "deny";

/** Command patterns that ask the command guard rather than match text. */
export const WRITES = "(writes)";
export const LOADING = "(guard loading)";
export const UNREADABLE = "(unreadable)";

export type EffectPattern = "*" | EffectClass | `approval:${ApprovalCategory}`;

export interface PolicyRule {
  tool: string;
  effect: EffectPattern;
  command: string;
  action: PolicyAction;
  /**
   * Why, shown when the rule decides. `{tool}` is the tool's name; for the command guard's
   * patterns `{command}` is the command (shortened) and `{why}` what it would do.
   */
  reason?: string;
}

/** One tool call as the policy sees it. */
export interface PolicyCall {
  /** The tool name the model called. */
  name: string;
  /** Every effect the tool declares or this call has. */
  effects: readonly EffectClass[];
  /** The approval kind that governs the call. */
  category: ApprovalCategory;
  /** The command lines it runs; undefined when it runs none, or they cannot be found. */
  commands?: readonly string[];
  /** Whether the call runs shell commands (whether or not they could be found). */
  runsCommands: boolean;
}

export interface PolicyDecision {
  action: PolicyAction;
  /** The rule that decided (undefined when no rule matched: ask). */
  rule?: PolicyRule;
  /** The rule's reason with its placeholders filled in. */
  reason?: string;
}

/** A tool call as the model made it, with the tool's definition when it is known. */
export type GuardedCall = {
  /** The tool name the model called. */
  name: string;
  input: unknown;
  /** The definition, when the tool is known. */
  tool?: Pick<ToolDefinition, "name" | "effects" | "effectsFor" | "approval">;
};

/**
 * What a session asks of its policy, at two points of a call's way:
 *   admit    after the arguments are valid, before any hook, plan or question (and again if a
 *            hook rewrites them): may the call run at all in this mode? A deny refuses it (the
 *            reason goes to the model).
 *   decide   once an admitted call is planned: allow (run) or ask (the user approves); `commands`
 *            are the ones its plan shows the user, which "always allow" prefixes are matched
 *            against. (It may deny too, for a policy that needs to see the plan.)
 * Both are read per call, so a mode switch mid-run applies to the very next call.
 */
export interface ToolPolicy {
  admit(call: GuardedCall, mode: AgentMode): PolicyDecision | Promise<PolicyDecision>;
  decide(call: GuardedCall, mode: AgentMode, settings: ApprovalSettings, commands?: readonly string[]): PolicyDecision;
}

const STRICTNESS: Record<PolicyAction, number> = { allow: 0, ask: 1, deny: 2 };

function toolMatches(pattern: string, name: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith("*")) return name.startsWith(pattern.slice(0, -1));
  return pattern === name;
}

function effectMatches(pattern: EffectPattern, call: PolicyCall): boolean {
  if (pattern === "*") return true;
  if (pattern.startsWith("approval:")) return pattern.slice("approval:".length) === call.category;
  return call.effects.includes(pattern as EffectClass);
}

/** A command with no control operators, substitutions or redirections: safe to prefix-match. */
export function isSimpleCommand(command: string): boolean {
  return !/[;&|`<>\n\r]|\$\(|\$\{/.test(command);
}

/** Does `command` start with `prefix` at a word boundary, and is it simple? */
export function matchesPrefix(command: string, prefix: string): boolean {
  const c = command.trim();
  const p = prefix.trim();
  if (!p || !isSimpleCommand(c)) return false;
  return c === p || c.startsWith(p + " ") || c.startsWith(p + "\t");
}

type CommandMatch = false | { command?: string; why?: string };

function shorten(command: string): string {
  return command.length > 120 ? command.slice(0, 119) + "…" : command;
}

function commandMatches(pattern: string, command: string | undefined, call: PolicyCall): CommandMatch {
  if (pattern === "*") return {};
  if (pattern === UNREADABLE) return call.runsCommands && call.commands === undefined ? {} : false;
  if (command === undefined) return false;
  if (pattern === WRITES || pattern === LOADING) {
    const finding = findFileEditingCommand(command);
    if (!finding) return false;
    const loading = finding.reason === GUARD_LOADING_REASON;
    if (loading !== (pattern === LOADING)) return false;
    return { command: shorten(finding.command), why: finding.reason };
  }
  return matchesPrefix(command, pattern) ? { command } : false;
}

function fill(reason: string | undefined, call: PolicyCall, m: { command?: string; why?: string }): string | undefined {
  return reason
    ?.replaceAll("{tool}", call.name)
    .replaceAll("{command}", m.command ?? "")
    .replaceAll("{why}", m.why ?? "");
}

/** The last rule of `rules` that matches `call` running `command` (one of its commands, or none). */
function lastMatch(rules: readonly PolicyRule[], call: PolicyCall, command: string | undefined): PolicyDecision | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (!toolMatches(rule.tool, call.name) || !effectMatches(rule.effect, call)) continue;
    const m = commandMatches(rule.command, command, call);
    if (m) return { action: rule.action, rule, reason: fill(rule.reason, call, m) };
  }
  return undefined;
}

/**
 * The decision of `rules` for `call`: the last matching rule, per command when it runs several
 * (the strictest answer wins; among equals, the first command's). No match at all means ask.
 */
export function evaluate(rules: readonly PolicyRule[], call: PolicyCall): PolicyDecision {
  const commands: readonly (string | undefined)[] = call.commands?.length ? call.commands : [undefined];
  let out: PolicyDecision | undefined;
  for (const command of commands) {
    const d = lastMatch(rules, call, command) ?? { action: "ask" as const };
    if (!out || STRICTNESS[d.action] > STRICTNESS[out.action]) out = d;
  }
  return out!;
}

/** A table as text, one rule a line (for the docs and for debugging a decision). */
export function formatRules(rules: readonly PolicyRule[]): string {
  return rules.map((r) => `${r.tool} | ${r.effect} | ${r.command} → ${r.action}`).join("\n");
}
