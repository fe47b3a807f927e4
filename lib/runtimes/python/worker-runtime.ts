/**
 * The page's side of the Python Web Worker: starts it on first use, runs one job at a time,
 * streams its output, and stops a program on Ctrl-C or the time limit.
 *
 * Stopping: a worker that has an interrupt cell (it says so when ready) gets SIGINT through
 * `signal`, which raises KeyboardInterrupt inside the program, which can clean up and whose file
 * changes are kept; if it has not finished after `graceMs` (a C loop that never checks), or
 * without a cell, the worker is terminated and the next run starts a fresh interpreter.
 */
import type { PythonJob, WorkerInbound, WorkerOutbound } from "./protocol";
import { SIGINT } from "./protocol";
import type { PythonRunOptions, PythonRunOutcome, PythonRuntime } from "./runtime";
import { oneAtATime } from "../one-at-a-time";

/** The part of a Worker this file uses. */
export type WorkerLike = {
  postMessage(message: WorkerInbound, transfer?: Transferable[]): void;
  terminate(): void;
  onmessage: ((e: { data: WorkerOutbound }) => void) | null;
  onerror: ((e: { message?: string }) => void) | null;
  /**
   * Set the interrupt cell the worker was handed (its `host` message) for run `runId`: slot 0
   * the signal, slot 1 the run it is for. Absent: it has none.
   */
  signal?(value: number, runId: number): void;
};

export type WorkerPythonRuntimeOptions = {
  createWorker(): WorkerLike;
  /** Where pyodide.asm.mjs, pyodide.asm.wasm and python_stdlib.zip are served (absolute URL). */
  indexURL: string;
  /**
   * Pyodide's files for a worker that has no network (the program sandbox): each URL it asks
   * for (under `indexURL`) is answered with these bytes, a buffer of its own each time (it is
   * transferred). Absent: the worker fetches them itself.
   */
  asset?(url: string): Promise<ArrayBuffer>;
  /** How long a KeyboardInterrupt gets before the worker is terminated. */
  graceMs?: number;
};

type Live = {
  worker: WorkerLike;
  ready: Promise<void>;
  interruptible: boolean;
  onMessage: ((m: WorkerOutbound) => void) | null;
  onCrash: ((message: string) => void) | null;
};

const NO_CHANGES = { written: [], deleted: [], removedDirs: [], madeDirs: [] };

export function workerPythonRuntime(opts: WorkerPythonRuntimeOptions): PythonRuntime {
  const graceMs = opts.graceMs ?? 1500;
  let live: Live | null = null;
  let nextId = 1;

  const start = (): Live => {
    if (live) return live;
    const worker = opts.createWorker();
    const l: Live = { worker, interruptible: false, onMessage: null, onCrash: null, ready: Promise.resolve() };
    l.ready = new Promise<void>((resolve, reject) => {
      worker.onmessage = (e) => {
        const m = e.data;
        if (m.type === "ready") {
          l.interruptible = m.interruptible && typeof worker.signal === "function";
          resolve();
        } else if (m.type === "asset-request") serveAsset(worker, m.id, m.url);
        else if (m.type === "init-failed") {
          reject(new Error(`Python could not start: ${m.message}`));
          stop(l);
        } else l.onMessage?.(m);
      };
      worker.onerror = (e) => {
        const message = e.message || "the Python worker failed";
        reject(new Error(`Python could not start: ${message}`));
        l.onCrash?.(message);
        stop(l);
      };
    });
    l.ready.catch(() => undefined);
    worker.postMessage({ type: "init", indexURL: opts.indexURL, filesFromHost: opts.asset !== undefined });
    live = l;
    return l;
  };

  // The request comes from the sandbox, where the program's own code can post anything: only a
  // URL that is already in its final form and under indexURL is served (no "../" or "%2e%2e"
  // walking out to the app's routes, which the page could fetch and the sandbox cannot).
  const isPythonFile = (url: string) => URL.canParse(url) && new URL(url).href === url && url.startsWith(opts.indexURL);
  const serveAsset = (worker: WorkerLike, id: number, url: string) => {
    const answer = opts.asset && isPythonFile(url) ? opts.asset(url) : Promise.reject(new Error(`${url} is not one of Python's files`));
    answer.then(
      (data) => worker.postMessage({ type: "asset", id, data }, [data]),
      (e: unknown) => worker.postMessage({ type: "asset", id, error: (e as Error).message ?? String(e) }),
    );
  };

  const stop = (l: Live) => {
    l.worker.terminate();
    if (live === l) live = null;
  };

  const runNow = async (job: PythonJob, ro: PythonRunOptions): Promise<PythonRunOutcome> => {
    if (ro.signal?.aborted) return { exitCode: 130, changes: NO_CHANGES, stopped: "interrupted" };
    const l = start();
    await l.ready;
    const id = nextId++;
    return new Promise<PythonRunOutcome>((resolve, reject) => {
      let interrupted = false;
      let grace: ReturnType<typeof setTimeout> | undefined;
      const finish = () => {
        ro.signal?.removeEventListener("abort", onAbort);
        if (grace !== undefined) clearTimeout(grace);
        l.onMessage = null;
        l.onCrash = null;
      };
      const kill = () => {
        finish();
        stop(l);
        resolve({ exitCode: 130, changes: NO_CHANGES, stopped: "killed" });
      };
      const onAbort = () => {
        if (!l.interruptible) return kill();
        interrupted = true;
        l.worker.signal?.(SIGINT, id);
        grace = setTimeout(kill, graceMs);
      };
      l.onMessage = (m) => {
        if (!("id" in m) || m.id !== id) return;
        if (m.type === "out") ro.onOutput(m.stream, m.data);
        else if (m.type === "done") {
          finish();
          resolve(interrupted ? { ...m.result, stopped: "interrupted" } : m.result);
        } else if (m.type === "failed") {
          finish();
          reject(new Error(m.message));
        }
      };
      l.onCrash = (message) => {
        finish();
        reject(new Error(`the Python worker stopped: ${message}`));
      };
      ro.signal?.addEventListener("abort", onAbort, { once: true });
      l.worker.postMessage({ type: "run", id, job });
    });
  };

  return {
    run: oneAtATime(runNow, () => ({ exitCode: 130, changes: NO_CHANGES, stopped: "interrupted" as const })),
    async version() {
      const chunks: Uint8Array[] = [];
      const r = await this.run(
        { target: { kind: "code", code: "import sys; print('.'.join(map(str, sys.version_info[:3])), end='')" }, argv: ["-c"], cwd: "/", env: {}, stdin: new Uint8Array(), mountPoint: "/workspace", files: [], dirs: [], readOnly: true },
        { onOutput: (s, d) => s === "stdout" && chunks.push(d) },
      );
      if (r.exitCode !== 0) throw new Error("Python did not answer its version");
      return chunks.map((c) => new TextDecoder().decode(c)).join("");
    },
  };
}
