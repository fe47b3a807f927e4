/**
 * What a closed tab leaves in IndexedDB, at every moment it could close.
 *
 * A page that goes away keeps every transaction that had committed and loses every one that had
 * not (the browser aborts them). Transactions on one store commit in order, so the states a
 * closed tab can leave are exactly the prefixes of the sequence of committed transactions. This
 * records that sequence (over fake-indexeddb, by wrapping IDBObjectStore's writes) so a test can
 * rebuild the database as it stood after any prefix and open it as the next page would.
 */

type Op = { kind: "put"; key: IDBValidKey; value: unknown } | { kind: "delete"; key: IDBValidKey } | { kind: "clear" };
export type CommittedTx = { db: string; store: string; ops: Op[] };

export class IdbCommitLog {
  readonly committed: CommittedTx[] = [];
  private readonly pending = new Map<IDBTransaction, Map<string, Op[]>>();
  private restore: (() => void) | undefined;

  constructor(private readonly watch: (dbName: string) => boolean) {}

  start(): void {
    const proto = IDBObjectStore.prototype;
    const { put, delete: del, clear } = proto;
    const log = (store: IDBObjectStore, op: Op) => {
      const tx = store.transaction;
      if (!this.watch(tx.db.name)) return;
      let byStore = this.pending.get(tx);
      if (!byStore) {
        byStore = new Map();
        this.pending.set(tx, byStore);
        tx.addEventListener("complete", () => {
          for (const [name, ops] of byStore!) this.committed.push({ db: tx.db.name, store: name, ops });
          this.pending.delete(tx);
        });
        tx.addEventListener("abort", () => this.pending.delete(tx));
      }
      const ops = byStore.get(store.name) ?? [];
      byStore.set(store.name, ops);
      ops.push(op);
    };
    proto.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      // IndexedDB clones the value when put is called: so does the log.
      log(this, { kind: "put", key: key as IDBValidKey, value: structuredClone(value) });
      return put.call(this, value, key);
    };
    proto.delete = function (this: IDBObjectStore, key: IDBValidKey | IDBKeyRange) {
      log(this, { kind: "delete", key: key as IDBValidKey });
      return del.call(this, key);
    };
    proto.clear = function (this: IDBObjectStore) {
      log(this, { kind: "clear" });
      return clear.call(this);
    };
    this.restore = () => Object.assign(proto, { put, delete: del, clear });
  }

  stop(): void {
    this.restore?.();
    this.restore = undefined;
  }

  /** A new database `to` with one store `storeName`, holding what the first `count` committed transactions left. */
  /** Every key and value the first `count` committed transactions left. */
  stateAt(count: number): Map<IDBValidKey, unknown> {
    const state = new Map<IDBValidKey, unknown>();
    for (const tx of this.committed.slice(0, count)) {
      for (const op of tx.ops) {
        if (op.kind === "put") state.set(op.key, op.value);
        else if (op.kind === "delete") state.delete(op.key);
        else state.clear();
      }
    }
    return state;
  }

  async materialize(count: number, to: string, storeName: string): Promise<void> {
    const state = this.stateAt(count);
    const open = indexedDB.open(to, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(storeName);
    const db = await request(open);
    const tx = db.transaction(storeName, "readwrite");
    for (const [k, v] of state) tx.objectStore(storeName).put(structuredClone(v), k);
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
    db.close();
  }
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}
