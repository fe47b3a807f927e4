"use client";
import { useState } from "react";
import type { ReplacePlan } from "@/lib/search/replace-in-files";

/** Changed lines shown per file before "… N more lines". */
const LINES_SHOWN = 50;
/** Characters of a long line shown around its first change. */
const LINE_CHARS = 160;

/**
 * What a replace in files will do, before it does it: every file with its changed lines (old
 * struck through, new under it), a box per file to leave it out, and the files it will not touch.
 */
export function ReplacePreview(props: { plan: ReplacePlan; replacement: string; busy: boolean; onApply: (paths: Set<string>) => void; onCancel: () => void }) {
  const { plan } = props;
  const [excluded, setExcluded] = useState<Set<string>>(new Set());
  const chosen = plan.files.filter((f) => !excluded.has(f.path));
  const occurrences = chosen.reduce((n, f) => n + f.count, 0);
  const toggle = (path: string) =>
    setExcluded((s) => {
      const next = new Set(s);
      if (!next.delete(path)) next.add(path);
      return next;
    });

  return (
    <section className="replace-preview" aria-label="Replace preview">
      <div className="replace-preview-head">
        {plan.files.length === 0
          ? "Nothing to replace."
          : `Replace ${plural(occurrences, "occurrence")} in ${plural(chosen.length, "file")} with “${props.replacement}”?`}
      </div>
      {plan.files.map((f) => (
        <div key={f.path} className="replace-file">
          <label className="replace-file-name">
            <input type="checkbox" checked={!excluded.has(f.path)} onChange={() => toggle(f.path)} aria-label={`Replace in ${f.path}`} />
            {f.path} <span className="muted">({f.count})</span>
          </label>
          <ul aria-label={`Changes in ${f.path}`}>
            {f.lines.slice(0, LINES_SHOWN).map((l) => {
              const [before, after] = sameWindow(l.before, l.after);
              return (
                <li key={l.line} className="replace-line">
                  <span className="muted">{l.line}: </span>
                  <del>{before}</del>
                  <br />
                  <ins>{after}</ins>
                </li>
              );
            })}
            {f.lines.length > LINES_SHOWN && <li className="muted">… {plural(f.lines.length - LINES_SHOWN, "more line")}</li>}
          </ul>
        </div>
      ))}
      {plan.blocked.map((b) => (
        <div key={b.path} className="muted">
          Not replaced in {b.path}: {b.reason}.
        </div>
      ))}
      {plan.tooLarge.length > 0 && <div className="muted">Not replaced in files over 5 MB: {plan.tooLarge.join(", ")}.</div>}
      <div className="replace-actions">
        <button className="primary" disabled={props.busy || chosen.length === 0} onClick={() => props.onApply(new Set(chosen.map((f) => f.path)))}>
          Replace
        </button>
        <button onClick={props.onCancel}>Cancel</button>
      </div>
    </section>
  );
}

export function plural(n: number, word: string): string {
  return `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
}

/** The same window of a long line before and after: from a little before its first change. */
function sameWindow(before: string, after: string): [string, string] {
  if (before.length <= LINE_CHARS && after.length <= LINE_CHARS) return [before, after];
  let first = 0;
  while (first < before.length && before[first] === after[first]) first++;
  const from = Math.max(0, first - 40);
  const cut = (s: string) => (from > 0 ? "…" : "") + s.slice(from, from + LINE_CHARS) + (from + LINE_CHARS < s.length ? "…" : "");
  return [cut(before), cut(after)];
}
