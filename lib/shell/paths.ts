/**
 * Shell paths ↔ workspace paths.
 *
 * Inside the shell the workspace is mounted at a fixed absolute path (default `/workspace`);
 * everything else (`/tmp`, `/home`, …) is scratch memory. Workspace paths are the
 * workspace-relative posix paths WorkspaceFs uses ("" is the root).
 */

import { normalizeAbsPath } from "../fs/paths";

export const DEFAULT_MOUNT_POINT = "/workspace";

/** Normalise an absolute posix path: collapses ".", "..", and repeated slashes (the same rule as lib/fs). */
export const normalizeShellPath = normalizeAbsPath;

/** Resolve `p` against the directory `base` (both posix; `p` may be absolute). */
export function resolveShellPath(base: string, p: string): string {
  if (p.startsWith("/")) return normalizeShellPath(p);
  return normalizeShellPath((base.endsWith("/") ? base : base + "/") + p);
}

/** Shell path of a workspace-relative path ("" → the mount point itself). */
export function toShellPath(mountPoint: string, rel: string): string {
  const clean = rel.split("/").filter((s) => s !== "" && s !== ".").join("/");
  return clean === "" ? mountPoint : mountPoint === "/" ? "/" + clean : mountPoint + "/" + clean;
}

/**
 * Workspace-relative path of a shell path (resolved against `cwd` when relative), or null
 * when it lies outside the workspace mount (e.g. `/tmp/x`).
 */
export function toWorkspacePath(mountPoint: string, path: string, cwd: string = mountPoint): string | null {
  const abs = resolveShellPath(cwd, path);
  if (abs === mountPoint) return "";
  if (mountPoint === "/") return abs.slice(1);
  if (abs.startsWith(mountPoint + "/")) return abs.slice(mountPoint.length + 1);
  return null;
}

/** Relative path from directory `from` to `to` (both workspace-relative, "" = root). */
export function relativePath(from: string, to: string): string {
  const a = from === "" ? [] : from.split("/");
  const b = to === "" ? [] : to.split("/");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const parts = [...a.slice(i).map(() => ".."), ...b.slice(i)];
  return parts.length === 0 ? "." : parts.join("/");
}
