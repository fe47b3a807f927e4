/**
 * A plan's dependency graph compiled into an orchestration (the modes design: approving a plan
 * can run it as a team). Each step becomes a task of one implementer role in Act mode (so the
 * steps run one at a time, in the plan's dependency order: they change the one work tree); a
 * read-only reviewer merges what every step reported. The proposal still meets the same
 * validation, and becomes a team only through the operator (`ProposalInbox.approveOwn`).
 *
 * Framework-free.
 */
import type { Plan } from "../modes/plan";
import type { OrchestrationCap, Proposal } from "./proposal";

export const PLAN_IMPLEMENTER_TOOLS: readonly string[] = ["read_files", "list_files", "search_codebase", "editor", "apply_patch", "run_commands", "ask_question"];
export const PLAN_REVIEWER_TOOLS: readonly string[] = ["read_files", "list_files", "search_codebase", "run_commands"];

export function proposalFromPlan(plan: Plan, budget: OrchestrationCap, opts: { model?: string } = {}): Proposal {
  const model = opts.model ? { model: opts.model } : {};
  return {
    goal: plan.goal,
    roles: [
      { name: "implementer", brief: "Carry out one step of an approved plan: change only what the step says, then check it as the step describes.", mode: "act", tools: [...PLAN_IMPLEMENTER_TOOLS], ...model },
      { name: "reviewer", brief: "Read what each step reported and the resulting code; summarise what was done and anything left open.", mode: "plan", tools: [...PLAN_REVIEWER_TOOLS], ...model },
    ],
    tasks: plan.nodes.map((n) => ({
      key: n.key,
      title: n.title,
      description: n.description,
      role: "implementer",
      dependsOn: [...n.dependsOn],
      acceptance: "The step is done as described, and the check it names passes.",
    })),
    synthesis: { role: "reviewer", inputs: plan.nodes.map((n) => n.key), output: "A step-by-step summary of what was done, and anything left open." },
    budget: { ...budget },
  };
}
