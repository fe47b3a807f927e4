"use client";
import { useState, useSyncExternalStore, type ReactNode } from "react";
import type { AgentSession, ToolCallPart, ToolResultPart } from "@/lib/agent";
import type { Plan } from "@/lib/modes";
import type { Proposal } from "@/lib/orchestrate";
import type { Orchestrations } from "./orchestrations";
import { ProposalCard } from "./ProposalCard";
import { TeamView } from "./TeamView";

/**
 * What the transcript shows for Orchestrate mode: a proposal's card (answered only by its
 * buttons) with its team under it once approved, and the team a plan card started. Re-renders
 * on every inbox event and every new team.
 */
export function useOrchestrationView(
  orch: Orchestrations,
  session: AgentSession | undefined,
  running: boolean,
  send: (text: string) => void,
  openChild: (sessionId: string) => Promise<AgentSession | undefined>,
) {
  useSyncExternalStore(orch.subscribe, orch.getVersion, orch.getVersion);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const dismiss = (id: string) =>
    setErrors((m) => {
      const next = { ...m };
      delete next[id];
      return next;
    });

  const renderTeam = (toolCallId: string): ReactNode => {
    const team = orch.teamFor(toolCallId);
    if (team)
      return (
        <TeamView
          team={team}
          openChild={openChild}
          canRestore={!running && !!session}
          onRestore={() => orch.restoreBefore(session!, team)}
          onUndoRestore={(txid) => orch.undoRestore(session!, txid)}
        />
      );
    const error = errors[toolCallId];
    if (!error) return null;
    return (
      <div className="banner error" role="alert">
        {error}{" "}
        <button className="link" aria-label="Dismiss" onClick={() => dismiss(toolCallId)}>
          ×
        </button>
      </div>
    );
  };

  const renderProposal = (call: ToolCallPart, result: ToolResultPart): ReactNode => {
    const data = result.ui?.data as { proposalId?: unknown } | undefined;
    const id = typeof data?.proposalId === "string" ? data.proposalId : undefined;
    return (
      <>
        <ProposalCard
          proposal={call.input as Proposal}
          status={id ? orch.status(id) : undefined}
          feedback={id ? orch.feedback(id) : undefined}
          disabled={running || !session}
          onApprove={async () => {
            if (session && id) await orch.approve(session, id);
          }}
          onReject={(feedback) => {
            if (!session || !id) return;
            const notice = orch.reject(id, feedback);
            // Feedback is something to act on: the agent revises in a new turn. A bare rejection is only noted.
            if (feedback) send(notice);
            else session.steer(notice);
          }}
        />
        {renderTeam(call.toolCallId)}
      </>
    );
  };

  const runPlan = (toolCallId: string, plan: Plan) => {
    if (!session) return;
    orch.runPlan(session, toolCallId, plan).catch((e: Error) => setErrors((m) => ({ ...m, [toolCallId]: `The plan could not run as a team: ${e.message}` })));
  };

  return { renderProposal, renderTeam, runPlan };
}
