"use client";
import { useMemo } from "react";
import type { AgentSession } from "@/lib/agent";
import { hiddenRuleOf } from "@/lib/fs/hidden-view";
import { mentionEntries } from "@/lib/agent/mentions";
import { resolveMention } from "@/lib/agent/mentions-context";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import type { MentionSupport } from "./Composer";
import { mentionSources } from "./agent-context";

/**
 * The prompt box's @-mentions for this session: the file tree's files and folders as the agent
 * sees them (paths hidden from it are not offered), and chip previews read the way the session
 * reads them on send.
 */
export function useMentionSupport(ws: WorkspaceState, session: AgentSession | undefined): MentionSupport | undefined {
  const docs = ws.docs;
  return useMemo(() => {
    if (!session) return undefined;
    const hidden = session.deps.hiddenPaths;
    const sources = mentionSources(session.deps, () => docs.active);
    return {
      entries: mentionEntries(ws.tree, hidden ? (p) => hiddenRuleOf(hidden, p) !== null : undefined),
      preview: (ref) => resolveMention(ref, sources),
      symbols: async () => {
        const { workspaceSymbols } = await import("@/components/editor/ts-symbols");
        const list = await workspaceSymbols();
        // Declarations in files hidden from the agent are not offered either.
        return hidden ? list.filter((s) => hiddenRuleOf(hidden, s.path) === null) : list;
      },
    };
  }, [session, ws.tree, docs]);
}
