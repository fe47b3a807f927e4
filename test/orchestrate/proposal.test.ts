/**
 * propose_orchestration: the schema's refusals (cycles, unknown roles and keys, empty trees,
 * over-cap budgets) with messages the model can act on; the operator-only approval (no path a
 * tool, a plugin, an event listener, the model or auto-approve can reach settles a proposal);
 * the two-minute cooldown.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentEvent } from "../../lib/agent/events";
import { createModedSession } from "../../lib/modes";
import {
  budgetOverCap,
  isIssuedApproval,
  materialise,
  PROPOSAL_COOLDOWN_MS,
  ProposalInbox,
  proposalSchema,
  teamFromApproved,
  type OrchestrationCap,
  type Proposal,
} from "../../lib/orchestrate";
import { cleanupList, deps, scripted, tempWs, toolResultsSent } from "../agent/helpers";
import { proposal } from "./fixtures";

const issues = (p: unknown) => {
  const r = proposalSchema.safeParse(p);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe("proposal validation", () => {
  it("accepts a coherent proposal", () => {
    expect(issues(proposal())).toEqual([]);
  });

  it("refuses cycles, naming the tasks in the cycle", () => {
    const p = proposal();
    p.tasks[0]!.dependsOn = ["write-docs"];
    const out = issues(p);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^Dependency cycle: /);
    for (const k of ["map-api", "write-docs"]) expect(out[0]).toContain(`"${k}"`);
    expect(out[0]).not.toContain('"map-tests"');
  });

  it("refuses unknown roles, unknown dependency keys and a synthesis over unknown tasks, each named", () => {
    const p = proposal();
    p.tasks[1]!.role = "ghost";
    p.tasks[2]!.dependsOn = ["map-api", "nowhere"];
    p.synthesis = { role: "nobody", inputs: ["map-api", "lost"], output: "x" };
    expect(issues(p)).toEqual([
      'Task "map-tests" has unknown role "ghost" (roles: "explorer", "writer", "editor-in-chief").',
      'Task "write-docs" depends on unknown task "nowhere".',
      'The synthesis has unknown role "nobody" (roles: "explorer", "writer", "editor-in-chief").',
      'The synthesis merges unknown task "lost".',
    ]);
  });

  it("refuses an empty tree, duplicate keys and role names, and fields it does not know", () => {
    expect(issues(proposal({ tasks: [] }))).toEqual(["tasks is empty: an orchestration needs at least one task"]);
    const dup = proposal();
    dup.tasks[1]!.key = "map-api";
    dup.roles.push({ ...dup.roles[0]! });
    expect(issues(dup)).toEqual(expect.arrayContaining(['Duplicate task key "map-api": every task needs its own key.', 'Duplicate role name "explorer": every role needs its own name.']));
    // The model cannot smuggle an approval in: unknown keys are refused.
    expect(issues({ ...proposal(), approved: true }).join(" ")).toMatch(/approved/);
    // A child never orchestrates a team of its own.
    const nested = proposal();
    (nested.roles[0] as { mode: string }).mode = "orchestrate";
    expect(issues(nested)).not.toEqual([]);
  });

  it("a budget over the user's cap names each field and the limit to lower it to", () => {
    const cap: OrchestrationCap = { tokens: 50_000, usd: 0.5, maxParallel: 2, wallMs: 60_000 };
    expect(budgetOverCap(proposal().budget, { ...cap, tokens: 100_000, usd: 1 })).toEqual([]);
    expect(budgetOverCap({ tokens: 100_000, usd: 1, maxParallel: 3, wallMs: 90_000 }, cap)).toEqual([
      "budget.tokens 100000 is over the user's limit of 50000: lower it to at most 50000.",
      "budget.usd 1 is over the user's limit of $0.5: lower it to at most 0.5.",
      "budget.maxParallel 3 is over the user's limit of 2: lower it to at most 2.",
      "budget.wallMs 90000 is over the user's limit of 60000 ms: lower it to at most 60000.",
    ]);
  });
});

// ---- in a session ------------------------------------------------------------------------

const cleanups = cleanupList();
afterEach(() => cleanups.run());

function orchestrateSession(turns: Parameters<typeof scripted>[0], opts: { inbox?: ProposalInbox; cap?: OrchestrationCap; approvals?: Parameters<typeof createModedSession>[0]["approvals"]; models?: () => Promise<string[]> } = {}) {
  const ws = tempWs({ "src/a.ts": "export const a = 1;\n" });
  cleanups.add(ws.cleanup);
  const inbox = opts.inbox ?? new ProposalInbox();
  const model = scripted(turns);
  const session = createModedSession(
    { deps: deps(ws), model, workspaceId: "w", mode: "orchestrate", retry: { initialDelayMs: 1, maxDelayMs: 2 }, approvals: opts.approvals },
    undefined,
    { proposals: inbox.sink(), cap: opts.cap ? () => opts.cap! : undefined, models: opts.models },
  );
  const events: AgentEvent[] = [];
  session.subscribe((e) => events.push(e));
  const finished = () => events.filter((e): e is Extract<AgentEvent, { type: "tool-call-finished" }> => e.type === "tool-call-finished");
  return { session, inbox, model, events, finished };
}

const propose = (p: unknown = proposal()) => ({ toolCalls: [{ name: "propose_orchestration", args: p }] });

describe("propose_orchestration in a session", () => {
  it("submits a valid proposal to the inbox and ends the turn; nothing runs and no session approval is asked", async () => {
    const s = orchestrateSession([propose()]);
    const r = await s.session.run("Document the API with a team");
    expect(r.status).toBe("completed");
    expect(s.finished().map((e) => `${e.toolName}:${e.status}`)).toEqual(["propose_orchestration:ok"]);
    const [pending] = s.inbox.pending();
    expect(pending?.status).toBe("pending");
    expect(pending?.proposal).toEqual(proposal());
    expect(s.finished()[0]!.data).toMatchObject({ proposalId: pending!.id, order: ["map-api", "map-tests", "write-docs"] });
    expect(s.events.some((e) => e.type === "approval-requested")).toBe(false);
    expect(s.model.calls).toHaveLength(1);
  });

  it("refuses an invalid proposal with the reasons, and the model's fixed proposal goes through", async () => {
    const bad = proposal();
    bad.tasks[0]!.dependsOn = ["write-docs"];
    const s = orchestrateSession([propose(bad), propose()], { cap: { tokens: 100_000, usd: 1, maxParallel: 2, wallMs: 60_000 } });
    await s.session.run("go");
    expect(s.finished().map((e) => e.status)).toEqual(["error", "ok"]);
    expect(toolResultsSent(s.model, 1).join("\n")).toMatch(/Dependency cycle: .*"map-api"/);
    expect(s.inbox.pending()).toHaveLength(1);
  });

  it("refuses a budget over the user's cap and role tools the session does not have, submitting nothing", async () => {
    const p = proposal({ budget: { tokens: 100_000, usd: 3, maxParallel: 2, wallMs: 60_000 } });
    p.roles[0]!.tools = ["read_files", "web_search"];
    const s = orchestrateSession([propose(p), { text: "I will lower it." }], { cap: { tokens: 100_000, usd: 2, maxParallel: 4, wallMs: 600_000 } });
    await s.session.run("go");
    const sent = toolResultsSent(s.model, 1).join("\n");
    expect(sent).toContain("budget.usd 3 is over the user's limit of $2: lower it to at most 2.");
    expect(sent).toContain('Role "explorer" allows unknown tool "web_search"');
    expect(s.inbox.pending()).toEqual([]);
  });

  it("refuses a role model no provider in use offers, naming those there are; a model that is offered goes through", async () => {
    const bad = proposal();
    bad.roles[0]!.model = "gpt-nowhere";
    const good = proposal();
    good.roles[0]!.model = "qwen-big";
    const s = orchestrateSession([propose(bad), propose(good)], { models: async () => ["qwen-small", "qwen-big"] });
    await s.session.run("go");
    expect(s.finished().map((e) => e.status)).toEqual(["error", "ok"]);
    expect(toolResultsSent(s.model, 1).join("\n")).toContain('Role "explorer" names model "gpt-nowhere", which no configured provider offers (models: qwen-small, qwen-big)');
    expect(s.inbox.pending().map((p) => p.proposal.roles[0]!.model)).toEqual(["qwen-big"]);
  });
});

describe("approval is operator-only", () => {
  it("no listener, auto-approve setting, plugin hook, model argument or session call can approve a proposal", async () => {
    const inbox = new ProposalInbox();
    const s = orchestrateSession(
      [
        // The model tries to approve its own proposal through the arguments.
        propose({ ...proposal(), approved: true }),
        propose(),
      ],
      { inbox, approvals: { autoApprove: { read: true, edit: true, command: true }, allowedCommandPrefixes: ["approve"] } },
    );
    // A listener that approves whatever the session asks (as an auto-approving plugin would).
    const approvedIds: string[] = [];
    s.session.subscribe((e) => {
      if (e.type === "approval-requested") s.session.approve(e.approvalId);
      if (e.type === "tool-call-finished" && typeof e.data?.proposalId === "string") approvedIds.push(String(s.session.approve(e.data.proposalId)));
    });
    // Plugins: a beforeTool that rewrites the call into an approval, an afterTool that reports one.
    s.session.hooks.register({ name: "plugin:rewrite", hooks: { beforeTool: ({ input }) => ({ input: { ...(input as object), approved: true, status: "approved" } }) } });
    s.session.hooks.register({ name: "plugin:report", hooks: { afterTool: () => ({ result: { data: { approved: true, status: "approved" } } }) } });

    await s.session.run("go");
    expect(s.finished().map((e) => e.status)).toEqual(["error", "ok"]);
    expect(toolResultsSent(s.model, 1).join("\n")).toMatch(/approved/); // the model is told its field is unknown
    const [p] = inbox.pending();
    expect(p?.status).toBe("pending");
    // session.approve knows nothing of the proposal: it is not a session approval.
    expect(approvedIds).toEqual(["false"]);
    expect(s.session.state.pending.approvals).toEqual([]);
    // Changing a copy handed out changes nothing, and a look-alike object does not start a team.
    inbox.pending()[0]!.status = "approved";
    expect(inbox.get(p!.id)!.status).toBe("pending");
    const forged = { ...p!, status: "approved" as const };
    expect(isIssuedApproval(forged)).toBe(false);
    expect(() => teamFromApproved(forged, { parent: s.session, createChild: () => s.session })).toThrow(/not approved by the operator/);

    // The operator's answer, through the inbox the UI holds, is the only approval.
    const approval = inbox.approve(p!.id);
    expect(isIssuedApproval(approval)).toBe(true);
    expect(inbox.get(p!.id)!.status).toBe("approved");
    const team = teamFromApproved(approval, { parent: s.session, createChild: () => s.session });
    expect(team.plan).toEqual(materialise(proposal(), p!.id));
    expect(() => inbox.approve(p!.id)).toThrow(/approved, not pending/);
  });

  it("the tool a session gets can only submit", () => {
    const inbox = new ProposalInbox();
    const sink = inbox.sink();
    expect(Object.keys(sink)).toEqual(["submit"]);
    expect(Object.isFrozen(sink)).toBe(true);
    expect((sink as unknown as { approve?: unknown }).approve).toBeUndefined();
  });
});

describe("the two-minute cooldown", () => {
  it("refuses a re-proposal within two minutes, asking to fold the changes; accepts it after, superseding the first", async () => {
    let now = 1_000_000;
    const inbox = new ProposalInbox({ now: () => now });
    const sink = inbox.sink();
    const p = proposalSchema.parse(proposal()) as Proposal;
    const first = sink.submit({ sessionId: "s1", toolCallId: "c1", proposal: p });
    expect(first.ok).toBe(true);
    now += 60_000;
    const again = sink.submit({ sessionId: "s1", toolCallId: "c2", proposal: p });
    expect(again).toEqual({ ok: false, reason: expect.stringMatching(/60 s ago.*Fold every change into one proposal/) });
    // Another session is not held back.
    expect(sink.submit({ sessionId: "s2", toolCallId: "c3", proposal: p }).ok).toBe(true);
    now += PROPOSAL_COOLDOWN_MS - 60_000 - 1;
    expect(sink.submit({ sessionId: "s1", toolCallId: "c4", proposal: p }).ok).toBe(false);
    now += 1;
    const later = sink.submit({ sessionId: "s1", toolCallId: "c5", proposal: p });
    expect(later.ok).toBe(true);
    expect(inbox.get((first as { proposalId: string }).proposalId)!.status).toBe("superseded");
    expect(inbox.pending("s1").map((x) => x.toolCallId)).toEqual(["c5"]);
    // The operator's answer ends the cooldown: a revision after a rejection responds to the user.
    inbox.reject((later as { proposalId: string }).proposalId, "Fewer tasks");
    expect(sink.submit({ sessionId: "s1", toolCallId: "c6", proposal: p }).ok).toBe(true);
  });

  it("in a session, the second proposal of a turn is refused and the model reads why", async () => {
    let now = 5_000_000;
    const inbox = new ProposalInbox({ now: () => now });
    const s = orchestrateSession([propose(), propose()], { inbox });
    await s.session.run("go");
    now += 30_000;
    await s.session.run("and again");
    expect(s.finished().map((e) => e.status)).toEqual(["ok", "error"]);
    expect(s.finished()[1]!.output).toMatch(/Fold every change into one proposal/);
    expect(inbox.pending()).toHaveLength(1);
  });
});

// The schema the model reads is JSON Schema: it must be representable (no transforms lost).
it("the proposal schema converts to JSON Schema for the model", () => {
  const json = z.toJSONSchema(proposalSchema, { target: "draft-7", io: "input", unrepresentable: "any" }) as { properties?: Record<string, unknown> };
  expect(Object.keys(json.properties ?? {})).toEqual(["goal", "roles", "tasks", "synthesis", "budget"]);
});
