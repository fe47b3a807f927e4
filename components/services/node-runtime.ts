"use client";
/**
 * The page's node runtime: a fresh Web Worker (public/node/node-worker.js, built by
 * next.config.ts) for each program, shared by the terminal and the agent.
 */
import { workerNodeRuntime, type NodeWorkerLike } from "@/lib/runtimes/node/worker-runtime";
import type { NodeRuntime } from "@/lib/runtimes/node/runtime";

let runtime: NodeRuntime | undefined;

export function browserNodeRuntime(): NodeRuntime {
  runtime ??= workerNodeRuntime({
    createWorker: () => new Worker("/node/node-worker.js", { name: "tabula-node" }) as unknown as NodeWorkerLike,
  });
  return runtime;
}
