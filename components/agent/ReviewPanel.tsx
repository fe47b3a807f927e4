"use client";
import type { ReviewState } from "@/lib/modes";
import { reviewMarkdown } from "@/lib/modes";
import { downloadBytes } from "@/components/common/download";

/** Review mode's output: the verdict and the findings, each linking to its lines; export as Markdown. */
export function ReviewPanel(props: { review: ReviewState; onOpen: (path: string, line: number) => void }) {
  const { findings, verdict } = props.review;
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
        <span className="spacer" style={{ flex: 1 }} />
        <button onClick={() => downloadBytes(new TextEncoder().encode(reviewMarkdown(props.review)), "review.md", "text/markdown")}>Export Markdown</button>
      </div>
      <ul className="findings" aria-label="Findings">
        {findings.map((f) => (
          <li key={f.id} className={`finding ${f.priority}`}>
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
            <div>{f.body}</div>
          </li>
        ))}
        {findings.length === 0 && <li className="muted">No findings yet.</li>}
      </ul>
    </div>
  );
}
