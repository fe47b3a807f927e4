/**
 * Approval policy: which calls run without asking. In Act mode every edit and every command
 * asks, unless the user turned on auto-approve for its category, or (commands) allowed a
 * prefix for this session. Reads are auto-approved by default.
 */
import type { ApprovalCategory } from "../tools/define";
import type { ApprovalSettings } from "./types";

/** A command with no control operators, substitutions or redirections: safe to prefix-match. */
export function isSimpleCommand(command: string): boolean {
  return !/[;&|`<>\n\r]|\$\(|\$\{/.test(command);
}

/**
 * Does `command` start with one of `prefixes` at a word boundary ("npm test" allows
 * "npm test -- --watch", not "npm tests" and not "npm test; rm -rf ."), and is it simple?
 */
export function matchesAllowedPrefix(command: string, prefixes: readonly string[]): boolean {
  const c = command.trim();
  if (!isSimpleCommand(c)) return false;
  return prefixes.some((raw) => {
    const p = raw.trim();
    if (!p) return false;
    return c === p || c.startsWith(p + " ") || c.startsWith(p + "\t");
  });
}

const TWO_WORD = new Set(["git", "npm", "pnpm", "yarn", "bun", "npx", "cargo", "go", "make", "python", "python3", "node", "deno", "docker"]);

/** The prefix an "always allow" button would add: the command word, plus the subcommand for tools that have them. */
export function suggestPrefix(command: string): string {
  const words = command.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "";
  if (TWO_WORD.has(words[0]!) && words[1] && !words[1].startsWith("-")) return `${words[0]} ${words[1]}`;
  return words[0]!;
}

/** Whether a call of this category (with these commands) is approved by the settings alone. */
export function isAutoApproved(category: ApprovalCategory, settings: ApprovalSettings, commands?: readonly string[]): boolean {
  switch (category) {
    case "none":
      return true;
    case "always":
      return false;
    case "read":
      return settings.autoApprove.read;
    case "edit":
      return settings.autoApprove.edit;
    case "command":
      if (settings.autoApprove.command) return true;
      return !!commands && commands.length > 0 && commands.every((c) => matchesAllowedPrefix(c, settings.allowedCommandPrefixes));
  }
}
