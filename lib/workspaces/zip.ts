import { Unzip, UnzipInflate, UnzipPassThrough, strFromU8, strToU8, unzipSync, zip, type UnzipFile, type Zippable } from "fflate";
import type { IsoFs } from "../fs/types";
import type { WorkspaceFs } from "../fs/workspace-fs";
import { formatBytes } from "../editor/file-kind";
import { MAX_IMPORT_FILES, type ImportEntry, type Progress } from "./import-entries";

/**
 * How much a .zip may expand to. The archive's central directory says what each entry holds before
 * anything is inflated: past `warnBytes` the user is asked (with the total), past `maxBytes` the import
 * is refused. The directory can lie, so while inflating every entry is counted and one that grows past
 * what the directory declared is refused too (a zip bomb never reaches memory in full).
 */
export const ZIP_LIMITS = { warnBytes: 50 * 1024 * 1024, maxBytes: 256 * 1024 * 1024 };

export type ZipLimits = typeof ZIP_LIMITS;

export type ZipSummary = { files: number; bytes: number; declared: Map<string, number> };

function assertZipMagic(bytes: Uint8Array) {
  // "PK\x03\x04" (or an empty archive's "PK\x05\x06") is how every zip begins.
  const magic = bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
  if (!magic) throw new Error("This file is not a .zip archive.");
}

/** What the archive's central directory declares, read without inflating a byte. */
export function inspectZip(bytes: Uint8Array): ZipSummary {
  assertZipMagic(bytes);
  const declared = new Map<string, number>();
  let total = 0;
  try {
    unzipSync(bytes, {
      filter: (f) => {
        if (!f.name.endsWith("/")) {
          if (declared.has(f.name)) throw new Error(`it holds "${f.name.slice(0, 100)}" twice`);
          declared.set(f.name, f.originalSize);
          total += f.originalSize;
        }
        return false;
      },
    });
  } catch (error) {
    throw new Error(`The .zip archive is damaged: ${(error as Error).message}`);
  }
  return { files: declared.size, bytes: total, declared };
}

export type ZipVerdict = { verdict: "ok" } | { verdict: "confirm"; message: string } | { verdict: "refuse"; message: string };

/** Whether an archive of this size is imported as is, asked about, or refused. */
export function judgeZipSize(summary: ZipSummary, limits: ZipLimits = ZIP_LIMITS): ZipVerdict {
  const what = `${formatBytes(summary.bytes)} in ${summary.files.toLocaleString("en")} ${summary.files === 1 ? "file" : "files"}`;
  if (summary.files > MAX_IMPORT_FILES) return { verdict: "refuse", message: `The archive holds ${summary.files} files; the limit is ${MAX_IMPORT_FILES}.` };
  if (summary.bytes > limits.maxBytes)
    return { verdict: "refuse", message: `The archive expands to ${what}; this browser imports at most ${formatBytes(limits.maxBytes)}.` };
  if (summary.bytes > limits.warnBytes)
    return { verdict: "confirm", message: `This archive expands to ${what}. Importing it takes that much of this browser's storage and a while to write.` };
  return { verdict: "ok" };
}

/** Slices fed to the inflater: deflate expands at most ~1032×, so one slice inflates to at most ~4 MB before it is counted
 * (the inflater's buffers grow by a few times that: 16 KB slices measured ~48 MB of transient memory). */
const SLICE = 4 * 1024;

/**
 * Read a .zip into import entries, streaming: refused before inflating when the directory declares more
 * than `limits.maxBytes`, and refused as soon as an entry inflates past what the directory declared for it
 * (or an entry appears that the directory does not list).
 */
export async function readZip(bytes: Uint8Array, limits: Pick<ZipLimits, "maxBytes"> = ZIP_LIMITS): Promise<ImportEntry[]> {
  const summary = inspectZip(bytes);
  const verdict = judgeZipSize(summary, { warnBytes: Infinity, maxBytes: limits.maxBytes });
  if (verdict.verdict === "refuse") throw new Error(verdict.message);

  const entries: ImportEntry[] = [];
  let failure: Error | undefined;
  const open: UnzipFile[] = [];
  const fail = (error: Error) => {
    failure ??= error;
    for (const f of open) f.terminate();
  };
  const unzipper = new Unzip((file) => {
    if (failure) return;
    if (file.name.endsWith("/")) return;
    const declared = summary.declared.get(file.name);
    if (declared !== undefined) summary.declared.delete(file.name); // each listed entry is read once
    if (declared === undefined) return fail(new Error(`The .zip archive is damaged: "${file.name.slice(0, 100)}" is not in its directory (or appears twice).`));
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, chunk, final) => {
      if (failure) return;
      if (error) return fail(new Error(`The .zip archive is damaged: ${error.message}`));
      size += chunk.byteLength;
      if (size > declared)
        return fail(new Error(`"${file.name.slice(0, 100)}" expands to more than the ${formatBytes(declared)} the archive declares: refusing it (a zip bomb?).`));
      chunks.push(chunk);
      if (final) {
        if (size !== declared) return fail(new Error(`The .zip archive is damaged: "${file.name.slice(0, 100)}" is shorter than declared.`));
        entries.push({ path: file.name, data: concat(chunks, size) });
      }
    };
    open.push(file);
    try {
      file.start();
    } catch (error) {
      fail(new Error(`The .zip archive uses a compression method this browser cannot read (${(error as Error).message}).`));
    }
  });
  unzipper.register(UnzipPassThrough);
  unzipper.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length && !failure; at += SLICE) {
      unzipper.push(bytes.subarray(at, at + SLICE), at + SLICE >= bytes.length);
      if ((at / SLICE) % 256 === 255) await new Promise((r) => setTimeout(r, 0)); // let the page breathe
    }
  } catch (error) {
    fail(new Error(`The .zip archive is damaged: ${(error as Error).message}`));
  }
  if (failure) throw failure;
  return entries;
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let pos = 0;
  for (const c of chunks) {
    out.set(c, pos);
    pos += c.byteLength;
  }
  return out;
}

/**
 * Zip the working tree, with progress while files are read. `withHistory` adds the repository
 * (`.git`: history, branches, tags, remotes, the index), so that the archive unpacks into a
 * clone native git takes as it is; the checkpoint engine's private data (`.git/tabula/`,
 * `refs/tabula/`) stays out.
 */
export async function exportZip(wsfs: WorkspaceFs, onProgress?: Progress, opts: { withHistory?: boolean } = {}): Promise<Uint8Array> {
  const paths = await wsfs.listFiles("");
  const gitFiles = opts.withHistory ? await listGitDir(wsfs.fs, wsfs.dir) : [];
  const total = paths.length + gitFiles.length;
  const tree: Zippable = {};
  let done = 0;
  for (const path of paths) {
    tree[path] = [await wsfs.readFile(path), { level: 6 }];
    done++;
    if (onProgress && (done % 10 === 0 || done === total)) onProgress(done, total, path);
  }
  const root = wsfs.dir.endsWith("/") ? wsfs.dir.slice(0, -1) : wsfs.dir;
  // Directory entries git needs even when empty (refs packed away): without refs/ it is no repository.
  if (opts.withHistory) for (const d of [".git/refs/heads", ".git/refs/tags", ".git/objects"]) tree[d] = {};
  for (const rel of gitFiles) {
    let data = asBytes(await wsfs.fs.promises.readFile(`${root}/${rel}`));
    if (rel === ".git/packed-refs") data = strToU8(strFromU8(data).split("\n").filter((l) => !/ refs\/tabula\//.test(l)).join("\n"));
    // Packs and loose objects are compressed already.
    tree[rel] = [data, { level: rel.startsWith(".git/objects/") ? 0 : 6 }];
    done++;
    if (onProgress && (done % 10 === 0 || done === total)) onProgress(done, total, rel);
  }
  return new Promise((resolve, reject) =>
    zip(tree, { level: 6 }, (error, data) => (error ? reject(error) : resolve(data))),
  );
}

/** Every file under `.git` but the checkpoint engine's own, as ".git/…" paths. */
async function listGitDir(fs: IsoFs, dir: string): Promise<string[]> {
  const root = dir.endsWith("/") ? dir.slice(0, -1) : dir;
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    if (rel === ".git/tabula" || rel === ".git/refs/tabula") return;
    let names: string[];
    try {
      names = (await fs.promises.readdir(`${root}/${rel}`)) as string[];
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const child = `${rel}/${name}`;
      const st = await fs.promises.lstat(`${root}/${child}`);
      if (st.isDirectory()) await walk(child);
      else if (st.isFile()) out.push(child);
    }
  };
  await walk(".git");
  return out;
}

function asBytes(data: unknown): Uint8Array {
  return typeof data === "string" ? strToU8(data) : (data as Uint8Array);
}
