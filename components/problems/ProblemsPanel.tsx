"use client";
import { useMemo, useState } from "react";
import { countProblems, groupProblems, type Problem } from "@/lib/editor/problems";
import { useProblems } from "./useProblems";

const ICON: Record<Problem["severity"], string> = { error: "⊗", warning: "⚠", info: "ℹ" };

/** Errors and warnings of the workspace's TS/JS files, by file; a click opens the file at the problem. */
export function ProblemsPanel(props: { onJump: (p: Problem) => void }) {
  const { problems, checking, notices } = useProblems();
  const groups = useMemo(() => groupProblems(problems), [problems]);
  const counts = countProblems(problems);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const toggle = (path: string) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (!next.delete(path)) next.add(path);
      return next;
    });

  return (
    <div className="problems-panel" role="region" aria-label="Problems">
      <div className="muted problems-summary" role="status">
        {checking ? "Checking the workspace… " : ""}
        {counts.errors} error{counts.errors === 1 ? "" : "s"}, {counts.warnings} warning{counts.warnings === 1 ? "" : "s"}
        {groups.length ? ` in ${groups.length} file${groups.length === 1 ? "" : "s"}` : ""}
      </div>
      {notices.map((n) => (
        <div key={n} className="banner" role="note">
          {n}
        </div>
      ))}
      {!checking && groups.length === 0 && <div className="muted" style={{ padding: 8 }}>No problems have been detected in the workspace.</div>}
      <ul className="problems-files" role="tree" aria-label="Problems by file">
        {groups.map((g) => (
          <li key={g.path} role="treeitem" aria-expanded={!collapsed.has(g.path)} data-path={g.path}>
            <button className="problems-file" onClick={() => toggle(g.path)} title={g.path}>
              <span>{collapsed.has(g.path) ? "▸" : "▾"}</span> <span className="mono">{g.path}</span>{" "}
              <span className="badge" aria-label={`${g.problems.length} problem${g.problems.length === 1 ? "" : "s"}`}>
                {g.problems.length}
              </span>
            </button>
            {!collapsed.has(g.path) && (
              <ul role="group">
                {g.problems.map((p, i) => (
                  <li key={i} role="treeitem" className={`problem ${p.severity}`}>
                    <button className="problem-row" onClick={() => props.onJump(p)} title={p.message}>
                      <span aria-label={p.severity}>{ICON[p.severity]}</span> <span className="problem-message">{p.message.split("\n")[0]}</span>{" "}
                      <span className="muted">
                        {p.code ? `ts(${p.code}) ` : ""}[{p.line}, {p.column}]
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
