/**
 * node in the tab: JavaScript and TypeScript in a Web Worker over a snapshot of the workspace,
 * with Node's module resolution and built-ins, and the program's changes written back through
 * the workspace fs.
 */
export { createNodeCommands, NODE_COMMAND_NAMES } from "./command";
export type { NodeCommandOptions } from "./command";
export { parseNodeArgs } from "./args";
export { runNodeJob } from "./engine";
export { inProcessNodeRuntime, nodeProcessHost } from "./runtime";
export type { NodeRunOptions, NodeRunOutcome, NodeRuntime } from "./runtime";
export { workerNodeRuntime } from "./worker-runtime";
export type { NodeWorkerLike, WorkerNodeRuntimeOptions } from "./worker-runtime";
export type { NodeJob, NodeRunResult } from "./protocol";
