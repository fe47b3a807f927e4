import { unzip, zip, type Unzipped, type Zippable } from "fflate";
import type { WorkspaceFs } from "../fs/workspace-fs";
import type { ImportEntry, Progress } from "./import-entries";

/** Read a .zip into import entries; a file that is not a zip gets a clear error. */
export async function readZip(bytes: Uint8Array): Promise<ImportEntry[]> {
  // "PK\x03\x04" (or an empty archive's "PK\x05\x06") is how every zip begins.
  const magic = bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
  if (!magic) throw new Error("This file is not a .zip archive.");
  const files = await new Promise<Unzipped>((resolve, reject) =>
    unzip(bytes, (error, data) => (error ? reject(new Error(`The .zip archive is damaged: ${error.message}`)) : resolve(data))),
  );
  return Object.entries(files)
    .filter(([name]) => !name.endsWith("/"))
    .map(([path, data]) => ({ path, data }));
}

/** Zip the working tree (never `.git`), with progress while files are read. */
export async function exportZip(wsfs: WorkspaceFs, onProgress?: Progress): Promise<Uint8Array> {
  const paths = await wsfs.listFiles("");
  const tree: Zippable = {};
  let done = 0;
  for (const path of paths) {
    tree[path] = [await wsfs.readFile(path), { level: 6 }];
    done++;
    if (onProgress && (done % 10 === 0 || done === paths.length)) onProgress(done, paths.length, path);
  }
  return new Promise((resolve, reject) =>
    zip(tree, { level: 6 }, (error, data) => (error ? reject(error) : resolve(data))),
  );
}
