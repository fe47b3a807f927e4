/**
 * The plugin sandbox runtime in a real Node worker thread (what the Web Worker is in the
 * browser), bundled once per test file with esbuild, behind the same WorkerHandle the host uses.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll } from "vitest";
import { build } from "esbuild";
import type { WorkerHandle } from "../../lib/plugins/sandbox/sandboxed";

/** Bundle the worker entry for this file's tests; returns a factory of worker handles. */
export function nodeWorkersPerFile(): () => WorkerHandle {
  let bundle = "";
  beforeAll(async () => {
    bundle = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tabula-sandbox-")), "worker.mjs");
    await build({ entryPoints: [path.join(__dirname, "node-worker-entry.ts")], bundle: true, platform: "node", format: "esm", outfile: bundle, logLevel: "error" });
  });
  afterAll(() => fs.rmSync(path.dirname(bundle), { recursive: true, force: true }));
  return () => {
    const w = new Worker(bundle);
    const handle: WorkerHandle = {
      postMessage: (m) => w.postMessage(m),
      addEventListener: (_t, l) => w.on("message", (data) => l({ data })),
      terminate: () => void w.terminate(),
      onerror: null,
    };
    w.on("error", (e) => handle.onerror?.(e));
    return handle;
  };
}
