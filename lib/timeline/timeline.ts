/**
 * Timeline operations for one workspace: list a session's ticks, preview any of them (cached
 * until the working tree changes), restore files / conversation / both with an undo, and
 * manage save points. Framework-free; the engine module is passed in (loaded lazily by the UI).
 */
import type { Workspace } from "../checkpoints/engine";
import type { AgentMessage } from "../agent/messages";
import type { ConversationSnapshot } from "../agent/session";
import { buildTimeline, conversationAt, groupTicks, mergeTicks, type Tick } from "./model";
import { fileAtTick, previewTick, type Preview } from "./preview";
import { runChangeCount, runChanges, runFileSides, type RunChanges } from "./run-changes";

type Engine = typeof import("../checkpoints/index");

/** What the timeline needs from an agent session (lib/agent's AgentSession has all of it). */
export interface TimelineSession {
  readonly id: string;
  readonly state: { readonly messages: readonly AgentMessage[]; readonly running: boolean };
  readonly history: {
    restoreFilesTo(ref: string, opts?: { paths?: string[] }): Promise<{ txid: string; changed: { path: string; change: string }[]; savedRef?: string }>;
    undoRestore(txid: string): Promise<{ changed: { path: string; change: string }[] }>;
    rewindConversation(keep: number): ConversationSnapshot;
    restoreConversation(snapshot: ConversationSnapshot): void;
    checkpointsSettled(): Promise<void>;
  };
}

export type RestoreChoice = "files" | "conversation" | "both";

/** A parent's child sessions made by one call (a team's members, a sub-agent), shown as one tick. */
export type ChildGroup = { key: string; title: string; sessionIds: readonly string[] };

export type RestoreOutcome = {
  tick: Tick;
  choice: RestoreChoice;
  /** The files restore's transaction (undo goes through it). */
  txid?: string;
  changed: { path: string; change: string }[];
  /** The conversation before the restore. */
  conversation?: ConversationSnapshot;
  /** The restored turn's prompt, for the composer. */
  prompt?: string;
  /** What was done, when it was not a plain restore ("Undid turn 2 · step 1: editor src/a.ts"). */
  summary?: string;
};

export type TimelineOptions = {
  ws: Workspace;
  engine: () => Promise<Engine>;
  /** Changes whenever the working tree may have changed (the journal's seq): previews are cached per value. */
  version: () => number;
  now?: () => number;
};

const SAVE_NAME_MAX = 120;

export class Timeline {
  private cache = new Map<string, Promise<Preview>>();
  private cacheVersion = -1;

  constructor(private readonly opts: TimelineOptions) {}

  private get ws() {
    return this.opts.ws;
  }

  /**
   * The session's ticks; with `groups`, each group of its child sessions (a team, a sub-agent)
   * as one more tick: their checkpoints are theirs, but to the user they are one step.
   */
  async ticks(session: Pick<TimelineSession, "id" | "state">, groups: readonly ChildGroup[] = []): Promise<Tick[]> {
    const engine = await this.opts.engine();
    const listOf = (sessionId: string) =>
      engine.listCheckpoints(this.ws, { sessionId }).catch((e: { code?: string }) => {
        if (e?.code === "NOT_A_REPO" || e?.code === "NOT_FOUND") return [];
        throw e;
      });
    const own = buildTimeline(await listOf(session.id), session.state.messages);
    if (groups.length === 0) return own;
    const withCheckpoints = [];
    for (const g of groups) {
      const checkpoints = (await Promise.all(g.sessionIds.map(listOf))).flat();
      withCheckpoints.push({ key: g.key, title: g.title, sessions: g.sessionIds.length, checkpoints });
    }
    return mergeTicks(own, groupTicks(withCheckpoints));
  }

  /** Files that differ between the tick and now. Never writes a working file. */
  preview(ref: string): Promise<Preview> {
    const v = this.opts.version();
    if (v !== this.cacheVersion) {
      this.cache.clear();
      this.cacheVersion = v;
    }
    let p = this.cache.get(ref);
    if (!p) {
      p = this.opts.engine().then((engine) => previewTick(engine, this.ws, ref));
      p.catch(() => this.cache.delete(ref));
      this.cache.set(ref, p);
    }
    return p;
  }

  /** Both sides of a file, for the diff editor (checkpoint ↔ now). */
  async fileDiff(ref: string, path: string, readNow: (path: string) => Promise<Uint8Array | undefined>) {
    return fileAtTick(await this.opts.engine(), this.ws, ref, path, readNow);
  }

  /** Changes between two ticks (who made them is on the tick: `since.by`). */
  async changesBetween(from: string, to: string) {
    const engine = await this.opts.engine();
    return engine.diffCheckpoints(this.ws, from, to);
  }

  async restore(session: TimelineSession, tick: Tick, choice: RestoreChoice): Promise<RestoreOutcome> {
    if (session.state.running) throw new Error("The agent is running: stop it or wait for it to finish before restoring.");
    await session.history.checkpointsSettled();
    const out: RestoreOutcome = { tick, choice, changed: [] };
    if (choice !== "conversation") {
      const r = await session.history.restoreFilesTo(tick.ref);
      out.txid = r.txid;
      out.changed = r.changed;
      await this.markReplaced(session, r, `Before restoring to ${tick.title.toLowerCase()}${tick.detail ? `: ${tick.detail}` : ""}`);
    }
    if (choice !== "files") {
      const { keep, prompt } = conversationAt(tick, session.state.messages);
      out.conversation = session.history.rewindConversation(keep);
      if (prompt !== undefined) out.prompt = prompt;
    }
    this.cache.clear();
    return out;
  }

  /**
   * Undo one step of a turn: only the files that step changed go back to how the previous point
   * had them (one restore transaction, undone like any restore); later edits to other files stay.
   */
  async undoStep(session: TimelineSession, tick: Tick): Promise<RestoreOutcome> {
    if (tick.kind !== "call" || !tick.since) throw new Error("Only a step of a turn can be undone on its own.");
    if (session.state.running) throw new Error("The agent is running: stop it or wait for it to finish before undoing a step.");
    await session.history.checkpointsSettled();
    const engine = await this.opts.engine();
    const paths = (await engine.diffCheckpoints(this.ws, tick.since.ref, tick.ref)).map((e) => e.path);
    const out: RestoreOutcome = { tick, choice: "files", changed: [], summary: `Undid ${tick.title.toLowerCase()}${tick.detail ? ` (${tick.detail})` : ""}` };
    if (paths.length === 0) return out;
    const r = await session.history.restoreFilesTo(tick.since.ref, { paths });
    out.txid = r.txid;
    out.changed = r.changed;
    await this.markReplaced(session, r, `Before undoing ${tick.title.toLowerCase()}${tick.detail ? `: ${tick.detail}` : ""}`);
    this.cache.clear();
    return out;
  }

  /** The state a files restore replaced becomes a tick: going back to it is one more restore away. */
  private async markReplaced(session: TimelineSession, r: { txid: string; savedRef?: string }, label: string): Promise<void> {
    const engine = await this.opts.engine();
    await engine
      .annotateCheckpoint(this.ws, r.savedRef ?? `refs/tabula/restore/${r.txid}`, {
        label: label.slice(0, SAVE_NAME_MAX),
        as: { sessionId: session.id, run: `restore-${r.txid}`, kind: "restore" },
      })
      .catch(() => undefined); // the restore's own saved ref and its undo still hold that state
  }

  /** Undo a restore: the files as they were before it (itself a transaction), and the conversation. */
  async undo(session: TimelineSession, outcome: RestoreOutcome): Promise<{ changed: { path: string; change: string }[] }> {
    let changed: { path: string; change: string }[] = [];
    if (outcome.txid) changed = (await session.history.undoRestore(outcome.txid)).changed;
    if (outcome.conversation) session.history.restoreConversation(outcome.conversation);
    this.cache.clear();
    return { changed };
  }

  /** What turn `run` of the session changed: its checkpoint ↔ the snapshot of what it left. */
  async runChanges(session: Pick<TimelineSession, "id">, run: number): Promise<RunChanges> {
    const engine = await this.opts.engine();
    return runChanges(engine, this.ws, await engine.listCheckpoints(this.ws, { sessionId: session.id }), run);
  }

  /** How many files turn `run` changed (no file is read); undefined when it has no checkpoint. */
  async runChangeCount(session: Pick<TimelineSession, "id">, run: number): Promise<number | undefined> {
    const engine = await this.opts.engine();
    return runChangeCount(engine, this.ws, await engine.listCheckpoints(this.ws, { sessionId: session.id }), run);
  }

  /** One file before and after the turn, for the diff editor. */
  async runFileDiff(changes: RunChanges, path: string, readNow: (path: string) => Promise<Uint8Array | undefined>) {
    return runFileSides(await this.opts.engine(), this.ws, changes, path, readNow);
  }

  /**
   * Put `paths` (default: every file the turn changed) back as they were before the turn, in one
   * restore transaction that touches nothing else. The state it replaces becomes a tick, and the
   * returned txid undoes it.
   */
  async revertRunChanges(session: TimelineSession, changes: RunChanges, paths?: string[]): Promise<{ txid: string; changed: { path: string; change: string }[] }> {
    if (session.state.running) throw new Error("The agent is running: stop it or wait for it to finish before reverting.");
    const targets = paths ?? changes.files.map((f) => f.path);
    if (targets.length === 0) return { txid: "", changed: [] };
    const known = new Set(changes.files.map((f) => f.path));
    const stray = targets.find((p) => !known.has(p));
    if (stray) throw new Error(`Turn ${changes.run} did not change ${stray}.`);
    await session.history.checkpointsSettled();
    const r = await session.history.restoreFilesTo(changes.startRef, { paths: targets });
    await this.markReplaced(session, r, `Before reverting ${paths && paths.length === 1 ? paths[0] : `turn ${changes.run}'s changes`}`);
    this.cache.clear();
    return { txid: r.txid, changed: r.changed };
  }

  /** Undo a revert (or any files restore) by its transaction. */
  async undoFiles(session: TimelineSession, txid: string) {
    const r = await session.history.undoRestore(txid);
    this.cache.clear();
    return r;
  }

  /** A save point of the working tree now. */
  async savePoint(sessionId: string, name?: string, pinned = false) {
    const engine = await this.opts.engine();
    const at = (this.opts.now ?? Date.now)();
    const label = name?.replace(/\s+/g, " ").trim().slice(0, SAVE_NAME_MAX) || undefined;
    return engine.createCheckpoint(this.ws, { sessionId, run: `save-${at.toString(36)}`, kind: "save", label, pinned });
  }

  async rename(ref: string, name: string) {
    const engine = await this.opts.engine();
    return engine.annotateCheckpoint(this.ws, ref, { label: name.replace(/\s+/g, " ").trim().slice(0, SAVE_NAME_MAX) });
  }

  async pin(ref: string, pinned: boolean) {
    const engine = await this.opts.engine();
    return engine.annotateCheckpoint(this.ws, ref, { pinned });
  }
}
