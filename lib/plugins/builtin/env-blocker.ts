/**
 * env-blocker: `.env` secrets are not read by the agent. Refuses read_files / editor reads of
 * `.env`, `.env.*` (not `.env.example`, `.env.sample`, `.env.template`), commands that name such
 * a file (`cat .env`, `source ./.env`, `grep KEY .env.local`, `cat .env*`…), searches aimed at
 * them, and drops `.env` lines from search results.
 */
import type { Plugin } from "../types";
import { isEnvFile } from "../../share/secrets";
import { basename, simpleCommands } from "./command-words";
import { commandsOfCall, pathsOfCall } from "./tool-paths";

const REASON = "Blocked by the env-blocker plugin: .env files hold secrets and are not read by the agent (.env.example, .env.sample and .env.template are fine).";

/** A word that names, or globs onto, a .env file. */
export function namesEnvFile(word: string): boolean {
  const b = basename(word.replace(/^[<>]+/, ""));
  if (isEnvFile(b)) return true;
  return /^\.env(?:$|[.*?[])/.test(b) && /[*?[]/.test(b); // .env* / .env.?ocal
}

export function commandReadsEnv(line: string): boolean {
  return simpleCommands(line).some((words) => words.some(namesEnvFile));
}

export const envBlocker: Plugin = {
  name: "env-blocker",
  manifest: { capabilities: ["hooks"] },
  hooks: {
    beforeTool({ toolCall, input }) {
      const name = toolCall.name;
      if (name === "run_commands") return commandsOfCall(input).some(commandReadsEnv) ? { skip: true, reason: REASON } : undefined;
      const { reads } = pathsOfCall(name, input);
      if (name === "list_files") return undefined; // listing names is not reading contents
      if (reads.some((p) => isEnvFile(p))) return { skip: true, reason: REASON };
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
        if (!/^\s/.test(l) && l.trim() !== "") dropping = isEnvFile(l.trim()) || /^([^:\s]+):\d+:/.test(l) && isEnvFile(/^([^:\s]+):/.exec(l)![1]!);
        if (!dropping) kept.push(l);
      }
      return kept.length === lines.length ? undefined : { result: { output: kept.join("\n") } };
    },
  },
};
