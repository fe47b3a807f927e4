/**
 * Errors raised when the browser's storage refuses a write. They get their own class because
 * the UI reacts differently ("free some space") than to a bug or a bad path.
 */

export type WorkspaceStorageErrorCode = "QUOTA" | "IO";

export class WorkspaceStorageError extends Error {
  readonly code: WorkspaceStorageErrorCode;
  readonly path: string;

  constructor(code: WorkspaceStorageErrorCode, path: string, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "WorkspaceStorageError";
    this.code = code;
    this.path = path;
  }
}

/** IndexedDB signals a full disk with a DOMException named QuotaExceededError; wrappers (idb
 * libraries, fake-indexeddb, Safari) sometimes only keep the word in the message or the cause. */
export function isQuotaError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const { name, message, code } = e as { name?: unknown; message?: unknown; code?: unknown };
    if (name === "QuotaExceededError" || code === 22) return true;
    if (typeof message === "string" && /quota/i.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
