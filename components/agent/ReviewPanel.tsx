"use client";
import type { ReviewState } from "@/lib/modes";
import { reviewMarkdown } from "@/lib/modes";
import { downloadBytes } from "@/components/common/download";

/**
 * Review mode's output: the verdict and the findings, each linking to its lines; resolve or
 * dismiss a finding (it leaves the editor's marks, and the verdict its open findings still allow
 * is shown next to the published one); export as Markdown.
 */
export function ReviewPanel(props: {
  review: ReviewState;
  onOpen: (path: string, line: number) => void;
  /** The user's decision on a finding (`undefined` reopens it); absent in a read-only tab. */
  onDecide?: (findingId: string, status: "resolved" | "dismissed" | undefined) => void;
}) {
  const { findings, verdict, floorNow, open } = props.review;
  return (
    <div className="review-panel" role="region" aria-label="Review">
      <div className="row">
        <strong>Review</strong>
        {verdict && (
          <span className={`badge verdict-${verdict.verdict}`} data-testid="review-verdict" title={verdict.reason}>
            Verdict: {verdict.verdict}
            {verdict.requested && verdict.requested !== verdict.verdict ? ` (raised from ${verdict.requested})` : ""}
          </span>
        )}
        {findings.length > 0 && (
          <span className="muted" data-testid="review-open">
            {open} of {findings.length} open{verdict && floorNow !== verdict.verdict ? ` · the open ones allow ${floorNow}` : ""}
          </span>
        )}
        <span className="spacer" style={{ flex: 1 }} />
        <button onClick={() => downloadBytes(new TextEncoder().encode(reviewMarkdown(props.review)), "review.md", "text/markdown")}>Export Markdown</button>
      </div>
      <ul className="findings" aria-label="Findings">
        {findings.map((f) => {
          const status = f.status ?? "open";
          const where = f.anchor ? `${f.anchor.file}:${f.anchor.startLine}` : "the repository";
          return (
            <li key={f.id} className={`finding ${f.priority}${status !== "open" ? " closed" : ""}`} data-status={status}>
              <span className="badge">{f.priority}</span> <span className="muted">{f.kind}</span>{" "}
              {f.anchor ? (
                <button className="link mono" onClick={() => props.onOpen(f.anchor!.file, f.anchor!.startLine)}>
                  {f.anchor.file}:{f.anchor.startLine}
                  {f.anchor.endLine !== f.anchor.startLine ? `-${f.anchor.endLine}` : ""}
                </button>
              ) : (
                <span className="muted">(whole repository)</span>
              )}{" "}
              <span className="muted">confidence {Math.round(f.confidence * 100)}%</span>
              {status !== "open" && <span className="badge">{status}</span>}
              {props.onDecide && (
                <span className="finding-actions">
                  {status === "open" ? (
                    <>
                      <button className="link" aria-label={`Resolve the finding at ${where}`} onClick={() => props.onDecide!(f.id, "resolved")}>
                        Resolve
                      </button>
                      <button className="link" aria-label={`Dismiss the finding at ${where}`} onClick={() => props.onDecide!(f.id, "dismissed")}>
                        Dismiss
                      </button>
                    </>
                  ) : (
                    <button className="link" aria-label={`Reopen the finding at ${where}`} onClick={() => props.onDecide!(f.id, undefined)}>
                      Reopen
                    </button>
                  )}
                </span>
              )}
              <div>{f.body}</div>
            </li>
          );
        })}
        {findings.length === 0 && <li className="muted">No findings yet.</li>}
      </ul>
    </div>
  );
}
