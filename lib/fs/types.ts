/**
 * The file-system shape shared by node's `fs`, a LightningFS instance and isomorphic-git.
 *
 * Only the promise API is described: that is what isomorphic-git prefers when it finds an
 * enumerable `promises` property, and it keeps every backend behind one async interface.
 * Methods are declared with method syntax on purpose: TypeScript checks method parameters
 * bivariantly, which lets node's heavily overloaded signatures satisfy this interface.
 */
export interface IsoFsStat {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  size: number;
  mtimeMs: number;
  mode: number;
  /** Node and lightning-fs both report an inode number; other backends may not. */
  ino?: number;
}

export interface IsoFsPromises {
  readFile(path: string, options?: unknown): Promise<Uint8Array | string>;
  writeFile(path: string, data: Uint8Array | string, options?: unknown): Promise<unknown>;
  unlink(path: string): Promise<unknown>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string, options?: unknown): Promise<unknown>;
  rmdir(path: string, options?: unknown): Promise<unknown>;
  stat(path: string): Promise<IsoFsStat>;
  lstat(path: string): Promise<IsoFsStat>;
  rename(from: string, to: string): Promise<unknown>;
  readlink?(path: string, options?: unknown): Promise<string | Uint8Array>;
  symlink?(target: string, path: string): Promise<unknown>;
  chmod?(path: string, mode: number): Promise<unknown>;
  /**
   * lightning-fs only: write several files (absolute, normalised paths, parents existing) as one
   * storage transaction — all of them are stored, or none. Absent elsewhere: write in order.
   */
  writeFiles?(files: readonly { path: string; data: Uint8Array }[]): Promise<unknown>;
  /** lightning-fs only: persist the in-memory superblock to IndexedDB now. */
  flush?(): Promise<unknown>;
}

export interface IsoFs {
  promises: IsoFsPromises;
}

/** An Error carrying a node-style `code`, as callers switch on codes rather than classes. */
export type CodedError = Error & { code: string };

export function codedError(code: string, message: string, cause?: unknown): CodedError {
  const err = new Error(message, cause === undefined ? undefined : { cause }) as CodedError;
  err.code = code;
  return err;
}

/** True for the "no such file" errors of node (ENOENT) and lightning-fs (code ENOENT too). */
export function isNotFound(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "NotFoundError";
}
