import { afterEach, describe, expect, it } from "vitest";
import type { ChangeEvent } from "../../lib/fs/journal";
import {
  announceDeletion,
  countOpenTabs,
  createTabCoordinator,
  writerLockName,
  type BroadcastChannelLike,
  type LockManagerLike,
  type LockOptionsLike,
  type TabCoordinator,
} from "../../lib/fs/tab-coordination";

/** A small exclusive-only Web Locks fake: ifAvailable, steal (the old holder's request rejects
 * with an AbortError), and queueing for plain requests. */
class FakeLocks implements LockManagerLike {
  private held = new Map<string, { reject: (e: unknown) => void }>();
  private waiting = new Map<string, (() => void)[]>();

  request(name: string, options: LockOptionsLike, callback: (lock: unknown) => unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        const holder = { reject };
        this.held.set(name, holder);
        Promise.resolve()
          .then(() => callback({ name, mode: "exclusive" }))
          .then(
            (v) => {
              if (this.held.get(name) === holder) this.releaseLock(name);
              resolve(v);
            },
            (e) => {
              if (this.held.get(name) === holder) this.releaseLock(name);
              reject(e);
            },
          );
      };
      if (options.steal) {
        const prev = this.held.get(name);
        if (prev) {
          this.held.delete(name);
          prev.reject(new DOMException("The lock request was aborted (stolen).", "AbortError"));
        }
        grant();
      } else if (!this.held.has(name)) {
        grant();
      } else if (options.ifAvailable) {
        Promise.resolve()
          .then(() => callback(null))
          .then(resolve, reject);
      } else {
        const q = this.waiting.get(name) ?? [];
        q.push(grant);
        this.waiting.set(name, q);
      }
    });
  }

  isHeld(name: string): boolean {
    return this.held.has(name);
  }

  async query(): Promise<{ held: { name: string }[] }> {
    return { held: [...this.held.keys()].map((name) => ({ name })) };
  }

  private releaseLock(name: string): void {
    this.held.delete(name);
    const next = this.waiting.get(name)?.shift();
    if (next) next();
  }
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

/** Poll until `cond` holds (messages cross a real BroadcastChannel asynchronously). */
async function waitFor(cond: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await tick(5);
  }
}

const ev = (path: string, from?: string): ChangeEvent => ({
  seq: 1,
  kind: from ? "rename" : "write",
  path,
  origin: "user",
  at: 0,
  ...(from ? { from } : {}),
});

describe("tab coordination", () => {
  const made: TabCoordinator[] = [];
  afterEach(() => {
    for (const c of made.splice(0)) c.stop();
  });

  function tab(locks: FakeLocks, tabId: string, workspaceId = "w1"): TabCoordinator {
    const c = createTabCoordinator({
      workspaceId,
      locks,
      channelFactory: (name) => new BroadcastChannel(name) as unknown as BroadcastChannelLike,
      tabId,
    });
    made.push(c);
    return c;
  }

  it("the first tab becomes the writer, the next ones readers", async () => {
    const locks = new FakeLocks();
    const a = tab(locks, "A");
    const b = tab(locks, "B");
    expect(a.role).toBe("reader");
    expect(await a.start()).toBe("writer");
    expect(await b.start()).toBe("reader");
    expect(a.role).toBe("writer");
    expect(b.role).toBe("reader");
    expect(locks.isHeld(writerLockName("w1"))).toBe(true);
    // Another workspace is independent.
    expect(await tab(locks, "C", "w2").start()).toBe("writer");
  });

  it("takeOver steals the lock and demotes the old writer", async () => {
    const locks = new FakeLocks();
    const a = tab(locks, "A");
    const b = tab(locks, "B");
    await a.start();
    await b.start();
    const aRoles: string[] = [];
    const bRoles: string[] = [];
    a.onRoleChange((r) => aRoles.push(r));
    b.onRoleChange((r) => bRoles.push(r));
    await b.takeOver();
    await waitFor(() => a.role === "reader");
    expect(b.role).toBe("writer");
    expect(a.role).toBe("reader");
    expect(aRoles).toEqual(["reader"]);
    expect(bRoles).toEqual(["writer"]);
    // And back again.
    await a.takeOver();
    await waitFor(() => b.role === "reader");
    expect(a.role).toBe("writer");
    expect(b.role).toBe("reader");
  });

  it("the broadcast alone demotes a writer (message arriving before the lock rejection)", async () => {
    const locks = new FakeLocks();
    const a = tab(locks, "A");
    await a.start();
    const other = new BroadcastChannel("tabula-ws-w1");
    other.postMessage({ type: "writer-changed", tabId: "Z" });
    await waitFor(() => a.role === "reader");
    other.close();
    // It gave the lock up, so a newcomer can have it.
    await waitFor(() => !locks.isHeld(writerLockName("w1")));
    expect(await tab(locks, "N").start()).toBe("writer");
  });

  it("stop releases the lock so another tab can become writer", async () => {
    const locks = new FakeLocks();
    const a = tab(locks, "A");
    await a.start();
    a.stop();
    await waitFor(() => !locks.isHeld(writerLockName("w1")));
    expect(locks.isHeld(writerLockName("w1"))).toBe(false);
    expect(await tab(locks, "B").start()).toBe("writer");
  });

  it("broadcasts changed paths to the other tabs only", async () => {
    const locks = new FakeLocks();
    const a = tab(locks, "A");
    const b = tab(locks, "B");
    await a.start();
    await b.start();
    const gotA: string[][] = [];
    const gotB: string[][] = [];
    a.onRemoteChanges((p) => gotA.push(p));
    const off = b.onRemoteChanges((p) => gotB.push(p));
    a.broadcastChanges([ev("x.txt"), ev("new/name", "old/name"), ev("x.txt")]);
    a.broadcastChanges([]);
    await waitFor(() => gotB.length > 0);
    await tick(); // anything else would have arrived by now
    expect(gotB).toEqual([["x.txt", "new/name", "old/name"]]);
    expect(gotA).toEqual([]);
    off();
    a.broadcastChanges([ev("y")]);
    await tick();
    expect(gotB).toHaveLength(1);
  });

  it("works with a channel that only has onmessage", async () => {
    const locks = new FakeLocks();
    const channels: { onmessage?: (e: { data: unknown }) => void; posted: unknown[] }[] = [];
    const c = createTabCoordinator({
      workspaceId: "w9",
      locks,
      tabId: "T",
      channelFactory: () => {
        const ch = {
          posted: [] as unknown[],
          onmessage: undefined as undefined | ((e: { data: unknown }) => void),
          postMessage(m: unknown) {
            this.posted.push(m);
          },
          close() {},
        };
        channels.push(ch);
        return ch;
      },
    });
    made.push(c);
    await c.start();
    const got: string[][] = [];
    c.onRemoteChanges((p) => got.push(p));
    channels[0]!.onmessage!({ data: { type: "changes", tabId: "other", paths: ["a"] } });
    channels[0]!.onmessage!({ data: { type: "changes", tabId: "T", paths: ["mine"] } });
    channels[0]!.onmessage!({ data: "garbage" });
    expect(got).toEqual([["a"]]);
    await c.takeOver(); // already writer: nothing to do
    expect(channels[0]!.posted).toEqual([]);
  });

  describe("a workspace deleted by another page", () => {
    const announce = (locks: FakeLocks, timeoutMs?: number) =>
      announceDeletion({ workspaceId: "w1", locks, tabId: "start-page", timeoutMs, channelFactory: (name) => new BroadcastChannel(name) as unknown as BroadcastChannelLike });

    it("counts the tabs that have the workspace open, readers included", async () => {
      const locks = new FakeLocks();
      expect(await countOpenTabs(locks, "w1")).toBe(0);
      const a = tab(locks, "A");
      const b = tab(locks, "B");
      await a.start();
      await b.start();
      await tab(locks, "C", "w2").start();
      await waitFor(() => locks.isHeld("tabula-ws-w1-open-B"));
      expect(await countOpenTabs(locks, "w1")).toBe(2);
      b.stop();
      await waitFor(() => !locks.isHeld("tabula-ws-w1-open-B"));
      expect(await countOpenTabs(locks, "w1")).toBe(1);
      expect(await countOpenTabs({ request: locks.request.bind(locks) }, "w1")).toBeUndefined();
    });

    it("every open tab stops writing, keeps its state, lets go, and only then does the deletion go on", async () => {
      const locks = new FakeLocks();
      const a = tab(locks, "A");
      const b = tab(locks, "B");
      await a.start();
      await b.start();
      const order: string[] = [];
      let releaseSnapshot!: () => void;
      a.onDeleted(async () => {
        order.push(`A deleted, role ${a.role}`);
        await new Promise<void>((r) => (releaseSnapshot = r)); // e.g. reading the files to keep
        order.push("A kept its state");
      });
      b.onDeleted(() => void order.push(`B deleted, role ${b.role}`));
      await waitFor(() => locks.isHeld("tabula-ws-w1-open-B"));
      const done = announce(locks).then((r) => {
        order.push("announce resolved");
        return r;
      });
      await waitFor(() => order.includes("B deleted, role reader") && order.includes("A deleted, role reader"));
      await tick();
      expect(order).not.toContain("announce resolved");
      // The writer gave up its lock before its state was kept: nothing more is written.
      expect(locks.isHeld(writerLockName("w1"))).toBe(false);
      releaseSnapshot();
      const r = await done;
      expect(r).toEqual({ openTabs: 2, released: 2 });
      expect(order.at(-1)).toBe("announce resolved");
      expect(a.deleted && b.deleted).toBe(true);
      expect(await countOpenTabs(locks, "w1")).toBe(0);
      // A deleted workspace cannot be taken over again from that tab.
      await a.takeOver();
      expect(a.role).toBe("reader");
      expect(locks.isHeld(writerLockName("w1"))).toBe(false);
    });

    it("no open tab: nothing to wait for; a tab that never answers does not hold the deletion forever", async () => {
      const locks = new FakeLocks();
      expect(await announce(locks)).toEqual({ openTabs: 0, released: 0 });
      const a = tab(locks, "A");
      await a.start();
      a.onDeleted(() => new Promise<void>(() => undefined)); // stuck
      const started = Date.now();
      expect(await announce(locks, 200)).toEqual({ openTabs: 1, released: 0 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    });
  });
});
