/**
 * A file system that can be cut off: once revoked, every call fails with a clear error instead
 * of reaching the storage. A tab whose workspace was deleted elsewhere revokes writes at once
 * (lightning-fs would otherwise keep writing, and even create the deleted database anew, so the
 * user's edits would vanish silently), reads what it wants to keep, then revokes everything.
 */
import { passListing } from "./listing";
import { codedError, type IsoFs, type IsoFsPromises } from "./types";

// `flush` is not among them: it only persists what is already in memory, and a tab cut off from
// writing flushes once so that lightning-fs has no delayed write left to make later.
const WRITES = new Set(["writeFile", "writeFiles", "unlink", "mkdir", "rmdir", "rename", "symlink", "chmod"]);

export type RevocableFs = {
  fs: IsoFs;
  /** "writes": every mutation fails (flush still persists what is in memory); "all": every call fails. */
  revoke(what: "writes" | "all", reason: string): void;
  readonly revoked: "none" | "writes" | "all";
};

export function revocableFs(inner: IsoFs): RevocableFs {
  let revoked: "none" | "writes" | "all" = "none";
  let reason = "";
  const promises = new Proxy(inner.promises, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== "function" || typeof key !== "string") return value;
      return (...args: unknown[]) => {
        if (revoked === "all" || (revoked === "writes" && WRITES.has(key))) {
          return Promise.reject(codedError("EROFS", `${reason} (${key} ${typeof args[0] === "string" ? args[0] : ""})`.trim()));
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as IsoFsPromises;
  // isomorphic-git looks for an enumerable `promises`; keep the other members (lightning-fs's callbacks) out of reach.
  const fs: IsoFs = { promises };
  passListing(inner, fs, () => revoked !== "all");
  return {
    fs,
    revoke(what, why) {
      if (revoked === "all") return;
      revoked = what;
      reason = why;
    },
    get revoked() {
      return revoked;
    },
  };
}
