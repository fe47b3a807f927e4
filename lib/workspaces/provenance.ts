/**
 * How a workspace was made decides whether the code it carries (.tabula/plugins, .tabula/hooks)
 * may run before the user says so. Only what the user made from scratch here — an empty
 * workspace or the app's own sample — starts trusted; everything that arrives with someone
 * else's files (a clone, a zip or folder import, a bundle, a fork of a share link) starts
 * restricted. A kind this code does not know, or no record at all, counts as foreign.
 */
import type { WorkspaceMeta } from "./registry";

export type WorkspaceOrigin = WorkspaceMeta["origin"]["kind"];

const MADE_HERE: readonly string[] = ["empty", "sample"] satisfies WorkspaceOrigin[];

export function trustedByProvenance(meta: { origin?: { kind?: unknown } } | undefined): boolean {
  const kind = meta?.origin?.kind;
  return typeof kind === "string" && MADE_HERE.includes(kind);
}

/** A short phrase for the restricted-mode banner ("imported from a zip"). */
export function describeProvenance(meta: { origin?: { kind?: unknown; detail?: string } } | undefined): string {
  const detail = meta?.origin?.detail ? ` (${meta.origin.detail})` : "";
  switch (meta?.origin?.kind) {
    case "empty":
      return "created empty in this browser";
    case "sample":
      return "created from the sample project";
    case "zip":
      return `imported from a zip${detail}`;
    case "folder":
      return `imported from a folder${detail}`;
    case "clone":
      return `cloned${detail}`;
    case "bundle":
      return `imported from a bundle${detail}`;
    default:
      return "of unknown origin";
  }
}
