/**
 * The tool contract. A tool is data: one `defineTool({...})` call per file names the tool, its zod
 * input schema, its effect classes, the description the model reads (kept beside it, reviewed
 * like code) and `execute`. The agent loop, the modes (which project their guards from
 * `effects`) and plugins (which register more tools) all work from this one shape.
 *
 * Framework-free; nothing here touches a browser global.
 */
import type { z } from "zod";
import type { WorkspaceFs } from "../fs/workspace-fs";
import type { IsoFs } from "../fs/types";

/**
 * What a tool call can do to the world. Modes deny classes (Plan mode denies every class that
 * changes the workspace); the loop awaits the run's checkpoint before the first call whose
 * effects include a MUTATING class.
 */
export type EffectClass =
  | "read" // reads workspace files or metadata
  | "file-write" // creates or modifies workspace files
  | "file-delete" // deletes workspace files
  | "vcs-write" // changes git state (commit, branch, index)
  | "process" // runs commands (which may do any of the above)
  | "network" // talks to the network
  | "user-interaction"; // asks the user something

export const EFFECT_CLASSES: readonly EffectClass[] = [
  "read",
  "file-write",
  "file-delete",
  "vcs-write",
  "process",
  "network",
  "user-interaction",
];

/** Effect classes that may change the workspace: a checkpoint must exist before they run. */
export const MUTATING_EFFECTS: ReadonlySet<EffectClass> = new Set(["file-write", "file-delete", "vcs-write", "process"]);

export function isMutating(effects: readonly EffectClass[]): boolean {
  return effects.some((e) => MUTATING_EFFECTS.has(e));
}

/**
 * Approval category: which auto-approve switch governs a call. "none" never asks (questions
 * to the user, the completion tool: asking to approve them would be absurd); "always" asks
 * whatever the settings say (a gate only the user may open, such as leaving Plan mode).
 */
export type ApprovalCategory = "read" | "edit" | "command" | "none" | "always";

/** What the user sees before approving a call: the diff of an edit, or the commands. */
export type ApprovalPreview =
  | { kind: "diff"; files: PreviewFile[] }
  | { kind: "command"; commands: string[]; cwd?: string }
  | { kind: "text"; text: string };

export type PreviewFile = {
  path: string;
  change: "create" | "modify" | "delete";
  /** Unified diff of the proposed change (computed before anything is written). */
  diff: string;
  added: number;
  removed: number;
};

/** A minimal shell: lib/shell's Shell satisfies it; tests pass fakes. Never throws. */
export interface ShellLike {
  exec(
    command: string,
    opts?: { cwd?: string; env?: Record<string, string>; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<{ stdout: string; stderr: string; exitCode: number; cwd?: string; env?: Record<string, string>; truncated?: boolean }>;
}

export type QuestionRequest = { question: string; choices?: string[] };

export type ToolLimits = {
  /** read_files: lines returned per file when no range is given. */
  readMaxLines: number;
  /** read_files: characters per file. */
  readMaxCharsPerFile: number;
  /** read_files: characters for the whole call. */
  readMaxCharsTotal: number;
  /** read_files: files larger than this are refused (bytes). */
  readMaxFileBytes: number;
  /** run_commands: default time limit per command. */
  commandTimeoutMs: number;
  /** run_commands: characters of output kept per command (head + tail). */
  commandOutputChars: number;
  /** search_codebase: matching lines returned. */
  searchMaxResults: number;
  /** list_files: entries listed. */
  listMaxEntries: number;
};

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  readMaxLines: 2000,
  readMaxCharsPerFile: 100_000,
  readMaxCharsTotal: 250_000,
  readMaxFileBytes: 5 * 1024 * 1024,
  commandTimeoutMs: 60_000,
  commandOutputChars: 16_000,
  searchMaxResults: 200,
  listMaxEntries: 500,
};

/** Everything a tool may use. The loop builds one per call. */
export interface ToolContext {
  /** The workspace: a read-only view when the mode's worktree is read-only. */
  wsfs: WorkspaceFs;
  /** The raw fs + workspace dir, for lib/git (ignore rules). */
  repo: { fs: IsoFs; dir: string };
  /** Aborted when the user stops the run. */
  signal: AbortSignal;
  mode: string;
  /** True when the mode's worktree is read-only (Plan, Review). */
  readOnly: boolean;
  sessionId: string;
  runId: string;
  toolCallId: string;
  /** The shell for this mode (read-only twin in read-only modes); loaded lazily. */
  shell(): Promise<ShellLike>;
  /** Ask the user and wait for the answer (ask_question). */
  ask(request: QuestionRequest): Promise<string>;
  /** Switch the session's mode (a tool whose approval is the user's consent, e.g. exit_plan_mode). */
  setMode?(mode: string): void;
  /** Journal origin for writes ("agent"). */
  origin: string;
  limits: ToolLimits;
  /** The workspace's web preview, where the session has one (the browser's workbench). */
  preview?: import("../preview/controller").PreviewService;
  /**
   * Add usage spent on this call's behalf (a sub-agent's model requests) to the run's and the
   * session's meter, so the session's cost and its budget cap count it.
   */
  chargeUsage?(usage: import("../agent/types").UsageTotals): void;
  /** Dollars left under the session's budget cap (undefined: no cap). */
  usdLeft?(): number | undefined;
}

/** What a call returns. `output` is what the model reads; the rest is for the UI. */
export interface ToolResult {
  output: string;
  isError?: boolean;
  /** One line for the transcript row ("Read 2 files", "exit 0", …). */
  summary?: string;
  /** JSON-safe details for the UI (paths, diffs, exit codes). Never sent to the model. */
  data?: Record<string, unknown>;
  /** Set by the completion tool: the turn ends with this summary. */
  completion?: { summary: string };
}

/** A call worked out before approval: what the user is shown, and the state execute needs. */
export interface ToolPlan<S = unknown> {
  preview: ApprovalPreview;
  state: S;
}

export interface ToolDefinition<I = any, S = any> {
  name: string;
  /** The text the model reads. */
  description: string;
  inputSchema: z.ZodType<I>;
  /** Every effect any call of this tool can have (modes project guards from this). */
  effects: readonly EffectClass[];
  /** Effects of one particular call, when narrower (editor "view" only reads). */
  effectsFor?(input: I): readonly EffectClass[];
  /** Which auto-approve switch governs a call (default derived from effects). */
  approval?: ApprovalCategory | ((input: I) => ApprovalCategory);
  /** A successful call ends the turn (the completion tool). */
  completesRun?: boolean;
  /**
   * Consecutive calls of such tools in one assistant message run at the same time (each is
   * checked and approved in order first); `delegate`'s children, for one.
   */
  concurrent?: boolean;
  /**
   * Optional first phase, run before approval: validate against the workspace and compute the
   * change (an edit's diff). Returning a ToolResult fails the call without asking the user:
   * nobody should be asked to approve a call that can only fail.
   */
  plan?(input: I, ctx: ToolContext): Promise<ToolPlan<S> | ToolResult>;
  /** Do it. Gets the plan when `plan` exists. May throw: the loop turns that into an error result. */
  execute(input: I, ctx: ToolContext, plan?: ToolPlan<S>): Promise<ToolResult>;
}

/** Define a tool (identity at runtime; keeps the input type flowing into plan/execute). */
export function defineTool<I, S = unknown>(def: ToolDefinition<I, S>): ToolDefinition<I, S> {
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(def.name)) throw new Error(`Invalid tool name ${JSON.stringify(def.name)}`);
  return def;
}

export function isToolResult(x: unknown): x is ToolResult {
  return typeof x === "object" && x !== null && typeof (x as ToolResult).output === "string" && !("preview" in x);
}

/**
 * Effects of one call. Never throws: a tool's `effectsFor` that fails on odd input falls back to
 * the effects the tool declares (the policy, the checkpoint wait and the pipeline all ask this one).
 */
export function callEffects<I>(tool: ToolDefinition<I>, input: I): readonly EffectClass[] {
  if (!tool.effectsFor) return tool.effects;
  try {
    return tool.effectsFor(input);
  } catch {
    return tool.effects;
  }
}

/** Approval category of one call. Never throws: a failing `approval(input)` counts as "edit", the cautious choice. */
export function callApproval<I>(tool: ToolDefinition<I>, input: I): ApprovalCategory {
  let a: ApprovalCategory | undefined;
  try {
    a = typeof tool.approval === "function" ? tool.approval(input) : tool.approval;
  } catch {
    return "edit";
  }
  if (a) return a;
  const effects = callEffects(tool, input);
  if (effects.includes("process")) return "command";
  if (effects.some((e) => e === "file-write" || e === "file-delete" || e === "vcs-write")) return "edit";
  if (effects.includes("network")) return "command";
  if (effects.includes("read")) return "read";
  return "none";
}

export function errorResult(output: string, summary?: string, data?: Record<string, unknown>): ToolResult {
  return { output, isError: true, summary: summary ?? firstLine(output), data };
}

/** The first line of a text, shortened to `max` characters (the one-line summaries of tool results and errors). */
export function firstLine(s: string, max = 160): string {
  const line = s.split("\n", 1)[0] ?? "";
  return line.length > max ? line.slice(0, max - 1) + "…" : line;
}
