"use client";
import type { RefObject } from "react";
import { MODE_IDS, modeLabel, type AgentMode } from "@/lib/modes";
import type { AgentSession } from "@/lib/agent";
import { useCommands } from "@/components/palette/CommandsContext";

/** What the agent panel offers the command palette; the panel keeps its own state. */
export interface AgentActions {
  session: AgentSession | undefined;
  running: boolean;
  readOnly: boolean;
  /** The panel's root, to find its prompt box. */
  root: RefObject<HTMLElement | null>;
  newSession: () => void;
  setMode: (mode: AgentMode) => void;
  showPane: (pane: "sessions" | "plugins" | "checkpoints") => void;
  share: () => void;
  exportSession: () => void;
  models: () => void;
  options: () => void;
  savePoint: (name?: string) => Promise<void>;
}

/** The agent panel's commands: the session, its mode, the timeline, sharing and the agent's settings. */
export function useAgentCommands(a: AgentActions): void {
  const ready = !!a.session;
  const mode = a.session?.state.mode;
  useCommands([
    {
      id: "agent.focusPrompt",
      category: "Agent",
      title: "Focus Prompt",
      enabled: ready && !a.readOnly,
      run: () => a.root.current?.querySelector<HTMLTextAreaElement>("textarea")?.focus(),
    },
    { id: "agent.newSession", category: "Agent", title: "New Session", enabled: ready, run: a.newSession },
    { id: "agent.stop", category: "Agent", title: "Stop Run", enabled: ready && a.running, run: () => a.session?.stop() },
    ...MODE_IDS.map((m) => ({
      id: `agent.mode.${m}`,
      category: "Agent",
      title: `Switch to ${modeLabel(m)} Mode`,
      enabled: ready && mode !== m,
      run: () => a.setMode(m),
    })),
    { id: "agent.history", category: "Agent", title: "Show Session History", enabled: ready, run: () => a.showPane("sessions") },
    { id: "agent.plugins", category: "Agent", title: "Show Plugins", enabled: ready, run: () => a.showPane("plugins") },
    { id: "agent.share", category: "Share", title: "Share Session…", enabled: ready && !a.running && !a.readOnly, run: a.share },
    { id: "agent.export", category: "Share", title: "Export Session as Git Bundle", enabled: ready && !a.running, run: a.exportSession },
    {
      id: "timeline.savePoint",
      category: "Timeline",
      title: "Add Save Point…",
      enabled: ready && !a.readOnly,
      run: async (ctx) => {
        const name = await ctx.ask({ title: "Name of the save point", placeholder: "before the refactor" });
        if (name !== undefined) await a.savePoint(name);
      },
    },
    { id: "timeline.history", category: "Timeline", title: "Show All Checkpoints", enabled: ready, run: () => a.showPane("checkpoints") },
    { id: "agent.models", category: "Preferences", title: "Models and API Keys", enabled: ready, run: a.models },
    { id: "agent.options", category: "Preferences", title: "Approvals and Budget", enabled: ready, run: a.options },
  ]);
}
