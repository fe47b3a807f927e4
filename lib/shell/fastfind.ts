/**
 * A fast path for the common `find PATH... [-name|-iname GLOB] [-type f|d] [-maxdepth N]`
 * over the workspace, printing exactly what just-bash's find prints (pre-order walk in sorted
 * name order, hidden entries and `.git` included, paths built as "root/child"). Other
 * expressions, missing paths and paths outside the workspace go to the real find.
 */
import type { ExecResult } from "just-bash";
import type { WorkspaceShellFs } from "./adapter";
import { resolveShellPath } from "./paths";

type Parsed = { roots: string[]; name: RegExp | null; type: "f" | "d" | null; maxDepth: number };

/** fnmatch without FNM_PATHNAME/FNM_PERIOD, as find's -name uses. */
export function globToRegExp(glob: string, ignoreCase: boolean): RegExp | null {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "\\") {
      if (i + 1 >= glob.length) return null;
      re += glob[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    } else if (c === "*") re += "[\\s\\S]*";
    else if (c === "?") re += "[\\s\\S]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) return null;
      let body = glob.slice(i + 1, end);
      let neg = false;
      if (body.startsWith("!") || body.startsWith("^")) {
        neg = true;
        body = body.slice(1);
      }
      if (/\[:|\\/.test(body)) return null; // character classes, escapes: leave to the real find
      re += `[${neg ? "^" : ""}${body.replace(/[\]\\^]/g, "\\$&")}]`;
      i = end;
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  try {
    return new RegExp(`^${re}$`, ignoreCase ? "i" : "");
  } catch {
    return null;
  }
}

export function parseFastFind(args: string[]): Parsed | null {
  const roots: string[] = [];
  let i = 0;
  while (i < args.length && !args[i]!.startsWith("-") && args[i] !== "!" && args[i] !== "(") roots.push(args[i++]!);
  if (roots.length === 0) roots.push(".");
  const p: Parsed = { roots, name: null, type: null, maxDepth: Infinity };
  for (; i < args.length; i++) {
    const a = args[i]!;
    const v = args[i + 1];
    if ((a === "-name" || a === "-iname") && v !== undefined && p.name === null) {
      p.name = globToRegExp(v, a === "-iname");
      if (p.name === null) return null;
      i++;
    } else if (a === "-type" && (v === "f" || v === "d") && p.type === null) {
      p.type = v;
      i++;
    } else if (a === "-maxdepth" && v !== undefined && /^\d+$/.test(v) && p.maxDepth === Infinity) {
      p.maxDepth = Number(v);
      i++;
    } else if (a === "-print" && i === args.length - 1) {
      // the default action
    } else return null;
  }
  if (roots.some((r) => r === "" || (r.length > 1 && r.endsWith("/")))) return null;
  return p;
}

export async function fastFind(
  p: Parsed,
  fs: WorkspaceShellFs,
  cwd: string,
  toMount: (shellPath: string) => string | null,
  signal?: AbortSignal,
): Promise<ExecResult | null> {
  const mounts: string[] = [];
  for (const r of p.roots) {
    const m = toMount(resolveShellPath(cwd, r));
    if (m === null) return null;
    mounts.push(m);
  }
  // Missing roots produce find's own diagnostics: let it report them.
  const rootStats = [];
  for (const m of mounts) {
    try {
      rootStats.push(await fs.lstat(m));
    } catch {
      return null;
    }
  }
  const out: string[] = [];
  const baseName = (path: string) => {
    const trimmed = path.replace(/\/+$/, "");
    return trimmed === "" ? "/" : trimmed.slice(trimmed.lastIndexOf("/") + 1);
  };
  const visit = async (path: string, m: string, isFile: boolean, isDir: boolean, depth: number): Promise<void> => {
    if (signal?.aborted) return;
    const typeOk = p.type === null || (p.type === "f" ? isFile : isDir);
    if (typeOk && (p.name === null || p.name.test(baseName(path)))) out.push(path);
    if (!isDir || depth >= p.maxDepth) return;
    let entries;
    try {
      entries = await fs.readdirWithFileTypes(m);
    } catch {
      return;
    }
    for (const e of entries) {
      await visit(path === "/" ? `/${e.name}` : `${path}/${e.name}`, m === "/" ? `/${e.name}` : `${m}/${e.name}`, e.isFile, e.isDirectory, depth + 1);
    }
  };
  for (let k = 0; k < p.roots.length; k++) {
    const st = rootStats[k]!;
    await visit(p.roots[k]!, mounts[k]!, st.isFile, st.isDirectory, 0);
  }
  if (signal?.aborted) return { stdout: out.join("\n") + (out.length ? "\n" : ""), stderr: "", exitCode: 130 };
  return { stdout: out.length ? out.join("\n") + "\n" : "", stderr: "", exitCode: 0 };
}
