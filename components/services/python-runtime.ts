"use client";
/**
 * The page's Python runtime: one Web Worker (public/pyodide/python-worker.js, built by
 * next.config.ts) shared by the terminal and the agent, started on the first `python3`.
 * The interrupt buffer needs SharedArrayBuffer, which the app's cross-origin isolation
 * (COOP/COEP in next.config.ts) provides; without it Ctrl-C ends the worker instead.
 */
import { workerPythonRuntime } from "@/lib/runtimes/python/worker-runtime";
import type { PythonRuntime } from "@/lib/runtimes/python/runtime";
import type { WorkerLike } from "@/lib/runtimes/python/worker-runtime";

export const PYODIDE_BASE = "/pyodide/";

let runtime: PythonRuntime | undefined;

export function browserPythonRuntime(): PythonRuntime {
  runtime ??= workerPythonRuntime({
    createWorker: () => new Worker(`${PYODIDE_BASE}python-worker.js`, { type: "module", name: "tabula-python" }) as unknown as WorkerLike,
    indexURL: new URL(PYODIDE_BASE, location.origin).toString(),
    canInterrupt: typeof SharedArrayBuffer === "function" && globalThis.crossOriginIsolated === true,
  });
  return runtime;
}
