/**
 * Workspace path rules. Every path that crosses the WorkspaceFs boundary is normalised here,
 * so confinement (no escaping the workspace, no writes into .git) is decided in one place.
 *
 * Workspace-relative paths are posix, have no leading "/", no "." or ".." segments and no
 * empty segments; the workspace root itself is "".
 */

export type WorkspacePathErrorCode = "ESCAPE" | "NUL" | "GITDIR" | "INVALID";

export class WorkspacePathError extends Error {
  readonly code: WorkspacePathErrorCode;
  readonly path: string;

  constructor(code: WorkspacePathErrorCode, path: string, message?: string) {
    super(message ?? WorkspacePathError.describe(code, path));
    this.name = "WorkspacePathError";
    this.code = code;
    this.path = path;
  }

  private static describe(code: WorkspacePathErrorCode, path: string): string {
    const shown = JSON.stringify(path.replace(/\0/g, "\\0"));
    switch (code) {
      case "ESCAPE":
        return `Path ${shown} escapes the workspace`;
      case "NUL":
        return `Path ${shown} contains a NUL byte`;
      case "GITDIR":
        return `Writes into .git/ are not allowed (${shown})`;
      case "INVALID":
        return `Path ${shown} is not a valid workspace path`;
    }
  }
}

/** Generous cap: far above any real path, low enough to stop pathological input early. */
const MAX_PATH_LENGTH = 4096;

/**
 * Normalise a path to workspace-relative posix form.
 *
 * A leading "/" means "the workspace root" (the editor shows paths that way). Backslashes are
 * read as separators, so a Windows-style "..\\x" is caught as an escape rather than becoming a
 * file literally named "..\\x" that some other tool later reinterprets.
 */
export function normalizeRelPath(p: string): string {
  if (typeof p !== "string") throw new WorkspacePathError("INVALID", String(p));
  if (p.includes("\0")) throw new WorkspacePathError("NUL", p);
  if (p.length > MAX_PATH_LENGTH) {
    throw new WorkspacePathError("INVALID", p.slice(0, 80) + "…", `Path is longer than ${MAX_PATH_LENGTH} characters`);
  }
  const out: string[] = [];
  for (const seg of p.replace(/\\/g, "/").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) throw new WorkspacePathError("ESCAPE", p);
      out.pop();
      continue;
    }
    out.push(seg);
  }
  return out.join("/");
}

/** Normalise an absolute posix path ("/a/../b" → "/b"); ".." at the root stays at the root. */
export function normalizeAbsPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}

/** Absolute path of `rel` under the workspace directory `dir`. */
export function resolveInWorkspace(dir: string, rel: string): string {
  const base = normalizeAbsPath(dir);
  const r = normalizeRelPath(rel);
  if (r === "") return base;
  return base === "/" ? "/" + r : base + "/" + r;
}

/**
 * Like normalizeRelPath, but for a WorkspaceFs rooted at `dir`: an absolute path that lies
 * inside `dir` is made relative, and one outside it is an escape (it names a real location,
 * so silently re-rooting it would write somewhere the caller did not mean).
 */
export function toWorkspaceRel(dir: string, p: string): string {
  if (typeof p !== "string") throw new WorkspacePathError("INVALID", String(p));
  if (p.includes("\0")) throw new WorkspacePathError("NUL", p);
  const base = normalizeAbsPath(dir);
  if (!p.startsWith("/") || base === "/") return normalizeRelPath(p);
  const abs = normalizeAbsPath(p.replace(/\\/g, "/"));
  if (abs === base) return "";
  if (abs.startsWith(base + "/")) return normalizeRelPath(abs.slice(base.length + 1));
  throw new WorkspacePathError("ESCAPE", p);
}

/** True for ".git" and anything under it; the first segment is compared case-insensitively
 * because case-insensitive file systems (and git itself on them) treat ".GIT" as ".git". */
export function isGitInternal(rel: string): boolean {
  let n: string;
  try {
    n = normalizeRelPath(rel);
  } catch {
    return false;
  }
  const first = n.split("/", 1)[0] ?? "";
  return first.toLowerCase() === ".git";
}

export function joinRel(a: string, b: string): string {
  return normalizeRelPath(a === "" ? b : b === "" ? a : a + "/" + b);
}

/** Parent of a workspace-relative path; "" for top-level entries and for the root. */
export function dirnameRel(rel: string): string {
  const n = normalizeRelPath(rel);
  const i = n.lastIndexOf("/");
  return i === -1 ? "" : n.slice(0, i);
}

export function basenameRel(rel: string): string {
  const n = normalizeRelPath(rel);
  return n.slice(n.lastIndexOf("/") + 1);
}

/** True when `rel` is `base` or lies under it (both already normalised; "" contains all). */
export function isSameOrInside(rel: string, base: string): boolean {
  return base === "" || rel === base || rel.startsWith(base + "/");
}
