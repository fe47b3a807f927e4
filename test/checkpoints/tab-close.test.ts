/**
 * A tab closed in the middle of a restore, over lightning-fs + fake-indexeddb. lightning-fs
 * writes file contents to IndexedDB at once but saves its file tree (sizes, times, which inode a
 * path has) 500 ms later, so a closed tab leaves contents newer than the tree that describes
 * them. The next open must still put every file back exactly. The tab's death is taken as a copy
 * of the database at the moment the restore is parked: exactly what IndexedDB holds then.
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import { openNamedLightningFs } from "../../lib/fs/lightning";
import git from "isomorphic-git";
import { __testing, createCheckpoint, recoverInterruptedRestore, restoreCheckpoint } from "../../lib/checkpoints";
import { lightningReadMany } from "../../lib/checkpoints/lightning-read";
import type { IsoFs } from "../../lib/fs/types";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { ChangeJournal } from "../../lib/fs/journal";

(globalThis as { navigator?: unknown }).navigator ??= {};

const enc = new TextEncoder();
const dec = new TextDecoder();
let n = 0;

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** Copy lightning-fs's database `from` (its one object store) into a new one: the tab's last word. */
async function snapshotDb(from: string, to: string): Promise<void> {
  const src = await request(indexedDB.open(from));
  const store = `${from}_files`;
  const tx = src.transaction(store, "readonly");
  const keys = await request(tx.objectStore(store).getAllKeys());
  const values = await request(tx.objectStore(store).getAll());
  src.close();
  const open = indexedDB.open(to, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(`${to}_files`);
  const dst = await request(open);
  const wtx = dst.transaction(`${to}_files`, "readwrite");
  keys.forEach((k, i) => wtx.objectStore(`${to}_files`).put(values[i], k));
  await new Promise<void>((resolve, reject) => {
    wtx.oncomplete = () => resolve();
    wtx.onerror = () => reject(wtx.error);
  });
  dst.close();
}

async function readText(lfs: IsoFs, p: string): Promise<string | null> {
  try {
    return dec.decode((await lfs.promises.readFile(p)) as Uint8Array);
  } catch {
    return null;
  }
}

afterEach(() => {
  __testing.afterRestoreWrite = undefined;
});

describe("a tab closed in the middle of a restore (lightning-fs)", () => {
  for (const parkAfter of [1, 2, 3]) {
    it(`after write ${parkAfter} of 3: the next open puts every file back, the new one included`, async () => {
      const name = `tabula-tabclose-${process.pid}-${Date.now()}-${n++}`;
      const lfs = openNamedLightningFs(name, { wipe: true });
      const dir = "/ws";
      await lfs.promises.mkdir(dir);
      await lfs.promises.mkdir(`${dir}/src`);
      await git.init({ fs: lfs as never, dir, defaultBranch: "main" });
      await lfs.promises.writeFile(`${dir}/README.md`, enc.encode("# readme\n"));
      await lfs.promises.writeFile(`${dir}/src/greet.ts`, enc.encode("export const greet = 1;\n"));
      await git.add({ fs: lfs as never, dir, filepath: "." });
      await git.commit({ fs: lfs as never, dir, message: "init", author: { name: "t", email: "t@example.com" } });
      // As the app wires it: the workspace's WorkspaceFs and journal, reads batched from IndexedDB.
      const wsfs = new WorkspaceFs({ fs: lfs, dir, journal: new ChangeJournal() });
      const ws = { fs: wsfs.fs, dir, journal: wsfs.journal, readMany: lightningReadMany(indexedDB, name) };
      const point = await createCheckpoint(ws, { sessionId: "s", run: 1, label: "save" });

      // The user's changes, saved from the editor: two edits and a new file.
      await wsfs.writeFile("README.md", "MINE # readme\n", { origin: "user" });
      await wsfs.writeFile("src/greet.ts", "// MINE TOO\nexport const greet = 1;\n", { origin: "user" });
      await wsfs.writeFile("new.txt", "brand new", { origin: "user" });
      await lfs.promises.flush?.();

      let parked!: () => void;
      const isParked = new Promise<void>((r) => (parked = r));
      __testing.afterRestoreWrite = (_p: string, count: number) => {
        if (count < parkAfter) return undefined;
        parked();
        return new Promise<never>(() => undefined); // the tab is gone: the restore never goes on
      };
      void restoreCheckpoint(ws, point.ref).catch(() => undefined);
      await isParked;
      const copy = `${name}-after-close`;
      await snapshotDb(name, copy);

      // The next open, on what IndexedDB held when the tab died.
      const reopened = openNamedLightningFs(copy);
      const r = await recoverInterruptedRestore({ fs: reopened, dir, journal: new ChangeJournal(), readMany: lightningReadMany(indexedDB, copy) });
      expect(r?.rolledBack).toBe(true);
      expect(await readText(reopened, `${dir}/README.md`)).toBe("MINE # readme\n");
      expect(await readText(reopened, `${dir}/src/greet.ts`)).toBe("// MINE TOO\nexport const greet = 1;\n");
      expect(await readText(reopened, `${dir}/new.txt`)).toBe("brand new");
    });
  }
});
