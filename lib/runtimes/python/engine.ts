/**
 * One Pyodide interpreter running jobs, one at a time: the workspace snapshot goes into an
 * in-memory tree at the mount point, the driver runs the program, and what the program changed
 * under the mount point comes back as `PythonChanges` for the page to write through the
 * workspace fs (so the journal, the timeline and checkpoints see it). The same code runs in the
 * browser's Web Worker and, in Node tests and the bench, in-process over Pyodide's Node loader.
 *
 * Why a snapshot rather than a file system that calls back to the page: a worker cannot use the
 * page's fs object, and a synchronous call-back needs SharedArrayBuffer + Atomics.wait on every
 * file operation; copying the (non-ignored) workspace in and the changes out is simple, correct
 * for one run at a time, and cheap for the sizes a workspace has.
 */
import { DRIVER_FILENAME, DRIVER_SOURCE } from "./driver";
import type { PythonChanges, PythonJob, PythonRunResult, SnapshotFile } from "./protocol";
import { makeReadOnly } from "./readonly-tree";

/** The part of Emscripten's FS this file uses. */
export type EmFs = {
  mkdir(path: string, mode?: number): unknown;
  mkdirTree(path: string, mode?: number): void;
  writeFile(path: string, data: Uint8Array): void;
  readFile(path: string): Uint8Array;
  readdir(path: string): string[];
  stat(path: string): { mode: number };
  lstat(path: string): { mode: number };
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  unmount(path: string): void;
  mount(type: unknown, opts: object, path: string): unknown;
  chdir(path: string): void;
  lookupPath(path: string, opts?: object): { node: EmNode };
  filesystems: { MEMFS: unknown };
  ErrnoError: new (errno: number) => Error;
};
export type EmNode = { mode: number; node_ops: Record<string, unknown>; stream_ops: Record<string, unknown>; contents?: unknown; name: string };

/** The part of the Pyodide API this file uses (a `PyodideAPI` satisfies it). */
export type PyodideLike = {
  FS: unknown;
  ERRNO_CODES: Record<string, number>;
  runPython(code: string, opts?: { filename?: string; globals?: unknown }): unknown;
  globals: { get(name: string): unknown };
  setStdout(opts: { write(buf: Uint8Array): number; isatty?: boolean }): void;
  setStderr(opts: { write(buf: Uint8Array): number; isatty?: boolean }): void;
  setStdin(opts: { error: boolean }): void;
  toPy(value: unknown): unknown;
};

export type OutputSink = (stream: "stdout" | "stderr", data: Uint8Array) => void;

export class PythonEngine {
  private sink: OutputSink | null = null;
  private readonly run: (...args: unknown[]) => unknown;
  private readonly fs: EmFs;

  constructor(private readonly py: PyodideLike) {
    this.fs = py.FS as EmFs;
    const write = (stream: "stdout" | "stderr") => (buf: Uint8Array) => {
      // The buffer is Pyodide's scratch memory: copy before it leaves.
      this.sink?.(stream, buf.slice());
      return buf.length;
    };
    py.setStdout({ write: write("stdout") });
    py.setStderr({ write: write("stderr") });
    py.setStdin({ error: true }); // the driver gives each run its own sys.stdin
    py.runPython(DRIVER_SOURCE, { filename: DRIVER_FILENAME });
    this.run = py.globals.get("_tabula_run") as (...args: unknown[]) => unknown;
  }

  /** Run one job; output goes to `sink` as the program writes it. */
  execute(job: PythonJob, sink: OutputSink): PythonRunResult {
    const root = normalizeMount(job.mountPoint);
    this.mountSnapshot(root, job);
    this.sink = sink;
    let exitCode: number;
    try {
      const path0 = job.target.kind === "script" ? dirname(job.target.path) : job.cwd;
      const target = job.target.kind === "code" ? job.target.code : job.target.kind === "module" ? job.target.module : job.target.path;
      const env = this.py.toPy(job.env) as { destroy?(): void };
      const argv = this.py.toPy(job.argv) as { destroy?(): void };
      const extraPath = this.py.toPy(job.extraPath ?? []) as { destroy?(): void };
      try {
        exitCode = Number(this.run(job.target.kind, target, argv, job.cwd, env, job.stdin, path0, extraPath));
      } finally {
        env.destroy?.();
        argv.destroy?.();
        extraPath.destroy?.();
      }
    } catch (err) {
      const message = (err as Error).message ?? String(err);
      if (/\bKeyboardInterrupt\b/.test(message.trim().split("\n").pop() ?? "")) {
        // Ctrl-C landed while the driver was still setting the run up (pressed as it was posted):
        // the program did not start, and it ends as an interrupted one does.
        sink("stderr", new TextEncoder().encode("KeyboardInterrupt\n"));
        exitCode = 130;
      } else {
        // The driver catches everything the program raises; this is the interpreter itself failing.
        sink("stderr", new TextEncoder().encode(`python3: ${message}\n`));
        exitCode = 1;
      }
    } finally {
      this.sink = null;
    }
    const changes = job.readOnly ? { written: [], deleted: [], removedDirs: [], madeDirs: [] } : this.collectChanges(root, job);
    return { exitCode, changes };
  }

  /** A fresh in-memory tree at the mount point holding exactly the snapshot. */
  private mountSnapshot(root: string, job: PythonJob): void {
    const fs = this.fs;
    fs.chdir("/");
    try {
      fs.unmount(root);
    } catch {
      fs.mkdirTree(root);
    }
    fs.mount(fs.filesystems.MEMFS, {}, root);
    for (const d of job.dirs) fs.mkdirTree(join(root, d));
    for (const f of job.files) {
      const abs = join(root, f.path);
      fs.mkdirTree(dirname(abs));
      fs.writeFile(abs, f.data);
    }
    if (job.readOnly) makeReadOnly(fs, root, this.py.ERRNO_CODES.EROFS!);
  }

  private collectChanges(root: string, job: PythonJob): PythonChanges {
    const before = new Map(job.files.map((f) => [f.path, f.data]));
    const dirsBefore = new Set(job.dirs);
    for (const f of job.files) for (let d = parentRel(f.path); d !== ""; d = parentRel(d)) dirsBefore.add(d);
    const written: SnapshotFile[] = [];
    const madeDirs: string[] = [];
    const seen = new Set<string>();
    const walk = (rel: string) => {
      for (const name of this.fs.readdir(rel === "" ? root : join(root, rel))) {
        if (name === "." || name === "..") continue;
        const child = rel === "" ? name : `${rel}/${name}`;
        const st = this.fs.lstat(join(root, child));
        if (this.fs.isDir(st.mode)) {
          if (!dirsBefore.has(child)) madeDirs.push(child);
          walk(child);
        } else if (this.fs.isFile(st.mode)) {
          seen.add(child);
          const data = this.fs.readFile(join(root, child));
          const old = before.get(child);
          if (!old || !sameBytes(old, data)) written.push({ path: child, data });
        }
      }
    };
    walk("");
    const deleted = job.files.filter((f) => !seen.has(f.path)).map((f) => f.path);
    const removedDirs = [...dirsBefore].filter((d) => !this.exists(join(root, d)));
    return {
      written,
      deleted,
      // Deepest first, so each can be removed once its contents are gone.
      removedDirs: removedDirs.sort((a, b) => b.split("/").length - a.split("/").length || (a < b ? -1 : 1)),
      madeDirs: madeDirs.filter((d) => !written.some((w) => w.path.startsWith(d + "/"))),
    };
  }

  private exists(abs: string): boolean {
    try {
      this.fs.lstat(abs);
      return true;
    } catch {
      return false;
    }
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function normalizeMount(p: string): string {
  const s = ("/" + p).replace(/\/+/g, "/").replace(/\/$/, "");
  return s === "" ? "/workspace" : s;
}

function join(root: string, rel: string): string {
  return rel === "" ? root : `${root}/${rel}`;
}

function dirname(p: string): string {
  const i = p.lastIndexOf("/");
  return i <= 0 ? "/" : p.slice(0, i);
}

function parentRel(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i < 0 ? "" : rel.slice(0, i);
}
