/**
 * A batched reader for workspaces stored in lightning-fs (accelerator for `ws.readMany`).
 *
 * lightning-fs reads each file in its own IndexedDB *readwrite* transaction (idb-keyval's
 * get), so reads never overlap: ~1 ms per file in Chromium, which was most of a cold
 * checkpoint's time at 10,000 files. lightning-fs keeps file bytes in the object store
 * `<name>_files` of the database `<name>`, keyed by inode number (what lstat reports); this
 * reads up to a few hundred of them in one readonly transaction. Entries that look stale
 * (missing, or not the size lstat reported) come back undefined and the engine reads them
 * through the fs as usual, so correctness never depends on this.
 *
 * Nothing happens at import time; the database is opened on first use and closed when
 * something wants to delete or upgrade it.
 */
import type { IsoFsStat } from "../fs/types";
import type { ReadMany } from "./engine";

export function lightningReadMany(idb: IDBFactory, fsName: string): ReadMany {
  const storeName = fsName + "_files";
  let dbp: Promise<IDBDatabase | null> | undefined;
  const open = (): Promise<IDBDatabase | null> => {
    dbp ??= new Promise((resolve) => {
      const req = idb.open(fsName);
      req.onupgradeneeded = () => req.transaction?.abort(); // no such database: do not create it
      req.onsuccess = () => {
        const db = req.result;
        db.onversionchange = () => {
          db.close();
          dbp = undefined;
        };
        resolve(db.objectStoreNames.contains(storeName) ? db : null);
      };
      req.onerror = () => {
        dbp = undefined;
        resolve(null);
      };
    });
    return dbp;
  };
  return async (paths: string[], stats: IsoFsStat[]) => {
    const out = new Array<Uint8Array | undefined>(paths.length);
    const db = await open();
    if (!db) return out;
    return new Promise((resolve) => {
      let tx: IDBTransaction;
      try {
        tx = db.transaction(storeName, "readonly");
      } catch {
        dbp = undefined;
        resolve(out);
        return;
      }
      const store = tx.objectStore(storeName);
      stats.forEach((st, i) => {
        if (typeof st.ino !== "number" || !st.isFile()) return;
        const req = store.get(st.ino);
        req.onsuccess = () => {
          const v: unknown = req.result;
          if (v instanceof Uint8Array && v.length === st.size) out[i] = v;
        };
      });
      tx.oncomplete = () => resolve(out);
      tx.onerror = tx.onabort = () => resolve(out);
    });
  };
}
