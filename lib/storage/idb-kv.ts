/**
 * A tiny key-value store over one IndexedDB object store.
 * The IDBFactory is passed in so that the core never touches `indexedDB` at import time
 * and tests can hand in fake-indexeddb. Writes resolve once committed (see IdbConnection).
 */
import { IdbConnection } from "./idb-connection";

export interface KeyValueStore<T> {
  get(key: string): Promise<T | undefined>;
  put(key: string, value: T): Promise<void>;
  delete(key: string): Promise<void>;
  all(): Promise<T[]>;
}

export function openKeyValueStore<T>(idb: IDBFactory, dbName: string, storeName: string): KeyValueStore<T> & { close(): void } {
  const db = new IdbConnection(idb, dbName, 1, (database) => {
    if (!database.objectStoreNames.contains(storeName)) database.createObjectStore(storeName);
  });
  return {
    get: (key) => db.run(storeName, "readonly", `Reading ${key}`, (tx) => tx.objectStore(storeName).get(key) as Promise<T | undefined>),
    put: (key, value) =>
      db.run(storeName, "readwrite", `Saving ${key}`, async (tx) => {
        await tx.objectStore(storeName).put(value, key);
      }),
    delete: (key) => db.run(storeName, "readwrite", `Deleting ${key}`, (tx) => tx.objectStore(storeName).delete(key)),
    all: () => db.run(storeName, "readonly", `Reading ${dbName}`, (tx) => tx.objectStore(storeName).getAll() as Promise<T[]>),
    close: () => db.close(),
  };
}
