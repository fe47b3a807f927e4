"use client";
import { useEffect, useMemo, useSyncExternalStore } from "react";
import type { AgentSession } from "@/lib/agent";
import { PanelStore } from "@/lib/agent/panel-store";
import { Dialog } from "@/components/common/Dialog";
import { Transcript } from "@/components/agent/Transcript";
import { ApprovalCard } from "@/components/agent/ApprovalCard";
import { QuestionCard } from "@/components/agent/QuestionCard";

const ignore = () => undefined;

/**
 * A team member's conversation, read-only, live while it runs. What the child waits for from the
 * user (an edit or a command to approve, a question) is answered here, as in the panel.
 */
export function ChildTranscript(props: { session: AgentSession; title: string; onClose: () => void }) {
  const { session } = props;
  const store = useMemo(() => new PanelStore(), []);
  useEffect(() => store.follow(session), [store, session]);
  const live = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const { phase } = live;
  return (
    <Dialog title={`Transcript: ${props.title}`} onCancel={props.onClose} actions={<button onClick={props.onClose}>Close</button>}>
      <div className="child-transcript">
        <Transcript session={session} live={live} readOnly label={`Transcript of ${props.title}`} onOpenFile={ignore} onOpenDiff={ignore} onPlanDecision={ignore} onFork={ignore} onEditResend={ignore} />
      </div>
      <div className="agent-pending">
        {phase.kind === "awaitingApproval" &&
          phase.approvals.map((e) => (
            <ApprovalCard
              key={e.approvalId}
              event={e}
              onApprove={(prefix) => session.approve(e.approvalId, prefix ? { alwaysAllowPrefix: prefix } : {})}
              onReject={(feedback) => session.reject(e.approvalId, feedback)}
              onOpenDiff={ignore}
            />
          ))}
        {phase.kind === "awaitingAnswer" && phase.questions.map((e) => <QuestionCard key={e.questionId} event={e} onAnswer={(t) => session.answer(e.questionId, t)} />)}
      </div>
    </Dialog>
  );
}
