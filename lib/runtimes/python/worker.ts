/**
 * The Python Web Worker's entry (bundled on its own by next.config.ts into a classic script,
 * public/runtimes/python-worker.js, which the page starts inside the program sandbox).
 * One interpreter per worker, loaded on the first `init`; see engine.ts for a run.
 *
 * In the sandbox the worker has no network (its CSP allows no connection), so with
 * `filesFromHost` Pyodide's files come from the page over the message channel: the module
 * (pyodide.asm.mjs) is imported from a blob: URL and handed to loadPyodide, and the fetches
 * loadPyodide makes under `indexURL` (the wasm, the standard library, the lock file) are answered
 * with those bytes. Any other address goes to the platform's fetch, which the CSP refuses.
 */
import { loadPyodide } from "pyodide";
import { PythonEngine, type PyodideLike } from "./engine";
import type { WorkerInbound, WorkerOutbound } from "./protocol";
import { uniqueBuffers } from "../transfer";

type Scope = { postMessage(m: WorkerOutbound, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent<WorkerInbound>) => void) | null };
const scope = self as unknown as Scope;

let engine: PythonEngine | null = null;
let interrupt: Int32Array | null = null;

const assetWaiters = new Map<number, { resolve(data: ArrayBuffer): void; reject(e: Error): void }>();
let nextAsset = 1;

function fromHost(url: string): Promise<ArrayBuffer> {
  const id = nextAsset++;
  return new Promise((resolve, reject) => {
    assetWaiters.set(id, { resolve, reject });
    scope.postMessage({ type: "asset-request", id, url });
  });
}

/** Serve loadPyodide's fetches under `indexURL` from the page; leave everything else alone. */
function fetchFilesFromHost(indexURL: string): void {
  const platformFetch = globalThis.fetch.bind(globalThis);
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(indexURL)) return platformFetch(input, init);
    const data = await fromHost(url);
    return new Response(data, { status: 200, headers: { "content-type": url.endsWith(".wasm") ? "application/wasm" : "application/octet-stream" } });
  };
}

async function pyodideModuleFromHost(indexURL: string): Promise<unknown> {
  const source = await fromHost(`${indexURL}pyodide.asm.mjs`);
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    return ((await import(/* webpackIgnore: true */ url)) as { default: unknown }).default;
  } finally {
    URL.revokeObjectURL(url);
  }
}

scope.onmessage = async (e) => {
  const m = e.data;
  if (m.type === "host") {
    interrupt = m.interrupt ? new Int32Array(m.interrupt) : null;
    return;
  }
  if (m.type === "asset") {
    const waiter = assetWaiters.get(m.id);
    assetWaiters.delete(m.id);
    if (m.data) waiter?.resolve(m.data);
    else waiter?.reject(new Error(m.error ?? "the page did not send the file"));
    return;
  }
  if (m.type === "init") {
    try {
      if (m.filesFromHost) fetchFilesFromHost(m.indexURL);
      const createPyodideModule = m.filesFromHost ? await pyodideModuleFromHost(m.indexURL) : undefined;
      const py = await loadPyodide({ indexURL: m.indexURL, env: { HOME: "/home/user" }, ...(createPyodideModule ? { createPyodideModule } : {}) } as Parameters<typeof loadPyodide>[0]);
      if (interrupt) py.setInterruptBuffer(interrupt);
      engine = new PythonEngine(py as unknown as PyodideLike);
      scope.postMessage({ type: "ready", interruptible: interrupt !== null });
    } catch (err) {
      scope.postMessage({ type: "init-failed", message: (err as Error).message ?? String(err) });
    }
    return;
  }
  if (m.type === "run") {
    if (!engine) return scope.postMessage({ type: "failed", id: m.id, message: "Python is not loaded" });
    try {
      // A Ctrl-C meant for the previous program must not stop this one; one sent for this run
      // before it started (the page signals as soon as the run is posted) must.
      if (interrupt && (interrupt.length < 2 || Atomics.load(interrupt, 1) !== m.id)) Atomics.store(interrupt, 0, 0);
      const result = engine.execute(m.job, (stream, data) => scope.postMessage({ type: "out", id: m.id, stream, data }, [data.buffer as ArrayBuffer]));
      if (interrupt) Atomics.store(interrupt, 0, 0);
      scope.postMessage({ type: "done", id: m.id, result }, result.changes.written.map((f) => f.data.buffer as ArrayBuffer).filter(uniqueBuffers()));
    } catch (err) {
      scope.postMessage({ type: "failed", id: m.id, message: (err as Error).message ?? String(err) });
    }
  }
};
