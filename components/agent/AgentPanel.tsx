"use client";
import { useEffect, useMemo, useRef, useState } from "react";
import { formatCost, textOf, type AgentSession } from "@/lib/agent";
import type { ImageAttachment } from "@/lib/agent/images";
import { isBusy } from "@/lib/agent/panel-state";
import { downloadBytes, safeFileName } from "@/components/common/download";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import type { PreviewController } from "@/lib/preview/controller";
import { useAgent } from "./useAgent";
import { Transcript } from "./Transcript";
import { ApprovalCard } from "./ApprovalCard";
import { QuestionCard } from "./QuestionCard";
import { Composer } from "./Composer";
import { ProviderSettingsDialog } from "./ProviderSettings";
import { SessionHistory } from "./SessionHistory";
import { AgentSettings } from "./AgentSettings";
import { ReviewPanel } from "./ReviewPanel";
import { MODE_IDS, SWITCH_MODES, modeLabel, planApprovedPrompt, planRejectedPrompt, reviewChangesPrompt, reviewFromMessages, EMPTY_REVIEW, type ReviewState } from "@/lib/modes";
import { listBranches } from "@/lib/git";
import { changedFiles } from "@/lib/workspaces/tree-model";
import { useTimeline, checkpointWorkspace } from "@/components/timeline/useTimeline";
import { TimelineBar, tickText } from "@/components/timeline/TimelineBar";
import { TimelinePreview } from "@/components/timeline/TimelinePreview";
import { RunChangesView } from "@/components/timeline/RunChangesView";
import { useRunChanges } from "@/components/timeline/useRunChanges";
import { usePromptQueue } from "./usePromptQueue";
import { QueuedPrompts } from "./QueuedPrompts";
import { WorkspaceHistory } from "@/components/timeline/WorkspaceHistory";
import { ShareDialog } from "@/components/share/ShareDialog";
import { usePlugins } from "@/components/plugins/usePlugins";
import { PluginsPanel } from "@/components/plugins/PluginsPanel";
import { TrustBanner } from "@/components/plugins/WorkspaceTrust";
import { useAgentCommands } from "./useAgentCommands";
import { useWaitingTitle } from "./useWaitingTitle";
import { RulesSettings } from "./RulesSettings";
import { useMentionSupport } from "./useMentionSupport";
import { useOrchestrationView } from "@/components/orchestrate/useOrchestrationView";
import { SubAgentLink, subAgentTitle } from "@/components/orchestrate/SubAgentLink";

/** Download the session as a git bundle (its checkpoints, a snapshot of now, the transcript, the branch). */
async function exportSession(session: AgentSession, ws: ReturnType<typeof checkpointWorkspace>) {
  await session.history.checkpointsSettled();
  const [engine, share] = await Promise.all([import("@/lib/checkpoints"), import("@/lib/share/session-bundle")]);
  const out = await share.exportSessionBundle(engine, ws, session.toJSON());
  downloadBytes(out.bundle, `${safeFileName(session.state.title || "session")}.bundle`);
}

/** What fills the panel's middle: the conversation, or one of the lists that can take its place. */
type Pane = "transcript" | "plugins" | "checkpoints" | "sessions";

/** The agent panel: transcript, approvals, composer, model and usage. It renders events and forwards intent. */
export default function AgentPanel(props: {
  ws: WorkspaceState;
  readOnly: boolean;
  openFile: (path: string) => void;
  openEditDiff: (path: string, unifiedDiff: string) => void;
  /** A Monaco diff of two texts (a checkpoint ↔ now). */
  openTextDiff: (path: string, original: string, modified: string, title: string) => void;
  openAt: (path: string, line: number) => void;
  /** The session's review findings, for the editor's decorations. */
  onReview: (review: ReviewState) => void;
  /** The workspace's web preview, for the agent's `preview` tool. */
  preview?: PreviewController;
}) {
  const agent = useAgent(props.ws, props.preview);
  const { session, live } = agent;
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [pane, setPane] = useState<Pane>("transcript");
  const togglePane = (p: Pane) => setPane((cur) => (cur === p ? "transcript" : p));
  const [optionsOpen, setOptionsOpen] = useState(false);
  const [reviewBase, setReviewBase] = useState("");
  const [draft, setDraft] = useState<{ text: string; nonce: number; append?: boolean }>();
  const [focus, setFocus] = useState<{ messageId: string; nonce: number }>();
  const [timelineError, setTimelineError] = useState<string>();
  const [exporting, setExporting] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const plugins = usePlugins(props.ws, session, agent.settings);
  // Every run waits for the session's plugins: their guards must be in place before its first call.
  const send = (text: string, images?: ImageAttachment[]) => void plugins.whenReady().then(() => agent.send(text, images));
  const tl = useTimeline(props.ws, session, live.revision, agent.childGroups);
  const rc = useRunChanges(props.ws, session, tl.timeline);
  const queue = usePromptQueue(session, isBusy(live.phase), send);
  const mentions = useMentionSupport(props.ws, session);
  const orchestration = useOrchestrationView(agent.orchestrations, session, isBusy(live.phase), send, (id) => agent.children.byId(id));
  const checkpointWs = useMemo(() => checkpointWorkspace(props.ws), [props.ws.wsfs, props.ws.meta.id]); // eslint-disable-line react-hooks/exhaustive-deps
  const [branches, setBranches] = useState<string[]>([]);
  useEffect(() => {
    if (session?.state.mode !== "review") return;
    listBranches({ fs: props.ws.wsfs.fs, dir: props.ws.wsfs.dir })
      .then((b) => setBranches(b.map((x) => x.name)))
      .catch(() => setBranches([]));
  }, [session?.state.mode, props.ws.wsfs, props.ws.branch]);

  const prompts = useMemo(
    () => (session ? session.state.messages.filter((m) => m.role === "user" && (m.kind ?? "prompt") === "prompt").map(textOf) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [session, live.revision],
  );

  const review = useMemo(
    () => (session ? reviewFromMessages(session.state.messages, session.state.findingStatus) : EMPTY_REVIEW),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [session, live.revision],
  );
  const { onReview } = props;
  useEffect(() => {
    onReview(review);
  }, [review, onReview]);

  const exportNow = () => {
    if (!session) return;
    setExporting(true);
    exportSession(session, checkpointWs)
      .catch((e: Error) => setTimelineError(`Export failed: ${e.message}`))
      .finally(() => {
        setExporting(false);
        tl.reload();
      });
  };
  const root = useRef<HTMLDivElement>(null);
  useAgentCommands({
    session,
    running: isBusy(live.phase),
    readOnly: props.readOnly,
    root,
    newSession: () => void agent.newSession(),
    setMode: agent.setMode,
    showPane: setPane,
    share: () => setShareOpen(true),
    exportSession: exportNow,
    models: () => setSettingsOpen(true),
    options: () => setOptionsOpen(true),
    savePoint: tl.savePoint,
  });

  useWaitingTitle(live.phase.kind === "awaitingApproval" || live.phase.kind === "awaitingAnswer");

  if (agent.error && !session) return <div className="agent-panel"><div className="banner error" role="alert">{agent.error}</div></div>;
  if (!session) return <div className="agent-panel muted" style={{ padding: 12 }}>Starting the agent…</div>;

  const { phase } = live;
  const running = isBusy(phase);
  const usage = session.state.usage;
  const tokens = usage.inputTokens + usage.outputTokens;

  return (
    <div className="agent-panel" aria-label="Agent" ref={root}>
      <div className="agent-header">
        <strong className="agent-title" title={session.state.title}>{session.state.title || "New session"}</strong>
        <span className="spacer" />

        <button onClick={() => togglePane("plugins")} aria-pressed={pane === "plugins"} title="Plugins: tools, hooks, commands">
          Plugins
        </button>
        <button onClick={() => togglePane("sessions")} aria-pressed={pane === "sessions"} title="Sessions of this workspace">
          History
        </button>
        <button onClick={() => void agent.newSession()} title="Start a new session">
          New
        </button>
        <button disabled={running || props.readOnly} onClick={() => setShareOpen(true)} title="Publish a read-only link to this session (you see exactly what is shared first)">
          Share
        </button>
        <button
          disabled={running || exporting}
          onClick={exportNow}
          title="Download this session as a git bundle: files, checkpoints and conversation (git clone reads it; Import session opens it)"
        >
          Export
        </button>
        <button onClick={() => setSettingsOpen(true)} title="Models and API keys">
          Models
        </button>
        <button onClick={() => setOptionsOpen(!optionsOpen)} aria-pressed={optionsOpen} title="Approvals and budget">
          ⚙
        </button>
      </div>
      {optionsOpen && <AgentSettings session={session} />}
      {optionsOpen && <RulesSettings ws={props.ws} wsfs={session.deps.wsfs} activePath={props.ws.docs.active} trustDecision={plugins.trust.decision} onTrust={plugins.trustWorkspace} />}
      <div className="agent-meter" data-testid="usage-meter">
        <span data-testid="model-label">{agent.modelLabel}</span>
        <span className="spacer" />
        <span title={`${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.requests} requests`}>
          {tokens.toLocaleString()} tokens ·{" "}
          {usage.costUsd === undefined && usage.requests > 0 ? <span title="This model has no price: enter one under Models to count its cost and enforce a budget">unknown price</span> : formatCost(usage.costUsd)}
        </span>
      </div>
      <TimelineBar
        ticks={tl.ticks}
        selected={tl.selected}
        onSelect={(i) => {
          setPane((cur) => (cur === "checkpoints" ? "transcript" : cur));
          tl.select(i);
        }}
        onSavePoint={tl.savePoint}
        onHistory={() => togglePane("checkpoints")}
        historyOpen={pane === "checkpoints"}
        disabled={props.readOnly}
      />
      <TrustBanner trust={plugins.trust} onTrust={plugins.trustWorkspace} onStayRestricted={plugins.stayRestricted} onRevoke={plugins.revokeTrust} onAccept={plugins.acceptChanges} />
      {tl.lastRestore && (
        <div className="banner" role="status" data-testid="restore-banner">
          {tl.lastRestore.summary ?? `Restored ${tl.lastRestore.choice === "both" ? "files and conversation" : tl.lastRestore.choice} to ${tickText(tl.lastRestore.tick)}`}
          {tl.lastRestore.choice !== "conversation" ? ` (${tl.lastRestore.changed.length} file${tl.lastRestore.changed.length === 1 ? "" : "s"} changed)` : ""}.{" "}
          <button
            disabled={tl.busy || running}
            onClick={() =>
              void tl.undo().catch((e: Error) => setTimelineError(`Undo failed, nothing was changed: ${e.message}`))
            }
          >
            Undo restore
          </button>
          <button className="link" aria-label="Dismiss" onClick={tl.dismissRestore}>
            ×
          </button>
        </div>
      )}
      {agent.error && (
        <div className="banner error" role="alert" data-testid="agent-error">
          {agent.error}{" "}
          <button className="link" aria-label="Dismiss" onClick={agent.clearError}>
            ×
          </button>
        </div>
      )}
      {timelineError && (
        <div className="banner error" role="alert">
          {timelineError}{" "}
          <button className="link" onClick={() => setTimelineError(undefined)}>
            ×
          </button>
        </div>
      )}
      {tl.tick && pane !== "checkpoints" && (
        <TimelinePreview
          tick={tl.tick}
          preview={tl.preview}
          error={tl.previewError}
          laterMessages={tl.dimFrom === undefined ? 0 : Math.max(0, session.state.messages.length - tl.dimFrom)}
          running={running}
          busy={tl.busy}
          readOnly={props.readOnly}
          changesSince={(a, b) => tl.timeline.changesBetween(a, b)}
          onOpenDiff={(path) => {
            const t = tl.tick!;
            tl.timeline
              .fileDiff(t.ref, path, async (p) => ((await props.ws.wsfs.exists(p)) ? props.ws.wsfs.readFile(p) : undefined))
              .then((d) => {
                if (d.binary) throw new Error(`${path} is binary: no text diff.`);
                props.openTextDiff(path, d.then, d.now, `${path.split("/").pop()} (${t.title} ↔ now)`);
              })
              .catch((e: Error) => setTimelineError(e.message));
          }}
          onRestore={async (choice) => {
            const out = await tl.restore(tl.tick!, choice);
            if (out?.prompt !== undefined) setDraft({ text: out.prompt, nonce: Date.now() });
          }}
          onUndoStep={tl.tick.kind === "call" ? () => tl.undoStep(tl.tick!) : undefined}
          onShowRunChanges={(run) => {
            tl.select(null);
            rc.open(run);
          }}
          onRename={tl.tick.kind === "save" ? (name) => tl.rename(tl.tick!.ref, name) : undefined}
          onPin={tl.tick.kind === "save" ? (pinned) => tl.pin(tl.tick!.ref, pinned) : undefined}
        />
      )}
      {rc.openRun !== undefined && pane === "transcript" && (
        <RunChangesView
          rc={rc}
          review={session.state.runs.find((r) => r.run === rc.openRun)?.review?.outcome}
          running={running}
          readOnly={props.readOnly}
          onOpenDiff={(path) => {
            const c = rc.changes;
            if (!c) return;
            tl.timeline
              .runFileDiff(c, path, async (p) => ((await props.ws.wsfs.exists(p)) ? props.ws.wsfs.readFile(p) : undefined))
              .then((d) => {
                if (d.binary) throw new Error(`${path} is binary: no text diff.`);
                props.openTextDiff(path, d.before, d.after, `${path.split("/").pop()} (before turn ${c.run} ↔ ${c.endRef ? "after" : "now"})`);
              })
              .catch((e: Error) => setTimelineError(e.message));
          }}
        />
      )}
      {pane === "plugins" ? (
        <PluginsPanel
          statuses={plugins.statuses}
          logs={plugins.logs}
          onToggle={(name, on) => void plugins.setEnabled(name, on)}
          onInPage={plugins.setInPage}
          trust={plugins.trust}
          onTrustWorkspace={plugins.trustWorkspace}
          onStayRestricted={plugins.stayRestricted}
          onRevokeTrust={plugins.revokeTrust}
          onAcceptChanges={plugins.acceptChanges}
          onAddMcp={plugins.addMcpServer}
          onRemoveMcp={plugins.removeMcpServer}
          onInstall={(f) => void plugins.install(f)}
          onUninstall={plugins.uninstall}
          onReload={plugins.reload}
        />
      ) : pane === "checkpoints" ? (
        <WorkspaceHistory
          ws={checkpointWs}
          sessions={agent.history
            .map((h) => ({ id: h.id, title: h.title }))
            .concat(agent.history.some((h) => h.id === session.id) ? [] : [{ id: session.id, title: session.state.title }])
            .concat(agent.childHistory.map((c) => ({ id: c.id, title: `Sub-agent: ${c.title}` })))}
          currentSessionId={session.id}
          readOnly={props.readOnly}
          onOpen={async (e) => {
            setPane("transcript");
            // A sub-agent's or team member's point shows on its parent's timeline, inside the group's tick.
            const parentId = agent.childHistory.find((c) => c.id === e.sessionId)?.parent?.sessionId;
            const target = parentId ?? e.sessionId;
            if (target !== session.id) await agent.openSession(target);
            if (!parentId) tl.selectRef(e.ref);
          }}
        />
      ) : pane === "sessions" ? (
        <SessionHistory
          sessions={agent.history}
          currentId={session.id}
          search={agent.searchHistory}
          onOpen={async (id) => {
            await agent.openSession(id);
            setPane("transcript");
          }}
          onOpenAt={async (id, messageId) => {
            if (id !== session.id) await agent.openSession(id);
            setPane("transcript");
            setFocus({ messageId, nonce: Date.now() });
          }}
          onDelete={(id) => void agent.deleteSession(id)}
        />
      ) : (
        <Transcript
          session={session}
          live={live}
          onOpenFile={props.openFile}
          onOpenDiff={props.openEditDiff}
          renderProposal={orchestration.renderProposal}
          renderAfterTool={(c) => (c.toolName === "delegate" ? <SubAgentLink registry={agent.children} parentId={session.id} toolCallId={c.toolCallId} title={subAgentTitle(c.input)} /> : null)}
          renderAfterPlan={orchestration.renderTeam}
          onPlanDecision={(d, toolCallId) => {
            if (d.kind === "team") orchestration.runPlan(toolCallId, d.plan);
            else if (d.kind === "approve") {
              // The user's click is the only way from Plan to Act.
              agent.setMode("act");
              send(planApprovedPrompt(d.brief));
            } else {
              send(planRejectedPrompt(d.feedback));
            }
          }}
          onFork={(id) => void agent.fork(id)}
          onRerun={props.readOnly ? undefined : (id, restoreFiles) => void agent.forkAndRerun(id, restoreFiles)}
          onEditResend={(id, text, restoreFiles) => void agent.editAndResend(id, text, restoreFiles)}
          dimFrom={tl.dimFrom}
          focus={focus}
          renderRunEnd={(run) => {
            if (rc.lastRun?.run !== run) return null;
            const review = session.state.runs.find((r) => r.run === run)?.review?.outcome;
            return (
              <div className="notice-line run-changes-line" data-testid="run-changes-line">
                Turn {run} changed {rc.lastRun.files} file{rc.lastRun.files === 1 ? "" : "s"}
                {review ? ` · ${review}` : ""}{" "}
                <button className="link" aria-expanded={rc.openRun === run} onClick={() => (rc.openRun === run ? rc.close() : rc.open(run))}>
                  Review changes
                </button>
              </div>
            );
          }}
        />
      )}
      {session.state.mode === "review" && !running && (
        <div className="row" style={{ padding: "4px 8px" }}>
          <button
            onClick={() => {
              const changed = changedFiles(props.ws.decorations, props.ws.tree);
              send(reviewChangesPrompt({ base: reviewBase || undefined, changed }));
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
      {(review.findings.length > 0 || review.verdict) && <ReviewPanel review={review} onOpen={props.openAt} onDecide={props.readOnly ? undefined : (id, status) => session.setFindingStatus(id, status)} />}
      <div className="agent-pending">
        {phase.kind === "awaitingApproval" &&
          phase.approvals.map((e) => (
            <ApprovalCard
              key={e.approvalId}
              event={e}
              onApprove={(prefix) => session.approve(e.approvalId, prefix ? { alwaysAllowPrefix: prefix } : {})}
              onReject={(feedback) => session.reject(e.approvalId, feedback)}
              onOpenDiff={props.openFile}
            />
          ))}
        {phase.kind === "awaitingAnswer" && phase.questions.map((e) => <QuestionCard key={e.questionId} event={e} onAnswer={(t) => session.answer(e.questionId, t)} />)}
      </div>
      {props.readOnly && <div className="banner">This tab is read-only: the agent runs in the tab that edits this workspace.</div>}
      <QueuedPrompts queue={queue} running={running} onEdit={(text) => setDraft({ text, nonce: Date.now(), append: true })} />
      <Composer
        running={running}
        disabled={props.readOnly}
        history={prompts}
        commands={session.extensions.slashCommands}
        onSend={(text, images) => send(text, images)}
        onQueue={props.readOnly ? undefined : queue.add}
        onStop={() => session.stop()}
        onToggleMode={() => agent.setMode(session.state.mode === "plan" ? "act" : "plan")}
        draft={draft}
        mentions={mentions}
        modeSwitch={
        <div className="mode-toggle" role="radiogroup" aria-label="Mode">
          {/* The switch's modes, then Review (the system sets it too: Review changes, or a pull-request-like review). */}
          {[...SWITCH_MODES, ...MODE_IDS.filter((m) => !SWITCH_MODES.includes(m))].map((m) => (
            <button key={m} role="radio" aria-checked={session.state.mode === m} title="Shift+Tab in the prompt box switches" onClick={() => agent.setMode(m)}>
              {modeLabel(m)}
            </button>
          ))}
        </div>
        }
      />
      {shareOpen && <ShareDialog session={session} ws={checkpointWs} secrets={() => agent.settings.secrets()} onClose={() => setShareOpen(false)} />}
      {settingsOpen && <ProviderSettingsDialog store={agent.settings} onClose={() => setSettingsOpen(false)} onSaved={() => void agent.reloadModel()} />}
    </div>
  );
}
