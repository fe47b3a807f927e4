"use client";
import { countProblems } from "@/lib/editor/problems";
import { useProblems } from "./useProblems";

/** The status bar's error and warning counts; a click shows the Problems panel. */
export function ProblemsCount(props: { onOpen: () => void }) {
  const { problems, checking } = useProblems();
  const { errors, warnings } = countProblems(problems);
  const label = checking ? "Problems: checking the workspace" : `Problems: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
  return (
    <button className="link problems-count" data-testid="problems-count" data-checking={checking || undefined} aria-label={label} title={label} onClick={props.onOpen}>
      {checking ? "⟳ " : ""}⊗ {errors} ⚠ {warnings}
    </button>
  );
}
