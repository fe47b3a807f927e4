/**
 * The deterministic materialiser: an approved proposal becomes the team's task list. The same
 * proposal (and team id) always gives the same tasks, in the same order, with the same child
 * session ids: tasks in dependency order, and among tasks that are ready, the one listed first
 * (the plan graph's topological order). Nothing here reads a clock or a random source, so a
 * restored orchestration can be materialised again and match what ran.
 *
 * The prompts a child gets are built here too, from its role's brief, its task, and the outputs
 * of the tasks it depends on (known only when it starts).
 *
 * Framework-free.
 */
import { topologicalOrder } from "../modes/plan";
import { proposalErrors, proposalSchema, type ChildMode, type Proposal, type ProposalRole } from "./proposal";

export type TeamTask = {
  key: string;
  /** Position in the team's order (0-based). */
  index: number;
  title: string;
  description: string;
  acceptance: string;
  role: ProposalRole;
  mode: ChildMode;
  dependsOn: readonly string[];
  /** The child session's id (letters and digits: a git ref component for its checkpoints). */
  sessionId: string;
  /** The role may change the workspace (act mode): such tasks never run at the same time. */
  writes: boolean;
};

export type TeamSynthesis = {
  key: "synthesis";
  role: ProposalRole;
  mode: ChildMode;
  inputs: readonly string[];
  output: string;
  sessionId: string;
  writes: boolean;
};

export type TeamPlan = {
  teamId: string;
  goal: string;
  tasks: readonly TeamTask[];
  synthesis: TeamSynthesis;
  budget: Proposal["budget"];
};

/** A team id usable inside session ids and git refs. */
export function assertTeamId(teamId: string): void {
  if (!/^[A-Za-z0-9]{1,64}$/.test(teamId)) throw new Error(`A team id is 1 to 64 letters and digits (got ${JSON.stringify(teamId)})`);
}

/** The team's tasks from an approved proposal; throws with the reasons when the proposal is invalid. */
export function materialise(proposal: Proposal, teamId: string): TeamPlan {
  assertTeamId(teamId);
  const parsed = proposalSchema.safeParse(proposal);
  if (!parsed.success) throw new Error(`The proposal cannot be materialised: ${parsed.error.issues.map((i) => i.message).join(" ")}`);
  const p = parsed.data;
  const errors = proposalErrors(p);
  if (errors.length) throw new Error(errors.join(" "));
  const roles = new Map(p.roles.map((r) => [r.name, r]));
  const tasks: TeamTask[] = topologicalOrder({ nodes: p.tasks }).map((t, index) => {
    const role = roles.get(t.role)!;
    return {
      key: t.key,
      index,
      title: t.title,
      description: t.description,
      acceptance: t.acceptance,
      role,
      mode: role.mode,
      dependsOn: [...t.dependsOn],
      sessionId: `${teamId}t${index + 1}`,
      writes: role.mode === "act",
    };
  });
  const sRole = roles.get(p.synthesis.role)!;
  return {
    teamId,
    goal: p.goal,
    tasks,
    synthesis: { key: "synthesis", role: sRole, mode: sRole.mode, inputs: [...p.synthesis.inputs], output: p.synthesis.output, sessionId: `${teamId}syn`, writes: sRole.mode === "act" },
    budget: { ...p.budget },
  };
}

function section(title: string, body: string): string {
  return `## ${title}\n\n${body.trim()}`;
}

function outputsOf(keys: readonly string[], plan: TeamPlan, outputs: ReadonlyMap<string, string>): string {
  return keys
    .map((k) => {
      const t = plan.tasks.find((x) => x.key === k);
      return `### ${t ? t.title : k} (\`${k}\`)\n\n${(outputs.get(k) ?? "(no output)").trim()}`;
    })
    .join("\n\n");
}

/** What a task's child session is asked: the team goal, its role's brief, the task, and its dependencies' outputs. */
export function taskPrompt(plan: TeamPlan, task: TeamTask, outputs: ReadonlyMap<string, string>): string {
  const parts = [
    `You are the "${task.role.name}" member of a team working on: ${plan.goal.trim()}`,
    section("Your role", task.role.brief),
    section(`Your task: ${task.title} (\`${task.key}\`)`, task.description),
    section("Done when", task.acceptance),
  ];
  if (task.dependsOn.length) parts.push(section("What the tasks before yours found", outputsOf(task.dependsOn, plan, outputs)));
  parts.push("When you are done, end with a short report of what you did and found: it is handed to the tasks that depend on yours.");
  return parts.join("\n\n");
}

/** What the synthesis child is asked: merge the inputs' outputs into the stated output. */
export function synthesisPrompt(plan: TeamPlan, outputs: ReadonlyMap<string, string>): string {
  const s = plan.synthesis;
  return [
    `You are the "${s.role.name}" member of a team working on: ${plan.goal.trim()}`,
    section("Your role", s.role.brief),
    section("Your task: merge the team's results", s.output),
    section("The results to merge", outputsOf(s.inputs, plan, outputs)),
    "Answer with the merged result only: it is posted back to the conversation that asked for the team.",
  ].join("\n\n");
}
