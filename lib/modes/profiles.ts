/**
 * One capability profile per mode: the one place a mode is declared. Everything else is
 * projected from it: the policy table (policy-table.ts: which calls the mode admits, hence the
 * tool surface and the prompt preamble that names it), the guard that applies the table first in
 * `beforeTool` (policy-guard.ts), the shell's read-only view (`shellIsReadOnly`) and the labels.
 *
 *   Act     default; full surface; read-write worktree; no output contract
 *   Plan    read-only; must deliver `submit_plan`; `exit_plan_mode` is a gate only the user opens
 *   Review  read-only; delivers `add_review_node` findings and a `finalize_review` verdict
 *   Orchestrate  read-only research surface; delivers `propose_orchestration`, a team of child
 *           sessions that runs only once the operator approves it (lib/orchestrate)
 *
 * Pinned tools: a mode's output verbs, its gates and `ask_question` (`pinnedToolNames`). The
 * policy table admits them last (policy-table.ts), and a session made with lib/modes keeps the
 * genuine definitions on the surface and runs them past plugins' hooks (`pinnedTools` in
 * lib/agent/session-types.ts), so no plugin, tool filter, guard or auto-approve setting can
 * remove, replace or refuse them.
 *
 * Plan (and Review) are enforced twice: their table refuses edit tools and shell commands that
 * would write before they run (the command guard, command-guard.ts), and the shell runs on a
 * read-only view of the workspace (the guarantee that holds even when the static check misses).
 *
 * Framework-free.
 */
import { MODE_GUARD_PRIORITY, type AgentHooks, type HookRegistration } from "../agent/hooks";
import type { AgentMode } from "../agent/types";
import type { EffectClass, ToolDefinition } from "../tools/define";
import { PROPOSE_ORCHESTRATION } from "../orchestrate/proposal";
import { ADD_REVIEW_NODE, EXIT_PLAN_MODE, FINALIZE_REVIEW, SUBMIT_PLAN } from "./tools";

export type { AgentMode } from "../agent/types";
export { MODE_GUARD_PRIORITY };

/** Highest kind of tool a surface admits: read < write < execute. */
export type ToolTier = "read" | "write" | "execute";
export type WorktreeState = "read-write" | "read-only";

export interface ModeProfile {
  id: AgentMode;
  /** Shown in the UI ("Act"). */
  label: string;
  /** The mode a new session starts in. */
  isDefault: boolean;
  /** Offered by the composer's mode switch (Review is set by the system: Review changes, a pull-request review). */
  inSwitch: boolean;
  surface: {
    /** Tools up to this tier are on the surface (unless denied). */
    maxTier: ToolTier;
    /** On the surface whatever their tier (still subject to denied effects). */
    allow: readonly string[];
    /** Never on the surface. */
    deny: readonly string[];
    /** Effects above `maxTier` still admitted (Orchestrate's research: network reads, asked about like commands). */
    allowEffects?: readonly EffectClass[];
  };
  /** A tool with any of these effects is never on the surface, and a call with one is refused. */
  deniedEffects: readonly EffectClass[];
  worktree: WorktreeState;
  /** The mode's deliverables: pinned to its surface, never blocked. */
  outputVerbs: readonly string[];
  /** The output verb whose success means the mode delivered (nudged once when missing). */
  requiredOutput?: string;
  /** Tools that are gates (approval only the user gives), pinned like output verbs. */
  gates: readonly string[];
  /** What to do instead of a refused call (appended to the refusal). */
  instead: string;
  /** Hand-written guidance: the first part of the prompt preamble. Names only pinned tools. */
  guidance: string;
  /** Told to the model when the user switches to this mode. */
  switchNote: string;
}

/** Tools every surface keeps (asking the user is never a write). */
export const ALWAYS_PINNED: readonly string[] = ["ask_question"];

const READ_ONLY_EFFECTS: readonly EffectClass[] = ["file-write", "file-delete", "vcs-write"];

export const MODE_PROFILES: Readonly<Record<AgentMode, ModeProfile>> = {
  act: {
    id: "act",
    label: "Act",
    isDefault: true,
    inSwitch: true,
    surface: { maxTier: "execute", allow: [], deny: [] },
    deniedEffects: [],
    worktree: "read-write",
    outputVerbs: [],
    gates: [],
    instead: "",
    guidance:
      "You are in Act mode: carry out the user's request. You may read and change files and run commands; the user approves edits and commands as they come (unless they allowed them ahead).",
    switchNote: "Files can be changed and commands run again. If a plan was approved, carry it out step by step.",
  },
  plan: {
    id: "plan",
    label: "Plan",
    isDefault: false,
    inSwitch: true,
    surface: { maxTier: "read", allow: ["run_commands"], deny: ["attempt_completion"] },
    deniedEffects: READ_ONLY_EFFECTS,
    worktree: "read-only",
    outputVerbs: [SUBMIT_PLAN],
    requiredOutput: SUBMIT_PLAN,
    gates: [EXIT_PLAN_MODE],
    instead: "Submit a plan with submit_plan instead.",
    guidance: [
      "You are in Plan mode: the workspace is read-only. Explore and analyse, then deliver a plan; do not try to change anything. File edits are not available, and shell commands run on a read-only view of the workspace where any command that would write is refused before it runs: use the shell only to inspect (ls, cat, grep, find, git status, git diff, git log …).",
      "When the task needs changes, call submit_plan once with the goal and the steps: each step has a unique key, a title, a description (what to change, in which files, how to check it) and dependsOn, the keys of the steps that must come first. The user reviews the plan and switches to Act mode to carry it out.",
      "If the user asked a question that needs no plan, answer it directly and say that no plan is needed.",
      "Only the user can leave Plan mode: exit_plan_mode asks for their approval, and the session stays read-only until they give it.",
    ].join("\n\n"),
    switchNote: "The workspace is now read-only: do not try to change files. Investigate, then deliver a plan with submit_plan.",
  },
  review: {
    id: "review",
    label: "Review",
    isDefault: false,
    inSwitch: false,
    surface: { maxTier: "read", allow: ["run_commands"], deny: ["attempt_completion"] },
    deniedEffects: READ_ONLY_EFFECTS,
    worktree: "read-only",
    outputVerbs: [ADD_REVIEW_NODE, FINALIZE_REVIEW],
    requiredOutput: FINALIZE_REVIEW,
    gates: [],
    instead: "Record findings with add_review_node and finish with finalize_review instead.",
    guidance: [
      "You are in Review mode: the workspace is read-only. Read the changes and the code around them and report what you find; do not try to change anything. Shell commands run on a read-only view of the workspace; use them to inspect (git diff, git log, grep …).",
      "Record each finding with add_review_node: its kind (bug, suggestion, recommendation, question or ticket), a priority from P0 (must fix before shipping) to P3 (minor), your confidence from 0 to 1, the file and line range it is about (none for a note about the whole change) and a body that explains what is wrong, why it matters and what to do.",
      "When done, call finalize_review once with a verdict: ship, hold or block. The findings can only make the verdict more severe: an open P0 bug means block.",
    ].join("\n\n"),
    switchNote: "The workspace is now read-only: review the changes, record findings with add_review_node and finish with finalize_review.",
  },
  orchestrate: {
    id: "orchestrate",
    label: "Orchestrate",
    isDefault: false,
    inSwitch: true,
    surface: { maxTier: "read", allow: ["run_commands"], deny: ["attempt_completion"], allowEffects: ["network"] },
    deniedEffects: READ_ONLY_EFFECTS,
    worktree: "read-only",
    outputVerbs: [PROPOSE_ORCHESTRATION],
    requiredOutput: PROPOSE_ORCHESTRATION,
    gates: [],
    instead: "Propose a team with propose_orchestration instead: its tasks may change files once the user approves.",
    guidance: [
      "You are in Orchestrate mode: the workspace is read-only. Explore enough to split the work, then propose a team of sub-agents; do not try to change anything yourself. Shell commands run on a read-only view of the workspace; use them to inspect (ls, cat, grep, git log …).",
      "Call propose_orchestration once with the goal, the roles (each with a brief, a mode — act to change files, plan or review to stay read-only —, an optional model and the allow-list of tools), the tasks (unique keys, a title, a description, the role, dependsOn and an acceptance check), the synthesis (which role merges which task outputs into what) and a budget within the user's limits. Nothing runs until the user approves it; the synthesis is posted back here when the team is done.",
      "Tasks of act roles run one at a time, so prefer read-only roles for work that can run in parallel. If the request needs no team, answer it directly and say so.",
    ].join("\n\n"),
    switchNote: "The workspace is now read-only: investigate, then propose a team with propose_orchestration; nothing runs until the user approves it.",
  },
};

export const MODE_IDS: readonly AgentMode[] = Object.keys(MODE_PROFILES) as AgentMode[];
/** The modes the composer's switch offers, in order. */
export const SWITCH_MODES: readonly AgentMode[] = MODE_IDS.filter((m) => MODE_PROFILES[m].inSwitch);
export const DEFAULT_MODE: AgentMode = MODE_IDS.find((m) => MODE_PROFILES[m].isDefault) ?? "act";

export function modeProfile(mode: AgentMode): ModeProfile {
  const p = MODE_PROFILES[mode];
  if (!p) throw new Error(`Unknown mode "${String(mode)}"`);
  return p;
}

/** A tool's tier from its effects: runs commands or talks to the network → execute; changes files or git → write; else read. */
export function toolTier(tool: Pick<ToolDefinition, "effects">): ToolTier {
  if (tool.effects.some((e) => e === "process" || e === "network")) return "execute";
  if (tool.effects.some((e) => e === "file-write" || e === "file-delete" || e === "vcs-write")) return "write";
  return "read";
}

/** Own output verbs, gates and ask_question: always on the mode's surface. */
export function isPinned(mode: AgentMode, name: string): boolean {
  return pinnedToolNames(mode).includes(name);
}

/** The tools `mode` pins: its output verbs, its gates, then ask_question. */
export function pinnedToolNames(mode: AgentMode): readonly string[] {
  const p = modeProfile(mode);
  return [...p.outputVerbs, ...p.gates, ...ALWAYS_PINNED];
}

/** True when the mode's shell (and tools) must run on a read-only view of the workspace. */
export function shellIsReadOnly(mode: AgentMode): boolean {
  return modeProfile(mode).worktree === "read-only";
}

/** The mode's name as the UI shows it ("Plan"). */
export function modeLabel(mode: AgentMode): string {
  return modeProfile(mode).label;
}

/**
 * Nudges once per run when a mode with a required output (Plan: submit_plan; Review:
 * finalize_review) is about to end without it. The model may still answer that none is needed.
 */
export function modeOutputHooks(getMode?: () => AgentMode): HookRegistration {
  const delivered = new Set<string>();
  const nudged = new Set<string>();
  const hooks: AgentHooks = {
    afterTool(ctx) {
      const mode = getMode ? getMode() : ctx.snapshot.mode;
      const required = MODE_PROFILES[mode]?.requiredOutput;
      if (required && ctx.toolCall.name === required && !ctx.result.isError) delivered.add(ctx.snapshot.runId);
    },
    afterModel(ctx) {
      const mode = getMode ? getMode() : ctx.snapshot.mode;
      const runId = ctx.snapshot.runId;
      if (delivered.has(runId) || nudged.has(runId)) return;
      const hasToolCall = ctx.message.role === "assistant" && Array.isArray(ctx.message.content) && ctx.message.content.some((p) => (p as { type?: string }).type === "tool-call");
      if (hasToolCall) return;
      const nudge = missingOutputNudge(mode);
      if (!nudge) return;
      nudged.add(runId);
      return { continueWith: nudge };
    },
    afterRun(ctx) {
      delivered.delete(ctx.snapshot.runId);
      nudged.delete(ctx.snapshot.runId);
    },
  };
  return { name: "mode-output", priority: MODE_GUARD_PRIORITY + 1, hooks };
}

/** Told to the model at its next turn after the user switched modes. */
export function modeSwitchNotice(from: AgentMode, to: AgentMode): string {
  const a = modeProfile(from);
  const b = modeProfile(to);
  return `The user switched the session from ${a.label} mode to ${b.label} mode. ${b.switchNote}`;
}

/** The nudge when a run is ending without the mode's output, or undefined (Act). */
export function missingOutputNudge(mode: AgentMode): string | undefined {
  switch (modeProfile(mode).requiredOutput) {
    case SUBMIT_PLAN:
      return "No plan has been submitted yet: the user only sees a plan once submit_plan succeeds. If the task needs changes, call submit_plan now with the goal and the steps. If the question needed no plan, say so in one sentence and stop.";
    case FINALIZE_REVIEW:
      return "The review has no verdict yet: record any remaining findings with add_review_node, then call finalize_review with ship, hold or block.";
    case PROPOSE_ORCHESTRATION:
      return "No team has been proposed yet: the user only sees a proposal once propose_orchestration succeeds. If the request needs a team, call propose_orchestration now. If it needed none, say so in one sentence and stop.";
    default:
      return undefined;
  }
}
