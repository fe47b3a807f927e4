/**
 * The page's side of the Python worker (worker-runtime.ts) over the real worker entry
 * (worker.ts, bundled as the app bundles it) in a Node worker thread with the real Pyodide:
 * streamed output, Ctrl-C as KeyboardInterrupt through the interrupt buffer, the hard stop
 * when there is no interrupt buffer, and a fresh interpreter after it.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PythonJob, WorkerInbound } from "../../lib/runtimes/python/protocol";
import type { PythonRuntime } from "../../lib/runtimes/python/runtime";
import { workerPythonRuntime, type WorkerLike } from "../../lib/runtimes/python/worker-runtime";
import { PYODIDE_INDEX } from "./pyodide-node";

let bundle: string;
const workers: Worker[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  // Inside the repository, so the bundle's bare imports (pyodide) resolve from node_modules.
  fs.mkdirSync(path.resolve("node_modules/.cache"), { recursive: true });
  const dir = fs.mkdtempSync(path.resolve("node_modules/.cache/tabula-pyworker-"));
  dirs.push(dir);
  bundle = path.join(dir, "worker.mjs");
  // A Node worker thread has parentPort where a Web Worker has self: a two-line shim.
  const shim = `import { parentPort } from "node:worker_threads";
globalThis.self = { postMessage: (m, t) => parentPort.postMessage(m, t), set onmessage(f) { parentPort.on("message", (data) => f({ data })); } };`;
  fs.writeFileSync(path.join(dir, "shim.mjs"), shim);
  await build({
    stdin: { contents: `import "./shim.mjs"; import ${JSON.stringify(path.resolve("lib/runtimes/python/worker.ts"))};`, resolveDir: dir, loader: "js" },
    outfile: bundle,
    bundle: true,
    format: "esm",
    platform: "node",
    packages: "external",
    logLevel: "error",
  });
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.terminate()));
  dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

/** A worker thread started as the program sandbox starts one: its `host` message first, with an interrupt cell or none. */
function nodeWorker(interruptible: boolean, afterPost?: (m: WorkerInbound) => void): WorkerLike {
  const w = new Worker(bundle, { execArgv: [] });
  workers.push(w);
  const cell = interruptible ? new Int32Array(new SharedArrayBuffer(8)) : null;
  const like: WorkerLike = {
    postMessage: (m, t) => {
      w.postMessage(m, t as never);
      afterPost?.(m);
    },
    terminate: () => void w.terminate(),
    onmessage: null,
    onerror: null,
    // As the sandbox's iframe does: the run first, then the signal.
    signal: cell
      ? (value, runId) => {
          Atomics.store(cell, 1, runId);
          Atomics.store(cell, 0, value);
        }
      : undefined,
  };
  w.on("message", (data) => like.onmessage?.({ data }));
  w.on("error", (e) => like.onerror?.({ message: e.message }));
  like.postMessage({ type: "host", interrupt: cell ? (cell.buffer as SharedArrayBuffer) : null });
  return like;
}

const job = (code: string): PythonJob => ({
  target: { kind: "code", code },
  argv: ["-c"],
  cwd: "/workspace",
  env: {},
  stdin: new Uint8Array(),
  mountPoint: "/workspace",
  files: [{ path: "in.txt", data: new TextEncoder().encode("input\n") }],
  dirs: [],
  readOnly: false,
});

async function runCollect(rt: PythonRuntime, code: string, signal?: AbortSignal, onChunk?: (text: string) => void) {
  let stdout = "";
  let stderr = "";
  const r = await rt.run(job(code), {
    signal,
    onOutput: (s, d) => {
      const text = new TextDecoder().decode(d);
      if (s === "stdout") stdout += text;
      else stderr += text;
      onChunk?.(text);
    },
  });
  return { ...r, stdout, stderr };
}

// Each test starts a worker that loads Pyodide from scratch: seconds alone, much longer on a
// loaded 2-core CI machine running other files beside it.
const WORKER_TEST_MS = 240_000;

describe("the Python worker", () => {
  it("with an interrupt buffer: output streams while the program runs, and Ctrl-C raises KeyboardInterrupt in it", async () => {
    // A long grace: this test is about the interrupt path, and a loaded machine must not turn it into the hard stop.
    const rt = workerPythonRuntime({ createWorker: () => nodeWorker(true), indexURL: PYODIDE_INDEX, graceMs: 60_000 });
    const ok = await runCollect(rt, "print(open('in.txt').read().strip()); open('out.txt', 'w').write('x')");
    expect(ok).toMatchObject({ exitCode: 0, stdout: "input\n" });
    expect(ok.changes.written.map((f) => f.path)).toEqual(["out.txt"]);

    const ctl = new AbortController();
    // Abort once the program has shown it is inside its endless loop: output arrives while it runs.
    // The print sits inside the try, so the interrupt can never land before the handler is in place.
    const r = await runCollect(rt, "try:\n    print('looping', flush=True)\n    while True: pass\nexcept KeyboardInterrupt:\n    open('partial.txt', 'w').write('cleaned up')\n    raise", ctl.signal, (t) => t.includes("looping") && ctl.abort());
    expect(r.exitCode).toBe(130);
    expect(r.stopped).toBe("interrupted");
    expect(r.stderr).toContain("KeyboardInterrupt");
    // The program's clean-up ran, and what it wrote is kept.
    expect(r.changes.written.map((f) => f.path)).toEqual(["partial.txt"]);
    // The same interpreter goes on.
    expect(await runCollect(rt, "print('again')")).toMatchObject({ exitCode: 0, stdout: "again\n" });
  }, WORKER_TEST_MS);

  it("a Ctrl-C pressed as the run is posted, before the worker starts it, still raises KeyboardInterrupt, and the next run goes on", async () => {
    let ctl = new AbortController();
    let abortOnRun = false;
    const rt = workerPythonRuntime({
      createWorker: () => nodeWorker(true, (m) => m.type === "run" && abortOnRun && ctl.abort()),
      indexURL: PYODIDE_INDEX,
      graceMs: 60_000,
    });
    expect(await runCollect(rt, "print('warm')")).toMatchObject({ exitCode: 0 });
    abortOnRun = true;
    const r = await runCollect(rt, "while True: pass", ctl.signal);
    expect(r).toMatchObject({ exitCode: 130, stopped: "interrupted" });
    expect(r.stderr).toContain("KeyboardInterrupt");
    // Nothing left of that signal stops the next run.
    abortOnRun = false;
    ctl = new AbortController();
    expect(await runCollect(rt, "print('next')", ctl.signal)).toMatchObject({ exitCode: 0, stdout: "next\n" });
  }, WORKER_TEST_MS);

  it("without an interrupt buffer: Ctrl-C ends the worker, and the next run starts a fresh interpreter", async () => {
    const rt = workerPythonRuntime({ createWorker: () => nodeWorker(false), indexURL: PYODIDE_INDEX });
    const ctl = new AbortController();
    const r = await runCollect(rt, "print('spinning', flush=True)\nwhile True: pass", ctl.signal, (t) => t.includes("spinning") && ctl.abort());
    expect(r).toMatchObject({ exitCode: 130, stopped: "killed" });
    expect(r.changes.written).toEqual([]);
    expect(await runCollect(rt, "import sys; print(sys.version_info[0])")).toMatchObject({ exitCode: 0, stdout: "3\n" });
  }, WORKER_TEST_MS);
});
