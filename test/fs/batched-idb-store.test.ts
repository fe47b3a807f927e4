import "fake-indexeddb/auto";
import LightningFS from "@isomorphic-git/lightning-fs";
import { describe, expect, it } from "vitest";
import { BatchedIdbStore } from "../../lib/fs/batched-idb-store";
import { lightningFsName, openLightningFs } from "../../lib/fs/lightning";
import type { IsoFs } from "../../lib/fs/types";
import { sleep, uniqueName } from "./backends";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (v: unknown) => new TextDecoder().decode(v as Uint8Array);

/** Wraps an IDBFactory so that a put of `poison` aborts its transaction (as a full quota would). */
function abortingFactory(poison: unknown): IDBFactory {
  const wrapStore = (store: IDBObjectStore, tx: IDBTransaction) =>
    new Proxy(store, {
      get(target, prop) {
        if (prop === "put")
          return (value: unknown, key?: IDBValidKey) => {
            if (value === poison) {
              const req = target.put(new Uint8Array(1), key);
              req.onsuccess = () => tx.abort();
              return req;
            }
            return target.put(value, key);
          };
        const v = Reflect.get(target, prop) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  const wrapDb = (db: IDBDatabase) =>
    new Proxy(db, {
      get(target, prop) {
        if (prop === "transaction")
          return (names: string | string[], mode?: IDBTransactionMode) => {
            const tx = target.transaction(names, mode);
            return new Proxy(tx, {
              get(t, p) {
                if (p === "objectStore") return (n: string) => wrapStore(t.objectStore(n), t);
                const v = Reflect.get(t, p) as unknown;
                return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(t) : v;
              },
              set(t, p, v) {
                return Reflect.set(t, p, v);
              },
            });
          };
        const v = Reflect.get(target, prop) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  return {
    open(name: string) {
      const req = indexedDB.open(name);
      return new Proxy(req, {
        get(target, prop) {
          if (prop === "result") return wrapDb(target.result);
          const v = Reflect.get(target, prop) as unknown;
          return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
        set(target, prop, value) {
          return Reflect.set(target, prop, value);
        },
      });
    },
  } as unknown as IDBFactory;
}

describe("BatchedIdbStore (lightning-fs's storage with group commit)", () => {
  it("applies operations in call order within a shared transaction: a read sees the write before it", async () => {
    const name = uniqueName("order");
    const store = new BatchedIdbStore(name, name + "_files");
    const results = await Promise.all([
      store.writeFile(1, bytes("a")),
      store.readFile(1),
      store.writeFile(1, bytes("b")),
      store.readFile(1),
      store.unlink(1),
      store.readFile(1),
    ]);
    expect(text(results[1])).toBe("a");
    expect(text(results[3])).toBe("b");
    expect(results[5]).toBeUndefined();
    expect(store.stats).toMatchObject({ transactions: 1, operations: 6 });
  });

  it("a burst of writes shares a few commits, and each resolves only once it is stored", async () => {
    const name = uniqueName("burst");
    const store = new BatchedIdbStore(name, name + "_files");
    const writes: Promise<void>[] = [];
    // Arriving over several ticks, as a clone's checkout does.
    for (let i = 0; i < 500; i++) {
      writes.push(store.writeFile(i, bytes(`file ${i}`)));
      if (i % 50 === 0) await sleep(0);
    }
    await Promise.all(writes);
    expect(store.stats.operations).toBe(500);
    expect(store.stats.transactions).toBeLessThan(30);
    // Another connection (a reload) reads every value back.
    const fresh = new BatchedIdbStore(name, name + "_files");
    const back = await Promise.all(Array.from({ length: 500 }, (_, i) => fresh.readFile(i)));
    expect(back.map(text)).toEqual(Array.from({ length: 500 }, (_, i) => `file ${i}`));
    expect(fresh.stats.transactions).toBeLessThan(5);
  });

  it("a read made while a write's transaction is in flight sees that write", async () => {
    const name = uniqueName("inflight");
    const store = new BatchedIdbStore(name, name + "_files");
    await store.writeFile(7, bytes("old"));
    const write = store.writeFile(7, bytes("new"));
    await Promise.resolve(); // the write's transaction has started
    const read = store.readFile(7);
    await write;
    expect(text(await read)).toBe("new");
  });

  it("respects its limits: a batch never holds more operations or bytes than allowed", async () => {
    const name = uniqueName("limits");
    const store = new BatchedIdbStore(name, name + "_files", indexedDB, { maxOps: 10, maxBytes: 1000 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.writeFile(i, new Uint8Array(300))));
    // 3 values of 300 bytes per batch at most: at least 14 transactions for 40 writes.
    expect(store.stats.transactions).toBeGreaterThanOrEqual(14);
    await store.writeFile(99, new Uint8Array(5000)); // larger than maxBytes alone: still stored
    expect((await store.readFile(99)) as Uint8Array).toHaveLength(5000);
  });

  it("a value that cannot be stored fails alone; the rest of its batch is stored", async () => {
    const name = uniqueName("clone-error");
    const store = new BatchedIdbStore(name, name + "_files");
    const outcome = await Promise.allSettled([store.writeFile(1, bytes("one")), store.writeFile(2, (() => 1) as unknown as Uint8Array), store.writeFile(3, bytes("three"))]);
    expect(outcome.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(text(await store.readFile(1))).toBe("one");
    expect(await store.readFile(2)).toBeUndefined();
    expect(text(await store.readFile(3))).toBe("three");
  });

  it("a shared transaction that aborts (a full quota) is retried one operation at a time: only the culprit fails", async () => {
    const name = uniqueName("abort");
    const poison = new Uint8Array(3);
    const store = new BatchedIdbStore(name, name + "_files", abortingFactory(poison));
    await store.writeFile(2, bytes("before"));
    const outcome = await Promise.allSettled([store.writeFile(1, bytes("one")), store.writeFile(2, poison), store.writeFile(3, bytes("three")), store.readFile(1)]);
    expect(outcome.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(text((outcome[3] as PromiseFulfilledResult<unknown>).value)).toBe("one");
    expect(store.stats.retriedAlone).toBe(4);
    // The failed write left the previous value in place.
    expect(text(await store.readFile(2))).toBe("before");
    expect(text(await store.readFile(3))).toBe("three");
  });

  it("a group of files is stored in one transaction, all or none, even when its batch is retried one by one", async () => {
    const name = uniqueName("group");
    const poison = new Uint8Array(2);
    const store = new BatchedIdbStore(name, name + "_files", abortingFactory(poison));
    await store.writeFile(5, bytes("old five"));
    const before = store.stats.transactions;
    await store.writeFiles([
      [5, bytes("five")],
      [6, bytes("six")],
    ]);
    expect(store.stats.transactions - before).toBe(1);
    expect(text(await store.readFile(5))).toBe("five");
    // A group whose second file aborts its transaction (a full quota): its first is not stored
    // either, while what shared the batch with it is.
    const outcome = await Promise.allSettled([
      store.writeFile(1, bytes("one")),
      store.writeFiles([
        [5, bytes("new five")],
        [7, poison],
      ]),
      store.writeFile(3, bytes("three")),
    ]);
    expect(outcome.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(text(await store.readFile(5))).toBe("five");
    expect(await store.readFile(7)).toBeUndefined();
    expect(text(await store.readFile(1))).toBe("one");
    expect(text(await store.readFile(3))).toBe("three");
    // A value that cannot be stored at all (not cloneable) fails its group the same way.
    await expect(
      store.writeFiles([
        [8, bytes("eight")],
        [9, (() => 1) as unknown as Uint8Array],
      ]),
    ).rejects.toThrow();
    expect(await store.readFile(8)).toBeUndefined();
  });

  it("close waits for what is queued, and the next operation reopens the connection", async () => {
    const name = uniqueName("close");
    const store = new BatchedIdbStore(name, name + "_files");
    const w = store.writeFile(1, bytes("kept"));
    await store.close();
    await w;
    expect(text(await store.readFile(1))).toBe("kept");
    await store.close();
  });
});

describe("lightning-fs over the batched store", () => {
  it("files written concurrently through the workspace fs read back, after a reload too, with lightning-fs's own backend", async () => {
    const id = uniqueName("lfs");
    const fs = openLightningFs(id);
    await fs.promises.mkdir("/src");
    await Promise.all(Array.from({ length: 300 }, (_, i) => fs.promises.writeFile(`/src/f${i}.txt`, `content ${i}\n`, "utf8")));
    await fs.promises.unlink("/src/f7.txt");
    await fs.promises.writeFile("/src/f8.txt", "rewritten\n", "utf8");
    expect(await fs.promises.readFile("/src/f9.txt", "utf8")).toBe("content 9\n");
    await sleep(700); // lightning-fs goes idle: it saves its tree and closes the store
    // The same database opened by lightning-fs's stock backend (idb-keyval) sees the same files.
    const stock = new LightningFS(lightningFsName(id)) as unknown as IsoFs;
    const names = (await stock.promises.readdir("/src")) as string[];
    expect(names).toHaveLength(299);
    expect(names).not.toContain("f7.txt");
    expect(await stock.promises.readFile("/src/f8.txt", "utf8")).toBe("rewritten\n");
    expect(await stock.promises.readFile("/src/f299.txt", "utf8")).toBe("content 299\n");
    await sleep(700);
    // And back: what the stock backend wrote, the batched one reads.
    await stock.promises.writeFile("/src/stock.txt", "from idb-keyval\n", "utf8");
    await sleep(700);
    const again = openLightningFs(id);
    expect(await again.promises.readFile("/src/stock.txt", "utf8")).toBe("from idb-keyval\n");
    expect(((await again.promises.readdir("/src")) as string[]).length).toBe(300);
  });
});

describe("writeFiles: several files in one storage transaction", () => {
  const storeOf = (fs: IsoFs) => (fs.promises as unknown as { _backend: { _idb: BatchedIdbStore } })._backend._idb;

  it("writes new and existing files with one commit; they read back after a reload", async () => {
    const id = uniqueName("group-fs");
    const fs = openLightningFs(id);
    await fs.promises.mkdir("/refs");
    await fs.promises.writeFile("/refs/main", "old\n", "utf8");
    await fs.promises.readFile("/refs/main"); // the store settles
    const before = storeOf(fs).stats.transactions;
    await fs.promises.writeFiles!([
      { path: "/object", data: bytes("commit body") },
      { path: "/refs/main", data: bytes("new\n") },
    ]);
    expect(storeOf(fs).stats.transactions - before).toBe(1);
    expect(await fs.promises.readFile("/refs/main", "utf8")).toBe("new\n");
    await sleep(700); // idle: the tree is saved and the store closed
    const again = openLightningFs(id);
    expect(await again.promises.readFile("/object", "utf8")).toBe("commit body");
    expect(await again.promises.readFile("/refs/main", "utf8")).toBe("new\n");
  });

  it("refuses before changing anything: a missing parent, a directory in the way, a path not normalised", async () => {
    const fs = openLightningFs(uniqueName("group-refuse"));
    await fs.promises.mkdir("/dir");
    const attempt = (path: string) => fs.promises.writeFiles!([{ path: "/first", data: bytes("1") }, { path, data: bytes("2") }]);
    await expect(attempt("/missing/x")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(attempt("/dir")).rejects.toMatchObject({ code: "EISDIR" });
    await expect(attempt("/dir/../x")).rejects.toMatchObject({ code: "EINVAL" });
    await expect(attempt("relative")).rejects.toMatchObject({ code: "EINVAL" });
    await expect(fs.promises.lstat("/first")).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("new inode numbers without a walk of the tree", () => {
  const inos = async (fs: IsoFs, dir: string) => {
    const out = new Map<string, number>();
    for (const n of (await fs.promises.readdir(dir)) as string[]) out.set(n, (await fs.promises.lstat(`${dir}/${n}`)).ino as number);
    return out;
  };

  it("every file and directory gets a number of its own, also after deletes and after another instance wrote in between", async () => {
    const id = uniqueName("ino");
    const a = openLightningFs(id);
    await a.promises.mkdir("/d");
    for (let i = 0; i < 50; i++) await a.promises.writeFile(`/d/f${i}`, `x${i}`, "utf8");
    await a.promises.unlink("/d/f49"); // the highest number in use goes away
    await a.promises.writeFile("/d/new", "n", "utf8");
    let seen = await inos(a, "/d");
    expect(new Set(seen.values()).size).toBe(seen.size);
    expect(seen.get("new")).toBeGreaterThan(Math.max(...[...seen].filter(([n]) => n !== "new").map(([, v]) => v)));
    await sleep(700); // a goes idle and lets go of the lock
    // Another instance (another tab) adds files with numbers a has never seen.
    const b = openLightningFs(id);
    for (let i = 0; i < 20; i++) await b.promises.writeFile(`/d/b${i}`, `b${i}`, "utf8");
    await sleep(700);
    // a wakes up, reloads the tree, and must number above b's files.
    for (let i = 0; i < 20; i++) await a.promises.writeFile(`/d/a${i}`, `a${i}`, "utf8");
    seen = await inos(a, "/d");
    expect(seen.size).toBe(50 + 20 + 20);
    expect(new Set(seen.values()).size).toBe(seen.size);
    for (let i = 0; i < 20; i++) {
      expect(await a.promises.readFile(`/d/b${i}`, "utf8")).toBe(`b${i}`);
      expect(await a.promises.readFile(`/d/a${i}`, "utf8")).toBe(`a${i}`);
    }
  });
});
