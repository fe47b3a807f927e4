/**
 * The page's side of a sandboxed Python worker serves Pyodide's files to it (the sandbox has no
 * network) — and nothing else: the request comes from where the program's own code runs, so a
 * URL that walks out of indexURL is refused without being fetched.
 */
import { describe, expect, it } from "vitest";
import type { WorkerInbound, WorkerOutbound } from "../../lib/runtimes/python/protocol";
import { workerPythonRuntime, type WorkerLike } from "../../lib/runtimes/python/worker-runtime";

const INDEX = "http://127.0.0.1:3000/pyodide/";

function fakeWorker() {
  const sent: WorkerInbound[] = [];
  const w: WorkerLike = { postMessage: (m) => void sent.push(m), terminate: () => undefined, onmessage: null, onerror: null };
  const answer = async (id: number) => {
    for (let i = 0; i < 50 && !sent.some((m) => m.type === "asset" && m.id === id); i++) await new Promise((r) => setTimeout(r, 1));
    return sent.find((m): m is Extract<WorkerInbound, { type: "asset" }> => m.type === "asset" && m.id === id);
  };
  const ask = (id: number, url: string) => w.onmessage!({ data: { type: "asset-request", id, url } satisfies WorkerOutbound });
  return { w, sent, answer, ask };
}

describe("Pyodide's files for a sandboxed worker", () => {
  it("are asked of the page under indexURL only; a path that resolves elsewhere is refused unfetched", async () => {
    const fetched: string[] = [];
    const fake = fakeWorker();
    const rt = workerPythonRuntime({
      createWorker: () => fake.w,
      indexURL: INDEX,
      asset: async (url) => (fetched.push(url), new TextEncoder().encode(`bytes of ${url}`).buffer as ArrayBuffer),
    });
    void rt.run({ target: { kind: "code", code: "" }, argv: ["-c"], cwd: "/workspace", env: {}, stdin: new Uint8Array(), mountPoint: "/workspace", files: [], dirs: [], readOnly: false }, { onOutput: () => undefined });
    await new Promise((r) => setTimeout(r, 0));
    // The worker is told to take its files from the page.
    expect(fake.sent[0]).toEqual({ type: "init", indexURL: INDEX, filesFromHost: true });

    fake.ask(1, `${INDEX}pyodide.asm.wasm`);
    const ok = await fake.answer(1);
    expect(new TextDecoder().decode(ok!.data)).toBe(`bytes of ${INDEX}pyodide.asm.wasm`);

    for (const [id, url] of [
      [2, `${INDEX}../api/shares`],
      [3, `${INDEX}%2e%2e/api/git-proxy/info/refs`],
      [4, "http://127.0.0.1:3000/api/shares"],
      [5, "https://elsewhere.example/pyodide/pyodide.asm.wasm"],
    ] as const) {
      fake.ask(id, url);
      const refused = await fake.answer(id);
      expect(refused?.data).toBeUndefined();
      expect(refused?.error).toContain("is not one of Python's files");
    }
    expect(fetched).toEqual([`${INDEX}pyodide.asm.wasm`]);
  });
});
