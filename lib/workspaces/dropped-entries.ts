/**
 * Reads what was dropped from the desktop (a DataTransfer's items) as import entries, folders
 * walked recursively through the File and Directory Entries API. Kept apart from the DOM's own
 * types (shapes only) so Node tests can hand it a fake tree.
 *
 * The entries must be taken from the items synchronously, in the drop event itself: the
 * browser empties the DataTransfer once the handler returns.
 */
import type { ImportEntry } from "./import-entries";

export interface FileLike {
  name: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}
export interface EntryLike {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  file?(ok: (f: FileLike) => void, fail: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: EntryLike[]) => void, fail: (e: unknown) => void): void };
}
export interface ItemLike {
  kind: string;
  webkitGetAsEntry?(): EntryLike | null;
  getAsFile(): FileLike | null;
}

/** Taken in the drop handler: an entry (folders walkable) where the browser gives one, else the file. */
export function takeDropped(items: ArrayLike<ItemLike>): (EntryLike | FileLike)[] {
  const out: (EntryLike | FileLike)[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.kind !== "file") continue;
    const entry = item.webkitGetAsEntry?.() ?? null;
    const file = entry ? null : item.getAsFile();
    if (entry) out.push(entry);
    else if (file) out.push(file);
  }
  return out;
}

/** takeDropped for a drop event's DataTransfer (the DOM's entry types are these shapes). */
export function takeFromTransfer(dt: DataTransfer): (EntryLike | FileLike)[] {
  return takeDropped(dt.items as unknown as ArrayLike<ItemLike>);
}

const isEntry = (x: EntryLike | FileLike): x is EntryLike => "isDirectory" in x;

function readAll(dir: EntryLike): Promise<EntryLike[]> {
  // readEntries answers in chunks (100 at a time in Chromium) until it answers none.
  const reader = dir.createReader!();
  const all: EntryLike[] = [];
  return new Promise((resolve, reject) => {
    const next = () =>
      reader.readEntries((chunk) => {
        if (chunk.length === 0) resolve(all);
        else {
          all.push(...chunk);
          next();
        }
      }, reject);
    next();
  });
}

/** Every file under what was dropped, with its path relative to the drop ("folder/sub/a.txt"). */
export async function readDropped(dropped: (EntryLike | FileLike)[], limit = 50_000): Promise<ImportEntry[]> {
  const out: ImportEntry[] = [];
  const visit = async (x: EntryLike | FileLike, prefix: string): Promise<void> => {
    if (out.length > limit) throw new Error(`Too many files dropped (more than ${limit}).`);
    if (!isEntry(x)) {
      out.push({ path: prefix + x.name, data: new Uint8Array(await x.arrayBuffer()) });
      return;
    }
    if (x.isDirectory && x.createReader) {
      const children = await readAll(x);
      if (children.length === 0) return;
      for (const child of children) await visit(child, `${prefix}${x.name}/`);
      return;
    }
    if (x.isFile && x.file) {
      const file = await new Promise<FileLike>((ok, fail) => x.file!(ok, fail));
      out.push({ path: prefix + x.name, data: new Uint8Array(await file.arrayBuffer()) });
    }
  };
  for (const x of dropped) await visit(x, "");
  return out;
}
