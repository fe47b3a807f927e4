/**
 * The modes' own tools: Plan mode's output verb `submit_plan` and its gate `exit_plan_mode`,
 * Review mode's output verbs `add_review_node` and `finalize_review`. None of them touches the
 * workspace, so they stay on the read-only surfaces.
 *
 * Findings are kept per session in a ReviewLedger (the default one is shared by the default
 * tools; the UI reads it, or gets the same data from each call's `data`).
 *
 * Framework-free.
 */
import { z } from "zod";
import { defineTool, errorResult, type ToolDefinition, type ToolResult } from "../tools/define";
import { defaultProposalInbox } from "../orchestrate/inbox";
import { createProposeOrchestrationTool, PROPOSE_ORCHESTRATION } from "../orchestrate/proposal";
import { planToMarkdown, submitPlanInputSchema, topologicalOrder, type SubmitPlanInput } from "./plan";
import {
  addReviewNodeInputSchema,
  describeFinding,
  effectiveVerdict,
  finalizeReviewInputSchema,
  reviewToMarkdown,
  verdictFloorReason,
  type AddReviewNodeInput,
  type FinalizeReviewInput,
  type ReviewFinding,
} from "./review";

export const SUBMIT_PLAN = "submit_plan";
export const EXIT_PLAN_MODE = "exit_plan_mode";
export const ADD_REVIEW_NODE = "add_review_node";
export const FINALIZE_REVIEW = "finalize_review";

/** Names of every tool that belongs to one mode (never on another mode's surface). */
export const MODE_TOOL_NAMES: readonly string[] = [SUBMIT_PLAN, EXIT_PLAN_MODE, ADD_REVIEW_NODE, FINALIZE_REVIEW, PROPOSE_ORCHESTRATION];

/** Findings recorded per session. */
export class ReviewLedger {
  private readonly bySession = new Map<string, ReviewFinding[]>();
  private readonly listeners = new Set<(sessionId: string) => void>();

  add(sessionId: string, finding: ReviewFinding): void {
    const list = this.bySession.get(sessionId) ?? [];
    const i = list.findIndex((f) => f.id === finding.id);
    if (i >= 0) list[i] = finding;
    else list.push(finding);
    this.bySession.set(sessionId, list);
    this.changed(sessionId);
  }

  list(sessionId: string): ReviewFinding[] {
    return [...(this.bySession.get(sessionId) ?? [])];
  }

  setStatus(sessionId: string, id: string, status: ReviewFinding["status"]): void {
    const f = this.bySession.get(sessionId)?.find((x) => x.id === id);
    if (f) {
      f.status = status;
      this.changed(sessionId);
    }
  }

  clear(sessionId: string): void {
    this.bySession.delete(sessionId);
    this.changed(sessionId);
  }

  onChange(fn: (sessionId: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(sessionId: string): void {
    for (const fn of this.listeners) fn(sessionId);
  }
}

export const defaultReviewLedger = new ReviewLedger();

const submitPlanDescription = `Submit your plan for the user to review. This is how Plan mode delivers its result.

- goal: what the plan achieves. nodes: the steps, each with a unique key, a title, a description (what to change, in which files, how to verify it) and dependsOn (the keys of the steps that must come first).
- Keys must be unique, dependsOn may only name keys of this plan, and the steps must not depend on each other in a cycle; an invalid plan is rejected with the reason, so fix it and submit again.
- Submitting ends your turn. The user may approve it and switch to Act mode (the plan becomes the brief of the Act run), edit it, or reject it with feedback.
- Do not submit a plan for a question that needs none: answer it instead.`;

const exitPlanModeDescription = `Ask the user to leave Plan mode and switch to Act mode so the plan can be carried out.

- The user must approve: until they do, the session stays read-only. Call it once; asking again while a request is pending does not open a second one.
- Summarize what you will do once in Act mode. If the user rejects, revise the plan and you may ask again.`;

const addReviewNodeDescription = `Record one review finding. Call it once per finding.

- kind: bug, suggestion, recommendation, question or ticket. priority: P0 (must fix before shipping), P1 (should fix), P2 (could fix), P3 (minor). confidence: 0 to 1.
- anchor: the file (workspace-relative) and the line range (1-based, endLine ≥ startLine) the finding is about; omit it for a note about the whole change or repository.
- body: what is wrong or could be better, why it matters, and what to do.`;

const finalizeReviewDescription = `Publish the review's verdict: ship (good to merge), hold (fix first) or block (must not merge), with an optional summary. Call it once, after recording the findings; it ends your turn.

- The findings can only make the verdict more severe: an open P0 bug forces block; an open P1 bug or any other open P0 finding forces at least hold.`;

export function createSubmitPlanTool(): ToolDefinition<SubmitPlanInput> {
  return defineTool<SubmitPlanInput>({
    name: SUBMIT_PLAN,
    description: submitPlanDescription,
    inputSchema: submitPlanInputSchema as unknown as z.ZodType<SubmitPlanInput>,
    effects: [],
    approval: "none",
    completesRun: true,
    async execute(input): Promise<ToolResult> {
      let markdown: string;
      let order: string[];
      try {
        order = topologicalOrder(input).map((n) => n.key);
        markdown = planToMarkdown(input);
      } catch (e) {
        return errorResult(`The plan was not accepted: ${e instanceof Error ? e.message : String(e)}`);
      }
      return {
        output: `Plan submitted (${input.nodes.length} step${input.nodes.length === 1 ? "" : "s"}). The user will review it: they may approve it and switch to Act mode, edit it, or reject it with feedback. Stop here.`,
        summary: `Plan: ${input.goal.length > 80 ? input.goal.slice(0, 79) + "…" : input.goal}`,
        completion: { summary: markdown },
        data: { plan: { goal: input.goal, nodes: input.nodes }, order, markdown },
      };
    },
  });
}

const exitPlanModeInput = z.object({
  summary: z.string().min(1).max(8000).describe("What you will do once in Act mode"),
});
type ExitPlanModeInput = z.output<typeof exitPlanModeInput>;

export function createExitPlanModeTool(): ToolDefinition<ExitPlanModeInput> {
  return defineTool<ExitPlanModeInput>({
    name: EXIT_PLAN_MODE,
    description: exitPlanModeDescription,
    inputSchema: exitPlanModeInput,
    effects: ["user-interaction"],
    // A gate only the user may open: no auto-approve setting applies.
    approval: "always",
    async plan(input) {
      return { preview: { kind: "text", text: `Switch to Act mode and carry out:\n\n${input.summary}` }, state: null };
    },
    async execute(input, ctx): Promise<ToolResult> {
      if (ctx.mode !== "plan") return errorResult(`Not in Plan mode (the session is in ${ctx.mode} mode).`);
      if (!ctx.setMode) return errorResult("This session cannot switch modes from a tool call; ask the user to switch to Act mode.");
      // Reached only after the user approved the call.
      ctx.setMode("act");
      return {
        output: "The user approved: the session is now in Act mode. Carry out the plan.",
        summary: "Switched to Act mode",
        data: { from: "plan", to: "act", summary: input.summary },
      };
    },
  });
}

export function createAddReviewNodeTool(ledger: ReviewLedger = defaultReviewLedger): ToolDefinition<AddReviewNodeInput> {
  return defineTool<AddReviewNodeInput>({
    name: ADD_REVIEW_NODE,
    description: addReviewNodeDescription,
    inputSchema: addReviewNodeInputSchema as unknown as z.ZodType<AddReviewNodeInput>,
    effects: [],
    approval: "none",
    async execute(input, ctx): Promise<ToolResult> {
      const finding: ReviewFinding = { ...input, id: ctx.toolCallId, status: "open" };
      ledger.add(ctx.sessionId, finding);
      const count = ledger.list(ctx.sessionId).length;
      return {
        output: `Recorded finding ${count}: ${describeFinding(input)}.`,
        summary: describeFinding(input),
        data: { finding },
      };
    },
  });
}

export function createFinalizeReviewTool(ledger: ReviewLedger = defaultReviewLedger): ToolDefinition<FinalizeReviewInput> {
  return defineTool<FinalizeReviewInput>({
    name: FINALIZE_REVIEW,
    description: finalizeReviewDescription,
    inputSchema: finalizeReviewInputSchema,
    effects: [],
    approval: "none",
    completesRun: true,
    async execute(input, ctx): Promise<ToolResult> {
      const findings = ledger.list(ctx.sessionId);
      const verdict = effectiveVerdict(findings, input.verdict);
      const raised = verdict !== input.verdict;
      const why = raised ? verdictFloorReason(findings) : undefined;
      const markdown = reviewToMarkdown({ findings, verdict, summary: input.summary });
      const open = findings.filter((f) => (f.status ?? "open") === "open").length;
      return {
        output: raised
          ? `Review finalized: ${verdict} (raised from ${input.verdict} because of ${why}). ${open} open finding${open === 1 ? "" : "s"}.`
          : `Review finalized: ${verdict}. ${open} open finding${open === 1 ? "" : "s"}.`,
        summary: `Verdict: ${verdict}`,
        completion: { summary: markdown },
        data: { verdict, requested: input.verdict, raised, reason: why, findings, summary: input.summary, markdown },
      };
    },
  });
}

/** The four mode tools (fresh definitions; review tools over `ledger`). */
export function createModeTools(ledger: ReviewLedger = defaultReviewLedger): ToolDefinition[] {
  return [createSubmitPlanTool(), createExitPlanModeTool(), createAddReviewNodeTool(ledger), createFinalizeReviewTool(ledger)] as ToolDefinition[];
}

export const submitPlanTool = createSubmitPlanTool();
export const exitPlanModeTool = createExitPlanModeTool();
export const addReviewNodeTool = createAddReviewNodeTool();
export const finalizeReviewTool = createFinalizeReviewTool();
/** Submits to the app's inbox (lib/orchestrate/inbox.ts), with the default limits. */
export const proposeOrchestrationTool = createProposeOrchestrationTool({ sink: defaultProposalInbox.sink() });

/** The default mode tools (review tools over defaultReviewLedger, proposals to defaultProposalInbox). */
export function modeTools(): ToolDefinition[] {
  return [submitPlanTool, exitPlanModeTool, addReviewNodeTool, finalizeReviewTool, proposeOrchestrationTool] as ToolDefinition[];
}
