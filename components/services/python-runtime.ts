"use client";
/**
 * The page's Python runtime: one worker in the program sandbox (public/runtimes/python-worker.js,
 * built by next.config.ts) shared by the terminal and the agent, started on the first `python3`.
 * The sandbox has no network, so Pyodide's files (served by the app from /pyodide/, kept by the
 * service worker once used) are fetched here and handed over. Ctrl-C raises KeyboardInterrupt
 * through the interrupt cell the sandbox makes when it is cross-origin isolated (COOP/COEP in
 * next.config.ts); without one it ends the worker.
 */
import { workerPythonRuntime } from "@/lib/runtimes/python/worker-runtime";
import type { PythonRuntime } from "@/lib/runtimes/python/runtime";
import type { WorkerInbound, WorkerOutbound } from "@/lib/runtimes/python/protocol";
import { sandboxedRuntimeWorker } from "./program-sandbox";

const PYODIDE_BASE = "/pyodide/";

let runtime: PythonRuntime | undefined;

/** The files Pyodide's loader asks for (next.config.ts copies them into public/pyodide/). */
const PYODIDE_FILES = new Set(["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]);

async function pyodideFile(url: string): Promise<ArrayBuffer> {
  const name = url.slice(new URL(PYODIDE_BASE, location.origin).href.length);
  if (!PYODIDE_FILES.has(name)) throw new Error(`${name} is not one of Python's files`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
  return response.arrayBuffer();
}

export function browserPythonRuntime(): PythonRuntime {
  runtime ??= workerPythonRuntime({
    createWorker: () => sandboxedRuntimeWorker<WorkerInbound, WorkerOutbound>("python-worker.js", "tabula-python"),
    indexURL: new URL(PYODIDE_BASE, location.origin).toString(),
    asset: pyodideFile,
  });
  return runtime;
}
