/**
 * A fast path for the most common grep form, `grep [-rRnilch] [-e] LITERAL PATH...` over the
 * workspace, with output identical to just-bash's grep (whose logic it mirrors: hidden entries
 * skipped when recursing, symlinks followed, "a/b" paths without "./", file names shown for
 * -r or several files, exit 0/1/2).
 *
 * just-bash's grep runs every fs result through its command-context membrane and its RE2
 * port; for a literal pattern a substring search over the adapter's cached text gives the same
 * answer about ten times faster. Anything else (regex metacharacters, other flags, stdin,
 * paths outside the workspace) goes to the real grep.
 */
import type { ExecResult } from "just-bash";
import type { WorkspaceShellFs } from "./adapter";
import { resolveShellPath } from "./paths";

type Parsed = {
  pattern: string;
  recursive: boolean;
  lineNumbers: boolean;
  ignoreCase: boolean;
  filesWithMatches: boolean;
  count: boolean;
  noFilename: boolean;
  paths: string[];
};

const BOOL_FLAGS: Record<string, keyof Parsed> = {
  r: "recursive",
  R: "recursive",
  n: "lineNumbers",
  i: "ignoreCase",
  l: "filesWithMatches",
  c: "count",
  h: "noFilename",
};
const LONG_FLAGS: Record<string, keyof Parsed> = {
  "--recursive": "recursive",
  "--line-number": "lineNumbers",
  "--ignore-case": "ignoreCase",
  "--files-with-matches": "filesWithMatches",
  "--count": "count",
  "--no-filename": "noFilename",
};

/** The arguments if this invocation qualifies for the fast path, else null. */
export function parseFastGrep(args: string[]): Parsed | null {
  const p: Parsed = { pattern: "", recursive: false, lineNumbers: false, ignoreCase: false, filesWithMatches: false, count: false, noFilename: false, paths: [] };
  let pattern: string | null = null;
  const rest: string[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (options && a === "--") {
      options = false;
      continue;
    }
    if (options && a.startsWith("--")) {
      const key = LONG_FLAGS[a];
      if (key) {
        (p[key] as boolean) = true;
        continue;
      }
      if (a === "--fixed-strings" || a === "--extended-regexp") continue;
      return null;
    }
    if (options && a.startsWith("-") && a !== "-") {
      if (a === "-e") {
        if (pattern !== null || i + 1 >= args.length) return null;
        pattern = args[++i]!;
        continue;
      }
      for (const c of a.slice(1)) {
        if (c === "F" || c === "E") continue; // a literal means the same in every syntax
        const key = BOOL_FLAGS[c];
        if (!key) return null;
        (p[key] as boolean) = true;
      }
      continue;
    }
    rest.push(a);
  }
  if (pattern === null) pattern = rest.shift() ?? null;
  if (pattern === null || pattern === "" || pattern.includes("\n")) return null;
  // Literal: nothing any grep syntax treats specially.
  if (/[\\.[\]*^$+?(){}|]/.test(pattern)) return null;
  if (p.ignoreCase && /[^\x20-\x7e]/.test(pattern)) return null;
  if (rest.length === 0 || rest.some((r) => r === "-" || /[*?[]/.test(r))) return null;
  p.pattern = pattern;
  p.paths = rest;
  return p;
}

type Item = { path: string; mount: string; isFile?: boolean };

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Run the fast path. `toMount` maps a shell path to the adapter's mount-relative path (null
 * when outside the workspace). Returns null when it cannot handle the call after all.
 */
export async function fastGrep(
  p: Parsed,
  fs: WorkspaceShellFs,
  cwd: string,
  toMount: (shellPath: string) => string | null,
  signal?: AbortSignal,
): Promise<ExecResult | null> {
  const mountOf = (rel: string) => toMount(resolveShellPath(cwd, rel));
  for (const path of p.paths) if (mountOf(path) === null) return null;

  const items: Item[] = [];
  const walk = async (path: string, m: string, isFile: boolean | undefined, depth: number): Promise<void> => {
    if (depth >= 256) return;
    try {
      let file: boolean;
      let dir: boolean;
      if (isFile !== undefined) {
        file = isFile;
        dir = !isFile;
      } else {
        const st = await fs.stat(m);
        file = st.isFile;
        dir = st.isDirectory;
      }
      if (file) {
        items.push({ path, mount: m, isFile: true });
        return;
      }
      if (!dir) return;
      for (const e of await fs.readdirWithFileTypes(m)) {
        if (e.name.startsWith(".")) continue;
        const childMount = m === "/" ? "/" + e.name : `${m}/${e.name}`;
        // just-bash sees the mount through readdir + stat, which follows symlinks.
        await walk(path === "." ? e.name : `${path}/${e.name}`, childMount, e.isSymbolicLink ? undefined : e.isFile, depth + 1);
      }
    } catch {
      // unreadable: skipped, like just-bash
    }
  };
  for (const path of p.paths) {
    if (p.recursive) await walk(path, mountOf(path)!, undefined, 0);
    else items.push({ path, mount: mountOf(path)! });
  }

  const showName = (items.length > 1 || (p.recursive && p.paths.length > 0)) && !p.noFilename;
  const needle = p.ignoreCase ? p.pattern.toLowerCase() : p.pattern;
  let out = "";
  let err = "";
  let matchedAny = false;
  let hardError = false;
  const BATCH = 64;
  for (let i = 0; i < items.length; i += BATCH) {
    if (signal?.aborted) return { stdout: out, stderr: err, exitCode: 130 };
    const batch = items.slice(i, i + BATCH);
    const results = await Promise.all(
      batch.map(async (it) => {
        const m = it.mount;
        try {
          if (it.isFile === undefined && (await fs.stat(m)).isDirectory) {
            return p.recursive ? null : { error: `grep: ${it.path}: Is a directory\n` };
          }
          return { text: await fs.readText(m) };
        } catch {
          return { error: `grep: ${it.path}: No such file or directory\n` };
        }
      }),
    );
    results.forEach((r, k) => {
      if (r === null) return;
      const name = batch[k]!.path;
      if ("error" in r) {
        err += r.error;
        if (!r.error!.includes("Is a directory")) hardError = true;
        return;
      }
      const text = r.text;
      const hay = p.ignoreCase ? text.toLowerCase() : text;
      let count = 0;
      let body = "";
      if (hay.includes(needle)) {
        const lines = splitLines(text);
        for (let n = 0; n < lines.length; n++) {
          const line = lines[n]!;
          if (!(p.ignoreCase ? line.toLowerCase() : line).includes(needle)) continue;
          count++;
          if (!p.count && !p.filesWithMatches) body += `${showName ? name + ":" : ""}${p.lineNumbers ? `${n + 1}:` : ""}${line}\n`;
        }
      }
      if (count > 0) {
        matchedAny = true;
        if (p.filesWithMatches) out += `${name}\n`;
        else if (p.count) out += `${showName ? `${name}:${count}` : String(count)}\n`;
        else out += body;
      } else if (p.count && !p.filesWithMatches) {
        out += `${showName ? `${name}:0` : "0"}\n`;
      }
    });
  }
  return { stdout: out, stderr: err, exitCode: hardError ? 2 : matchedAny ? 0 : 1 };
}
