/** The real Pyodide under Node, loaded once per test file (it takes seconds). */
import path from "node:path";
import { loadPyodide } from "pyodide";
import type { PyodideLike } from "../../lib/runtimes/python/engine";
import { inProcessPythonRuntime, type PythonRuntime } from "../../lib/runtimes/python/runtime";

export const PYODIDE_INDEX = path.resolve(import.meta.dirname, "../../node_modules/pyodide") + "/";

export function loadNodePyodide(): Promise<PyodideLike> {
  return loadPyodide({ indexURL: PYODIDE_INDEX, env: { HOME: "/home/user" } }) as unknown as Promise<PyodideLike>;
}

let shared: PythonRuntime | null = null;

/** One in-process runtime per test file (vitest runs each file in its own process). */
export async function nodePythonRuntime(): Promise<PythonRuntime> {
  shared ??= inProcessPythonRuntime(loadNodePyodide);
  await shared.version(); // load now, outside any test's time budget for the command itself
  return shared;
}
