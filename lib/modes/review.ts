/**
 * Review mode's output: findings (`add_review_node`) and a verdict (`finalize_review`) that the
 * findings can only make more severe. Values are checked at the tool boundary: a finding without
 * a priority or confidence, or with one out of range, is rejected.
 *
 * Framework-free.
 */
import { z } from "zod";

export const REVIEW_KINDS = ["bug", "suggestion", "recommendation", "question", "ticket"] as const;
export const REVIEW_PRIORITIES = ["P0", "P1", "P2", "P3"] as const;
export const REVIEW_VERDICTS = ["ship", "hold", "block"] as const;

export type ReviewKind = (typeof REVIEW_KINDS)[number];
export type ReviewPriority = (typeof REVIEW_PRIORITIES)[number];
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

export const reviewAnchorSchema = z
  .object({
    file: z.string().min(1).describe("Workspace-relative path"),
    startLine: z.number().int().min(1).describe("First line (1-based)"),
    endLine: z.number().int().min(1).describe("Last line (1-based, ≥ startLine)"),
  })
  .refine((a) => a.endLine >= a.startLine, { message: "endLine must be greater than or equal to startLine", path: ["endLine"] });

export const addReviewNodeInputSchema = z.object({
  kind: z.enum(REVIEW_KINDS).describe("bug, suggestion, recommendation, question or ticket"),
  priority: z.enum(REVIEW_PRIORITIES).describe("P0 (must fix before shipping) … P3 (minor)"),
  confidence: z.number().min(0).max(1).describe("How sure you are, from 0 to 1"),
  anchor: reviewAnchorSchema.optional().describe("The file and line range the finding is about; omit for repo-wide notes"),
  body: z.string().min(1).max(20000).describe("The finding: what is wrong or could be better, why, and what to do"),
});

export type AddReviewNodeInput = z.output<typeof addReviewNodeInputSchema>;

export const finalizeReviewInputSchema = z.object({
  verdict: z.enum(REVIEW_VERDICTS).describe("ship (good to merge), hold (fix first), block (must not merge)"),
  summary: z.string().max(8000).optional().describe("A short overall assessment"),
});

export type FinalizeReviewInput = z.output<typeof finalizeReviewInputSchema>;

/** A recorded finding. Only open findings weigh on the verdict. */
export type ReviewFinding = AddReviewNodeInput & { id: string; status?: "open" | "resolved" | "dismissed" };

const SEVERITY: Record<ReviewVerdict, number> = { ship: 0, hold: 1, block: 2 };

function isOpen(f: Pick<ReviewFinding, "status">): boolean {
  return (f.status ?? "open") === "open";
}

/** The least severe verdict the open findings allow: an open P0 bug blocks; an open P1 bug or any other open P0 holds. */
export function verdictFloor(findings: readonly Pick<ReviewFinding, "kind" | "priority" | "status">[]): ReviewVerdict {
  const open = findings.filter(isOpen);
  if (open.some((f) => f.kind === "bug" && f.priority === "P0")) return "block";
  if (open.some((f) => (f.kind === "bug" && f.priority === "P1") || f.priority === "P0")) return "hold";
  return "ship";
}

/** Why the floor is what it is (for the tool result and the UI), or undefined for "ship". */
export function verdictFloorReason(findings: readonly Pick<ReviewFinding, "kind" | "priority" | "status">[]): string | undefined {
  const open = findings.filter(isOpen);
  const count = (pred: (f: (typeof open)[number]) => boolean) => open.filter(pred).length;
  const p0bugs = count((f) => f.kind === "bug" && f.priority === "P0");
  if (p0bugs > 0) return `${p0bugs} open P0 bug${p0bugs > 1 ? "s" : ""}`;
  const p1bugs = count((f) => f.kind === "bug" && f.priority === "P1");
  const p0other = count((f) => f.kind !== "bug" && f.priority === "P0");
  const parts: string[] = [];
  if (p1bugs > 0) parts.push(`${p1bugs} open P1 bug${p1bugs > 1 ? "s" : ""}`);
  if (p0other > 0) parts.push(`${p0other} open P0 finding${p0other > 1 ? "s" : ""}`);
  return parts.length ? parts.join(" and ") : undefined;
}

/** The verdict published: the requested one, made more severe when the findings demand it (never milder). */
export function effectiveVerdict(findings: readonly Pick<ReviewFinding, "kind" | "priority" | "status">[], requested: ReviewVerdict): ReviewVerdict {
  const floor = verdictFloor(findings);
  return SEVERITY[floor] > SEVERITY[requested] ? floor : requested;
}

function anchorText(a: AddReviewNodeInput["anchor"]): string {
  if (!a) return "repository";
  return a.startLine === a.endLine ? `${a.file}:${a.startLine}` : `${a.file}:${a.startLine}-${a.endLine}`;
}

export function describeFinding(f: AddReviewNodeInput): string {
  return `${f.priority} ${f.kind} at ${anchorText(f.anchor)}`;
}

/** Findings by priority (P0 first), then file and line. */
export function sortFindings<F extends ReviewFinding>(findings: readonly F[]): F[] {
  return [...findings].sort(
    (a, b) =>
      a.priority.localeCompare(b.priority) ||
      (a.anchor?.file ?? "").localeCompare(b.anchor?.file ?? "") ||
      (a.anchor?.startLine ?? 0) - (b.anchor?.startLine ?? 0),
  );
}

/** The review as Markdown (export). */
export function reviewToMarkdown(review: { findings: readonly ReviewFinding[]; verdict?: ReviewVerdict; summary?: string; title?: string }): string {
  const lines = [`# ${review.title ?? "Review"}`, ""];
  if (review.verdict) lines.push(`**Verdict: ${review.verdict}**`, "");
  if (review.summary?.trim()) lines.push(review.summary.trim(), "");
  if (review.findings.length === 0) lines.push("No findings.");
  for (const f of sortFindings(review.findings)) {
    const status = isOpen(f) ? "" : ` (${f.status})`;
    lines.push(`## ${f.priority} ${f.kind}${status} — ${anchorText(f.anchor)}`, "", `Confidence: ${Math.round(f.confidence * 100)} %`, "", f.body.trim(), "");
  }
  return lines.join("\n").trimEnd() + "\n";
}

/**
 * The prompt of the "Review changes" button: the working tree against a branch (`base`), or
 * against HEAD naming the changed files when there are any.
 */
export function reviewChangesPrompt(options: { base?: string; changed?: readonly string[] }): string {
  const { base, changed = [] } = options;
  const against = base ? `the branch ${base} (use git diff ${base})` : "HEAD";
  const files = !base && changed.length ? ` (changed: ${changed.join(", ")})` : "";
  return `Review the changes in the working tree against ${against}${files}. Record each finding with add_review_node, then publish a verdict with finalize_review.`;
}
