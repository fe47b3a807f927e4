"use client";
import { loadWorkspaceRules, RuleSwitches, type AgentDeps, type MentionSources } from "@/lib/agent";
import { WorkspaceTrustStore } from "@/lib/plugins/workspace-trust";
import { trustedByProvenance } from "@/lib/workspaces/provenance";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import { editorSelection } from "./editor-selection";
import { formatProblems, workspaceProblems } from "@/lib/editor/problems";

/**
 * What the app tells a session about its context, read fresh each time it is asked: the
 * sources of @-mentions (files through the agent's view, the editor's selection, the working
 * tree's diff through the agent's read-only shell), and the rules files for the open file with
 * the user's switches, only while the workspace is trusted.
 */
export function mentionSources(deps: AgentDeps, activePath: () => string | undefined): MentionSources {
  return {
    wsfs: deps.wsfs,
    selection: () => editorSelection(activePath()),
    diff: async () => {
      const shell = await deps.shell({ readOnly: true });
      const status = await shell.exec("git status --short");
      if (status.exitCode !== 0) throw new Error((status.stderr || status.stdout).trim() || "git status failed");
      if (!status.stdout.trim()) return "";
      // An unborn branch has no HEAD to compare with: then the index is all there is.
      let diff = await shell.exec("git diff HEAD");
      if (diff.exitCode !== 0) diff = await shell.exec("git diff");
      return `$ git status --short\n${status.stdout}${diff.stdout ? `\n$ git diff HEAD\n${diff.stdout}` : ""}`;
    },
    // The TypeScript service's declarations of the open workspace (Monaco is already on this page).
    symbols: async (name) => {
      const { workspaceSymbols } = await import("@/components/editor/ts-symbols");
      return (await workspaceSymbols()).filter((s) => s.name === name);
    },
    // The same list the Problems panel and the status bar show.
    problems: async () => {
      const text = formatProblems(workspaceProblems.list());
      return workspaceProblems.checking && text !== "No problems." ? `${text}\n(the workspace is still being checked: this list may grow)` : text;
    },
  };
}

export function workspaceTrust(meta: WorkspaceState["meta"]): WorkspaceTrustStore {
  return new WorkspaceTrustStore(localStorage, meta.id, { trustedByDefault: trustedByProvenance(meta) });
}

export function ruleSwitches(meta: WorkspaceState["meta"]): RuleSwitches {
  return new RuleSwitches(localStorage, meta.id);
}

/** The rules a run reads: the open file's chain, the user's switches, nothing while untrusted. */
export function workspaceRulesFor(deps: AgentDeps, meta: WorkspaceState["meta"], activePath: () => string | undefined) {
  const trust = workspaceTrust(meta);
  const switches = ruleSwitches(meta);
  return () => loadWorkspaceRules(deps.wsfs, { activePath: activePath(), disabled: switches.disabled(), trusted: trust.get().decision === "trusted" });
}
