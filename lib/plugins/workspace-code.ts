/**
 * The code a workspace carries: every file under `.tabula/plugins/` and `.tabula/hooks/`, read
 * once as text with its content hash. Trust decisions are made on these hashes, and the plugins
 * that load are built from these same texts (never read again), so what runs is byte for byte
 * what was reviewed. Reading is all that happens here: nothing is compiled or evaluated.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { WorkspaceFs } from "../fs/workspace-fs";

export const PLUGINS_DIR = ".tabula/plugins";
export const HOOKS_DIR = ".tabula/hooks";
export const MAX_CODE_FILE_BYTES = 1024 * 1024;
/** More files than this under .tabula/ is not a plugin folder any more; the rest are listed as too many. */
export const MAX_CODE_FILES = 200;

/** The sibling temp file of an atomic save (lib/fs/workspace-fs): the real file's event follows. */
const SAVE_IN_PROGRESS = /\/\.[^/]*\.tabula-tmp-[^/]*$/;

export type CodeFile = { path: string; hash: string; size: number; text?: string; error?: string };

/** Is this workspace path code that would run as a plugin or hook? */
export function isWorkspaceCodePath(path: string): boolean {
  return [PLUGINS_DIR, HOOKS_DIR].some((d) => path === d || path.startsWith(`${d}/`)) || path === ".tabula";
}

export function contentHash(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

/** Every code file, sorted by path. A file too large to be a plugin keeps its hash and an error. */
export async function readWorkspaceCode(wsfs: WorkspaceFs): Promise<CodeFile[]> {
  const paths = [...(await wsfs.listFiles(PLUGINS_DIR).catch(() => [])), ...(await wsfs.listFiles(HOOKS_DIR).catch(() => []))]
    .filter((p) => !SAVE_IN_PROGRESS.test(p))
    .sort();
  const out: CodeFile[] = [];
  for (const path of paths.slice(0, MAX_CODE_FILES)) {
    let bytes: Uint8Array;
    try {
      bytes = await wsfs.readFile(path);
    } catch {
      continue; // vanished while listing: the next scan sees it gone
    }
    const file: CodeFile = { path, hash: contentHash(bytes), size: bytes.length };
    if (bytes.length > MAX_CODE_FILE_BYTES) file.error = `${path} is larger than ${MAX_CODE_FILE_BYTES / 1024} KB`;
    else file.text = new TextDecoder().decode(bytes);
    out.push(file);
  }
  for (const path of paths.slice(MAX_CODE_FILES)) out.push({ path, hash: "", size: 0, error: `more than ${MAX_CODE_FILES} files under .tabula/` });
  return out;
}
