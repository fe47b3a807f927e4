/**
 * lightning-fs's storage (its `db` option) with group commit: the same object store and keys as
 * its own IdbBackend (`<name>_files`, file bytes under their inode number, the tree under
 * "!root"), so existing workspaces open unchanged and the batched reader (checkpoints'
 * lightning-read.ts) still finds every file.
 *
 * Why not lightning-fs's own: it goes through idb-keyval, which opens one readwrite transaction
 * per call, reads included, so the browser serialises every file operation and commits each on
 * its own (~1 ms a file in Chromium: 10,000 files cost ten seconds to write after a clone, as
 * long to read). Here, while one transaction is in flight, the operations that arrive queue up
 * and go together in the next one, in the order they were made. A lone operation still starts
 * at once (no added latency), a burst shares one commit, and a batch of reads alone runs
 * readonly.
 *
 * Semantics kept from idb-keyval, which the fs relies on: a promise settles only when its
 * transaction has committed (a resolved write is durable), operations apply in call order (a
 * read after a write sees it), and a failure reaches the caller. If a shared transaction fails
 * (a full quota, a value that cannot be stored), its operations are retried one by one, so
 * only the operation that cannot be done fails, exactly as before.
 */

type Key = IDBValidKey;

type Op =
  | { kind: "get"; key: Key; resolve(value: unknown): void; reject(error: unknown): void }
  | { kind: "put"; key: Key; value: unknown; bytes: number; resolve(value: unknown): void; reject(error: unknown): void }
  | { kind: "putMany"; entries: [Key, unknown][]; bytes: number; resolve(value: unknown): void; reject(error: unknown): void }
  | { kind: "delete"; key: Key; resolve(value: unknown): void; reject(error: unknown): void }
  | { kind: "clear"; resolve(value: unknown): void; reject(error: unknown): void };

type OpInput = Op extends infer O ? (O extends Op ? Omit<O, "resolve" | "reject"> : never) : never;

export type BatchLimits = {
  /** Most operations in one transaction. */
  maxOps: number;
  /** Most bytes of written values in one transaction (a larger single value goes alone). */
  maxBytes: number;
};

const DEFAULT_LIMITS: BatchLimits = { maxOps: 2000, maxBytes: 32 * 1024 * 1024 };

/** What a batch did, for tests and benchmarks. */
export type BatchStats = { transactions: number; operations: number; retriedAlone: number };

export class BatchedIdbStore {
  private dbp: Promise<IDBDatabase> | undefined;
  private queue: Op[] = [];
  private pumping = false;
  private idleWaiters: (() => void)[] = [];
  readonly stats: BatchStats = { transactions: 0, operations: 0, retriedAlone: 0 };

  constructor(
    private readonly dbName: string,
    private readonly storeName: string,
    private readonly idb: IDBFactory = globalThis.indexedDB,
    private readonly limits: BatchLimits = DEFAULT_LIMITS,
  ) {}

  // ---- lightning-fs's backend interface (IdbBackend's methods) ----

  saveSuperblock(superblock: unknown): Promise<void> {
    return this.enqueue({ kind: "put", key: "!root", value: superblock, bytes: 0 }) as Promise<void>;
  }

  loadSuperblock(): Promise<unknown> {
    return this.enqueue({ kind: "get", key: "!root" });
  }

  readFile(inode: number): Promise<unknown> {
    return this.enqueue({ kind: "get", key: inode });
  }

  writeFile(inode: number, data: Uint8Array): Promise<void> {
    return this.enqueue({ kind: "put", key: inode, value: data, bytes: data?.byteLength ?? 0 }) as Promise<void>;
  }

  /**
   * Several files' bytes stored together: one transaction holds them all, so either every one
   * is stored or none is (a failed shared transaction retries this group as one). A writer
   * whose second file must never be stored without its first (an object and the ref naming
   * it) pays one commit instead of two.
   */
  writeFiles(files: readonly [inode: number, data: Uint8Array][]): Promise<void> {
    const bytes = files.reduce((sum, [, data]) => sum + (data?.byteLength ?? 0), 0);
    return this.enqueue({ kind: "putMany", entries: files.map(([inode, data]) => [inode, data]), bytes }) as Promise<void>;
  }

  unlink(inode: number): Promise<void> {
    return this.enqueue({ kind: "delete", key: inode }) as Promise<void>;
  }

  wipe(): Promise<void> {
    return this.enqueue({ kind: "clear" }) as Promise<void>;
  }

  /** Close the connection once everything queued has committed; the next operation reopens it. */
  async close(): Promise<void> {
    await this.idle();
    const dbp = this.dbp;
    this.dbp = undefined;
    if (dbp) (await dbp.catch(() => undefined))?.close();
  }

  /** Resolves when nothing is queued or in flight. */
  idle(): Promise<void> {
    if (!this.pumping && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  // ---- the queue ----

  private enqueue(input: OpInput): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...input, resolve, reject } as Op);
      if (!this.pumping) void this.pump();
    });
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      // One microtask's grace: operations made in the same synchronous burst share the first
      // transaction instead of the first going alone.
      await null;
      while (this.queue.length > 0) await this.runBatch(this.takeBatch());
    } finally {
      this.pumping = false;
      const waiters = this.idleWaiters.splice(0);
      for (const w of waiters) w();
    }
  }

  private takeBatch(): Op[] {
    let bytes = 0;
    let n = 0;
    while (n < this.queue.length && n < this.limits.maxOps) {
      const op = this.queue[n]!;
      const size = op.kind === "put" || op.kind === "putMany" ? op.bytes : 0;
      if (n > 0 && bytes + size > this.limits.maxBytes) break;
      bytes += size;
      n++;
    }
    return this.queue.splice(0, n);
  }

  private open(): Promise<IDBDatabase> {
    this.dbp ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = this.idb.open(this.dbName);
      req.onerror = () => reject(req.error);
      req.onsuccess = () => resolve(req.result);
      // First use of this name: the store lightning-fs's own backend would have created.
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains(this.storeName)) req.result.createObjectStore(this.storeName);
      };
    }).catch((error) => {
      this.dbp = undefined;
      throw error;
    });
    return this.dbp;
  }

  /** A transaction over the store; a connection the browser closed under us is reopened once. */
  private async transaction(mode: IDBTransactionMode): Promise<IDBTransaction> {
    try {
      return (await this.open()).transaction(this.storeName, mode);
    } catch (error) {
      if ((error as DOMException)?.name !== "InvalidStateError") throw error;
      this.dbp = undefined;
      return (await this.open()).transaction(this.storeName, mode);
    }
  }

  private async runBatch(batch: Op[]): Promise<void> {
    const outcome = await this.attempt(batch);
    if (outcome.ok) {
      batch.forEach((op, i) => (outcome.failures[i] !== undefined ? op.reject(outcome.failures[i]) : op.resolve(outcome.results[i])));
      return;
    }
    if (batch.length === 1) {
      batch[0]!.reject(outcome.error);
      return;
    }
    // The shared transaction failed: find the operation at fault by doing each alone, in order.
    for (const op of batch) {
      this.stats.retriedAlone++;
      const alone = await this.attempt([op]);
      if (alone.ok && alone.failures[0] === undefined) op.resolve(alone.results[0]);
      else op.reject(alone.ok ? alone.failures[0] : alone.error);
    }
  }

  private async attempt(batch: Op[]): Promise<{ ok: true; results: unknown[]; failures: unknown[] } | { ok: false; error: unknown }> {
    let tx: IDBTransaction;
    try {
      tx = await this.transaction(batch.every((op) => op.kind === "get") ? "readonly" : "readwrite");
    } catch (error) {
      return { ok: false, error };
    }
    this.stats.transactions++;
    this.stats.operations += batch.length;
    const results: unknown[] = new Array(batch.length);
    const failures: unknown[] = new Array(batch.length);
    const store = tx.objectStore(this.storeName);
    batch.forEach((op, i) => {
      try {
        if (op.kind === "get") {
          const req = store.get(op.key);
          req.onsuccess = () => (results[i] = req.result);
        } else if (op.kind === "put") store.put(op.value, op.key);
        else if (op.kind === "putMany") {
          try {
            for (const [key, value] of op.entries) store.put(value, key);
          } catch (error) {
            // Some of the group is queued and the rest cannot be: none of it may commit. The
            // shared transaction goes, and each operation is retried alone (this one fails).
            tx.abort();
            throw error;
          }
        } else if (op.kind === "delete") store.delete(op.key);
        else store.clear();
      } catch (error) {
        // Thrown before it was queued (a value that cannot be cloned): this operation alone fails.
        failures[i] = error;
      }
    });
    return new Promise((resolve) => {
      tx.oncomplete = () => resolve({ ok: true, results, failures });
      tx.onabort = () => resolve({ ok: false, error: tx.error ?? failures.find((f) => f !== undefined) ?? new DOMException("The transaction was aborted", "AbortError") });
    });
  }
}
