/**
 * env-blocker: `.env` secrets are not read by the agent.
 *
 * The guarantee is the file view: while the plugin is on, `.env` and `.env.*` files (not
 * `.env.example`, `.env.sample`, `.env.template`; any folder, any letter case) are absent from
 * the view the agent's tools and shell use (`hiddenPaths`, lib/fs/hidden-view), and so are git's
 * object files, which hold every committed version of them; the shell's git leaves them out of
 * everything it shows. Whatever form a command takes, it ends in a read the view refuses.
 *
 * The hooks are the early, friendly refusal: read_files / editor reads of such files, commands
 * that name them (`cat .env`, `source ./.env`, `cat .env*`…) and searches aimed at them are
 * refused before they run, and `.env` lines are dropped from search results.
 */
import type { HiddenPathRule } from "../../fs/hidden-view";
import type { Plugin } from "../types";
import { basename, simpleCommands } from "./command-words";
import { commandsOfCall, pathsOfCall } from "./tool-paths";

const TEMPLATES = new Set([".env.example", ".env.sample", ".env.template"]);

/** `.env`, `.env.local`, `.ENV`… (letter case ignored: case-insensitive file systems), not the templates. */
export function isEnvFileName(name: string): boolean {
  const n = name.toLowerCase();
  return (n === ".env" || n.startsWith(".env.")) && !TEMPLATES.has(n);
}

/** What the agent's file view hides while env-blocker is on. */
export const envFilesHidden: HiddenPathRule = {
  policy: "env-blocker",
  reason: ".env files hold secrets (.env.example, .env.sample and .env.template are readable)",
  test(rel) {
    const base = rel.slice(rel.lastIndexOf("/") + 1);
    if (isEnvFileName(base)) return true;
    // Object files hold every committed .env: the shell's git reads them, the agent does not.
    return rel.length === 12 && rel.toLowerCase() === ".git/objects";
  },
};

const REASON = "Blocked by the env-blocker plugin: .env files hold secrets and are not read by the agent (.env.example, .env.sample and .env.template are fine).";

/** A word that names, or globs onto, a .env file (any letter case, like the view). */
export function namesEnvFile(word: string): boolean {
  const b = basename(word.replace(/^[<>]+/, ""));
  if (isEnvFileName(b)) return true;
  return /^\.env(?:$|[.*?[])/i.test(b) && /[*?[]/.test(b); // .env* / .env.?ocal
}

function isEnvPath(path: string): boolean {
  return isEnvFileName(path.slice(path.lastIndexOf("/") + 1));
}

export function commandReadsEnv(line: string): boolean {
  return simpleCommands(line).some((words) => words.some(namesEnvFile));
}

export const envBlocker: Plugin = {
  name: "env-blocker",
  manifest: { capabilities: ["hooks"] },
  hiddenPaths: envFilesHidden,
  hooks: {
    beforeTool({ toolCall, input }) {
      const name = toolCall.name;
      if (name === "run_commands") return commandsOfCall(input).some(commandReadsEnv) ? { skip: true, reason: REASON } : undefined;
      const { reads } = pathsOfCall(name, input);
      if (name === "list_files") return undefined; // listing names is not reading contents
      if (reads.some(isEnvPath)) return { skip: true, reason: REASON };
      if (name === "search_codebase") {
        const include = String((input as { include?: unknown })?.include ?? "");
        if (include && namesEnvFile(include)) return { skip: true, reason: REASON };
      }
      return undefined;
    },
    afterTool({ toolCall, result }) {
      if (toolCall.name !== "search_codebase" || !result.output) return undefined;
      // Results come grouped: a line with the path, then "  <line>: text" lines under it.
      const lines = result.output.split("\n");
      const kept: string[] = [];
      let dropping = false;
      for (const l of lines) {
        if (!/^\s/.test(l) && l.trim() !== "") dropping = isEnvPath(l.trim()) || /^([^:\s]+):\d+:/.test(l) && isEnvPath(/^([^:\s]+):/.exec(l)![1]!);
        if (!dropping) kept.push(l);
      }
      return kept.length === lines.length ? undefined : { result: { output: kept.join("\n") } };
    },
  },
};
