/**
 * The user's approval choices as policy rules (lib/modes/policy.ts): which calls run without
 * asking. By default every call asks, except the ones that need no approval (questions to the
 * user, the completion tool) and reads; the user's auto-approve switches (reads, edits,
 * commands) and "always allow commands starting with …" prefixes are rules layered over those
 * defaults, so the last match decides. A mode's own rules come first and no rule here can lift
 * a mode's deny (lib/modes/policy-table.ts).
 */
import { evaluate, isSimpleCommand, matchesPrefix, type PolicyDecision, type PolicyRule, type ToolPolicy } from "../modes/policy";
import { callApproval, type ApprovalCategory, type ToolDefinition } from "../tools/define";
import type { AgentMode, ApprovalSettings } from "./types";

export { isSimpleCommand };

/** Every call asks, but a call that needs no approval; gates ask whatever the user allowed. */
export const APPROVAL_DEFAULTS: readonly PolicyRule[] = Object.freeze([
  { tool: "*", effect: "*", command: "*", action: "ask" },
  { tool: "*", effect: "approval:none", command: "*", action: "allow" },
  // No user rule names this kind, so nothing layered over it can turn a gate into an allow.
  { tool: "*", effect: "approval:always", command: "*", action: "ask" },
] satisfies PolicyRule[]);

/** The user's choices as rules: one per auto-approved kind, one per allowed command prefix. */
export function userRules(settings: ApprovalSettings): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const kind of ["read", "edit", "command"] as const) {
    if (settings.autoApprove[kind]) out.push({ tool: "*", effect: `approval:${kind}`, command: "*", action: "allow" });
  }
  for (const raw of settings.allowedCommandPrefixes) {
    const prefix = raw.trim();
    if (prefix) out.push({ tool: "*", effect: "approval:command", command: prefix, action: "allow" });
  }
  return out;
}

/** The approval layer: the defaults, then the user's rules over them. */
export function approvalRules(settings: ApprovalSettings): PolicyRule[] {
  return [...APPROVAL_DEFAULTS, ...userRules(settings)];
}

/**
 * Does `command` start with one of `prefixes` at a word boundary ("npm test" allows
 * "npm test -- --watch", not "npm tests" and not "npm test; rm -rf ."), and is it simple?
 */
export function matchesAllowedPrefix(command: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => matchesPrefix(command, p));
}

const TWO_WORD = new Set(["git", "npm", "pnpm", "yarn", "bun", "npx", "cargo", "go", "make", "python", "python3", "node", "deno", "docker"]);

/** The prefix an "always allow" button would add: the command word, plus the subcommand for tools that have them. */
export function suggestPrefix(command: string): string {
  const words = command.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "";
  if (TWO_WORD.has(words[0]!) && words[1] && !words[1].startsWith("-")) return `${words[0]} ${words[1]}`;
  return words[0]!;
}

/** The approval layer's decision for a call of this category (with these commands): allow or ask. */
export function approvalDecision(category: ApprovalCategory, settings: ApprovalSettings, commands?: readonly string[]): PolicyDecision {
  return evaluate(approvalRules(settings), { name: "", effects: [], category, commands, runsCommands: false });
}

/** Whether a call of this category (with these commands) is approved by the settings alone. */
export function isAutoApproved(category: ApprovalCategory, settings: ApprovalSettings, commands?: readonly string[]): boolean {
  return approvalDecision(category, settings, commands).action === "allow";
}

/**
 * The policy of a session made without the mode profiles (lib/modes makes the app's): a call to
 * a tool its surface does not offer is refused; the rest is decided by the approval rules.
 */
export function surfacePolicy(onSurface: (mode: AgentMode, name: string) => boolean, label: (mode: AgentMode) => string): ToolPolicy {
  return {
    admit(call, mode) {
      if (onSurface(mode, call.name)) return { action: "allow" };
      return { action: "deny", reason: `The tool "${call.name}" is not available in ${label(mode)} mode, so the call was refused. Use the tools offered in this mode.` };
    },
    decide(call, _mode, settings, commands) {
      let category: ApprovalCategory = "edit";
      try {
        if (call.tool) category = callApproval(call.tool as ToolDefinition, call.input);
      } catch {
        // a tool whose approval cannot be read asks, as an edit
      }
      return approvalDecision(category, settings, commands);
    },
  };
}
