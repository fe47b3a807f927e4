/**
 * One IndexedDB database, opened on demand through `idb` (promises that settle when a
 * transaction really commits). The IDBFactory is passed in: `indexedDB` in the browser,
 * fake-indexeddb in tests; nothing here touches a browser global at import time.
 *
 * - A write resolves when its transaction has committed, never when a request succeeded: a
 *   quota abort after the request is a rejected write, with a StorageError that says so.
 * - A failed open is not remembered: the next call tries again.
 * - When another tab needs a newer version (an upgrade of the app), this connection closes at
 *   once instead of blocking it, and is reopened on next use.
 */
import { wrap, type IDBPDatabase, type IDBPTransaction } from "idb";

export type Upgrade = (db: IDBPDatabase, oldVersion: number, tx: IDBPTransaction<unknown, string[], "versionchange">) => void;

/** A storage operation that did not happen, in words a person can act on. */
export class StorageError extends Error {
  constructor(
    message: string,
    /** The browser ran out of storage for this origin. */
    readonly quota = false,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = "StorageError";
  }
}

/** Turn an IndexedDB error (DOMException, abort) into a StorageError about `what`. */
export function storageError(err: unknown, what: string): StorageError {
  if (err instanceof StorageError) return err;
  const name = (err as { name?: string } | null)?.name ?? "";
  const detail = (err as { message?: string } | null)?.message || name || String(err);
  if (name === "QuotaExceededError" || /quota/i.test(detail)) {
    return new StorageError(`Browser storage is full: ${what} was not saved. Free some space (delete old workspaces or checkpoints) and try again.`, true, err);
  }
  if (name === "VersionError") {
    return new StorageError(`${what} failed: a newer version of Tabula has upgraded this browser's storage. Reload the tab.`, false, err);
  }
  if (name === "AbortError" || name === "") return new StorageError(`${what} failed: the browser aborted the write (${detail}). Nothing was changed.`, false, err);
  return new StorageError(`${what} failed: ${detail}`, false, err);
}

export class IdbConnection {
  private current: Promise<IDBPDatabase> | null = null;
  /** The connection `current` resolved to, to tell its events from an older one's. */
  private raw: IDBDatabase | null = null;

  constructor(
    private readonly idb: IDBFactory,
    readonly name: string,
    readonly version: number,
    private readonly upgrade: Upgrade,
  ) {}

  open(): Promise<IDBPDatabase> {
    if (this.current) return this.current;
    const opening = this.openOnce();
    this.current = opening;
    opening.catch(() => {
      if (this.current === opening) this.current = null;
    });
    return opening;
  }

  private openOnce(): Promise<IDBPDatabase> {
    return new Promise<IDBPDatabase>((resolve, reject) => {
      let request: IDBOpenDBRequest;
      try {
        request = this.idb.open(this.name, this.version);
      } catch (err) {
        reject(storageError(err, `Opening ${this.name}`));
        return;
      }
      let settled = false;
      request.addEventListener("upgradeneeded", (event) => {
        this.upgrade(wrap(request.result), event.oldVersion, wrap(request.transaction!) as unknown as IDBPTransaction<unknown, string[], "versionchange">);
      });
      request.addEventListener("blocked", () => {
        settled = true;
        reject(new StorageError(`${this.name} is held open by another Tabula tab running an older version: close that tab, then try again.`));
      });
      request.addEventListener("error", () => {
        if (settled) return;
        settled = true;
        reject(storageError(request.error, `Opening ${this.name}`));
      });
      request.addEventListener("success", () => {
        const raw = request.result;
        // A late success after "blocked" was already reported: nobody holds this connection.
        if (settled) {
          raw.close();
          return;
        }
        settled = true;
        const forget = () => {
          if (this.current && raw === this.raw) this.current = null;
        };
        this.raw = raw;
        raw.addEventListener("versionchange", () => {
          raw.close();
          forget();
        });
        // The browser closed it (storage cleared, disk error): reopen on next use.
        raw.addEventListener("close", forget);
        resolve(wrap(raw));
      });
    });
  }

  /**
   * Run `body` in one transaction over `stores`; resolve with its value once the transaction
   * has committed (readwrite) or completed (readonly). Any failure or abort rejects with a
   * StorageError about `what`.
   */
  async run<T, Mode extends "readonly" | "readwrite">(stores: string | string[], mode: Mode, what: string, body: (tx: IDBPTransaction<unknown, string[], Mode>) => Promise<T> | T): Promise<T> {
    const names = typeof stores === "string" ? [stores] : stores;
    for (let attempt = 0; ; attempt++) {
      let tx: IDBPTransaction<unknown, string[], Mode>;
      try {
        const db = await this.open();
        tx = db.transaction(names, mode);
      } catch (err) {
        // The connection closed between open and use (another tab upgraded): once more.
        if ((err as { name?: string }).name === "InvalidStateError" && attempt === 0) {
          this.current = null;
          continue;
        }
        throw storageError(err, what);
      }
      try {
        const [value] = await Promise.all([Promise.resolve().then(() => body(tx)), tx.done]);
        return value;
      } catch (err) {
        try {
          tx.abort(); // the body failed: none of its requests may commit
        } catch {
          // already finished or aborted
        }
        // The transaction's own error (quota) says more than a request's AbortError.
        throw storageError(txError(tx) ?? err, what);
      }
    }
  }

  close(): void {
    const pending = this.current;
    this.current = null;
    this.raw = null;
    void pending?.then((db) => db.close()).catch(() => undefined);
  }
}

function txError(tx: { readonly error: DOMException | null }): unknown {
  try {
    return tx.error ?? undefined;
  } catch {
    return undefined;
  }
}
