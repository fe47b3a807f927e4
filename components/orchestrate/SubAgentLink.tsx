"use client";
import { useEffect, useState, useSyncExternalStore } from "react";
import type { AgentSession } from "@/lib/agent";
import type { ChildSessions } from "@/lib/sessions";
import { ChildTranscript } from "./ChildTranscript";

/**
 * Under a `delegate` call's row: the sub-agent's transcript one click away (live while it runs,
 * read back from the store after a reload), and a sign when the sub-agent waits for the user (an
 * edit or a command to approve, a question), which is answered in that transcript.
 */
export function SubAgentLink(props: { registry: ChildSessions; parentId: string; toolCallId: string; title: string }) {
  const { registry: children, parentId, toolCallId } = props;
  useSyncExternalStore(children.subscribe, children.getVersion, children.getVersion);
  const live = children.liveFor(parentId, toolCallId)[0];
  const [, setTick] = useState(0);
  useEffect(() => live?.subscribe(() => setTick((n) => n + 1)), [live]);
  const [open, setOpen] = useState<AgentSession>();
  const [missing, setMissing] = useState(false);
  const pending = live?.state.running ? live.state.pending : undefined;
  const waiting = !!pending && pending.approvals.length + pending.questions.length > 0;
  return (
    <div className="tool-paths subagent-link" data-testid="subagent-link">
      <button
        className="link"
        aria-label={`Transcript of sub-agent ${props.title}`}
        onClick={async () => {
          const s = live ?? (await children.forCall(parentId, toolCallId));
          if (s) setOpen(s);
          else setMissing(true);
        }}
      >
        Sub-agent transcript
      </button>
      {waiting && (
        <span className="team-state waiting" role="status">
          waiting for you: open its transcript
        </span>
      )}
      {missing && <span className="muted">(its transcript was not kept)</span>}
      {open && <ChildTranscript session={open} title={props.title} onClose={() => setOpen(undefined)} />}
    </div>
  );
}

/** A delegate call's name for its sub-agent: its title, else the start of its brief. */
export function subAgentTitle(input: unknown): string {
  const i = (input ?? {}) as { title?: unknown; brief?: unknown };
  if (typeof i.title === "string" && i.title.trim()) return i.title.trim();
  return typeof i.brief === "string" ? i.brief.replace(/\s+/g, " ").slice(0, 60) : "sub-agent";
}
