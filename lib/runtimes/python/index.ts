/**
 * Python in the tab: CPython (Pyodide, WebAssembly) in a Web Worker over a snapshot of the
 * workspace, with the program's changes written back through the workspace fs.
 */
export { createPythonCommands, PYTHON_COMMAND_NAMES } from "./command";
export type { PythonCommandOptions } from "./command";
export { parsePythonArgs } from "./args";
export { PythonEngine } from "./engine";
export type { PyodideLike } from "./engine";
export { inProcessPythonRuntime } from "./runtime";
export type { PythonRunOptions, PythonRunOutcome, PythonRuntime } from "./runtime";
export { workerPythonRuntime } from "./worker-runtime";
export type { WorkerLike, WorkerPythonRuntimeOptions } from "./worker-runtime";
export type { PythonChanges, PythonJob, PythonRunResult } from "./protocol";
export { applyChanges, takeSnapshot } from "./workspace-sync";
