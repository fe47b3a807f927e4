/**
 * The materialiser and the running team, with scripted child models on a real workspace: the
 * same proposal gives the same tasks; the parallel limit and one writer at a time hold; the
 * team budget and wall time stop everything and keep what was done; a failed task blocks its
 * dependents; the synthesis runs last and is posted to the parent conversation; every child run
 * is checkpointed.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../lib/agent/events";
import type { PriceTable } from "../../lib/agent/pricing";
import { createModedSession } from "../../lib/modes";
import {
  materialise,
  modedChildFactory,
  proposalFromPlan,
  ProposalInbox,
  Schedule,
  Team,
  teamFromApproved,
  type ChildSpec,
  type Proposal,
  type TeamState,
} from "../../lib/orchestrate";
import type { ScriptedLanguageModel, ScriptedTurn } from "../../lib/providers/scripted";
import { cleanupList, deps, scripted, tempWs } from "../agent/helpers";
import { proposal, readTools } from "./fixtures";

const cleanups = cleanupList();
afterEach(() => cleanups.run());

type Scripts = Record<string, ScriptedTurn[]>;

function teamHarness(p: Proposal, scripts: Scripts = {}, opts: { prices?: PriceTable; delayMs?: number; timers?: { fire?: () => void }; parent?: { sessionId: string; toolCallId: string } } = {}) {
  const ws = tempWs({ "src/api.ts": "export function a() {}\n" });
  cleanups.add(ws.cleanup);
  const d = deps(ws);
  const models = new Map<string, ScriptedLanguageModel>();
  const specs: ChildSpec[] = [];
  const createChild = modedChildFactory({
    deps: d,
    workspaceId: "w",
    retry: { initialDelayMs: 1, maxDelayMs: 2, maxRetries: 0 },
    prices: opts.prices,
    approvals: { autoApprove: { read: true, edit: true, command: true } },
    model: (spec) => {
      specs.push(spec);
      const m = scripted(scripts[spec.key] ?? [{ text: `report of ${spec.key}`, delayMs: opts.delayMs ?? 0 }]);
      models.set(spec.key, m);
      return m;
    },
  });
  const posted: string[] = [];
  const team = new Team({
    plan: materialise(p, "team1"),
    createChild,
    post: (t) => posted.push(t),
    parent: opts.parent,
    setTimer: opts.timers ? (fn) => ((opts.timers!.fire = fn), 1) : undefined,
    clearTimer: opts.timers ? () => undefined : undefined,
  });
  const starts: string[] = [];
  let maxRunning = 0;
  let maxWriters = 0;
  const states: TeamState[] = [];
  team.subscribe((s) => {
    states.push(s);
    const running = [...s.tasks, s.synthesis].filter((t) => t.state === "running");
    maxRunning = Math.max(maxRunning, running.length);
    maxWriters = Math.max(maxWriters, running.filter((t) => t.writes).length);
    for (const t of running) if (!starts.includes(t.key)) starts.push(t.key);
  });
  const promptOf = (key: string, call = 0) => JSON.stringify(models.get(key)?.calls[call]?.prompt ?? []);
  return { team, ws, d, models, specs, posted, starts, states, promptOf, stats: () => ({ maxRunning, maxWriters }) };
}

const explorers = (n: number, maxParallel: number): Proposal =>
  proposal({
    roles: [{ name: "explorer", brief: "Read.", mode: "plan", tools: readTools }],
    tasks: Array.from({ length: n }, (_, i) => ({ key: `t${i + 1}`, title: `Task ${i + 1}`, description: "Look.", role: "explorer", dependsOn: [], acceptance: "Reported." })),
    synthesis: { role: "explorer", inputs: Array.from({ length: n }, (_, i) => `t${i + 1}`), output: "Merged." },
    budget: { tokens: 1_000_000, usd: 5, maxParallel, wallMs: 60_000 },
  });

describe("the materialiser", () => {
  it("gives the same tasks, in the same order, with the same session ids, for the same proposal", () => {
    const listed = proposal();
    listed.tasks = [listed.tasks[2]!, listed.tasks[1]!, listed.tasks[0]!]; // write-docs, map-tests, map-api
    const a = materialise(listed, "team1");
    const b = materialise(structuredClone(listed), "team1");
    expect(b).toEqual(a);
    // Dependencies first; among ready tasks, the one listed first.
    expect(a.tasks.map((t) => `${t.key}@${t.sessionId}`)).toEqual(["map-tests@team1t1", "map-api@team1t2", "write-docs@team1t3"]);
    expect(a.tasks.map((t) => t.writes)).toEqual([false, false, true]);
    expect(a.synthesis).toMatchObject({ sessionId: "team1syn", inputs: ["map-api", "map-tests", "write-docs"], mode: "plan" });
    expect(() => materialise({ ...listed, tasks: [] }, "team1")).toThrow(/tasks is empty/);
    expect(() => materialise(listed, "team-1")).toThrow(/letters and digits/);
  });

  it("two runs of the same proposal start the same tasks in the same order", async () => {
    const runs: string[][] = [];
    for (let i = 0; i < 2; i++) {
      const h = teamHarness(explorers(5, 2), {}, { delayMs: 2 });
      await h.team.start();
      runs.push(h.starts);
    }
    expect(runs[0]).toEqual(["t1", "t2", "t3", "t4", "t5", "synthesis"]);
    expect(runs[1]).toEqual(runs[0]);
  });
});

describe("the schedule", () => {
  it("keeps to the parallel limit, one writer at a time, readers alongside", () => {
    const p = proposal({
      roles: [
        { name: "w", brief: "Write.", mode: "act", tools: ["editor"] },
        { name: "r", brief: "Read.", mode: "plan", tools: readTools },
      ],
      tasks: ["w1", "w2", "r1", "r2"].map((key) => ({ key, title: key, description: key, role: key.startsWith("w") ? "w" : "r", dependsOn: [], acceptance: "ok" })),
      synthesis: { role: "r", inputs: ["w1"], output: "x" },
      budget: { tokens: 1000, usd: 1, maxParallel: 3, wallMs: 1000 },
    });
    const s = new Schedule(materialise(p, "t"));
    expect(s.startable()).toEqual(["w1", "r1", "r2"]);
    for (const k of s.startable()) s.start(k);
    expect(s.startable()).toEqual([]);
    s.done("w1", "ok");
    expect(s.startable()).toEqual(["w2"]);
  });
});

describe("a team of child sessions", () => {
  it("runs at most maxParallel children at a time", async () => {
    const h = teamHarness(explorers(5, 2), {}, { delayMs: 3 });
    const final = await h.team.start();
    expect(final.status).toBe("done");
    expect(h.stats().maxRunning).toBe(2);
    expect(final.tasks.every((t) => t.state === "done")).toBe(true);
  });

  it("never runs two writers at once, while a reader runs beside a writer", async () => {
    const p = proposal({
      roles: [
        { name: "w", brief: "Write.", mode: "act", tools: ["editor", "read_files"] },
        { name: "r", brief: "Read.", mode: "plan", tools: readTools },
      ],
      tasks: [
        { key: "w1", title: "W1", description: "Create a.txt", role: "w", dependsOn: [], acceptance: "a.txt exists" },
        { key: "w2", title: "W2", description: "Create b.txt", role: "w", dependsOn: [], acceptance: "b.txt exists" },
        { key: "r1", title: "R1", description: "Read", role: "r", dependsOn: [], acceptance: "ok" },
      ],
      synthesis: { role: "r", inputs: ["w1", "w2", "r1"], output: "Merged." },
      budget: { tokens: 1_000_000, usd: 5, maxParallel: 3, wallMs: 60_000 },
    });
    const edit = (path: string): ScriptedTurn[] => [
      { toolCalls: [{ name: "editor", args: { command: "create", path, file_text: `${path}\n` } }], delayMs: 3 },
      { text: `wrote ${path}`, delayMs: 3 },
    ];
    const h = teamHarness(p, { w1: edit("a.txt"), w2: edit("b.txt"), r1: [{ text: "read it all, slowly", delayMs: 8 }] });
    const final = await h.team.start();
    expect(final.status).toBe("done");
    expect(h.stats()).toEqual({ maxRunning: 2, maxWriters: 1 });
    expect(h.ws.read("a.txt")).toBe("a.txt\n");
    expect(h.ws.read("b.txt")).toBe("b.txt\n");
    // Each writer's run was checkpointed before it changed a file, under its own session id.
    const cps = h.d.cp.created.filter((c) => c.kind !== "end").map((c) => c.sessionId);
    expect(new Set(cps)).toEqual(new Set(["team1t1", "team1t2", "team1t3", "team1syn"]));
    expect(final.tasks.find((t) => t.key === "w1")!.output).toBe("wrote a.txt");
  });

  it("a failed task blocks its dependents with the reason; independent work goes on and is kept", async () => {
    const h = teamHarness(proposal(), { "map-api": [{ error: { status: 401, message: "bad key" } }] });
    const final = await h.team.start();
    const by = Object.fromEntries([...final.tasks, final.synthesis].map((t) => [t.key, t]));
    expect(by["map-api"]!.state).toBe("failed");
    expect(by["map-api"]!.reason).toBeTruthy();
    expect(by["map-tests"]!.state).toBe("done");
    expect(by["write-docs"]!.state).toBe("blocked");
    expect(by["write-docs"]!.reason).toMatch(/^Blocked: "map-api" failed \(/);
    expect(by["synthesis"]!.state).toBe("blocked");
    expect(h.models.has("write-docs")).toBe(false); // never started
    expect(final.status).toBe("failed");
    expect(h.posted).toHaveLength(1);
    expect(h.posted[0]).toMatch(/did not finish/);
    expect(h.posted[0]).toContain("report of map-tests");
  });

  it("stops everything at the team's token budget, keeping what was done", async () => {
    const turn = (key: string): ScriptedTurn[] => [{ text: `report of ${key}`, usage: { inputTokens: 600, outputTokens: 10 } }];
    const p = proposal({ budget: { tokens: 1000, usd: 5, maxParallel: 1, wallMs: 60_000 } });
    const h = teamHarness(p, { "map-api": turn("map-api"), "map-tests": turn("map-tests") });
    const final = await h.team.start();
    expect(final.status).toBe("stopped");
    expect(final.reason).toBe("Stopped: the team's budget of 1000 tokens was reached (1220 used).");
    expect(final.cost.tokens).toBe(1220);
    const states = Object.fromEntries(final.tasks.map((t) => [t.key, t.state]));
    expect(states).toEqual({ "map-api": "done", "map-tests": "failed", "write-docs": "blocked" });
    expect(final.synthesis.state).toBe("blocked");
    expect(h.models.has("write-docs")).toBe(false);
    expect(h.posted[0]).toMatch(/was stopped: Stopped: the team's budget/);
    expect(h.posted[0]).toContain("report of map-api");
  });

  it("stops at the dollar budget, and each child may spend only what is left of it", async () => {
    const turn = (key: string): ScriptedTurn[] => [{ text: `report of ${key}`, usage: { inputTokens: 6000, outputTokens: 10 } }];
    const p = proposal({ budget: { tokens: 1_000_000, usd: 1, maxParallel: 1, wallMs: 60_000 } });
    const h = teamHarness(p, { "map-api": turn("map-api"), "map-tests": turn("map-tests") }, { prices: { "test-model": { input: 100, output: 100 } } });
    const final = await h.team.start();
    expect(final.status).toBe("stopped");
    expect(final.reason).toMatch(/^Stopped: the team's budget of \$1 was reached \(\$1\.2020 spent\)\.$/);
    expect(h.specs.map((s) => [s.key, Number(s.budgetUsd!.toFixed(3))])).toEqual([
      ["map-api", 1],
      ["map-tests", 0.399],
    ]);
  });

  it("stops everything when the wall time runs out", async () => {
    const timers: { fire?: () => void } = {};
    const h = teamHarness(proposal(), {}, { delayMs: 10, timers });
    const done = h.team.start();
    await new Promise((r) => setTimeout(r, 15));
    timers.fire!();
    const final = await done;
    expect(final.status).toBe("stopped");
    expect(final.reason).toMatch(/wall time of 60 s was reached/);
    expect(final.synthesis.state).toBe("blocked");
  });

  it("stop(task) stops one child and blocks its dependents", async () => {
    const h = teamHarness(proposal(), { "map-api": [{ text: "a long report that takes a while to stream out", delayMs: 30 }] });
    const done = h.team.start();
    await new Promise((r) => setTimeout(r, 20));
    expect(h.team.state.tasks[0]).toMatchObject({ key: "map-api", state: "running", sessionId: "team1t1" });
    h.team.stop("map-api");
    const final = await done;
    const by = Object.fromEntries(final.tasks.map((t) => [t.key, t]));
    expect(by["map-api"]).toMatchObject({ state: "failed", reason: "Stopped by the user." });
    expect(by["map-tests"]!.state).toBe("done");
    expect(by["write-docs"]!.state).toBe("blocked");
    expect(h.team.session("map-api")!.state.runs[0]!.status).toBe("aborted");
  });

  it("a child may call only its role's tools", async () => {
    const p = explorers(1, 1);
    p.roles[0]!.tools = ["list_files"];
    const h = teamHarness(p, { t1: [{ toolCalls: [{ name: "read_files", args: { files: [{ path: "src/api.ts" }] } }] }, { text: "could not read" }] });
    await h.team.start();
    const child = h.team.session("t1")!;
    const offered = (h.models.get("t1")!.calls[0]!.tools ?? []).map((t) => t.name).sort();
    expect(offered).toEqual(["ask_question", "exit_plan_mode", "list_files", "submit_plan"]);
    const result = child.state.messages.flatMap((m) => (m.role === "tool" ? m.content : [])).find((c) => c.type === "tool-result");
    expect(result?.ui?.status).toBe("blocked");
    expect(JSON.stringify(result?.output)).toContain("not on this team role's tool list");
  });

  it("each child is made with its role's model and linked to the parent's call", async () => {
    const p = proposal();
    p.roles[0]!.model = "fast-model";
    const h = teamHarness(p, {}, { parent: { sessionId: "parent-1", toolCallId: "call-7" } });
    await h.team.start();
    const byKey = new Map(h.specs.map((s) => [s.key, s.model]));
    expect(byKey.get("map-api")).toBe("fast-model");
    expect(byKey.get("map-tests")).toBe("fast-model");
    expect(byKey.get("write-docs")).toBeUndefined(); // the writer role names none: the mode's model
    for (const key of ["map-api", "map-tests", "write-docs", "synthesis"]) expect(h.team.session(key)!.parent).toEqual({ sessionId: "parent-1", toolCallId: "call-7" });
  });
});

describe("from approval to the parent conversation", () => {
  it("the approved proposal runs as a team: dependency outputs reach each child, and the synthesis is posted to the parent", async () => {
    const ws = tempWs({ "src/api.ts": "export function a() {}\n" });
    cleanups.add(ws.cleanup);
    const d = deps(ws);
    let now = 1_000;
    const inbox = new ProposalInbox({ now: () => now });
    const parentModel = scripted([{ toolCalls: [{ name: "propose_orchestration", args: proposal() }] }, { text: "The team documented the API." }]);
    const parent = createModedSession({ deps: d, model: parentModel, workspaceId: "w", mode: "orchestrate" }, undefined, { proposals: inbox.sink() });
    await parent.run("Document the API with a team");
    const [pending] = inbox.pending(parent.id);
    now += 10;

    const models = new Map<string, ScriptedLanguageModel>();
    const createChild = modedChildFactory({
      deps: d,
      workspaceId: "w",
      approvals: { autoApprove: { edit: true } },
      model: (spec) => {
        const text = spec.key === "synthesis" ? "SYNTHESIS: the API has one function, a(), documented in docs/api.md." : `report of ${spec.key}`;
        const turns: ScriptedTurn[] =
          spec.key === "write-docs" ? [{ toolCalls: [{ name: "editor", args: { command: "create", path: "docs/api.md", file_text: "# API\n\n- a()\n" } }] }, { text }] : [{ text }];
        const m = scripted(turns);
        models.set(spec.key, m);
        return m;
      },
    });
    const team = teamFromApproved(inbox.approve(pending!.id), { parent, createChild });
    const final = await team.start();

    expect(final.status).toBe("done");
    expect(final.tasks.map((t) => `${t.key}:${t.state}:${t.sessionId}`)).toEqual([`map-api:done:${pending!.id}t1`, `map-tests:done:${pending!.id}t2`, `write-docs:done:${pending!.id}t3`]);
    // The writer was told what the explorers found; the synthesis got all three outputs.
    const prompt = (k: string) => JSON.stringify(models.get(k)!.calls[0]!.prompt);
    expect(prompt("write-docs")).toContain("report of map-api");
    expect(prompt("write-docs")).toContain("report of map-tests");
    expect(prompt("map-api")).not.toContain("report of map-tests");
    for (const k of ["map-api", "map-tests", "write-docs"]) expect(prompt("synthesis")).toContain(`report of ${k}`);
    expect(ws.read("docs/api.md")).toBe("# API\n\n- a()\n");
    // Posted into the parent conversation, which the parent's model reads on its next turn.
    const last = parent.state.messages.at(-1)!;
    expect(last.role === "user" && last.kind).toBe("notice");
    expect(JSON.stringify(last.content)).toContain("SYNTHESIS: the API has one function");
    const events: AgentEvent[] = [];
    parent.subscribe((e) => events.push(e));
    await parent.run("What did the team find?");
    expect(JSON.stringify(parentModel.calls.at(-1)!.prompt)).toContain("SYNTHESIS: the API has one function");
    // Every child run was checkpointed; the earliest is where the whole orchestration can be restored to.
    const childIds = final.tasks.map((t) => t.sessionId).concat(final.synthesis.sessionId);
    for (const id of childIds) expect(d.cp.created.some((c) => c.sessionId === id)).toBe(true);
    expect(team.firstCheckpoint()?.ref).toMatch(new RegExp(`^refs/tabula/checkpoints/${pending!.id}`));
    expect(final.cost.tokens).toBeGreaterThan(0);
  });
});

describe("a plan run as a team", () => {
  it("compiles the plan's graph into tasks that run in its dependency order, approved by the operator's own gesture", async () => {
    const plan = {
      goal: "Add a greeting",
      nodes: [
        { key: "docs", title: "Document it", description: "Add a line to README.md", dependsOn: ["impl"] },
        { key: "impl", title: "Implement", description: "Create greet.txt", dependsOn: [] },
      ],
    };
    const inbox = new ProposalInbox();
    const approval = inbox.approveOwn("parent1", proposalFromPlan(plan, { tokens: 100_000, usd: 1, maxParallel: 2, wallMs: 60_000 }));
    expect(approval.status).toBe("approved");
    expect(() => inbox.approveOwn("parent1", { ...proposalFromPlan(plan, { tokens: 1, usd: 1, maxParallel: 1, wallMs: 1 }), tasks: [] })).toThrow(/tasks is empty/);
    const h = teamHarness(approval.proposal, {
      impl: [{ toolCalls: [{ name: "editor", args: { command: "create", path: "greet.txt", file_text: "hello\n" } }] }, { text: "created greet.txt" }],
      docs: [{ toolCalls: [{ name: "editor", args: { command: "create", path: "README.md", file_text: "greet.txt says hello\n" } }] }, { text: "documented" }],
    });
    const final = await h.team.start();
    expect(final.status).toBe("done");
    expect(h.starts).toEqual(["impl", "docs", "synthesis"]);
    expect(h.stats().maxWriters).toBe(1);
    expect(h.ws.read("greet.txt")).toBe("hello\n");
    expect(h.promptOf("docs")).toContain("created greet.txt");
  });
});
