/**
 * The plugin sandbox runtime in a real Node worker thread (what the Web Worker is in the
 * browser), bundled with esbuild, behind the same WorkerHandle the host uses.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll } from "vitest";
import { build } from "esbuild";
import type { WorkerHandle } from "../../lib/plugins/sandbox/sandboxed";

export async function buildWorkerBundle(): Promise<{ file: string; cleanup(): void }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tabula-sandbox-")), "worker.mjs");
  await build({ entryPoints: [path.join(__dirname, "node-worker-entry.ts")], bundle: true, platform: "node", format: "esm", outfile: file, logLevel: "error" });
  return { file, cleanup: () => fs.rmSync(path.dirname(file), { recursive: true, force: true }) };
}

/** A worker thread behind the WorkerHandle interface; `started` counts the workers made. */
export function nodeWorkerFactory(bundle: string) {
  const workers: Worker[] = [];
  const create = (): WorkerHandle => {
    const w = new Worker(bundle);
    workers.push(w);
    const handle: WorkerHandle = {
      postMessage: (m) => w.postMessage(m),
      addEventListener: (_t, l) => w.on("message", (data) => l({ data })),
      terminate: () => void w.terminate(),
      onerror: null,
    };
    w.on("error", (e) => handle.onerror?.(e));
    return handle;
  };
  return { create, started: () => workers.length, terminateAll: () => Promise.all(workers.map((w) => w.terminate())) };
}

/** Bundle the worker entry for this file's tests; returns a factory of worker handles. */
export function nodeWorkersPerFile(): () => WorkerHandle {
  let bundle: { file: string; cleanup(): void } | undefined;
  let factory: ReturnType<typeof nodeWorkerFactory> | undefined;
  beforeAll(async () => {
    bundle = await buildWorkerBundle();
    factory = nodeWorkerFactory(bundle.file);
  });
  afterAll(async () => {
    await factory?.terminateAll();
    bundle?.cleanup();
  });
  return () => factory!.create();
}
