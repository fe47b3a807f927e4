"use client";
import { useSyncExternalStore } from "react";
import { workspaceProblems, type Problem } from "@/lib/editor/problems";

/** The workspace's problems, re-rendering on each change. */
export function useProblems(): { problems: Problem[]; checking: boolean; notices: string[] } {
  const problems = useSyncExternalStore(
    (cb) => workspaceProblems.subscribe(cb),
    () => workspaceProblems.list(),
    () => workspaceProblems.list(),
  );
  const checking = useSyncExternalStore(
    (cb) => workspaceProblems.subscribe(cb),
    () => workspaceProblems.checking,
    () => false,
  );
  const notices = useSyncExternalStore(
    (cb) => workspaceProblems.subscribe(cb),
    () => workspaceProblems.notices(),
    () => workspaceProblems.notices(),
  );
  return { problems, checking, notices };
}
