"use client";
import { useMemo, useState } from "react";
import { formatCost, textOf, type AgentEvent } from "@/lib/agent";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import { useAgent } from "./useAgent";
import { Transcript } from "./Transcript";
import { ApprovalCard } from "./ApprovalCard";
import { QuestionCard } from "./QuestionCard";
import { Composer } from "./Composer";
import { ProviderSettingsDialog } from "./ProviderSettings";
import { SessionHistory } from "./SessionHistory";
import { AgentSettings } from "./AgentSettings";
import { ReviewPanel } from "./ReviewPanel";
import { reviewFromMessages, type ReviewState } from "@/lib/modes";
import { useEffect } from "react";
import { listBranches } from "@/lib/git";

/** The agent panel: transcript, approvals, composer, model and usage. It renders events and forwards intent. */
export default function AgentPanel(props: {
  ws: WorkspaceState;
  readOnly: boolean;
  openFile: (path: string) => void;
  openEditDiff: (path: string, unifiedDiff: string) => void;
  openAt: (path: string, line: number) => void;
  /** The session's review findings, for the editor's decorations. */
  onReview: (review: ReviewState) => void;
}) {
  const agent = useAgent(props.ws);
  const { session, live } = agent;
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [optionsOpen, setOptionsOpen] = useState(false);
  const [reviewBase, setReviewBase] = useState("");
  const [branches, setBranches] = useState<string[]>([]);
  useEffect(() => {
    if (session?.mode !== "review") return;
    listBranches({ fs: props.ws.wsfs.fs, dir: props.ws.wsfs.dir })
      .then((b) => setBranches(b.map((x) => x.name)))
      .catch(() => setBranches([]));
  }, [session?.mode, props.ws.wsfs, props.ws.branch]);

  const prompts = useMemo(
    () => (session ? session.messages.filter((m) => m.role === "user" && (m.kind ?? "prompt") === "prompt").map(textOf) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [session, agent.version],
  );

  const review = useMemo(
    () => (session ? reviewFromMessages(session.messages) : { findings: [] }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [session, agent.version],
  );
  const { onReview } = props;
  useEffect(() => {
    onReview(review);
  }, [review, onReview]);

  if (agent.error && !session) return <div className="agent-panel"><div className="banner error" role="alert">{agent.error}</div></div>;
  if (!session) return <div className="agent-panel muted" style={{ padding: 12 }}>Starting the agent…</div>;

  const pending = session.pending;
  const usage = session.usage;
  const tokens = usage.inputTokens + usage.outputTokens;

  return (
    <div className="agent-panel" aria-label="Agent">
      <div className="agent-header">
        <strong className="agent-title" title={session.title}>{session.title || "New session"}</strong>
        <span className="spacer" />

        <button onClick={() => setHistoryOpen(!historyOpen)} aria-pressed={historyOpen} title="Sessions of this workspace">
          History
        </button>
        <button onClick={() => void agent.newSession()} title="Start a new session">
          New
        </button>
        <button onClick={() => setSettingsOpen(true)} title="Models and API keys">
          Models
        </button>
        <button onClick={() => setOptionsOpen(!optionsOpen)} aria-pressed={optionsOpen} title="Approvals and budget">
          ⚙
        </button>
      </div>
      {optionsOpen && <AgentSettings session={session} onChange={agent.bump} />}
      <div className="agent-meter" data-testid="usage-meter">
        <span data-testid="model-label">{agent.modelLabel}</span>
        <span className="spacer" />
        <span title={`${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.requests} requests`}>
          {tokens.toLocaleString()} tokens · {formatCost(usage.costUsd)}
        </span>
      </div>
      {historyOpen ? (
        <SessionHistory
          sessions={agent.history}
          currentId={session.id}
          onOpen={async (id) => {
            await agent.openSession(id);
            setHistoryOpen(false);
          }}
          onDelete={(id) => void agent.deleteSession(id)}
        />
      ) : (
        <Transcript
          session={session}
          live={live}
          version={agent.version}
          onOpenFile={props.openFile}
          onOpenDiff={props.openEditDiff}
          onPlanDecision={(d) => {
            if (d.kind === "approve") {
              // The user's click is the only way from Plan to Act.
              agent.setMode("act");
              void agent.send(`Carry out this approved plan, step by step:\n\n${d.brief}`);
            } else {
              void agent.send(`The plan was rejected. Feedback: ${d.feedback}\nRevise the plan and submit it again with submit_plan.`);
            }
          }}
          onFork={(id) => void agent.fork(id)}
          onEditResend={(id, text, restoreFiles) => void agent.editAndResend(id, text, restoreFiles)}
        />
      )}
      {session.mode === "review" && !session.running && (
        <div className="row" style={{ padding: "4px 8px" }}>
          <button
            onClick={() => {
              const changed = [...props.ws.decorations].filter(([, d]) => d !== "ignored").map(([p]) => p);
              const against = reviewBase ? `the branch ${reviewBase} (use git diff ${reviewBase})` : "HEAD";
              void agent.send(
                `Review the changes in the working tree against ${against}${!reviewBase && changed.length ? ` (changed: ${changed.join(", ")})` : ""}. Record each finding with add_review_node, then publish a verdict with finalize_review.`,
              );
            }}
          >
            Review changes
          </button>
          <select aria-label="Review against" value={reviewBase} onChange={(e) => setReviewBase(e.target.value)}>
            <option value="">against HEAD</option>
            {branches
              .filter((b) => b !== props.ws.branch)
              .map((b) => (
                <option key={b} value={b}>
                  against {b}
                </option>
              ))}
          </select>
        </div>
      )}
      {(review.findings.length > 0 || review.verdict) && <ReviewPanel review={review} onOpen={props.openAt} />}
      <div className="agent-pending">
        {pending.approvals.map((e) =>
          e.type === "approval-requested" ? (
            <ApprovalCard
              key={e.approvalId}
              event={e}
              onApprove={(prefix) => session.approve(e.approvalId, prefix ? { alwaysAllowPrefix: prefix } : {})}
              onReject={(feedback) => session.reject(e.approvalId, feedback)}
              onOpenDiff={props.openFile}
            />
          ) : null,
        )}
        {pending.questions.map((e: AgentEvent) =>
          e.type === "question-asked" ? <QuestionCard key={e.questionId} event={e} onAnswer={(t) => session.answer(e.questionId, t)} /> : null,
        )}
      </div>
      {props.readOnly && <div className="banner">This tab is read-only: the agent runs in the tab that edits this workspace.</div>}
      <Composer
        running={session.running}
        disabled={props.readOnly}
        history={prompts}
        commands={session.slashCommands}
        onSend={(text) => void agent.send(text)}
        onStop={() => session.stop()}
        onToggleMode={() => agent.setMode(session.mode === "plan" ? "act" : "plan")}
        modeSwitch={
        <div className="mode-toggle" role="radiogroup" aria-label="Mode">
          {(["act", "plan", "review"] as const).map((m) => (
            <button key={m} role="radio" aria-checked={session.mode === m} title="Shift+Tab in the prompt box switches" onClick={() => agent.setMode(m)}>
              {m === "act" ? "Act" : m === "plan" ? "Plan" : "Review"}
            </button>
          ))}
        </div>
        }
      />
      {settingsOpen && <ProviderSettingsDialog store={agent.settings} onClose={() => setSettingsOpen(false)} onSaved={() => void agent.reloadModel()} />}
    </div>
  );
}
