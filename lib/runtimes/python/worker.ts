/**
 * The Python Web Worker's entry (bundled on its own by next.config.ts into
 * public/pyodide/python-worker.js, next to Pyodide's files, which the app serves itself).
 * One interpreter per worker, loaded on the first message; see engine.ts for a run.
 */
import { loadPyodide } from "pyodide";
import { PythonEngine, type PyodideLike } from "./engine";
import type { WorkerInbound, WorkerOutbound } from "./protocol";

type Scope = { postMessage(m: WorkerOutbound, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent<WorkerInbound>) => void) | null };
const scope = self as unknown as Scope;

let engine: PythonEngine | null = null;
let interrupt: Int32Array | null = null;

scope.onmessage = async (e) => {
  const m = e.data;
  if (m.type === "init") {
    try {
      const py = await loadPyodide({ indexURL: m.indexURL, env: { HOME: "/home/user" } });
      if (m.interrupt) {
        interrupt = new Int32Array(m.interrupt);
        py.setInterruptBuffer(interrupt);
      }
      engine = new PythonEngine(py as unknown as PyodideLike);
      scope.postMessage({ type: "ready" });
    } catch (err) {
      scope.postMessage({ type: "init-failed", message: (err as Error).message ?? String(err) });
    }
    return;
  }
  if (m.type === "run") {
    if (!engine) return scope.postMessage({ type: "failed", id: m.id, message: "Python is not loaded" });
    try {
      const result = engine.execute(m.job, (stream, data) => scope.postMessage({ type: "out", id: m.id, stream, data }, [data.buffer as ArrayBuffer]));
      if (interrupt) Atomics.store(interrupt, 0, 0);
      scope.postMessage({ type: "done", id: m.id, result }, result.changes.written.map((f) => f.data.buffer as ArrayBuffer));
    } catch (err) {
      scope.postMessage({ type: "failed", id: m.id, message: (err as Error).message ?? String(err) });
    }
  }
};
