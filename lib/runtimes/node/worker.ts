/**
 * The node Web Worker's entry (bundled on its own by next.config.ts into public/node/node-worker.js).
 * One run per worker: the page starts a fresh worker for every program and terminates it after,
 * so globals a program changes, timers it leaves behind or a loop it never leaves cannot
 * reach the next run. In a browser worker the run's globals (process, Buffer, console, timers)
 * are put on the global object too, so `globalThis.process` is the run's.
 */
import { runNodeJob, type EngineHost } from "./engine";
import type { NodeWorkerInbound, NodeWorkerOutbound } from "./protocol";
import { uniqueBuffers } from "../transfer";

type Scope = {
  postMessage(m: NodeWorkerOutbound, transfer?: Transferable[]): void;
  onmessage: ((e: { data: NodeWorkerInbound }) => void) | null;
  addEventListener(type: "unhandledrejection", fn: (e: { reason: unknown; preventDefault(): void }) => void): void;
  removeEventListener(type: "unhandledrejection", fn: (e: { reason: unknown; preventDefault(): void }) => void): void;
};
const scope = self as unknown as Scope;

// The platform's own timers, taken before a run replaces the global ones.
const realSetTimeout = globalThis.setTimeout.bind(globalThis);
const realClearTimeout = globalThis.clearTimeout.bind(globalThis);
const realFetch = typeof fetch === "function" ? fetch.bind(globalThis) : undefined;

/** Macrotasks without setTimeout's clamping: one MessageChannel, a queue of callbacks. */
const tasks: Array<() => void> = [];
const channel = new MessageChannel();
channel.port1.onmessage = () => tasks.shift()?.();
const macrotask = (fn: () => void) => {
  tasks.push(fn);
  channel.port2.postMessage(null);
};

const inBrowserWorker = typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== "undefined";

const host: EngineHost = {
  evaluate: (src) => (0, eval)(src),
  real: { setTimeout: (fn, ms) => realSetTimeout(fn, ms), clearTimeout: (h) => realClearTimeout(h as number), macrotask },
  onUnhandledRejection(cb) {
    const handler = (e: { reason: unknown; preventDefault(): void }) => {
      e.preventDefault();
      cb(e.reason);
    };
    scope.addEventListener("unhandledrejection", handler);
    return () => scope.removeEventListener("unhandledrejection", handler);
  },
  installGlobals: inBrowserWorker
    ? (globals) => {
        const g = globalThis as unknown as Record<string, unknown>;
        for (const [k, v] of Object.entries(globals)) if (v !== undefined) g[k] = v;
        g.global = globalThis;
      }
    : undefined,
  fetch: inBrowserWorker && realFetch ? sandboxedFetch(realFetch) : realFetch,
};

/**
 * In the app a browser worker always runs in the program sandbox, whose policy allows no
 * connection at all: a refused fetch says that, instead of the platform's bare "Failed to fetch".
 */
function sandboxedFetch(fetchFn: typeof fetch): typeof fetch {
  return (input, init) =>
    fetchFn(input, init).catch((err: unknown) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : (input as Request).url;
      if (!(err instanceof TypeError)) throw err;
      throw new TypeError(`fetch ${url}: programs run in the tab have no network access (${err.message}). Read the data from a file in the workspace instead.`, { cause: err });
    });
}

let busy = false;
scope.onmessage = (e) => {
  const m = e.data;
  if (m.type !== "run") return;
  if (busy) return scope.postMessage({ type: "failed", id: m.id, message: "this worker already ran a program" });
  busy = true;
  runNodeJob(m.job, (stream, data) => scope.postMessage({ type: "out", id: m.id, stream, data }, [data.buffer as ArrayBuffer]), host).then(
    (result) => scope.postMessage({ type: "done", id: m.id, result }, result.changes.written.map((f) => f.data.buffer as ArrayBuffer).filter(uniqueBuffers())),
    (err) => scope.postMessage({ type: "failed", id: m.id, message: (err as Error)?.message ?? String(err) }),
  );
};
scope.postMessage({ type: "ready" });
