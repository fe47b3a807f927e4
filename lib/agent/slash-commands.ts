/**
 * Slash commands: `/name args` sent as a prompt is handled here, before (and usually instead of)
 * the model. Built in: /compact, /clear, /undo, /mode; plugins register more. A command may
 * reply, or hand back a prompt to run as a normal turn (`submitPrompt`).
 */
import { emptyUsage, AGENT_MODES, type AgentMode, type RunResult } from "./types";
import type { SessionCore } from "./session-core";
import { compactionText, type CompactionReport } from "./compaction";
import type { AgentSession } from "./session";

export type SlashCommandResult = string | { reply?: string; submitPrompt?: string } | void;
export type SlashCommand = {
  name: string;
  description?: string;
  handler(args: string, session: AgentSession): SlashCommandResult | Promise<SlashCommandResult>;
};

export class SlashCommands {
  private readonly commands = new Map<string, SlashCommand>();
  private count = 0;

  constructor(private readonly core: SessionCore) {
    for (const c of builtinCommands()) this.commands.set(c.name, c);
  }

  register(command: SlashCommand): () => void {
    const name = command.name.replace(/^\//, "");
    if (!/^[a-z][\w-]*$/i.test(name)) throw new Error(`Invalid command name "${command.name}"`);
    this.commands.set(name, { ...command, name });
    return () => this.commands.delete(name);
  }

  list(): { name: string; description?: string }[] {
    return [...this.commands.values()].map((c) => ({ name: c.name, description: c.description }));
  }

  /** Every command, for a fork to carry over. */
  copyTo(other: SlashCommands): void {
    for (const c of this.commands.values()) other.commands.set(c.name, c);
  }

  /** The command a prompt invokes, if it is one of ours. */
  match(prompt: string): { name: string; args: string } | undefined {
    const slash = /^\/([a-z][\w-]*)(?:\s+([\s\S]*))?$/i.exec(prompt.trim());
    return slash && this.commands.has(slash[1]!) ? { name: slash[1]!, args: (slash[2] ?? "").trim() } : undefined;
  }

  /** Run a command; a `submitPrompt` is run as a turn through `runTurn`. */
  async run(session: AgentSession, name: string, args: string, runTurn: (prompt: string) => Promise<RunResult>): Promise<RunResult> {
    const core = this.core;
    const started = core.now();
    const cmd = this.commands.get(name)!;
    const runId = `${core.id}-c${++this.count}`;
    let output = "";
    let ok = true;
    let submit: string | undefined;
    core.commandRunning = true;
    try {
      const r = await cmd.handler(args, session);
      if (typeof r === "string") output = r;
      else if (r) {
        output = r.reply ?? "";
        submit = r.submitPrompt;
      }
    } catch (err) {
      ok = false;
      output = core.errorText(err);
    } finally {
      core.commandRunning = false;
    }
    core.emit({ type: "command", name, args, output, ok });
    if (submit !== undefined) return runTurn(submit);
    return { runId, run: core.runCount, status: ok ? "completed" : "failed", reason: ok ? undefined : output, summary: output, usage: emptyUsage(), command: name, durationMs: core.now() - started };
  }
}

function builtinCommands(): SlashCommand[] {
  return [
    {
      name: "compact",
      description: "Summarise the conversation so far to free context",
      handler: async (_args, s) => {
        const r = await s.history.compact();
        return r.summarizedMessages ? compactionText(r as CompactionReport) : "Nothing to compact yet.";
      },
    },
    {
      name: "clear",
      description: "Start the conversation afresh (checkpoints stay)",
      handler: (_args, s) => {
        s.history.clear();
        return "Conversation cleared.";
      },
    },
    {
      name: "undo",
      description: "Restore the files to the last run's checkpoint",
      handler: async (_args, s) => {
        const r = await s.history.undoLastRun();
        if (!r) return "There is no checkpoint to restore yet.";
        if (r.changed.length === 0) return `The files already match the last checkpoint (${r.ref}).`;
        return `Restored ${r.changed.length} file${r.changed.length === 1 ? "" : "s"} to ${r.ref}: ${r.changed.map((c) => c.path).join(", ")}. (Restore ${r.txid} can itself be undone.)`;
      },
    },
    {
      name: "mode",
      description: "Switch mode: /mode plan | act | review",
      handler: (args, s) => {
        const m = args.trim().toLowerCase();
        if (!AGENT_MODES.includes(m as AgentMode)) throw new Error(`Usage: /mode ${AGENT_MODES.join(" | ")} (now ${s.state.mode})`);
        s.setMode(m as AgentMode);
        return `Mode: ${s.state.modeLabel}.`;
      },
    },
  ];
}
