/**
 * Operations on a session's past (`session.history`): clear, compact, rewind the conversation and
 * put it back, restore the files to a checkpoint and undo that, edit a past prompt and send it
 * again, and the data a fork starts from. None runs while a run is in progress.
 */
import { applyCompaction, compactNow, toSummarize, type CompactionReport } from "./compaction";
import { sessionSummarizer } from "./compaction-writer";
import type { Budget } from "./budget";
import type { ImageAttachment } from "./images";
import { newSessionId } from "./ids";
import { estimateTokens } from "./messages";
import type { RunCheckpoints } from "./run-checkpoints";
import { clone, type SessionCore } from "./session-core";
import type { ConversationSnapshot, SessionData } from "./session-types";
import { emptyUsage, type CheckpointEntry, type RunResult } from "./types";

type Changed = { path: string; change: string }[];

export class SessionHistory {
  constructor(
    private readonly core: SessionCore,
    private readonly checkpoints: RunCheckpoints,
    private readonly budget: Budget,
    private readonly run: (prompt: string, opts: { signal?: AbortSignal; images?: readonly ImageAttachment[] }) => Promise<RunResult>,
  ) {}

  /** Resolves when every checkpoint being taken has landed (and is recorded on the session). */
  checkpointsSettled(): Promise<void> {
    return this.checkpoints.settled();
  }

  /** Clear the conversation (checkpoints and usage stay). */
  clear(): void {
    const core = this.core;
    core.assertIdle("clear the conversation");
    core.messages = [];
    core.compaction = undefined;
    core.touch();
    core.emit({ type: "session-updated", what: "cleared" });
  }

  /**
   * Fold the conversation so far into a summary for the model (/compact): written by the model
   * when it can, the mechanical summary otherwise (`fallback` says why). Its request is charged
   * to the session.
   */
  async compact(opts: { signal?: AbortSignal } = {}): Promise<CompactionReport | { summarizedMessages: 0 }> {
    const core = this.core;
    core.assertIdle("compact");
    const r = compactNow(core.messages, core.now());
    if (!r) return { summarizedMessages: 0 };
    const summarize = sessionSummarizer(core, { signal: opts.signal, charge: (u) => this.budget.charge(undefined, u) });
    const written = summarize ? await summarize(toSummarize(core.messages, r.state, core.compaction)) : {};
    if (written.summary) r.state.summary = written.summary;
    const before = estimateTokens(core.messages);
    const after = applyCompaction(core.messages, r.state);
    core.compaction = r.state;
    core.touch();
    const report: CompactionReport = {
      reason: "manual",
      summarizedMessages: r.summarized,
      tokensBefore: before,
      tokensAfter: after ? estimateTokens(after.messages) : before,
      by: r.state.summary ? "model" : "mechanical",
      ...(written.fallback ? { fallback: written.fallback } : {}),
    };
    core.emit({ type: "compaction", ...report });
    return report;
  }

  /** Restore the files to the last run's checkpoint (/undo). */
  async undoLastRun(): Promise<{ ref: string; txid: string; changed: Changed } | undefined> {
    this.core.assertIdle("undo");
    await this.checkpoints.settled();
    const last = this.core.checkpoints[this.core.checkpoints.length - 1];
    if (!last) return undefined;
    return this.restoreFiles(last);
  }

  /** Undo a restore (files back to how they were before it). */
  async undoRestore(txid: string): Promise<{ changed: Changed }> {
    this.core.assertIdle("undo the restore");
    const r = await this.core.deps.checkpoints.undoRestore(txid);
    this.core.emit({ type: "files-restored", ref: `refs/tabula/restore/${txid}`, txid: r.txid, changed: r.changed });
    return { changed: r.changed };
  }

  /**
   * Put the files back as they were at a checkpoint (any ref or oid the engine resolves: a run,
   * a save point, a restore's saved state), or only `paths` (files or folders) of it.
   * Transactional; `undoRestore(txid)` reverses it.
   */
  async restoreFilesTo(ref: string, opts: { paths?: string[] } = {}): Promise<{ ref: string; txid: string; changed: Changed; savedRef?: string }> {
    this.core.assertIdle("restore files");
    await this.checkpoints.settled();
    const r = await this.core.deps.checkpoints.restore(ref, opts.paths ? { paths: opts.paths } : undefined);
    this.core.emit({ type: "files-restored", ref, txid: r.txid, changed: r.changed });
    return { ref, txid: r.txid, changed: r.changed, savedRef: r.savedRef };
  }

  /** Record that the user reviewed run `run`'s changes as a whole (Keep all / Revert all); `undefined` clears it. */
  markReviewed(run: number, outcome: "kept" | "reverted" | undefined): void {
    const core = this.core;
    const rec = core.runs.find((r) => r.run === run);
    if (!rec) throw new Error(`No run ${run} in this session`);
    if (outcome) rec.review = { outcome, at: core.now() };
    else delete rec.review;
    core.touch();
    core.emit({ type: "session-updated", what: "runs" });
  }

  /**
   * Cut the conversation back to its first `keep` messages (checkpoints, usage and run records
   * stay). Returns what `restoreConversation` needs to undo it.
   */
  rewindConversation(keep: number): ConversationSnapshot {
    const core = this.core;
    core.assertIdle("restore the conversation");
    if (!Number.isInteger(keep) || keep < 0) throw new Error("keep must be a non-negative integer");
    const snapshot: ConversationSnapshot = { messages: clone(core.messages), compaction: core.compaction ? { ...core.compaction } : undefined };
    core.messages = core.messages.slice(0, keep);
    core.dropStaleCompaction();
    core.touch();
    core.emit({ type: "session-updated", what: "messages" });
    return snapshot;
  }

  /** Put back a conversation saved by `rewindConversation`. */
  restoreConversation(snapshot: ConversationSnapshot): void {
    const core = this.core;
    core.assertIdle("restore the conversation");
    core.messages = clone(snapshot.messages);
    core.compaction = snapshot.compaction ? { ...snapshot.compaction } : undefined;
    core.touch();
    core.emit({ type: "session-updated", what: "messages" });
  }

  /**
   * Edit a past prompt and send it again: the conversation is cut back to before that prompt;
   * with `restoreFiles`, the workspace first goes back to that turn's checkpoint.
   */
  async editAndResend(messageId: string, text: string, opts: { restoreFiles?: boolean; signal?: AbortSignal } = {}): Promise<RunResult> {
    const core = this.core;
    core.assertIdle("edit a prompt");
    const idx = core.messages.findIndex((m) => m.id === messageId);
    const msg = core.messages[idx];
    if (!msg || msg.role !== "user" || (msg.kind ?? "prompt") !== "prompt") throw new Error("Only a prompt you sent can be edited");
    if (opts.restoreFiles) {
      await this.checkpoints.settled();
      const entry = core.checkpoints.find((c) => c.messageId === messageId) ?? core.checkpoints.find((c) => c.run === msg.run);
      if (!entry) throw new Error("That turn has no checkpoint to restore the files to");
      await this.restoreFiles(entry);
    }
    core.messages = core.messages.slice(0, idx);
    core.dropStaleCompaction();
    core.touch();
    core.emit({ type: "session-updated", what: "messages" });
    // The prompt's images go again with the edited text.
    return this.run(text, { signal: opts.signal, images: msg.images });
  }

  /**
   * What re-running the prompt `messageId` in a new session needs: the message a fork ends at
   * (the one before the prompt; none for the first prompt: the fork starts empty), the prompt
   * and its images, and the turn's checkpoint (to put the files back first, when asked).
   */
  rerunPlan(messageId: string): { forkAt?: string; prompt: string; images?: ImageAttachment[]; checkpointRef?: string } {
    const core = this.core;
    const idx = core.messages.findIndex((m) => m.id === messageId);
    const msg = core.messages[idx];
    if (!msg || msg.role !== "user" || (msg.kind ?? "prompt") !== "prompt") throw new Error("Only a prompt you sent can be run again");
    const entry = core.checkpoints.find((c) => c.messageId === messageId) ?? core.checkpoints.find((c) => c.run === msg.run);
    const plan: { forkAt?: string; prompt: string; images?: ImageAttachment[]; checkpointRef?: string } = { prompt: msg.content.map((p) => p.text).join("") };
    if (idx > 0) plan.forkAt = core.messages[idx - 1]!.id;
    if (msg.images?.length) plan.images = msg.images;
    if (entry) plan.checkpointRef = entry.ref;
    return plan;
  }

  private async restoreFiles(entry: CheckpointEntry) {
    const r = await this.core.deps.checkpoints.restore(entry.ref);
    const out = { ref: entry.ref, txid: r.txid, changed: r.changed };
    this.core.emit({ type: "files-restored", ...out });
    return out;
  }
}

/**
 * The data a fork of this session starts from: the conversation up to and including
 * `messageId` (with that message's tool results), the checkpoints up to that run, the same mode
 * and settings, a new id; usage and run records start empty.
 */
export function forkData(core: SessionCore, messageId: string, overrides: { title?: string; mode?: SessionData["mode"] }): SessionData {
  const idx = core.messages.findIndex((m) => m.id === messageId);
  if (idx === -1) throw new Error(`No message ${messageId} in this session`);
  let end = idx;
  if (core.messages[idx]!.role === "assistant") while (end + 1 < core.messages.length && core.messages[end + 1]!.role === "tool") end++;
  const kept = core.messages.slice(0, end + 1);
  const maxRun = Math.max(0, ...kept.map((m) => m.run ?? 0));
  const now = core.now();
  const data: SessionData = {
    version: 1,
    id: newSessionId(now),
    workspaceId: core.workspaceId,
    title: overrides.title ?? `Fork of ${core.title || "session"}`,
    mode: overrides.mode ?? core.mode,
    createdAt: now,
    updatedAt: now,
    messages: kept,
    checkpoints: core.checkpoints.filter((c) => c.run <= maxRun),
    usage: emptyUsage(),
    runs: [],
    // Run numbers stay unique across the fork's checkpoint refs.
    runCount: core.runCount,
    approvals: core.approvals,
    forkedFrom: { sessionId: core.id, messageId },
  };
  if (core.budgetUsd !== undefined) data.budgetUsd = core.budgetUsd;
  if (Object.keys(core.findingStatus).length) data.findingStatus = { ...core.findingStatus };
  if (core.compaction && kept.some((m) => m.id === core.compaction!.throughId)) data.compaction = { ...core.compaction };
  return data;
}
