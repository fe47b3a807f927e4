/**
 * IndexedDB writes through idb on fake-indexeddb: a write resolves only once committed, an abort
 * after the request succeeded (the browser's quota check runs at commit) is a rejected write with
 * a clear message, a failed open is retried, and a newer version in another tab is not blocked.
 */
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, describe, expect, it } from "vitest";
import { StorageError } from "../../lib/storage/idb-connection";
import { openKeyValueStore } from "../../lib/storage/idb-kv";
import { SessionStore } from "../../lib/sessions/store";
import type { SessionData } from "../../lib/agent/session";

const restore: (() => void)[] = [];
afterEach(() => {
  while (restore.length) restore.pop()!();
});

/**
 * Make every put's request succeed and then abort its transaction with QuotaExceededError, as a
 * browser does when the commit would go over the origin's quota.
 */
function abortPutsAtCommit() {
  const proto = IDBObjectStore.prototype;
  const original = proto.put;
  proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore["put"]>) {
    const request = original.apply(this, args);
    const tx = this.transaction;
    request.addEventListener("success", () => {
      const quota = new DOMException("The quota has been exceeded.", "QuotaExceededError");
      Object.defineProperty(tx, "error", { configurable: true, get: () => quota, set: () => undefined });
      tx.abort();
    });
    return request;
  };
  restore.push(() => {
    proto.put = original;
  });
}

function session(id: string, title = "T"): SessionData {
  return {
    id,
    workspaceId: "ws",
    title,
    mode: "act",
    createdAt: 1,
    updatedAt: 2,
    messages: [],
    runCount: 0,
    usage: {},
  } as unknown as SessionData;
}

describe("key-value store", () => {
  it("round-trips values", async () => {
    const kv = openKeyValueStore<{ n: number }>(new IDBFactory(), "kv", "items");
    await kv.put("a", { n: 1 });
    await kv.put("b", { n: 2 });
    expect(await kv.get("a")).toEqual({ n: 1 });
    expect(await kv.all()).toEqual([{ n: 1 }, { n: 2 }]);
    await kv.delete("a");
    expect(await kv.get("a")).toBeUndefined();
  });

  it("rejects a put whose transaction aborts after the request succeeded, and keeps nothing", async () => {
    const kv = openKeyValueStore<string>(new IDBFactory(), "kv", "items");
    await kv.put("kept", "old");
    abortPutsAtCommit();
    const err = await kv.put("kept", "new").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).quota).toBe(true);
    expect((err as Error).message).toMatch(/^Browser storage is full: Saving kept was not saved/);
    restore.pop()!();
    expect(await kv.get("kept")).toBe("old");
  });

  it("retries an open that failed instead of failing forever", async () => {
    const idb = new IDBFactory();
    // A newer version exists: opening version 1 fails with VersionError.
    await new Promise<void>((resolve, reject) => {
      const r = idb.open("kv", 5);
      r.onsuccess = () => {
        r.result.close();
        resolve();
      };
      r.onerror = () => reject(r.error);
    });
    const kv = openKeyValueStore<string>(idb, "kv", "items");
    await expect(kv.get("x")).rejects.toThrow(/newer version of Tabula .* Reload the tab/);
    await new Promise<void>((resolve) => {
      idb.deleteDatabase("kv").onsuccess = () => resolve();
    });
    await kv.put("x", "works now");
    expect(await kv.get("x")).toBe("works now");
  });

  it("closes on versionchange, so another tab's upgrade is not blocked", async () => {
    const idb = new IDBFactory();
    const kv = openKeyValueStore<string>(idb, "kv", "items");
    await kv.put("a", "1");
    let blocked = false;
    await new Promise<void>((resolve, reject) => {
      const r = idb.open("kv", 2);
      r.onblocked = () => {
        blocked = true;
      };
      r.onsuccess = () => {
        r.result.close();
        resolve();
      };
      r.onerror = () => reject(r.error);
    });
    expect(blocked).toBe(false);
    // This (older) tab now says what to do rather than hanging.
    await expect(kv.get("a")).rejects.toThrow(/Reload the tab/);
  });
});

describe("session store", () => {
  it("rejects a save whose transaction aborts at commit, and the old version stays", async () => {
    const store = new SessionStore(new IDBFactory());
    await store.save(session("s1", "first"));
    abortPutsAtCommit();
    await expect(store.save(session("s1", "second"))).rejects.toThrow(/^Browser storage is full: The session "second" was not saved/);
    restore.pop()!();
    expect((await store.load("s1"))?.title).toBe("first");
    expect((await store.list("ws")).map((m) => m.title)).toEqual(["first"]);
  });

  it("reopens after a failed open and closes on versionchange", async () => {
    const idb = new IDBFactory();
    const store = new SessionStore(idb, { dbName: "sessions-test" });
    await store.save(session("s1"));
    let blocked = false;
    await new Promise<void>((resolve, reject) => {
      const r = idb.open("sessions-test", 7);
      r.onblocked = () => {
        blocked = true;
      };
      r.onsuccess = () => {
        r.result.close();
        resolve();
      };
      r.onerror = () => reject(r.error);
    });
    expect(blocked).toBe(false);
    await expect(store.load("s1")).rejects.toThrow(StorageError);
    await new Promise<void>((resolve) => {
      idb.deleteDatabase("sessions-test").onsuccess = () => resolve();
    });
    await store.save(session("s2"));
    expect((await store.load("s2"))?.id).toBe("s2");
  });
});
