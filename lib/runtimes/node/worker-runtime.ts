/**
 * The page's side of the node worker: a fresh Web Worker per program (one is started ahead, so
 * a run does not wait for the worker's script to load), output streamed as the program writes,
 * and a hard stop on Ctrl-C or the time limit — JavaScript has no interrupt to deliver inside a
 * busy loop, so the worker is terminated and the program's file changes are dropped.
 */
import type { NodeJob, NodeWorkerInbound, NodeWorkerOutbound } from "./protocol";
import type { NodeRunOptions, NodeRunOutcome, NodeRuntime } from "./runtime";
import { oneAtATime } from "../one-at-a-time";

export type NodeWorkerLike = {
  postMessage(message: NodeWorkerInbound, transfer?: Transferable[]): void;
  terminate(): void;
  onmessage: ((e: { data: NodeWorkerOutbound }) => void) | null;
  onerror: ((e: { message?: string }) => void) | null;
};

export type WorkerNodeRuntimeOptions = {
  createWorker(): NodeWorkerLike;
  /** Start the next worker ahead of need (default true). */
  prewarm?: boolean;
};

const NO_CHANGES = { written: [], deleted: [], removedDirs: [], madeDirs: [] };

export function workerNodeRuntime(opts: WorkerNodeRuntimeOptions): NodeRuntime {
  let spare: NodeWorkerLike | null = null;
  let nextId = 1;
  const take = () => {
    const w = spare ?? opts.createWorker();
    spare = null;
    return w;
  };
  const warm = () => {
    if (opts.prewarm !== false && !spare) spare = opts.createWorker();
  };

  const runNow = (job: NodeJob, ro: NodeRunOptions): Promise<NodeRunOutcome> => {
    if (ro.signal?.aborted) return Promise.resolve({ exitCode: 130, changes: NO_CHANGES, stopped: "killed" });
    const worker = take();
    const id = nextId++;
    return new Promise<NodeRunOutcome>((resolve, reject) => {
      let over = false;
      const end = () => {
        over = true;
        ro.signal?.removeEventListener("abort", onAbort);
        worker.onmessage = null;
        worker.onerror = null;
        worker.terminate();
        warm();
      };
      const onAbort = () => {
        if (over) return;
        end();
        resolve({ exitCode: 130, changes: NO_CHANGES, stopped: "killed" });
      };
      worker.onmessage = (e) => {
        const m = e.data;
        if (over || !("id" in m) || m.id !== id) return;
        if (m.type === "out") ro.onOutput(m.stream, m.data);
        else if (m.type === "done") {
          end();
          resolve(m.result);
        } else if (m.type === "failed") {
          end();
          reject(new Error(m.message));
        }
      };
      worker.onerror = (e) => {
        if (over) return;
        end();
        reject(new Error(`the node worker failed: ${e.message || "it could not start"}`));
      };
      ro.signal?.addEventListener("abort", onAbort, { once: true });
      worker.postMessage({ type: "run", id, job });
    });
  };

  return {
    run: oneAtATime(runNow, () => ({ exitCode: 130, changes: NO_CHANGES, stopped: "killed" as const })),
  };
}
