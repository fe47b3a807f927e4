/**
 * A running team: one child session per task, driven by the schedule (./scheduler.ts: dependency
 * order, the parallel limit, one writer at a time), with the team's budget and wall time
 * enforced across every child. What a Team view renders is `team.state` (and `subscribe`):
 * each task's state, reason, output and child session id, the cost so far against the budget.
 *
 *   approve (the operator, ./inbox.ts) → materialise (./materialise.ts) → new Team(...).start()
 *     → children run (each run checkpointed by its session, like any run: refs/tabula/
 *       checkpoints/<child id>/<run>, the child ids sharing the team id as their prefix)
 *     → the synthesis runs last → its result is posted to the parent conversation
 *
 * At the budget or the wall time everything stops: running children are stopped, waiting tasks
 * are blocked, and what was done is kept (outputs in the state, changes in the work tree, each
 * child's transcript in its session). `stop(key)` stops one task (its dependents are blocked),
 * `stopAll()` the team.
 *
 * Framework-free.
 */
import { AgentSession, type AgentSessionOptions } from "../agent/session";
import type { ToolPolicy } from "../modes/policy";
import { pinnedToolNames } from "../modes/profiles";
import { modeSessionOptions } from "../modes/session";
import type { AgentMode, CheckpointEntry, UsageTotals } from "../agent/types";
import type { SessionParent } from "../agent/session-types";
import type { ModelSource } from "../agent/model-handle";
import { synthesisPrompt, taskPrompt, type TeamPlan } from "./materialise";
import type { ChildMode } from "./proposal";
import { Schedule, SYNTHESIS_KEY, type TaskState } from "./scheduler";

/** What a child session is made from. */
export type ChildSpec = {
  /** The child session's id (from the materialiser). */
  id: string;
  /** The task's key ("synthesis" for the synthesis). */
  key: string;
  title: string;
  mode: ChildMode;
  /** The role's model id, when it named one. */
  model?: string;
  /** The role's tool allow-list. */
  tools: readonly string[];
  /** Dollars this child may spend: what is left of the team's (or the parent's) budget when it starts; undefined: no cap. */
  budgetUsd?: number;
  /** The session and call that made this child (a delegate call); a team's factory adds its own. */
  parent?: SessionParent;
};

export type ChildFactory = (spec: ChildSpec) => AgentSession;

export type TeamCost = { tokens: number; usd: number };

export type TeamTaskView = {
  key: string;
  title: string;
  role: string;
  mode: ChildMode;
  writes: boolean;
  dependsOn: readonly string[];
  state: TaskState;
  reason?: string;
  output?: string;
  /** Set once the task's child session exists (its transcript is one click away). */
  sessionId?: string;
  cost: TeamCost;
};

export type TeamStatus = "idle" | "running" | "done" | "stopped" | "failed";

export type TeamState = {
  teamId: string;
  goal: string;
  status: TeamStatus;
  /** Why the team stopped or failed. */
  reason?: string;
  tasks: TeamTaskView[];
  synthesis: TeamTaskView;
  cost: TeamCost;
  budget: TeamPlan["budget"];
};

export type TeamOptions = {
  plan: TeamPlan;
  createChild: ChildFactory;
  /** Adds text to the parent conversation (AgentSession.steer): the synthesis, or why the team did not finish. */
  post: (text: string) => void;
  /** The parent session and the call (proposal or plan) the team answers: each child is linked to it. */
  parent?: SessionParent;
  /** Timers for the wall time (tests pass their own). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
};

/** What a Team view needs of a team: a running one (`Team`), or one read back after a reload (`RestoredTeam`). */
export interface TeamHandle {
  readonly state: TeamState;
  subscribe(listener: (s: TeamState) => void): () => void;
  /** A task's live child session (none for a team read back after a reload). */
  session(key: string): AgentSession | undefined;
  stop(key: string, reason?: string): void;
  stopAll(reason?: string): void;
  /** The earliest checkpoint any child took: restoring it undoes the whole orchestration. */
  firstCheckpoint(): Pick<CheckpointEntry, "ref" | "createdAt"> | undefined;
}

const NO_COST: TeamCost = { tokens: 0, usd: 0 };
const POSTED_OUTPUT_CHARS = 4000;

export class Team implements TeamHandle {
  readonly plan: TeamPlan;
  private readonly schedule: Schedule;
  private readonly children = new Map<string, AgentSession>();
  private readonly childCost = new Map<string, TeamCost>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly listeners = new Set<(s: TeamState) => void>();
  private status: TeamStatus = "idle";
  private reason?: string;
  private halted = false;
  private timer: unknown;
  private resolveDone!: (s: TeamState) => void;
  private readonly done: Promise<TeamState>;

  constructor(private readonly opts: TeamOptions) {
    this.plan = opts.plan;
    this.schedule = new Schedule(opts.plan);
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  /** Start the team; resolves with the final state once every child has ended and the result is posted. */
  start(): Promise<TeamState> {
    if (this.status !== "idle") return this.done;
    this.status = "running";
    const setTimer = this.opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.timer = setTimer(() => this.halt(`Stopped: the team's wall time of ${Math.round(this.plan.budget.wallMs / 1000)} s was reached.`), this.plan.budget.wallMs);
    this.changed();
    this.pump();
    return this.done;
  }

  get state(): TeamState {
    const views = this.schedule.all().map((p) => this.view(p.key, p.state, p.reason, p.output));
    const state: TeamState = {
      teamId: this.plan.teamId,
      goal: this.plan.goal,
      status: this.status,
      tasks: views.filter((v) => v.key !== SYNTHESIS_KEY),
      synthesis: views.find((v) => v.key === SYNTHESIS_KEY)!,
      cost: this.cost(),
      budget: { ...this.plan.budget },
    };
    if (this.reason) state.reason = this.reason;
    return state;
  }

  /** Called with the new state on every change (a task starts or ends, usage arrives, the team ends). */
  subscribe(listener: (s: TeamState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A task's child session, once it exists. */
  session(key: string): AgentSession | undefined {
    return this.children.get(key);
  }

  /** The earliest checkpoint any child took: restoring it undoes the whole orchestration. */
  firstCheckpoint(): CheckpointEntry | undefined {
    const all = [...this.children.values()].flatMap((s) => s.state.checkpoints);
    return all.sort((a, b) => a.createdAt - b.createdAt)[0];
  }

  /** Stop one task: a running child is stopped, a waiting task never starts; its dependents are blocked. */
  stop(key: string, reason = "Stopped by the user."): void {
    const p = this.schedule.get(key);
    if (p.state !== "waiting" && p.state !== "running") return;
    this.schedule.fail(key, reason);
    this.children.get(key)?.stop();
    this.changed();
    this.pump();
  }

  /** Stop the whole team: every running child is stopped, every waiting task blocked. */
  stopAll(reason = "Stopped by the user."): void {
    this.halt(reason);
  }

  // ---- driving --------------------------------------------------------------------------------

  private pump(): void {
    if (this.status !== "running") return;
    if (!this.halted) {
      const left = this.plan.budget.usd - this.cost().usd;
      for (const key of this.schedule.startable()) this.launch(key, left);
    }
    if (this.schedule.finished()) void this.finish();
  }

  private launch(key: string, usdLeft: number): void {
    const plan = this.plan;
    const task = plan.tasks.find((t) => t.key === key);
    const s = plan.synthesis;
    const spec: ChildSpec = task
      ? { id: task.sessionId, key, title: `${plan.goal.slice(0, 60)} · ${task.title}`, mode: task.mode, tools: task.role.tools, budgetUsd: Math.max(0, usdLeft) }
      : { id: s.sessionId, key, title: `${plan.goal.slice(0, 60)} · synthesis`, mode: s.mode, tools: s.role.tools, budgetUsd: Math.max(0, usdLeft) };
    const role = task ? task.role : s.role;
    if (role.model) spec.model = role.model;
    if (this.opts.parent) spec.parent = { ...this.opts.parent };
    this.schedule.start(key);
    let child: AgentSession;
    try {
      child = this.opts.createChild(spec);
    } catch (err) {
      this.schedule.fail(key, `The child session could not be created: ${err instanceof Error ? err.message : String(err)}`);
      this.changed();
      return;
    }
    this.children.set(key, child);
    const off = child.subscribe((e) => {
      if (e.type !== "usage") return;
      this.childCost.set(key, costOf(e.session));
      this.changed();
      this.checkBudget();
    });
    const outputs = this.outputs();
    const prompt = task ? taskPrompt(plan, task, outputs) : synthesisPrompt(plan, outputs);
    this.changed();
    const run = child.run(prompt).then(
      (result) => {
        if (this.schedule.get(key).state !== "running") return; // stopped meanwhile: already settled
        if (result.status === "completed") this.schedule.done(key, result.summary ?? "");
        else this.schedule.fail(key, result.reason ?? `The child run ${result.status}.`);
      },
      (err: unknown) => {
        if (this.schedule.get(key).state === "running") this.schedule.fail(key, err instanceof Error ? err.message : String(err));
      },
    );
    const tracked = run.finally(() => {
      off();
      this.inFlight.delete(tracked);
      this.changed();
      this.pump();
    });
    this.inFlight.add(tracked);
  }

  private checkBudget(): void {
    const c = this.cost();
    const b = this.plan.budget;
    if (c.usd >= b.usd) this.halt(`Stopped: the team's budget of $${b.usd} was reached ($${c.usd.toFixed(4)} spent).`);
    else if (c.tokens >= b.tokens) this.halt(`Stopped: the team's budget of ${b.tokens} tokens was reached (${c.tokens} used).`);
  }

  private halt(reason: string): void {
    if (this.halted || this.status !== "running") return;
    this.halted = true;
    this.reason = reason;
    this.schedule.haltWaiting(reason);
    for (const key of this.schedule.running()) {
      this.schedule.fail(key, reason);
      this.children.get(key)?.stop();
    }
    this.changed();
    this.pump();
  }

  private finishing = false;

  private async finish(): Promise<void> {
    if (this.finishing) return;
    this.finishing = true;
    // Stopped children wind down (their last messages, their run-end bookkeeping) before the team ends.
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
    (this.opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>)))(this.timer);
    const syn = this.schedule.get(SYNTHESIS_KEY);
    if (this.halted) this.status = "stopped";
    else if (syn.state === "done") this.status = "done";
    else {
      this.status = "failed";
      this.reason = syn.reason ?? "The synthesis did not run.";
    }
    this.opts.post(this.report());
    this.changed();
    this.resolveDone(this.state);
  }

  /** The text posted to the parent conversation. */
  private report(): string {
    const st = this.state;
    const cost = `${st.cost.tokens.toLocaleString("en-US")} tokens, $${st.cost.usd.toFixed(4)} of $${st.budget.usd}`;
    if (st.status === "done") return `The team finished: ${this.plan.goal}\n\n${st.synthesis.output ?? ""}\n\n(${st.tasks.length} task${st.tasks.length === 1 ? "" : "s"}; ${cost})`;
    const lines = [`The team ${st.status === "stopped" ? "was stopped" : "did not finish"}: ${st.reason}`, ""];
    for (const t of st.tasks) lines.push(`- ${t.key}: ${t.state}${t.reason ? ` — ${t.reason}` : ""}`);
    const kept = st.tasks.filter((t) => t.state === "done");
    if (kept.length) {
      lines.push("", "What was done is kept:");
      for (const t of kept) lines.push("", `### ${t.title} (\`${t.key}\`)`, clip(t.output ?? "", POSTED_OUTPUT_CHARS));
    }
    lines.push("", `(${cost})`);
    return lines.join("\n");
  }

  private outputs(): Map<string, string> {
    return new Map(this.schedule.all().filter((p) => p.state === "done").map((p) => [p.key, p.output ?? ""]));
  }

  private cost(): TeamCost {
    let tokens = 0;
    let usd = 0;
    for (const c of this.childCost.values()) {
      tokens += c.tokens;
      usd += c.usd;
    }
    return { tokens, usd };
  }

  private view(key: string, state: TaskState, reason?: string, output?: string): TeamTaskView {
    const task = this.plan.tasks.find((t) => t.key === key);
    const s = this.plan.synthesis;
    const v: TeamTaskView = task
      ? { key, title: task.title, role: task.role.name, mode: task.mode, writes: task.writes, dependsOn: task.dependsOn, state, cost: this.childCost.get(key) ?? NO_COST }
      : { key, title: "Synthesis", role: s.role.name, mode: s.mode, writes: s.writes, dependsOn: s.inputs, state, cost: this.childCost.get(key) ?? NO_COST };
    if (reason) v.reason = reason;
    if (output !== undefined) v.output = output;
    const child = this.children.get(key);
    if (child) v.sessionId = child.id;
    return v;
  }

  private changed(): void {
    if (this.listeners.size === 0) return;
    const s = this.state;
    for (const l of [...this.listeners]) l(s);
  }
}

function costOf(u: UsageTotals): TeamCost {
  return { tokens: u.inputTokens + u.outputTokens, usd: u.costUsd ?? 0 };
}

function clip(s: string, max: number): string {
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

// ---- the default child factory ------------------------------------------------------------

type ChildSessionBase = Omit<AgentSessionOptions, "id" | "title" | "mode" | "model" | "budgetUsd" | "hooks" | keyof ReturnType<typeof modeSessionOptions>>;

/**
 * Children as the app makes any session (lib/modes: the mode's surface, policy, read-only shell
 * and pinned tools), narrowed to the role's tool allow-list both on the surface and in the
 * policy (a call to a tool off the list is refused, whatever the mode admits). A child's
 * deliverable is its final report, not its mode's output verb, so the mode's "you have not
 * submitted a plan" nudge is not installed (it would replace the report with an answer to the
 * nudge); its mode never changes, so neither is the switch notice. Each child has a hook
 * registry of its own; `setup` adds plugins to it.
 */
export function modedChildFactory(base: ChildSessionBase & { model: (spec: ChildSpec) => ModelSource; setup?: (session: AgentSession, spec: ChildSpec) => void }): ChildFactory {
  const { model, setup, ...options } = base;
  return (spec) => {
    const modes = modeSessionOptions();
    const allow = new Set(spec.tools);
    const session = new AgentSession({
      ...options,
      id: spec.id,
      title: spec.title,
      mode: spec.mode,
      model: model(spec),
      budgetUsd: spec.budgetUsd,
      ...(spec.parent ? { parent: spec.parent } : {}),
      ...modes,
      surface: (mode, tools) => modes.surface!(mode, tools).filter((t) => allow.has(t.name)),
      policy: allowListPolicy(modes.policy!, allow),
    });
    setup?.(session, spec);
    return session;
  };
}

/** `policy`, refusing calls to tools outside `allow` (the mode's pinned tools excepted). */
export function allowListPolicy(policy: ToolPolicy, allow: ReadonlySet<string>): ToolPolicy {
  return {
    admit(call, mode: AgentMode) {
      if (!allow.has(call.name) && !pinnedToolNames(mode).includes(call.name)) {
        return { action: "deny", reason: `${call.name} is not on this team role's tool list (${[...allow].join(", ") || "none"}), so the call was refused.` };
      }
      return policy.admit(call, mode);
    },
    decide: (call, mode, settings, commands) => policy.decide(call, mode, settings, commands),
  };
}
