/**
 * The run's checkpoint: started once, as the run's first model request leaves (in parallel with
 * it), recorded on the session when it lands. A call that changes files waits for it — a
 * beforeTool hook of the session's own, after the plugins' — and with `requireCheckpoint`
 * (the default) the run fails rather than change files it could not undo. With
 * `checkpointEachCall`, each call that may have changed files is followed by a snapshot of its
 * own (an afterTool hook of the session's, after the plugins'), taken before the next call starts.
 */
import { callEffects, isMutating } from "../tools/define";
import { AgentError } from "./events";
import { SESSION_POLICY_PRIORITY, type HookRegistration } from "./hooks";
import type { RunState, SessionCore } from "./session-core";
import type { CheckpointEntry } from "./types";

export class RunCheckpoints {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly core: SessionCore) {}

  /** Start the run's checkpoint (once). */
  ensure(state: RunState): void {
    if (state.checkpoint) return;
    const core = this.core;
    const t0 = core.now();
    const p = core.deps.checkpoints.create({ sessionId: core.id, run: state.run, label: runLabel(state) }).then(
      (rec): CheckpointEntry => {
        const entry: CheckpointEntry = {
          run: state.run,
          runId: state.runId,
          ref: rec.ref,
          oid: rec.oid,
          createdAt: rec.createdAt,
          label: rec.label,
          messageId: state.promptMessageId,
          ms: rec.stats?.ms ?? core.now() - t0,
        };
        core.checkpoints.push(entry);
        core.checkpoints.sort((a, b) => a.run - b.run);
        core.touch();
        core.emit({ type: "checkpoint-created", runId: state.runId, run: state.run, ref: entry.ref, oid: entry.oid, createdAt: entry.createdAt, ms: entry.ms });
        return entry;
      },
      (err: unknown): AgentError => {
        const e = new AgentError("checkpoint", `The run's checkpoint could not be created (${core.errorText(err)}), so no file was changed: changes without a checkpoint could not be undone.`, { cause: err });
        // Not fatal by itself: the run fails only if a tool that changes files comes next.
        core.emit({ type: "error", runId: state.runId, code: "checkpoint", message: e.message, fatal: false });
        return e;
      },
    );
    state.checkpoint = p;
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** Resolves when every checkpoint being taken has landed (and is recorded on the session). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** The state the run left, for the timeline; a failure here is reported, never fatal. */
  async takeRunEnd(state: RunState): Promise<void> {
    const start = await state.checkpoint!;
    if (start instanceof AgentError) return;
    const core = this.core;
    await core.deps.checkpoints.create({ sessionId: core.id, run: `${state.run}-end`, label: runLabel(state), kind: "end" }).catch((err: unknown) => {
      core.emit({ type: "error", runId: state.runId, code: "checkpoint", message: `The snapshot of what this run left could not be taken (${core.errorText(err)}); the run's changes are still in the working tree.`, fatal: false });
    });
  }

  /** The state a mutating call left; a failure is reported, never fatal (the run's own checkpoint still holds). */
  private async takeAfterCall(state: RunState, toolName: string, input: unknown): Promise<void> {
    const start = await state.checkpoint;
    if (!start || start instanceof AgentError) return;
    const core = this.core;
    const k = (state.callCheckpoints = (state.callCheckpoints ?? 0) + 1);
    await core.deps.checkpoints.create({ sessionId: core.id, run: `${state.run}-c${k}`, label: callLabel(toolName, input), kind: "call" }).catch((err: unknown) => {
      core.emit({ type: "error", runId: state.runId, code: "checkpoint", message: `The snapshot after ${toolName} could not be taken (${core.errorText(err)}); the run's checkpoint still holds what came before it.`, fatal: false });
    });
  }

  /** The run's checkpoint, started if it was not; throws its error when it failed and is required. */
  private async wait(state: RunState): Promise<void> {
    this.ensure(state);
    const r = await state.checkpoint!;
    if (r instanceof AgentError && (this.core.opts.requireCheckpoint ?? true)) throw r;
  }

  /** beforeTool: nothing changes before the run's checkpoint exists. */
  hooks(): HookRegistration {
    return {
      name: "checkpoint-wait",
      priority: SESSION_POLICY_PRIORITY + 1,
      timeoutMs: Infinity,
      propagateErrors: true,
      hooks: {
        beforeTool: ({ tool, input }) => {
          const state = this.core.active;
          if (!state || !tool || !isMutating(callEffects(tool, input))) return;
          return this.wait(state);
        },
        afterTool: async ({ tool, input }) => {
          const state = this.core.active;
          if (!state || !this.core.opts.checkpointEachCall || !isMutating(callEffects(tool, input))) return;
          await this.takeAfterCall(state, tool.name, input);
        },
      },
    };
  }
}

function runLabel(state: RunState): string {
  return state.prompt.replace(/\s+/g, " ").slice(0, 120);
}

/** "editor src/a.ts", "run_commands npm test": the tool and what it worked on. */
export function callLabel(toolName: string, input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>;
  const first = (v: unknown): string | undefined => (typeof v === "string" ? v : Array.isArray(v) ? first(v[0]) : v && typeof v === "object" ? first((v as { path?: unknown }).path) : undefined);
  const what = first(i.path) ?? first(i.files) ?? first(i.commands) ?? first(i.command) ?? first(i.file_path);
  return `${toolName}${what ? ` ${what}` : ""}`.replace(/\s+/g, " ").slice(0, 120);
}
