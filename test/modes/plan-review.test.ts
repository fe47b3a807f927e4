/**
 * Plan graphs (submit_plan), review findings and verdicts (add_review_node, finalize_review), and
 * the mode tools themselves.
 */
import { describe, expect, it } from "vitest";
import {
  addReviewNodeInputSchema,
  createModeTools,
  effectiveVerdict,
  finalizeReviewInputSchema,
  planApprovedPrompt,
  planGraphErrors,
  planRejectedPrompt,
  planToMarkdown,
  reviewChangesPrompt,
  ReviewLedger,
  reviewToMarkdown,
  submitPlanInputSchema,
  topologicalOrder,
  verdictFloor,
  type ReviewFinding,
} from "../../lib/modes";
import { DEFAULT_TOOL_LIMITS, type ToolContext } from "../../lib/tools";

const node = (key: string, dependsOn: string[] = []) => ({ key, title: `Do ${key}`, description: `Details of ${key}`, dependsOn });

describe("plan graph", () => {
  it("accepts a valid DAG and orders dependencies first, keeping the listed order among ready steps", () => {
    const plan = { goal: "Ship it", nodes: [node("tests", ["impl"]), node("types"), node("impl", ["types"]), node("docs")] };
    expect(planGraphErrors(plan)).toEqual([]);
    expect(submitPlanInputSchema.safeParse(plan).success).toBe(true);
    expect(topologicalOrder(plan).map((n) => n.key)).toEqual(["types", "impl", "tests", "docs"]);
  });

  it("rejects duplicate keys, unknown dependencies and cycles, naming the keys", () => {
    expect(planGraphErrors({ nodes: [node("a"), node("a")] })).toEqual(['Duplicate step key "a": every step needs its own key.']);
    expect(planGraphErrors({ nodes: [node("a", ["ghost"])] })).toEqual(['Step "a" depends on unknown step "ghost".']);
    expect(planGraphErrors({ nodes: [node("a", ["a"])] })).toEqual(['Step "a" depends on itself.']);
    const cycle = planGraphErrors({ nodes: [node("a", ["c"]), node("b", ["a"]), node("c", ["b"]), node("d")] });
    expect(cycle).toHaveLength(1);
    expect(cycle[0]).toMatch(/^Dependency cycle: /);
    for (const k of ["a", "b", "c"]) expect(cycle[0]).toContain(`"${k}"`);
    expect(cycle[0]).not.toContain('"d"');
    expect(() => topologicalOrder({ nodes: [node("a", ["b"]), node("b", ["a"])] })).toThrow(/cycle/);
  });

  it("the tool schema rejects invalid graphs and shapes with the graph messages", () => {
    const bad = submitPlanInputSchema.safeParse({ goal: "g", nodes: [node("a", ["b"]), node("b", ["a"])] });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toMatch(/Dependency cycle/);
    expect(submitPlanInputSchema.safeParse({ goal: "g", nodes: [] }).success).toBe(false);
    expect(submitPlanInputSchema.safeParse({ goal: "", nodes: [node("a")] }).success).toBe(false);
    expect(submitPlanInputSchema.safeParse({ goal: "g", nodes: [{ key: "a b", title: "t", description: "d" }] }).success).toBe(false);
    // dependsOn may be omitted.
    const ok = submitPlanInputSchema.safeParse({ goal: "g", nodes: [{ key: "a", title: "t", description: "d" }] });
    expect(ok.success && ok.data.nodes[0]!.dependsOn).toEqual([]);
  });

  it("renders Markdown in execution order with dependencies", () => {
    const md = planToMarkdown({ goal: "Ship it", nodes: [node("b", ["a"]), node("a")] });
    expect(md).toBe("# Plan: Ship it\n\n1. **Do a** (`a`)\n   Details of a\n\n2. **Do b** (`b`)\n   Details of b\n   _Depends on: 1 (`a`)_\n");
  });
});

describe("review findings", () => {
  const finding = { kind: "bug", priority: "P1", confidence: 0.8, anchor: { file: "src/a.ts", startLine: 3, endLine: 5 }, body: "Off by one" };

  it("accepts a complete finding, with or without an anchor", () => {
    expect(addReviewNodeInputSchema.safeParse(finding).success).toBe(true);
    const { anchor: _anchor, ...repoWide } = finding;
    expect(addReviewNodeInputSchema.safeParse(repoWide).success).toBe(true);
    expect(addReviewNodeInputSchema.safeParse({ ...finding, confidence: 0 }).success).toBe(true);
    expect(addReviewNodeInputSchema.safeParse({ ...finding, confidence: 1 }).success).toBe(true);
    expect(addReviewNodeInputSchema.safeParse({ ...finding, anchor: { file: "a", startLine: 7, endLine: 7 } }).success).toBe(true);
  });

  it("rejects a missing priority or confidence and out-of-range values at the boundary", () => {
    const without = (k: string) => Object.fromEntries(Object.entries(finding).filter(([key]) => key !== k));
    for (const bad of [
      without("priority"),
      without("confidence"),
      without("kind"),
      without("body"),
      { ...finding, priority: "P4" },
      { ...finding, priority: "p1" },
      { ...finding, confidence: 1.01 },
      { ...finding, confidence: -0.1 },
      { ...finding, confidence: "high" },
      { ...finding, kind: "nit" },
      { ...finding, anchor: { file: "a", startLine: 0, endLine: 1 } },
      { ...finding, anchor: { file: "a", startLine: 5, endLine: 4 } },
      { ...finding, anchor: { file: "a", startLine: 1.5, endLine: 2 } },
      { ...finding, anchor: { file: "", startLine: 1, endLine: 2 } },
      { ...finding, anchor: { file: "a", startLine: 1 } },
    ]) {
      expect(addReviewNodeInputSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("finalize_review takes ship, hold or block only", () => {
    for (const v of ["ship", "hold", "block"]) expect(finalizeReviewInputSchema.safeParse({ verdict: v }).success).toBe(true);
    expect(finalizeReviewInputSchema.safeParse({ verdict: "merge" }).success).toBe(false);
    expect(finalizeReviewInputSchema.safeParse({}).success).toBe(false);
  });
});

describe("verdict escalation", () => {
  const f = (kind: ReviewFinding["kind"], priority: ReviewFinding["priority"], status?: ReviewFinding["status"]): ReviewFinding => ({
    id: `${kind}-${priority}`,
    kind,
    priority,
    confidence: 0.9,
    body: "x",
    status,
  });

  it("an open P0 bug forces block", () => {
    expect(verdictFloor([f("bug", "P0")])).toBe("block");
    for (const v of ["ship", "hold", "block"] as const) expect(effectiveVerdict([f("bug", "P0")], v)).toBe("block");
  });

  it("an open P1 bug or any other open P0 forces at least hold", () => {
    for (const findings of [[f("bug", "P1")], [f("suggestion", "P0")], [f("question", "P0"), f("bug", "P2")]]) {
      expect(effectiveVerdict(findings, "ship")).toBe("hold");
      expect(effectiveVerdict(findings, "hold")).toBe("hold");
      expect(effectiveVerdict(findings, "block")).toBe("block"); // never milder than requested
    }
  });

  it("minor or closed findings leave the requested verdict alone", () => {
    expect(effectiveVerdict([f("bug", "P2"), f("suggestion", "P1"), f("ticket", "P3")], "ship")).toBe("ship");
    expect(effectiveVerdict([f("bug", "P0", "resolved"), f("bug", "P1", "dismissed")], "ship")).toBe("ship");
    expect(effectiveVerdict([], "hold")).toBe("hold");
  });

  it("renders Markdown sorted by priority", () => {
    const md = reviewToMarkdown({ verdict: "hold", findings: [f("suggestion", "P2"), { ...f("bug", "P1"), anchor: { file: "a.ts", startLine: 2, endLine: 4 } }] });
    expect(md.indexOf("## P1 bug — a.ts:2-4")).toBeGreaterThan(0);
    expect(md.indexOf("## P1 bug")).toBeLessThan(md.indexOf("## P2 suggestion — repository"));
    expect(md).toMatch(/\*\*Verdict: hold\*\*/);
  });
});

describe("mode tools", () => {
  const ctx = (over: Partial<ToolContext> = {}): ToolContext =>
    ({
      mode: "review",
      readOnly: true,
      sessionId: "s1",
      runId: "r1",
      toolCallId: `call-${Math.random().toString(36).slice(2)}`,
      signal: new AbortController().signal,
      origin: "agent",
      limits: DEFAULT_TOOL_LIMITS,
      ask: async () => "",
      shell: async () => {
        throw new Error("no shell");
      },
      ...over,
    }) as unknown as ToolContext;

  it("none of them can touch the workspace: no effects beyond asking the user", () => {
    for (const t of createModeTools()) expect(t.effects.every((e) => e === "user-interaction")).toBe(true);
    const names = createModeTools().map((t) => t.name);
    expect(names).toEqual(["submit_plan", "exit_plan_mode", "add_review_node", "finalize_review"]);
  });

  it("submit_plan ends the run with the plan as data and Markdown", async () => {
    const [submit] = createModeTools();
    expect(submit!.completesRun).toBe(true);
    const input = submitPlanInputSchema.parse({ goal: "G", nodes: [node("b", ["a"]), node("a")] });
    const r = await submit!.execute(input, ctx({ mode: "plan" }));
    expect(r.isError).toBeFalsy();
    expect(r.data?.order).toEqual(["a", "b"]);
    expect(r.completion?.summary).toMatch(/^# Plan: G/);
  });

  it("exit_plan_mode is a gate: always asks, and only its approved execution switches to Act", async () => {
    const exit = createModeTools()[1]!;
    expect(exit.approval).toBe("always");
    const switched: string[] = [];
    const r = await exit.execute({ summary: "Do it" }, ctx({ mode: "plan", setMode: (m) => void switched.push(m) }));
    expect(switched).toEqual(["act"]);
    expect(r.isError).toBeFalsy();
    expect((await exit.execute({ summary: "Do it" }, ctx({ mode: "act", setMode: (m) => void switched.push(m) }))).isError).toBe(true);
    expect(switched).toEqual(["act"]);
  });

  it("add_review_node records findings per session; finalize_review escalates from them", async () => {
    const ledger = new ReviewLedger();
    const [, , add, finalize] = createModeTools(ledger);
    await add!.execute({ kind: "bug", priority: "P0", confidence: 0.9, body: "Crash", anchor: { file: "a.ts", startLine: 1, endLine: 1 } }, ctx());
    await add!.execute({ kind: "suggestion", priority: "P3", confidence: 0.5, body: "Rename" }, ctx());
    await add!.execute({ kind: "bug", priority: "P0", confidence: 0.9, body: "Other session" }, ctx({ sessionId: "s2" }));
    expect(ledger.list("s1")).toHaveLength(2);
    const r = await finalize!.execute({ verdict: "ship" }, ctx());
    expect(r.data?.verdict).toBe("block");
    expect(r.data?.raised).toBe(true);
    expect(r.output).toMatch(/raised from ship because of 1 open P0 bug/);
    expect(finalize!.completesRun).toBe(true);
    // Once the P0 is resolved, ship stands.
    ledger.setStatus("s1", ledger.list("s1")[0]!.id, "resolved");
    expect((await finalize!.execute({ verdict: "ship" }, ctx())).data?.verdict).toBe("ship");
  });
});

describe("the modes' prompts for the user's decisions", () => {
  it("an approved plan becomes the Act run's brief; a rejection carries the feedback and asks for a new submit_plan", () => {
    expect(planApprovedPrompt("# Plan: x\n1. a")).toBe("Carry out this approved plan, step by step:\n\n# Plan: x\n1. a");
    expect(planRejectedPrompt("too big")).toBe("The plan was rejected. Feedback: too big\nRevise the plan and submit it again with submit_plan.");
  });

  it("Review changes names the base branch, or HEAD with the changed files", () => {
    expect(reviewChangesPrompt({ base: "main", changed: ["a.ts"] })).toBe(
      "Review the changes in the working tree against the branch main (use git diff main). Record each finding with add_review_node, then publish a verdict with finalize_review.",
    );
    expect(reviewChangesPrompt({ changed: ["a.ts", "b.ts"] })).toContain("against HEAD (changed: a.ts, b.ts). Record each finding");
    expect(reviewChangesPrompt({})).toContain("against HEAD. Record each finding");
  });
});
