"use client";
/**
 * The page's node runtime: a fresh worker in its own program sandbox for each program
 * (public/runtimes/node-worker.js, built by next.config.ts), shared by the terminal and the agent.
 */
import { workerNodeRuntime, type NodeWorkerLike } from "@/lib/runtimes/node/worker-runtime";
import type { NodeRuntime } from "@/lib/runtimes/node/runtime";
import type { NodeWorkerInbound, NodeWorkerOutbound } from "@/lib/runtimes/node/protocol";
import { sandboxedRuntimeWorker } from "./program-sandbox";

let runtime: NodeRuntime | undefined;

export function browserNodeRuntime(): NodeRuntime {
  runtime ??= workerNodeRuntime({
    createWorker: (): NodeWorkerLike => sandboxedRuntimeWorker<NodeWorkerInbound, NodeWorkerOutbound>("node-worker.js", "tabula-node"),
  });
  return runtime;
}
