/**
 * One writer tab per workspace. Two tabs writing the same lightning-fs database each keep
 * their own in-memory file tree and overwrite each other's superblock, losing files, so the
 * first tab takes a Web Lock and the others open the workspace read-only until the user
 * takes over (which steals the lock and demotes the old writer).
 *
 * The lock manager and channel are injected: the browser passes navigator.locks and
 * BroadcastChannel, tests pass fakes, and nothing is touched at import time.
 */
import type { ChangeEvent } from "./journal";

export type TabRole = "writer" | "reader";

export type LockOptionsLike = { ifAvailable?: boolean; steal?: boolean; mode?: "exclusive" | "shared" };

/** The part of the Web Locks API used here (navigator.locks fits). */
export interface LockManagerLike {
  request(name: string, options: LockOptionsLike, callback: (lock: unknown) => unknown): Promise<unknown>;
  /** Which locks are held (to count the tabs that have a workspace open). */
  query?(): Promise<{ held?: { name?: string }[] }>;
}

/** The part of BroadcastChannel used here; either addEventListener or onmessage suffices. */
export interface BroadcastChannelLike {
  postMessage(message: unknown): void;
  close(): void;
  addEventListener?(type: "message", listener: (event: MessageEvent) => void): void;
}

export type TabCoordinatorOptions = {
  workspaceId: string;
  locks: LockManagerLike;
  channelFactory: (name: string) => BroadcastChannelLike;
  tabId: string;
};

export type TabMessage =
  | { type: "writer-changed"; tabId: string }
  | { type: "changes"; tabId: string; paths: string[] }
  /** Another page is deleting the workspace: stop writing, keep what is needed, then answer. */
  | { type: "workspace-deleting"; tabId: string; requestId: string }
  /** This tab has stopped writing and let go of the workspace's storage. */
  | { type: "released"; tabId: string; requestId: string };

export interface TabCoordinator {
  readonly role: TabRole;
  /** Become the writer if no other tab is; never waits. */
  start(): Promise<TabRole>;
  /** Become the writer, demoting whichever tab holds the lock now. */
  takeOver(): Promise<void>;
  onRoleChange(cb: (role: TabRole) => void): () => void;
  /** Tell the other tabs which paths this (writer) tab changed. */
  broadcastChanges(events: ChangeEvent[]): void;
  onRemoteChanges(cb: (paths: string[]) => void): () => void;
  /**
   * The workspace is being deleted by another page. `cb` must stop every write and keep what
   * the user may want to save (the storage goes once it resolves); the coordinator then lets
   * go of its locks and tells the deleting page, and the tab is done with the workspace.
   */
  onDeleted(cb: () => void | Promise<void>): () => void;
  /** Whether the workspace was deleted while this tab had it open. */
  readonly deleted: boolean;
  /** Release the lock (if held) and close the channel. */
  stop(): void;
}

export function writerLockName(workspaceId: string): string {
  return `tabula-ws-${workspaceId}-writer`;
}

export function channelName(workspaceId: string): string {
  return `tabula-ws-${workspaceId}`;
}

/** Each tab with the workspace open holds one of these locks: held locks count the open tabs. */
export function presenceLockPrefix(workspaceId: string): string {
  return `tabula-ws-${workspaceId}-open-`;
}

/** How many tabs have the workspace open now (undefined: this browser cannot tell). */
export async function countOpenTabs(locks: LockManagerLike, workspaceId: string): Promise<number | undefined> {
  if (typeof locks.query !== "function") return undefined;
  const snapshot = await locks.query();
  const prefix = presenceLockPrefix(workspaceId);
  return new Set((snapshot.held ?? []).map((l) => l.name).filter((n): n is string => typeof n === "string" && n.startsWith(prefix))).size;
}

/**
 * Before deleting a workspace: tell every tab that has it open, and wait until each has stopped
 * writing and kept what it needs (or `timeoutMs` passed). Deleting under an open tab otherwise
 * leaves it writing into storage that is gone (lightning-fs would even create it anew).
 */
export async function announceDeletion(opts: {
  workspaceId: string;
  locks: LockManagerLike;
  channelFactory: (name: string) => BroadcastChannelLike;
  tabId: string;
  timeoutMs?: number;
}): Promise<{ openTabs: number | undefined; released: number }> {
  const openTabs = await countOpenTabs(opts.locks, opts.workspaceId);
  if (openTabs === 0) return { openTabs, released: 0 };
  const requestId = `${opts.tabId}-${Date.now().toString(36)}`;
  const ch = opts.channelFactory(channelName(opts.workspaceId));
  const released = new Set<string>();
  try {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, opts.timeoutMs ?? 10_000);
      const onMessage = (event: { data: unknown }) => {
        const msg = event.data as Partial<TabMessage> | null;
        if (msg?.type !== "released" || msg.requestId !== requestId || typeof msg.tabId !== "string") return;
        released.add(msg.tabId);
        if (openTabs !== undefined && released.size >= openTabs) {
          clearTimeout(timer);
          resolve();
        }
      };
      if (typeof ch.addEventListener === "function") ch.addEventListener("message", onMessage);
      else (ch as { onmessage?: unknown }).onmessage = onMessage;
      ch.postMessage({ type: "workspace-deleting", tabId: opts.tabId, requestId } satisfies TabMessage);
    });
  } finally {
    ch.close();
  }
  return { openTabs, released: released.size };
}

/** What one successful lock request holds; compared by identity to tell stale callbacks. */
type Holding = { release: () => void };

export function createTabCoordinator(opts: TabCoordinatorOptions): TabCoordinator {
  const { locks, tabId } = opts;
  const lockName = writerLockName(opts.workspaceId);
  let role: TabRole = "reader";
  let holding: Holding | null = null;
  let channel: BroadcastChannelLike | null = null;
  let stopped = false;
  const roleListeners = new Set<(role: TabRole) => void>();
  const changeListeners = new Set<(paths: string[]) => void>();
  const deletedListeners = new Set<() => void | Promise<void>>();
  let deleted = false;
  let presence: Holding | null = null;

  /** Hold this tab's presence lock until stop() (countOpenTabs reads it). */
  function holdPresence(): void {
    if (presence) return;
    const mine: Holding = { release: () => undefined };
    presence = mine;
    void Promise.resolve(
      locks.request(presenceLockPrefix(opts.workspaceId) + tabId, {}, () => {
        if (presence !== mine) return undefined;
        return new Promise<void>((release) => (mine.release = () => release()));
      }),
    ).catch(() => undefined);
  }

  async function handleDeletion(requestId: string): Promise<void> {
    if (deleted) return;
    deleted = true;
    // No write from here on: demote first, then let the view keep what it needs.
    const h = holding;
    holding = null;
    h?.release();
    setRole("reader");
    for (const cb of [...deletedListeners]) {
      try {
        await cb();
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
    const p = presence;
    presence = null;
    p?.release();
    channel?.postMessage({ type: "released", tabId, requestId } satisfies TabMessage);
  }

  function setRole(next: TabRole): void {
    if (role === next) return;
    role = next;
    for (const cb of [...roleListeners]) {
      try {
        cb(next);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  function onMessage(event: { data: unknown }): void {
    const msg = event.data as Partial<TabMessage> | null;
    if (!msg || typeof msg !== "object" || msg.tabId === tabId) return;
    if (msg.type === "writer-changed") {
      // Another tab stole the lock. The lock request's rejection says the same, but the
      // message may arrive first, and a reader that keeps writing would corrupt the store.
      const h = holding;
      holding = null;
      h?.release(); // harmless if the lock is already gone; frees it if it somehow is not
      setRole("reader");
    } else if (msg.type === "workspace-deleting" && typeof msg.requestId === "string") {
      void handleDeletion(msg.requestId);
    } else if (msg.type === "changes" && Array.isArray(msg.paths)) {
      const paths = msg.paths.filter((p): p is string => typeof p === "string");
      for (const cb of [...changeListeners]) cb(paths);
    }
  }

  function openChannel(): BroadcastChannelLike {
    if (channel) return channel;
    const ch = opts.channelFactory(channelName(opts.workspaceId));
    if (typeof ch.addEventListener === "function") ch.addEventListener("message", onMessage);
    else (ch as { onmessage?: unknown }).onmessage = onMessage;
    channel = ch;
    return ch;
  }

  /** Request the lock; resolves true once held (kept until released or stolen), false when
   * `ifAvailable` found it taken. */
  function acquire(options: LockOptionsLike): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      let mine: Holding | null = null;
      const request = locks.request(lockName, options, (lock) => {
        if (!lock || stopped) {
          resolve(false);
          return undefined;
        }
        // The lock stays ours for as long as this promise is pending.
        return new Promise<void>((release) => {
          mine = { release: () => release() };
          holding = mine;
          resolve(true);
        });
      });
      Promise.resolve(request).then(
        () => lockEnded(mine),
        (err: unknown) => {
          if (mine) lockEnded(mine); // stolen: the request rejects with an AbortError
          else reject(err);
        },
      );
    });
  }

  function lockEnded(which: Holding | null): void {
    // Only the current holding matters: a release we asked for cleared it already.
    if (!which || holding !== which) return;
    holding = null;
    setRole("reader");
  }

  return {
    get role() {
      return role;
    },

    async start() {
      stopped = false;
      openChannel();
      holdPresence();
      if (holding) return role;
      const got = await acquire({ ifAvailable: true });
      if (got && !stopped) setRole("writer");
      return role;
    },

    async takeOver() {
      if (deleted) return;
      stopped = false;
      const ch = openChannel();
      if (holding && role === "writer") return;
      const got = await acquire({ steal: true });
      if (!got || stopped) return;
      setRole("writer");
      ch.postMessage({ type: "writer-changed", tabId } satisfies TabMessage);
    },

    onRoleChange(cb) {
      roleListeners.add(cb);
      return () => {
        roleListeners.delete(cb);
      };
    },

    broadcastChanges(events) {
      if (!channel || events.length === 0) return;
      const paths = new Set<string>();
      for (const e of events) {
        paths.add(e.path);
        if (e.from !== undefined) paths.add(e.from);
      }
      channel.postMessage({ type: "changes", tabId, paths: [...paths] } satisfies TabMessage);
    },

    onRemoteChanges(cb) {
      changeListeners.add(cb);
      return () => {
        changeListeners.delete(cb);
      };
    },

    onDeleted(cb) {
      deletedListeners.add(cb);
      return () => {
        deletedListeners.delete(cb);
      };
    },

    get deleted() {
      return deleted;
    },

    stop() {
      stopped = true;
      const h = holding;
      holding = null;
      h?.release();
      const p = presence;
      presence = null;
      p?.release();
      role = "reader";
      channel?.close();
      channel = null;
      roleListeners.clear();
      changeListeners.clear();
      deletedListeners.clear();
    },
  };
}
