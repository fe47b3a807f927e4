import { MessageChannel, type MessagePort } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { Rpc, type Port } from "../../lib/plugins/sandbox/rpc";
import type { AuthCallbacks } from "../../lib/git/credentials";
import { cloneInWorker, cloneJobSchema, type WorkerHandle } from "../../lib/workspaces/clone-in-worker";

/** A stand-in for the worker: the other end of a channel, serving "clone" with `serve`. */
function fakeWorker(serve: (rpc: Rpc, job: unknown) => Promise<unknown>) {
  const { port1, port2 } = new MessageChannel();
  const asPort = (p: MessagePort): Port => ({
    postMessage: (m) => p.postMessage(m),
    addEventListener: (_t, l) => p.on("message", (data) => l({ data })),
    removeEventListener: () => undefined,
  });
  const inside = new Rpc(asPort(port2));
  inside.handle("clone", (job) => serve(inside, job), cloneJobSchema);
  const state = { terminated: false, errorListener: undefined as undefined | ((ev: { message?: string }) => void) };
  const handle: WorkerHandle = {
    ...asPort(port1),
    addEventListener: ((type: string, l: (ev: { data?: unknown; message?: string }) => void) => {
      if (type === "error") state.errorListener = l;
      else port1.on("message", (data) => l({ data }));
    }) as unknown as WorkerHandle["addEventListener"],
    terminate: () => {
      state.terminated = true;
      port1.close();
      port2.close();
    },
  };
  return { handle, state };
}

const job = { fsName: "tabula-ws-x", url: "http://127.0.0.1:1/r.git", proxyEndpoint: "http://127.0.0.1:3000/api/git-proxy" };

describe("cloneInWorker (the page's side of a clone in a worker)", () => {
  it("passes the job, forwards progress, answers the worker's credential questions, and ends the worker", async () => {
    let received: unknown;
    const w = fakeWorker(async (rpc, j) => {
      received = j;
      await rpc.call("progress", { phase: "Receiving objects", loaded: 10 });
      const auth = await rpc.call("auth", { hook: "onAuth", url: job.url, auth: {} });
      await rpc.call("auth", { hook: "onAuthSuccess", url: job.url, auth: auth as object });
      return { done: true, auth };
    });
    const progress: string[] = [];
    const calls: string[] = [];
    const auth = {
      onAuth: async () => (calls.push("onAuth"), { username: "u", password: "p" }),
      onAuthFailure: async () => (calls.push("onAuthFailure"), { cancel: true }),
      onAuthSuccess: async () => void calls.push("onAuthSuccess"),
    } as unknown as AuthCallbacks;
    await cloneInWorker(() => w.handle, job, { auth, onProgress: (p) => progress.push(`${p.phase} ${p.loaded}`) });
    expect(received).toEqual({ ...job, askForCredentials: true });
    expect(progress).toEqual(["Receiving objects 10"]);
    expect(calls).toEqual(["onAuth", "onAuthSuccess"]);
    expect(w.state.terminated).toBe(true);
  });

  it("without credentials to ask for, the worker's question is answered with a cancel; its error reaches the caller", async () => {
    const w = fakeWorker(async (rpc) => {
      const answer = await rpc.call("auth", { hook: "onAuth", url: job.url });
      throw new Error(`Clone cancelled: ${JSON.stringify(answer)}`);
    });
    await expect(cloneInWorker(() => w.handle, job)).rejects.toThrow('Clone cancelled: {"cancel":true}');
    expect(w.state.terminated).toBe(true);
  });

  it("a cancel ends the worker at once, and a worker that fails to start says so", async () => {
    const w = fakeWorker(() => new Promise(() => undefined)); // never finishes
    const ac = new AbortController();
    const pending = cloneInWorker(() => w.handle, job, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error("cancelled by the user")), 20);
    await expect(pending).rejects.toThrow("cancelled by the user");
    expect(w.state.terminated).toBe(true);
    const broken = fakeWorker(() => new Promise(() => undefined));
    const failing = cloneInWorker(() => broken.handle, job);
    setTimeout(() => broken.state.errorListener?.({ message: "SyntaxError in the script" }), 20);
    await expect(failing).rejects.toThrow("The clone's worker failed to start: SyntaxError in the script.");
  });
});
