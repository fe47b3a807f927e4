/**
 * What crosses between the page and the node worker (and what the in-process runner takes):
 * one job in, streamed output and one result out. Everything is structured-cloneable. The
 * workspace snapshot and the changes have the same shape as python3's (../python/protocol.ts),
 * so both write back through the same workspace-sync code.
 */
import type { PythonChanges, SnapshotFile } from "../python/protocol";
import type { TestFileReport } from "./test-runner";

export type NodeChanges = PythonChanges;

export type NodeTarget =
  | { kind: "eval"; code: string; print: boolean } // -e / -p, or a program piped in
  | { kind: "script"; path: string }; // a file (absolute path inside the runtime's tree)

export type NodeJob = {
  target: NodeTarget;
  /** The program's own arguments (process.argv after the node binary and the script). */
  args: string[];
  /** Node options given before the program (process.execArgv). */
  execArgv: string[];
  /** Working directory, an absolute path inside the runtime's tree (under `mountPoint`). */
  cwd: string;
  env: Record<string, string>;
  stdin: Uint8Array;
  mountPoint: string;
  files: SnapshotFile[];
  dirs: string[];
  /** Plan/Review mode: every change under mountPoint fails with EROFS. */
  readOnly: boolean;
  /** `node --test`: the file's node:test tests run, and their counts come back in `tests`. */
  test?: boolean;
};

export type NodeRunResult = { exitCode: number; changes: NodeChanges; tests?: TestFileReport };

export type NodeWorkerInbound = { type: "run"; id: number; job: NodeJob };

export type NodeWorkerOutbound =
  | { type: "ready" }
  | { type: "out"; id: number; stream: "stdout" | "stderr"; data: Uint8Array }
  | { type: "done"; id: number; result: NodeRunResult }
  | { type: "failed"; id: number; message: string };
