/**
 * What crosses between the page and the Python worker (and what the in-process runner takes):
 * one job in, streamed output and one result out. Everything is structured-cloneable.
 */

/** How the program is named on the command line, as CPython's own launcher distinguishes them. */
export type PythonTarget =
  | { kind: "code"; code: string } // -c
  | { kind: "module"; module: string } // -m
  | { kind: "script"; path: string }; // a file (absolute path inside the runtime's tree)

/** A workspace file as the program sees it: path relative to the workspace root. */
export type SnapshotFile = { path: string; data: Uint8Array };

export type PythonJob = {
  target: PythonTarget;
  /** sys.argv (argv[0] is "-c", the script path, or filled in by runpy for -m). */
  argv: string[];
  /** Working directory, an absolute path inside the runtime's tree (under `mountPoint`). */
  cwd: string;
  env: Record<string, string>;
  /** Directories after the script's on sys.path (PYTHONPATH, absolute). */
  extraPath?: string[];
  stdin: Uint8Array;
  /** Where the workspace appears (the shell's mount point, so paths match what the shell shows). */
  mountPoint: string;
  /** The workspace's files (without .git and ignored paths), and its directories (empty ones too). */
  files: SnapshotFile[];
  dirs: string[];
  /** Plan/Review mode: every change under mountPoint fails with EROFS. */
  readOnly: boolean;
};

/** What the program changed under the mount point (relative paths), for the page to write back. */
export type PythonChanges = {
  written: SnapshotFile[];
  /** Files the program deleted. */
  deleted: string[];
  /** Directories of the snapshot the program removed (deepest first); the page removes each
   * only if it is then empty, so ignored files the program never saw are kept. */
  removedDirs: string[];
  /** Directories the program created (written files' parents are implied). */
  madeDirs: string[];
};

export type PythonRunResult = { exitCode: number; changes: PythonChanges };

export type WorkerInbound =
  /** From whoever started the worker, before anything else: the interrupt cell it made (null:
   * none — Ctrl-C then ends the worker). In the program sandbox the iframe sends it
   * (lib/runtimes/sandbox/program-sandbox.ts), since the page cannot share memory with it. */
  | { type: "host"; interrupt: SharedArrayBuffer | null }
  /** `filesFromHost`: the worker has no network; Pyodide's files are asked of the page
   * (`asset-request`) instead of fetched from `indexURL`, which then only names them. */
  | { type: "init"; indexURL: string; filesFromHost?: boolean }
  | { type: "asset"; id: number; data?: ArrayBuffer; error?: string }
  | { type: "run"; id: number; job: PythonJob };

export type WorkerOutbound =
  /** `interruptible`: the worker has an interrupt cell, so Ctrl-C can raise KeyboardInterrupt. */
  | { type: "ready"; interruptible: boolean }
  | { type: "init-failed"; message: string }
  | { type: "asset-request"; id: number; url: string }
  | { type: "out"; id: number; stream: "stdout" | "stderr"; data: Uint8Array }
  | { type: "done"; id: number; result: PythonRunResult }
  | { type: "failed"; id: number; message: string };

/** The byte the interrupt buffer is set to for Ctrl-C (SIGINT), as Pyodide's setInterruptBuffer expects. */
export const SIGINT = 2;
