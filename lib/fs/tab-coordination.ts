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
  | { type: "changes"; tabId: string; paths: string[] };

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
  /** Release the lock (if held) and close the channel. */
  stop(): void;
}

export function writerLockName(workspaceId: string): string {
  return `tabula-ws-${workspaceId}-writer`;
}

export function channelName(workspaceId: string): string {
  return `tabula-ws-${workspaceId}`;
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
      if (holding) return role;
      const got = await acquire({ ifAvailable: true });
      if (got && !stopped) setRole("writer");
      return role;
    },

    async takeOver() {
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

    stop() {
      stopped = true;
      const h = holding;
      holding = null;
      h?.release();
      role = "reader";
      channel?.close();
      channel = null;
      roleListeners.clear();
      changeListeners.clear();
    },
  };
}
