/**
 * Orchestrate mode's output verb, `propose_orchestration`: a team of child sessions described as
 * data (roles, a tree of tasks, a synthesis step, a budget), validated at the tool boundary so
 * the card the user approves never shows a broken graph.
 *
 * The tool only *submits*: it hands the proposal to a ProposalSink (./inbox.ts), which holds it
 * until the operator answers in the UI. The sink a tool gets has one method, `submit`; approval
 * lives on the inbox, which the tool, the hooks and the session's approval flow never see, so no
 * tool, plugin, beforeTool rewrite or auto-approve setting can turn a proposal into an approval.
 * The tool itself needs no approval (category "none"): asking to approve a *proposal* before the
 * real approval would be asking twice.
 *
 * Framework-free.
 */
import { z } from "zod";
import { defineTool, errorResult, type ToolDefinition, type ToolResult } from "../tools/define";
import { planGraphErrors, topologicalOrder } from "../modes/plan";

export const PROPOSE_ORCHESTRATION = "propose_orchestration";

/** Modes a child may run in: a child never orchestrates a team of its own. */
export const CHILD_MODES = ["act", "plan", "review"] as const;
export type ChildMode = (typeof CHILD_MODES)[number];

const keySchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "a key or role name is letters, digits, '.', '_' or '-', starting with a letter or digit");

export const roleSchema = z
  .object({
    name: keySchema.describe('Short unique role name, e.g. "explorer"'),
    brief: z.string().min(1).max(8000).describe("Standing instructions every task of this role gets"),
    mode: z.enum(CHILD_MODES).describe("act: may change files (runs one at a time); plan or review: read-only"),
    model: z.string().min(1).max(200).optional().describe("Model id for this role (default: the mode's model)"),
    tools: z.array(z.string().min(1).max(64)).max(50).describe("Tool allow-list: the only tools this role's children may call"),
  })
  .strict();

export const taskSchema = z
  .object({
    key: keySchema.describe('Short unique id of the task, e.g. "map-api"'),
    title: z.string().min(1).max(200).describe("One line: what the task does"),
    description: z.string().min(1).max(8000).describe("What to do, where, and what to hand back"),
    role: z.string().min(1).max(64).describe("Name of the role that does it"),
    dependsOn: z.array(z.string().min(1)).max(50).default([]).describe("Keys of the tasks whose outputs this task needs first"),
    acceptance: z.string().min(1).max(2000).describe("How to tell the task is done (a check the child can run or state)"),
  })
  .strict();

export const synthesisSchema = z
  .object({
    role: z.string().min(1).max(64).describe("Role that merges the results"),
    inputs: z.array(z.string().min(1)).min(1).max(50).describe("Keys of the tasks whose outputs it merges"),
    output: z.string().min(1).max(2000).describe("What the merged result is (it is posted back to this conversation)"),
  })
  .strict();

export const budgetSchema = z
  .object({
    tokens: z.number().int().positive().describe("Tokens (input + output) for the whole team"),
    usd: z.number().positive().describe("Dollars for the whole team"),
    maxParallel: z.number().int().min(1).max(16).describe("Tasks running at the same time"),
    wallMs: z.number().int().positive().describe("Wall time for the whole team, in milliseconds"),
  })
  .strict();

const proposalShape = z
  .object({
    goal: z.string().min(1).max(2000).describe("What the team achieves"),
    roles: z.array(roleSchema).min(1, "roles is empty: define at least one role").max(20),
    tasks: z.array(taskSchema).min(1, "tasks is empty: an orchestration needs at least one task").max(50),
    synthesis: synthesisSchema,
    budget: budgetSchema,
  })
  .strict();

export type Proposal = z.output<typeof proposalShape>;
export type ProposalRole = Proposal["roles"][number];
export type ProposalTask = Proposal["tasks"][number];

/**
 * What is wrong with the proposal's references: duplicate role names, tasks of unknown roles,
 * the task graph (duplicate keys, unknown keys, cycles: the plan graph's checks, worded for
 * tasks), and a synthesis naming unknown roles or tasks. Empty when it is coherent.
 */
export function proposalErrors(p: Pick<Proposal, "roles" | "tasks" | "synthesis">): string[] {
  const errors: string[] = [];
  const roles = new Set<string>();
  for (const r of p.roles) {
    if (roles.has(r.name)) errors.push(`Duplicate role name "${r.name}": every role needs its own name.`);
    roles.add(r.name);
  }
  const known = [...roles].map((r) => `"${r}"`).join(", ");
  for (const t of p.tasks) if (!roles.has(t.role)) errors.push(`Task "${t.key}" has unknown role "${t.role}" (roles: ${known}).`);
  for (const e of planGraphErrors({ nodes: p.tasks })) errors.push(e.replace(/\bstep\b/g, "task").replace(/\bStep\b/g, "Task"));
  if (!roles.has(p.synthesis.role)) errors.push(`The synthesis has unknown role "${p.synthesis.role}" (roles: ${known}).`);
  const keys = new Set(p.tasks.map((t) => t.key));
  for (const k of p.synthesis.inputs) if (!keys.has(k)) errors.push(`The synthesis merges unknown task "${k}".`);
  return errors;
}

export const proposalSchema = proposalShape.superRefine((p, ctx) => {
  // An empty tree is already refused; every reference into it would only repeat that.
  if (p.tasks.length === 0) return;
  for (const message of proposalErrors(p)) ctx.addIssue({ code: "custom", message, path: [] });
});

/** The user's limits on any team (Settings): a proposal over one of them is refused. */
export type OrchestrationCap = { tokens: number; usd: number; maxParallel: number; wallMs: number };

export const DEFAULT_ORCHESTRATION_CAP: OrchestrationCap = { tokens: 2_000_000, usd: 5, maxParallel: 4, wallMs: 30 * 60_000 };

/** Each budget field over the cap, as a sentence that says what to lower it to. */
export function budgetOverCap(budget: Proposal["budget"], cap: OrchestrationCap): string[] {
  const out: string[] = [];
  if (budget.tokens > cap.tokens) out.push(`budget.tokens ${budget.tokens} is over the user's limit of ${cap.tokens}: lower it to at most ${cap.tokens}.`);
  if (budget.usd > cap.usd) out.push(`budget.usd ${budget.usd} is over the user's limit of $${cap.usd}: lower it to at most ${cap.usd}.`);
  if (budget.maxParallel > cap.maxParallel) out.push(`budget.maxParallel ${budget.maxParallel} is over the user's limit of ${cap.maxParallel}: lower it to at most ${cap.maxParallel}.`);
  if (budget.wallMs > cap.wallMs) out.push(`budget.wallMs ${budget.wallMs} is over the user's limit of ${cap.wallMs} ms: lower it to at most ${cap.wallMs}.`);
  return out;
}

/** Role tool lists naming tools the session does not have. */
export function unknownRoleTools(roles: readonly ProposalRole[], known: readonly string[]): string[] {
  const have = new Set(known);
  const out: string[] = [];
  for (const r of roles) {
    const missing = r.tools.filter((t) => !have.has(t));
    if (missing.length) out.push(`Role "${r.name}" allows unknown tool${missing.length === 1 ? "" : "s"} ${missing.map((t) => `"${t}"`).join(", ")} (tools: ${known.join(", ")}).`);
  }
  return out;
}

/** Role models no provider in use offers. */
export function unknownRoleModels(roles: readonly ProposalRole[], known: readonly string[]): string[] {
  const have = new Set(known);
  return roles
    .filter((r) => r.model !== undefined && !have.has(r.model))
    .map((r) => `Role "${r.name}" names model "${r.model}", which no configured provider offers (models: ${known.join(", ") || "none"}); name one of those or leave model out to use the mode's model.`);
}

/** What submitting gives back: the id of the pending proposal, or why it was refused. */
export type SubmitOutcome = { ok: true; proposalId: string } | { ok: false; reason: string };

/** The only thing a tool may do with a proposal: submit it for the operator. */
export interface ProposalSink {
  submit(req: { sessionId: string; toolCallId: string; proposal: Proposal }): SubmitOutcome;
}

export type ProposeToolOptions = {
  sink: ProposalSink;
  /** The user's limits, read on every call (they may change in Settings). */
  cap?: () => OrchestrationCap;
  /** The tool names roles may allow (default: not checked). */
  toolNames?: () => readonly string[];
  /** The model ids roles may name (default: not checked). */
  models?: () => readonly string[] | Promise<readonly string[]>;
};

const description = `Propose a team of sub-agents for the user to approve. This is how Orchestrate mode delivers its result; nothing runs until the user approves it.

- goal: what the team achieves.
- roles: name, brief (standing instructions), mode (act may change files and such tasks run one at a time; plan and review are read-only), optional model, tools (the allow-list of tool names).
- tasks: the tree of child tasks, each with a unique key, a title, a description, its role, dependsOn (keys whose outputs it needs) and acceptance (how to tell it is done). No cycles; keys and roles must exist.
- synthesis: the role that merges the results, the task keys it merges (inputs) and what it produces (output); its result is posted back here.
- budget: tokens and usd for the whole team, maxParallel tasks at once, wallMs wall time; each must be within the user's limits.
- An invalid proposal is refused with the reason: fix it and call again. Propose once: a new proposal within two minutes of the previous one is refused, so fold every change into one proposal.`;

export function createProposeOrchestrationTool(opts: ProposeToolOptions): ToolDefinition<Proposal> {
  const sink = opts.sink;
  return defineTool<Proposal>({
    name: PROPOSE_ORCHESTRATION,
    description,
    inputSchema: proposalSchema as unknown as z.ZodType<Proposal>,
    effects: [],
    approval: "none",
    completesRun: true,
    async execute(input, ctx): Promise<ToolResult> {
      const problems = [...budgetOverCap(input.budget, opts.cap?.() ?? DEFAULT_ORCHESTRATION_CAP)];
      const names = opts.toolNames?.();
      if (names) problems.push(...unknownRoleTools(input.roles, names));
      if (opts.models && input.roles.some((r) => r.model !== undefined)) problems.push(...unknownRoleModels(input.roles, await opts.models()));
      if (problems.length) return errorResult(`The proposal was not accepted:\n- ${problems.join("\n- ")}\nFix it and call ${PROPOSE_ORCHESTRATION} again.`, "Proposal refused");
      const outcome = sink.submit({ sessionId: ctx.sessionId, toolCallId: ctx.toolCallId, proposal: input });
      if (!outcome.ok) return errorResult(outcome.reason, "Proposal refused");
      const order = topologicalOrder({ nodes: input.tasks }).map((t) => t.key);
      return {
        output: `Proposal submitted (${input.tasks.length} task${input.tasks.length === 1 ? "" : "s"}, ${input.roles.length} role${input.roles.length === 1 ? "" : "s"}). Nothing runs until the user approves it in the UI. Stop here.`,
        summary: `Team proposal: ${input.goal.length > 80 ? input.goal.slice(0, 79) + "…" : input.goal}`,
        completion: { summary: `Proposed a team for: ${input.goal}` },
        data: { proposalId: outcome.proposalId, proposal: input, order },
      };
    },
  });
}
