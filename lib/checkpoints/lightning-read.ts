/**
 * A batched reader for workspaces stored in lightning-fs (accelerator for `ws.readMany`).
 *
 * lightning-fs reads each file in its own IndexedDB *readwrite* transaction (idb-keyval's
 * get), so reads never overlap: ~1 ms per file in Chromium, which was most of a cold
 * checkpoint's time at 10,000 files. lightning-fs keeps file bytes in the object store
 * `<name>_files` of the database `<name>`, keyed by inode number (what lstat reports); this
 * reads up to a few hundred of them in one readonly transaction, neighbouring inode numbers with
 * one ranged request. Entries that look stale
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
      const accept = (i: number, v: unknown) => {
        if (v instanceof Uint8Array && v.length === stats[i]!.size) out[i] = v;
      };
      const wanted: number[] = [];
      stats.forEach((st, i) => {
        if (typeof st.ino === "number" && st.isFile()) wanted.push(i);
      });
      for (const run of inodeRuns(wanted, (i) => stats[i]!.ino!)) {
        if (run.length === 1) {
          const i = run[0]!;
          const req = store.get(stats[i]!.ino!);
          req.onsuccess = () => accept(i, req.result);
          continue;
        }
        // One request for a run of neighbouring inodes (files written one after another get
        // consecutive numbers): far fewer requests and events than one get per file. The keys
        // say which value is whose (a deleted file leaves a hole in the range).
        const range = IDBKeyRange.bound(stats[run[0]!]!.ino!, stats[run[run.length - 1]!]!.ino!);
        const keysReq = store.getAllKeys(range);
        const valuesReq = store.getAll(range);
        valuesReq.onsuccess = () => {
          const byIno = new Map<unknown, unknown>();
          const keys = keysReq.result;
          const values = valuesReq.result;
          for (let k = 0; k < keys.length; k++) byIno.set(keys[k], values[k]);
          for (const i of run) accept(i, byIno.get(stats[i]!.ino!));
        };
      }
      tx.oncomplete = () => resolve(out);
      tx.onerror = tx.onabort = () => resolve(out);
    });
  };
}

/** Largest gap between wanted inodes still read as one range (the unwanted ones in it are read and dropped). */
const RUN_GAP = 4;

/** `indices` grouped into runs of nearby inode numbers, each run in inode order. */
export function inodeRuns(indices: number[], inoOf: (i: number) => number): number[][] {
  const sorted = [...indices].sort((a, b) => inoOf(a) - inoOf(b));
  const runs: number[][] = [];
  let cur: number[] = [];
  for (const i of sorted) {
    const last = cur[cur.length - 1];
    if (last !== undefined && inoOf(i) - inoOf(last) > RUN_GAP) {
      runs.push(cur);
      cur = [];
    }
    cur.push(i);
  }
  if (cur.length) runs.push(cur);
  return runs;
}

