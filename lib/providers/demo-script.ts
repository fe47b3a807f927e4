/**
 * The "Demo (scripted)" provider's script: shows the product on the sample workspace without a
 * key. It reads a file, proposes an edit (approve it), runs a command (approve it) and
 * completes. Every reply says it is scripted. Later prompts get a pointer to the settings.
 */
import { ScriptedLanguageModel, type ScriptContext, type ScriptedTurn } from "./scripted";

export const DEMO_MODEL_ID = "demo-scripted";
export const DEMO_LABEL = "Demo (scripted)";

const NOTE = "*(Demo — these replies are scripted; no model is called.)*\n\n";

export const DEMO_TURNS: ScriptedTurn[] = [
  {
    text: `${NOTE}Let me start by reading the greeting code of the sample project.`,
    toolCalls: [{ name: "read_files", args: { files: [{ path: "src/greet.ts" }, { path: "src/index.ts" }] } }],
    delayMs: 25,
  },
  {
    text: `${NOTE}\`greet\` builds the message. I'll make it a little friendlier — you'll see the diff and can approve or reject it.`,
    toolCalls: [
      {
        name: "editor",
        args: {
          command: "str_replace",
          path: "src/greet.ts",
          old_str: "  return `Hello, ${name}!`;",
          new_str: "  return `Hello, ${name}! Welcome to Tabula.`;",
        },
      },
    ],
    delayMs: 25,
  },
  {
    text: `${NOTE}Now let me check the change from the shell (this command needs your approval too).`,
    toolCalls: [{ name: "run_commands", args: { commands: ['grep -rn "Welcome" src', "git status --short"] } }],
    delayMs: 25,
  },
  {
    text: `${NOTE}Done.`,
    toolCalls: [
      {
        name: "attempt_completion",
        args: {
          summary:
            "Changed `greet()` in `src/greet.ts` to add a welcome line, and checked it with `grep` and `git status`. Every run is checkpointed: `/undo` puts the files back. This was the scripted demo — connect a real model in Settings → Models to work on your own tasks.",
        },
      },
    ],
    delayMs: 25,
  },
];

const AFTER_DEMO: ScriptedTurn = {
  text: `${NOTE}That's the end of the demo script. To work with a real model, open Settings → Models and add a provider: Anthropic or OpenAI with your API key, OpenRouter, or a local Ollama / LM Studio server. Keys stay in this browser.`,
  delayMs: 15,
};

/** A request without tools is not a turn of the demo (a compaction summary): a plain answer. */
const SUMMARY: ScriptedTurn = {
  text: `${NOTE}The demo walked through reading src/greet.ts, editing it and checking the change from the shell. (A real model writes a real summary here.)`,
};

/** First prompt of a session: the script, step by step; any later prompt: the pointer. */
export function demoScript(ctx: ScriptContext): ScriptedTurn {
  if (ctx.toolsOffered === 0) return SUMMARY;
  if (ctx.userMessages > 1) return AFTER_DEMO;
  return DEMO_TURNS[ctx.stepInTurn] ?? AFTER_DEMO;
}

export function createDemoModel(): ScriptedLanguageModel {
  return new ScriptedLanguageModel({ script: demoScript, modelId: DEMO_MODEL_ID, provider: "demo" });
}
