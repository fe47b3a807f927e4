/**
 * A tiny key-value store over one IndexedDB object store.
 * The IDBFactory is passed in so that the core never touches `indexedDB` at import time
 * and tests can hand in fake-indexeddb.
 */
export interface KeyValueStore<T> {
  get(key: string): Promise<T | undefined>;
  put(key: string, value: T): Promise<void>;
  delete(key: string): Promise<void>;
  all(): Promise<T[]>;
}

function promisify<R>(request: IDBRequest<R>): Promise<R> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
}

export function openKeyValueStore<T>(idb: IDBFactory, dbName: string, storeName: string): KeyValueStore<T> {
  let dbPromise: Promise<IDBDatabase> | undefined;
  const db = () => {
    dbPromise ??= new Promise<IDBDatabase>((resolve, reject) => {
      const open = idb.open(dbName, 1);
      open.onupgradeneeded = () => {
        if (!open.result.objectStoreNames.contains(storeName)) open.result.createObjectStore(storeName);
      };
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error ?? new Error(`Cannot open IndexedDB database ${dbName}`));
      open.onblocked = () => reject(new Error(`IndexedDB database ${dbName} is blocked by another tab`));
    });
    return dbPromise;
  };
  const store = async (mode: IDBTransactionMode) => (await db()).transaction(storeName, mode).objectStore(storeName);
  return {
    async get(key) {
      return (await promisify((await store("readonly")).get(key))) as T | undefined;
    },
    async put(key, value) {
      await promisify((await store("readwrite")).put(value, key));
    },
    async delete(key) {
      await promisify((await store("readwrite")).delete(key));
    },
    async all() {
      return (await promisify((await store("readonly")).getAll())) as T[];
    },
  };
}
