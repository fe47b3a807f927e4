/**
 * A place Python programs run: the browser's Web Worker (worker-runtime.ts) or, for Node tests
 * and the bench, this process (inProcessPythonRuntime). The shell's `python3` command only sees
 * this interface.
 */
import { PythonEngine, type PyodideLike } from "./engine";
import type { PythonJob, PythonRunResult } from "./protocol";

export type PythonRunOptions = {
  /** Called with each chunk as the program writes it. */
  onOutput(stream: "stdout" | "stderr", data: Uint8Array): void;
  /** Ctrl-C or the shell's time limit. */
  signal?: AbortSignal;
};

export type PythonRunOutcome = PythonRunResult & {
  /** Set when the run was stopped from outside: "interrupted" (KeyboardInterrupt reached the
   * program) or "killed" (the interpreter was thrown away; its changes are lost). */
  stopped?: "interrupted" | "killed";
};

export interface PythonRuntime {
  run(job: PythonJob, opts: PythonRunOptions): Promise<PythonRunOutcome>;
  /** The CPython version ("3.14.2"), loading the interpreter if needed. */
  version(): Promise<string>;
}

/**
 * Runs in this thread: a running program blocks it, so `signal` is only checked before the
 * start. Meant for Node (tests, bench) where nothing else waits on the thread.
 */
export function inProcessPythonRuntime(load: () => Promise<PyodideLike>): PythonRuntime {
  let engine: Promise<{ engine: PythonEngine; version: string }> | null = null;
  const get = () => {
    engine ??= load().then((py) => ({
      engine: new PythonEngine(py),
      version: String(py.runPython("import sys; '.'.join(map(str, sys.version_info[:3]))")),
    }));
    engine.catch(() => (engine = null));
    return engine;
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    async run(job, opts) {
      const { engine: e } = await get();
      const turn = queue.then(() => {
        if (opts.signal?.aborted) return { exitCode: 130, changes: { written: [], deleted: [], removedDirs: [], madeDirs: [] }, stopped: "interrupted" as const };
        return e.execute(job, opts.onOutput);
      });
      queue = turn.catch(() => undefined);
      return turn;
    },
    async version() {
      return (await get()).version;
    },
  };
}
