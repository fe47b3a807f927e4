/**
 * The child sessions of a workspace's conversations — sub-agents (`delegate`) and team members —
 * found by their parent's call. A child that runs now is the live session (its transcript moves,
 * its approvals are answered on it); it is saved as it goes, like any session, so after a reload
 * the same call finds it again from the store (read back as a session for reading).
 *
 * Framework-free: the panel holds one per workspace.
 */
import type { AgentSession, SessionData } from "../agent/session";
import { attachAutosave, type Autosave } from "./autosave";
import type { SessionStore } from "./store";

export type ChildSessionsOptions = {
  /** A session made from stored data, for reading its transcript (it is not run). */
  hydrate: (data: SessionData) => AgentSession;
  onSaveError?: (err: unknown) => void;
};

export class ChildSessions {
  private readonly live = new Map<string, { session: AgentSession; autosave: Autosave }>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  constructor(
    private readonly store: SessionStore,
    private readonly workspaceId: string,
    private readonly opts: ChildSessionsOptions,
  ) {}

  /** Keep a new child: saved as it runs, found by its parent's call. */
  adopt(session: AgentSession): void {
    if (!session.parent) throw new Error(`Session ${session.id} has no parent: only a child session is adopted`);
    if (this.live.has(session.id)) return;
    const autosave = attachAutosave(session, this.store, { onError: this.opts.onSaveError });
    this.live.set(session.id, { session, autosave });
    void autosave.flush(); // listed under its parent at once, before its first event
    this.changed();
  }

  /** The live children of one call (several for a team; one for a delegate call). */
  liveFor(parentId: string, toolCallId: string): AgentSession[] {
    return [...this.live.values()].map((l) => l.session).filter((s) => s.parent?.sessionId === parentId && s.parent.toolCallId === toolCallId);
  }

  /** The child made by a call: live if it is, else read back from the store; undefined if there is none. */
  async forCall(parentId: string, toolCallId: string): Promise<AgentSession | undefined> {
    const live = this.liveFor(parentId, toolCallId)[0];
    if (live) return live;
    const meta = (await this.store.childrenOf(this.workspaceId, parentId)).find((m) => m.parent?.toolCallId === toolCallId);
    return meta ? this.byId(meta.id) : undefined;
  }

  /** A child by its session id: live, else read back from the store. */
  async byId(id: string): Promise<AgentSession | undefined> {
    const live = this.live.get(id);
    if (live) return live.session;
    const data = await this.store.load(id);
    return data?.parent ? this.opts.hydrate(data) : undefined;
  }

  /** Save every live child now (the page is going away). */
  async flush(): Promise<void> {
    await Promise.all([...this.live.values()].map((l) => l.autosave.flush()));
  }

  /** Stop following the live children (after a last save); their runs are stopped by whoever owns them. */
  async dispose(): Promise<void> {
    await this.flush();
    for (const l of this.live.values()) l.autosave.detach();
    this.live.clear();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes whenever a child is adopted (for useSyncExternalStore). */
  readonly getVersion = (): number => this.version;

  private changed(): void {
    this.version++;
    for (const l of [...this.listeners]) l();
  }
}
