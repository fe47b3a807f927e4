/**
 * Shared types of the agent core: modes, run results, usage, the dependencies a session is
 * given (workspace, checkpoints, shell) and the settings it persists. Dependencies are
 * interfaces so tests pass fakes; `createWorkspaceAgentDeps` (./workspace-deps.ts) wires the
 * real lib/checkpoints and lib/shell.
 */
import type { WorkspaceFs } from "../fs/workspace-fs";
import type { ShellLike } from "../tools/define";

export type { ShellLike } from "../tools/define";

/** The built-in modes; each has a profile in lib/modes/profiles.ts (tools, guard, read-only, prompt). */
export type AgentMode = "act" | "plan" | "review" | "orchestrate";
export const AGENT_MODES: readonly AgentMode[] = ["act", "plan", "review", "orchestrate"];

/** How a run ended (afterRun and run-finished carry it). */
export type RunStatus = "completed" | "aborted" | "failed";

export type UsageTotals = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /** US dollars; undefined when a model without a price was used. */
  costUsd?: number;
  /** Model calls counted. */
  requests: number;
};

export function emptyUsage(): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, costUsd: 0, requests: 0 };
}

/** A run's checkpoint, as recorded on the session. */
export type CheckpointEntry = {
  run: number;
  runId: string;
  ref: string;
  oid: string;
  createdAt: number;
  label?: string;
  /** The user prompt that started the run (edit & resend restores to this). */
  messageId?: string;
  /** Time the snapshot took. */
  ms?: number;
};

export type RunResult = {
  runId: string;
  run: number;
  status: RunStatus;
  /** Why it stopped, when not simply completed (error message, hook reason, "Stopped by the user"…). */
  reason?: string;
  /** The completion tool's summary, or the last assistant text. */
  summary?: string;
  usage: UsageTotals;
  /** A slash command handled without the model. */
  command?: string;
  durationMs: number;
};

/** Auto-approve switches and per-session command allow list. */
export type ApprovalSettings = {
  autoApprove: { read: boolean; edit: boolean; command: boolean };
  /**
   * "Always allow commands starting with …": a command is auto-approved when it starts with one
   * of these (at a word boundary) and is a simple command (no ; & | ` $( ) < > or newline).
   */
  allowedCommandPrefixes: string[];
};

export const DEFAULT_APPROVALS: ApprovalSettings = {
  autoApprove: { read: true, edit: false, command: false },
  allowedCommandPrefixes: [],
};

// ---- dependencies -------------------------------------------------------------------------

export type CheckpointRecord = {
  ref: string;
  oid: string;
  createdAt: number;
  label?: string;
  stats?: { ms?: number };
};

export type RestoreRecord = {
  txid: string;
  /** Where the engine kept the state the restore replaced (refs/tabula/restore/<txid>). */
  savedRef?: string;
  changed: { path: string; change: "added" | "modified" | "deleted" }[];
};

/** The checkpoint engine, as the agent needs it (lib/checkpoints behind it in the app). */
export interface CheckpointService {
  /** `kind` "end" marks the state a run left (run `"<n>-end"`); the default marks a run's start. */
  create(opts: { sessionId: string; run: number | string; label?: string; kind?: "run" | "end" | "call" }): Promise<CheckpointRecord>;
  restore(refOrOid: string, opts?: { paths?: string[] }): Promise<RestoreRecord>;
  undoRestore(txid: string): Promise<RestoreRecord>;
}

/** What a session needs from the outside world. */
export interface AgentDeps {
  /** The workspace as the agent sees it (the session writes with origin "agent"): a hiding view
   * over `hiddenPaths` when the deps come from createWorkspaceAgentDeps. */
  wsfs: WorkspaceFs;
  /** Paths absent from `wsfs` and the shell; policies add rules through AgentSession.hidePaths. */
  hiddenPaths?: import("../fs/hidden-view").HiddenPathSet;
  checkpoints: CheckpointService;
  /** The shell for `run_commands`; `readOnly` in read-only modes (Plan, Review). Lazy. */
  shell(opts: { readOnly: boolean }): Promise<ShellLike>;
  /** Clock (tests pin it). */
  now?(): number;
  /** The workspace's web preview, for the `preview` tool (the browser's workbench passes its controller). */
  preview?: import("../preview/controller").PreviewService;
}
