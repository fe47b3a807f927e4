/** Plugins shipped with the app: trusted, run in-process, enabled by default. */
import type { Plugin } from "../types";
import { envBlocker } from "./env-blocker";
import { gitignoreGuard } from "./gitignore-guard";
import { protectedBranchGuard } from "./protected-branch-guard";
import { customCompaction } from "./custom-compaction";
import { backgroundTerminal } from "./background-terminal";
import { gotoDefinition, type DefinitionBackend } from "./goto-definition";

export { envBlocker, gitignoreGuard, protectedBranchGuard, customCompaction, backgroundTerminal, gotoDefinition };

export type BuiltinPlugin = { plugin: Plugin; description: string; enabledByDefault: boolean };

/**
 * Fresh instances (some keep per-session state from setup). `definitions`: where goto-definition
 * runs the TypeScript language service (the app passes a worker; default in-process).
 */
export function builtinPlugins(opts: { definitions?: DefinitionBackend } = {}): BuiltinPlugin[] {
  return [
    { plugin: envBlocker, description: "The agent never reads .env files (templates are fine).", enabledByDefault: true },
    { plugin: gitignoreGuard(), description: "The agent leaves paths ignored by .gitignore alone.", enabledByDefault: false },
    { plugin: protectedBranchGuard(), description: "Stops the run on git push, or on a commit to main/master.", enabledByDefault: true },
    { plugin: backgroundTerminal(), description: "Tools to run long commands in the background; their end is reported to the agent.", enabledByDefault: true },
    { plugin: gotoDefinition(opts.definitions), description: "A goto_definition tool for TypeScript/JavaScript (the TypeScript language service, in a worker).", enabledByDefault: true },
    { plugin: customCompaction(), description: "Above 60% of the context window: keep the first prompt and the last 12 messages, summarise the middle.", enabledByDefault: false },
  ];
}
