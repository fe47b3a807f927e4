"use client";
import { useEffect, useState } from "react";
import type { Hunk } from "@/lib/scm/hunks";
import type { SourceControl } from "@/lib/scm/source-control";

const PREVIEW_LINES = 12;

/**
 * One file's changes in the Source Control view, hunk by hunk, each with Stage (or Unstage):
 * the part of `git add -p` people use. It reads the diff again whenever the view's status does.
 */
export function HunkList(props: {
  scm: SourceControl | undefined;
  path: string;
  staged: boolean;
  refreshKey: unknown;
  disabled: boolean;
  onHunk: (hunk: Hunk) => void;
}) {
  const { scm, path, staged, refreshKey } = props;
  const [hunks, setHunks] = useState<Hunk[] | null>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    if (!scm) return;
    scm.hunks(path, staged).then(
      (d) => live && (setHunks(d?.hunks ?? null), setError(undefined)),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [scm, path, staged, refreshKey]);
  const verb = staged ? "Unstage" : "Stage";
  if (error) return <div className="banner error">{error}</div>;
  if (hunks === undefined) return <div className="muted scm-empty">Reading the diff…</div>;
  if (hunks === null || hunks.length === 0) return <div className="muted scm-empty">No line changes to pick from (a new, binary or mode-only change): {verb.toLowerCase()} the whole file.</div>;
  return (
    <ul className="scm-hunks" aria-label={`Changes in ${path}, hunk by hunk`}>
      {hunks.map((h, i) => (
        <li key={`${i}:${h.header}`} aria-label={`Hunk ${i + 1} of ${path}`}>
          <div className="scm-hunk-head">
            <code className="muted">{h.header}</code>
            <span className="muted">
              +{h.added} −{h.removed}
            </span>
            <button className="scm-icon" disabled={props.disabled} aria-label={`${verb} hunk ${i + 1} of ${path}`} title={`${verb} this hunk`} onClick={() => props.onHunk(h)}>
              {staged ? "−" : "+"}
            </button>
          </div>
          <pre className="scm-hunk-lines">
            {h.lines.slice(0, PREVIEW_LINES).map((l, j) => (
              <span key={j} className={l.startsWith("+") ? "add" : l.startsWith("-") ? "del" : undefined}>
                {l + "\n"}
              </span>
            ))}
            {h.lines.length > PREVIEW_LINES ? `… ${h.lines.length - PREVIEW_LINES} more lines\n` : ""}
          </pre>
        </li>
      ))}
    </ul>
  );
}
