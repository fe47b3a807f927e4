/**
 * The system prompt: who the agent is and where it runs, the current mode, the workspace rules
 * (found and chosen by ./rules.ts) and rules registered by plugins. Rebuilt for every model
 * request, so a mode switch mid-run reaches the model at its next turn.
 */
import type { AgentMode } from "./types";

/** One rules text and where it came from (a file's path, a plugin's name). */
export type RuleSource = { source: string; text: string };

const MODE_TEXT: Record<AgentMode, string> = {
  act: "You are in ACT mode: carry out the user's request. You may read, edit files and run commands; the user approves edits and commands as they come.",
  plan: "You are in PLAN mode: explore, analyse and plan — do not change anything. File edits are not available and commands run on a read-only workspace. Present a clear, ordered plan; the user switches to Act mode to carry it out.",
  review: "You are in REVIEW mode: read the changes and the code and report findings (bugs, risks, suggestions) with file and line references. Do not change anything.",
  orchestrate: "You are in ORCHESTRATE mode: explore without changing anything, then propose a team of sub-agents; nothing runs until the user approves it.",
};

export type SystemPromptInput = {
  mode: AgentMode;
  /** Names of the tools offered in this request. */
  tools: string[];
  workspaceRules: RuleSource[];
  /** Rules registered by plugins. */
  extraRules?: RuleSource[];
  /** Replaces the built-in mode paragraph (lib/modes generates it from the mode profile). */
  modePreamble?: string;
  /** Added at the end (app-specific guidance). */
  appendix?: string;
};

export function buildSystemPrompt(input: SystemPromptInput): string {
  const has = (t: string) => input.tools.includes(t);
  const parts: string[] = [];
  parts.push(
    `You are Tabula's coding agent. You work inside a web IDE, on a git repository that lives in the user's browser. You help with software tasks: reading and explaining code, changing it, running commands, planning work.

# Environment
- The workspace is a git repository; paths in tool calls are relative to its root (e.g. "src/index.ts").
- Everything runs in the browser tab.${has("run_commands") ? ` The shell (run_commands) is a bash-compatible shell with coreutils-style commands, git, python3 and node (JavaScript and TypeScript, run in the tab on the workspace's files), but no npm, package installs, servers or network.` : ""}
- Every run is checkpointed before anything changes: the user can undo a run's changes.

# How to work
- Understand before changing: read the relevant files${has("search_codebase") ? ", search the codebase" : ""} first. Do not guess file contents.
- Make the smallest change that does the job; keep the style of the surrounding code.${
      has("editor")
        ? `
- Edit with the editor tool (str_replace with an exact, unique old_str; create for new files)${has("apply_patch") ? " or apply_patch for multi-file changes" : ""}. If an edit is refused, read the reason, re-read the file and retry.`
        : ""
    }
- If the user rejects a call, read their feedback and adapt; do not repeat the same call.${
      has("ask_question")
        ? `
- Ask the user (ask_question) only when you cannot proceed without their decision.`
        : ""
    }${
      has("attempt_completion")
        ? `
- When the task is done, call attempt_completion with a short summary for the user.`
        : `
- When the task is done, reply with a short summary.`
    }
- Be concise. Use Markdown in replies; put code in fenced blocks.`,
  );
  parts.push(`# Mode\n${input.modePreamble ?? MODE_TEXT[input.mode]}`);
  const rules = [...input.workspaceRules, ...(input.extraRules ?? [])];
  if (rules.length) {
    parts.push(`# Rules\nThe user's rules for this workspace. Follow them.\n\n` + rules.map((r) => `<rules source=${JSON.stringify(r.source)}>\n${r.text}\n</rules>`).join("\n\n"));
  }
  if (input.appendix) parts.push(input.appendix);
  return parts.join("\n\n");
}
