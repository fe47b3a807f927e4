/**
 * The page's side of the node worker (worker-runtime.ts) over the real worker entry (worker.ts,
 * bundled as the app bundles it) in Node worker threads: output streamed while the program
 * runs, a busy loop stopped by the signal (Ctrl-C, the time limit) with its changes dropped,
 * a fresh worker per program, and unhandled rejections seen through the worker's event.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeJob } from "../../lib/runtimes/node/protocol";
import { workerNodeRuntime, type NodeWorkerLike } from "../../lib/runtimes/node/worker-runtime";

let bundle: string;
const workers: Worker[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  fs.mkdirSync(path.resolve("node_modules/.cache"), { recursive: true });
  const dir = fs.mkdtempSync(path.resolve("node_modules/.cache/tabula-nodeworker-"));
  dirs.push(dir);
  bundle = path.join(dir, "worker.mjs");
  // A Node worker thread has parentPort where a Web Worker has self, and process events
  // where a Web Worker has an unhandledrejection event: a small shim.
  const shim = `import { parentPort } from "node:worker_threads";
const handlers = new Set();
process.on("unhandledRejection", (reason) => { for (const h of handlers) h({ reason, preventDefault() {} }); });
globalThis.self = {
  postMessage: (m, t) => parentPort.postMessage(m, t),
  set onmessage(f) { parentPort.on("message", (data) => f({ data })); },
  addEventListener: (type, h) => handlers.add(h),
  removeEventListener: (type, h) => handlers.delete(h),
};`;
  fs.writeFileSync(path.join(dir, "shim.mjs"), shim);
  await build({
    stdin: { contents: `import "./shim.mjs"; import ${JSON.stringify(path.resolve("lib/runtimes/node/worker.ts"))};`, resolveDir: dir, loader: "js" },
    outfile: bundle,
    bundle: true,
    format: "esm",
    platform: "node",
    logLevel: "error",
  });
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.terminate()));
  dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

function nodeWorker(): NodeWorkerLike {
  const w = new Worker(bundle, { execArgv: [] });
  workers.push(w);
  const like: NodeWorkerLike = { postMessage: (m, t) => w.postMessage(m, t as never), terminate: () => void w.terminate(), onmessage: null, onerror: null };
  w.on("message", (data) => like.onmessage?.({ data }));
  w.on("error", (e) => like.onerror?.({ message: e.message }));
  return like;
}

function job(code: string, files: Record<string, string> = {}): NodeJob {
  return {
    target: { kind: "eval", code, print: false },
    args: [],
    execArgv: [],
    cwd: "/workspace",
    env: {},
    stdin: new Uint8Array(),
    mountPoint: "/workspace",
    files: Object.entries(files).map(([p, d]) => ({ path: p, data: new TextEncoder().encode(d) })),
    dirs: [],
    readOnly: false,
  };
}

describe("node's worker runtime", () => {
  it("streams output while the program runs and returns its file changes", async () => {
    const rt = workerNodeRuntime({ createWorker: nodeWorker });
    const chunks: { t: number; text: string }[] = [];
    const start = Date.now();
    const r = await rt.run(job(`console.log("first"); setTimeout(() => { require("fs").writeFileSync("w.txt", "x"); console.log("second"); }, 300);`), {
      onOutput: (_s, d) => chunks.push({ t: Date.now() - start, text: new TextDecoder().decode(d) }),
    });
    expect(r.exitCode).toBe(0);
    expect(chunks.map((c) => c.text)).toEqual(["first\n", "second\n"]);
    expect(chunks[1]!.t - chunks[0]!.t).toBeGreaterThanOrEqual(250);
    expect(r.changes.written.map((f) => [f.path, new TextDecoder().decode(f.data)])).toEqual([["w.txt", "x"]]);
  });

  it("stops a busy loop when the signal fires, drops its changes, and the next program runs in a fresh worker", async () => {
    const rt = workerNodeRuntime({ createWorker: nodeWorker });
    const ac = new AbortController();
    const seen: string[] = [];
    setTimeout(() => ac.abort(), 400);
    const start = Date.now();
    const r = await rt.run(job(`require("fs").writeFileSync("half.txt", "x"); console.log("looping"); while (true) {}`), { onOutput: (_s, d) => seen.push(new TextDecoder().decode(d)), signal: ac.signal });
    expect(r).toMatchObject({ exitCode: 130, stopped: "killed", changes: { written: [] } });
    expect(seen).toEqual(["looping\n"]);
    expect(Date.now() - start).toBeLessThan(2000);
    const out: string[] = [];
    const again = await rt.run(job(`console.log("alive")`), { onOutput: (_s, d) => out.push(new TextDecoder().decode(d)) });
    expect(again.exitCode).toBe(0);
    expect(out.join("")).toBe("alive\n");
  });

  it("a global one program sets is gone in the next", async () => {
    const rt = workerNodeRuntime({ createWorker: nodeWorker });
    await rt.run(job(`globalThis.leftover = 1`), { onOutput: () => undefined });
    const out: string[] = [];
    await rt.run(job(`console.log(typeof globalThis.leftover)`), { onOutput: (_s, d) => out.push(new TextDecoder().decode(d)) });
    expect(out.join("")).toBe("undefined\n");
  });

  it("an unhandled rejection ends the program with exit code 1 and Node's report", async () => {
    const rt = workerNodeRuntime({ createWorker: nodeWorker });
    const err: string[] = [];
    const r = await rt.run(job(`Promise.reject("plain reason"); setTimeout(() => console.log("not reached"), 200);`), { onOutput: (s, d) => s === "stderr" && err.push(new TextDecoder().decode(d)) });
    expect(r.exitCode).toBe(1);
    expect(err.join("")).toContain('The promise rejected with the reason "plain reason".');
  });
});
