/**
 * The team's schedule, as a state machine with no clock and no I/O (./team.ts drives it): which
 * tasks may start now, and what a task's end does to the others.
 *
 *   waiting → running → done | failed;   waiting → blocked (a dependency failed or was blocked,
 *   or the team was halted: budget, wall time, stop all)
 *
 * Rules:
 * - A task starts once every task it depends on is done, at most `maxParallel` at a time, in the
 *   team's order (./materialise.ts) among the ready ones.
 * - Writers are serialised: a task whose role may change files (act mode) never runs while
 *   another writer runs. The alternative, a branch per writer merged by the synthesis, needs a
 *   work tree per child and a merge that can conflict; the children share the tab's one work
 *   tree (and its checkpoints), so one writer at a time is the simplest choice that is safe on
 *   it. Read-only tasks still run in parallel, with each other and with the writer.
 * - A failed task blocks its dependents, transitively, each with the reason.
 * - The synthesis runs last: after every task has ended, when all of its inputs are done.
 *
 * Framework-free.
 */
import type { TeamPlan } from "./materialise";

export type TaskState = "waiting" | "running" | "done" | "failed" | "blocked";

export type TaskProgress = { key: string; state: TaskState; reason?: string; output?: string };

export const SYNTHESIS_KEY = "synthesis";

type Node = { key: string; dependsOn: readonly string[]; writes: boolean };

export class Schedule {
  private readonly nodes: Node[];
  private readonly progress = new Map<string, TaskProgress>();

  constructor(
    private readonly plan: TeamPlan,
    private readonly maxParallel: number = plan.budget.maxParallel,
  ) {
    if (!Number.isInteger(maxParallel) || maxParallel < 1) throw new Error("maxParallel must be a whole number of at least 1");
    this.nodes = [
      ...plan.tasks.map((t) => ({ key: t.key, dependsOn: t.dependsOn, writes: t.writes })),
      { key: SYNTHESIS_KEY, dependsOn: plan.synthesis.inputs, writes: plan.synthesis.writes },
    ];
    for (const n of this.nodes) this.progress.set(n.key, { key: n.key, state: "waiting" });
  }

  get(key: string): TaskProgress {
    const p = this.progress.get(key);
    if (!p) throw new Error(`No task "${key}" in this team`);
    return p;
  }

  /** Every task's progress, in the team's order, the synthesis last. */
  all(): TaskProgress[] {
    return this.nodes.map((n) => ({ ...this.progress.get(n.key)! }));
  }

  running(): string[] {
    return this.nodes.filter((n) => this.get(n.key).state === "running").map((n) => n.key);
  }

  /** Tasks that may start now, in order, within the parallel limit and one writer at a time. */
  startable(): string[] {
    let slots = this.maxParallel - this.running().length;
    let writerBusy = this.nodes.some((n) => n.writes && this.get(n.key).state === "running");
    const tasksEnded = this.nodes.every((n) => n.key === SYNTHESIS_KEY || isEnded(this.get(n.key).state));
    const out: string[] = [];
    for (const n of this.nodes) {
      if (slots <= 0) break;
      if (this.get(n.key).state !== "waiting") continue;
      if (n.key === SYNTHESIS_KEY && !tasksEnded) continue;
      if (!n.dependsOn.every((d) => this.get(d).state === "done")) continue;
      if (n.writes && writerBusy) continue;
      out.push(n.key);
      slots--;
      if (n.writes) writerBusy = true;
    }
    return out;
  }

  start(key: string): void {
    const p = this.get(key);
    if (p.state !== "waiting") throw new Error(`Task "${key}" is ${p.state}, it cannot start`);
    p.state = "running";
  }

  done(key: string, output: string): void {
    const p = this.get(key);
    if (p.state !== "running") throw new Error(`Task "${key}" is ${p.state}, it cannot be done`);
    p.state = "done";
    p.output = output;
  }

  /** The task failed (or was stopped): it and, transitively, its dependents are settled; returns the keys blocked. */
  fail(key: string, reason: string): string[] {
    const p = this.get(key);
    if (isEnded(p.state)) return [];
    p.state = "failed";
    p.reason = reason;
    return this.blockDependents(key);
  }

  /** Every task still waiting is blocked with `reason` (the team was halted); running ones are the driver's to stop. */
  haltWaiting(reason: string): string[] {
    const out: string[] = [];
    for (const n of this.nodes) {
      const p = this.get(n.key);
      if (p.state === "waiting") {
        p.state = "blocked";
        p.reason = reason;
        out.push(n.key);
      }
    }
    return out;
  }

  /** Nothing is waiting or running. */
  finished(): boolean {
    return this.nodes.every((n) => isEnded(this.get(n.key).state));
  }

  private blockDependents(key: string): string[] {
    const out: string[] = [];
    const queue = [key];
    while (queue.length) {
      const k = queue.shift()!;
      const cause = this.get(k);
      for (const n of this.nodes) {
        const p = this.get(n.key);
        if (p.state !== "waiting" || !n.dependsOn.includes(k)) continue;
        p.state = "blocked";
        p.reason = cause.state === "failed" ? `Blocked: "${k}" failed (${cause.reason ?? "no reason given"}).` : `Blocked: "${k}" was blocked (${cause.reason ?? "no reason given"}).`;
        out.push(n.key);
        queue.push(n.key);
      }
    }
    return out;
  }

  /** The plan this schedule runs. */
  get teamPlan(): TeamPlan {
    return this.plan;
  }
}

function isEnded(s: TaskState): boolean {
  return s === "done" || s === "failed" || s === "blocked";
}
