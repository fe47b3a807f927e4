/**
 * Plan mode's output: a goal and a dependency graph of steps, validated at the tool boundary
 * (unique keys, no unknown keys, no cycles) so a plan card never has to render a broken graph.
 *
 * Framework-free.
 */
import { z } from "zod";

export const planNodeSchema = z.object({
  key: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "a key is letters, digits, '.', '_' or '-'")
    .describe("Short unique id of this step, e.g. \"parse-config\""),
  title: z.string().min(1).max(200).describe("One line: what the step does"),
  description: z.string().min(1).max(8000).describe("What to change and how, which files, how to check it"),
  dependsOn: z.array(z.string().min(1)).max(100).default([]).describe("Keys of the steps that must be done first"),
});

export type PlanNode = z.output<typeof planNodeSchema>;
export type Plan = { goal: string; nodes: PlanNode[] };

/** Only what the graph checks need (inputs from the UI's editor too). */
export type PlanGraph = { nodes: readonly { key: string; dependsOn?: readonly string[] }[] };

/**
 * What is wrong with the dependency graph: duplicate keys, dependencies on unknown keys,
 * cycles. Each message names the keys involved. Empty when the graph is valid.
 */
export function planGraphErrors(plan: PlanGraph): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  const reported = new Set<string>();
  for (const n of plan.nodes) {
    if (seen.has(n.key) && !reported.has(n.key)) {
      errors.push(`Duplicate step key "${n.key}": every step needs its own key.`);
      reported.add(n.key);
    }
    seen.add(n.key);
  }
  for (const n of plan.nodes) {
    for (const d of n.dependsOn ?? []) {
      if (d === n.key) errors.push(`Step "${n.key}" depends on itself.`);
      else if (!seen.has(d)) errors.push(`Step "${n.key}" depends on unknown step "${d}".`);
    }
  }
  // Cycles (self-dependencies are reported above).
  const deps = new Map<string, string[]>();
  for (const n of plan.nodes) if (!deps.has(n.key)) deps.set(n.key, (n.dependsOn ?? []).filter((d) => d !== n.key && seen.has(d)));
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (k: string) => {
    state.set(k, "visiting");
    stack.push(k);
    for (const d of deps.get(k) ?? []) {
      const s = state.get(d);
      if (s === "visiting") cycles.push([...stack.slice(stack.indexOf(d)), d]);
      else if (s === undefined) visit(d);
    }
    stack.pop();
    state.set(k, "done");
  };
  for (const k of deps.keys()) if (!state.has(k)) visit(k);
  for (const c of cycles) errors.push(`Dependency cycle: ${c.map((k) => `"${k}"`).join(" → ")} (each step depends on the next).`);
  return errors;
}

export const submitPlanInputSchema = z
  .object({
    goal: z.string().min(1).max(2000).describe("What the plan achieves, in one or two sentences"),
    nodes: z.array(planNodeSchema).min(1).max(100).describe("The steps; order them as you would do them"),
  })
  .superRefine((plan, ctx) => {
    for (const message of planGraphErrors(plan)) ctx.addIssue({ code: "custom", message, path: ["nodes"] });
  });

export type SubmitPlanInput = z.output<typeof submitPlanInputSchema>;

/**
 * The steps in an order where every step comes after the steps it depends on; among steps that
 * are ready, the one listed first goes first. Throws when the graph is invalid.
 */
export function topologicalOrder<N extends { key: string; dependsOn?: readonly string[] }>(plan: { nodes: readonly N[] }): N[] {
  const errors = planGraphErrors(plan);
  if (errors.length > 0) throw new Error(errors.join(" "));
  const remaining = [...plan.nodes];
  const done = new Set<string>();
  const out: N[] = [];
  while (remaining.length > 0) {
    const i = remaining.findIndex((n) => (n.dependsOn ?? []).every((d) => done.has(d)));
    const [next] = remaining.splice(i, 1);
    out.push(next!);
    done.add(next!.key);
  }
  return out;
}

/** The plan as Markdown (the Act run's brief, the export). */
export function planToMarkdown(plan: Plan): string {
  const ordered = topologicalOrder(plan);
  const number = new Map(ordered.map((n, i) => [n.key, i + 1]));
  const lines = [`# Plan: ${plan.goal.trim()}`, ""];
  for (const n of ordered) {
    lines.push(`${number.get(n.key)}. **${n.title.trim()}** (\`${n.key}\`)`);
    for (const l of n.description.trim().split("\n")) lines.push(l ? `   ${l}` : "");
    if (n.dependsOn.length > 0) lines.push(`   _Depends on: ${n.dependsOn.map((d) => `${number.get(d)} (\`${d}\`)`).join(", ")}_`);
    lines.push("");
  }
  return lines.join("\n").trimEnd() + "\n";
}

// ---- what the user's decision on a plan tells the agent -------------------------------------

/** The Act run's prompt once the user approved a plan (`brief`: the plan as Markdown, maybe edited). */
export function planApprovedPrompt(brief: string): string {
  return `Carry out this approved plan, step by step:\n\n${brief}`;
}

/** The prompt when the user rejected a plan, with their feedback. */
export function planRejectedPrompt(feedback: string): string {
  return `The plan was rejected. Feedback: ${feedback}\nRevise the plan and submit it again with submit_plan.`;
}
