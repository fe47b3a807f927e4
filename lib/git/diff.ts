/** Reading the committed version of a file, for the editor's diff view. */
import git from "isomorphic-git";
import { gitArgs, hasCode, joinPath, repoPath, type GitRepo } from "./types";
import { looksBinary } from "./binary";

export type FileDiff = {
  /** Text at HEAD; null when HEAD has no such file (or there is no commit yet). */
  head: string | null;
  /** Text in the working tree; null when the file does not exist. */
  work: string | null;
  /** Either side looks binary (git's rule: a NUL byte in the first 8000 bytes). Binary
   * sides are returned as "" rather than as decoded garbage. */
  binary: boolean;
};

export { looksBinary };

function decode(bytes: Uint8Array): string {
  // ignoreBOM keeps a BOM visible, so a BOM-only change still shows up in the diff.
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

/** The blob of `path` in the HEAD commit, or null. */
export async function readHeadBytes(repo: GitRepo, path: string): Promise<Uint8Array | null> {
  const args = gitArgs(repo);
  const filepath = repoPath(path);
  let oid: string;
  try {
    oid = await git.resolveRef({ ...args, ref: "HEAD" });
  } catch (err) {
    if (hasCode(err, "NotFoundError")) return null; // unborn branch: no commit yet
    throw err;
  }
  try {
    const { blob } = await git.readBlob({ ...args, oid, filepath });
    return blob;
  } catch (err) {
    // Not in HEAD, or a directory there (readBlob then reports an object type mismatch).
    if (hasCode(err, "NotFoundError") || hasCode(err, "ObjectTypeError")) return null;
    throw err;
  }
}

export async function readHeadText(repo: GitRepo, path: string): Promise<string | null> {
  const bytes = await readHeadBytes(repo, path);
  return bytes === null ? null : decode(bytes);
}

async function readWorkBytes(repo: GitRepo, path: string): Promise<Uint8Array | null> {
  const abs = joinPath(repo.dir, repoPath(path));
  try {
    const st = await repo.fs.promises.stat(abs);
    if (!st.isFile()) return null;
    const data: unknown = await repo.fs.promises.readFile(abs);
    if (data === undefined || data === null) return null;
    return typeof data === "string" ? new TextEncoder().encode(data) : (data as Uint8Array);
  } catch {
    return null;
  }
}

export async function diffFileAgainstHead(repo: GitRepo, path: string): Promise<FileDiff> {
  const [headBytes, workBytes] = await Promise.all([readHeadBytes(repo, path), readWorkBytes(repo, path)]);
  const binary = (headBytes !== null && looksBinary(headBytes)) || (workBytes !== null && looksBinary(workBytes));
  const text = (b: Uint8Array | null) => (b === null ? null : binary ? "" : decode(b));
  return { head: text(headBytes), work: text(workBytes), binary };
}
