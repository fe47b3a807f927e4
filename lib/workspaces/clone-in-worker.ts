/**
 * A clone in a Web Worker of its own, so that fetching, indexing and checking out a big project
 * never stalls the page (the page only receives progress). The worker opens the new workspace's
 * storage by name, clones into it, saves its file tree and is then ended, which lets go of the
 * storage's lock before the page opens the workspace. Credentials are asked for by the page: the
 * worker calls back for each of isomorphic-git's auth hooks.
 *
 * This module is the page's side and the message shapes both sides check; clone.worker.ts is the
 * worker's.
 */
import { z } from "zod";
import type { GitAuth } from "isomorphic-git";
import { Rpc, type Port } from "../plugins/sandbox/rpc";
import type { AuthCallbacks } from "../git/credentials";
import type { CloneProgress } from "./clone";

export const cloneJobSchema = z.strictObject({
  /** The lightning-fs database of the new workspace. */
  fsName: z.string().min(1).max(200),
  url: z.string().min(1).max(4000),
  /** Absolute: a worker has no page URL to resolve a relative one against. */
  proxyEndpoint: z.string().url(),
  depth: z.number().int().positive().optional(),
  askForCredentials: z.boolean(),
});
export type CloneJob = z.infer<typeof cloneJobSchema>;

export const progressSchema = z.strictObject({ phase: z.string().max(200), loaded: z.number(), total: z.number().optional() });

const authShape = z
  .object({ username: z.string().optional(), password: z.string().optional(), headers: z.record(z.string(), z.string()).optional(), cancel: z.boolean().optional() })
  .passthrough();
export const authRequestSchema = z.strictObject({ hook: z.enum(["onAuth", "onAuthFailure", "onAuthSuccess"]), url: z.string(), auth: authShape.optional() });

export type WorkerHandle = Port & { terminate(): void; addEventListener(type: "error", listener: (ev: { message?: string }) => void): void };

export async function cloneInWorker(
  createWorker: () => WorkerHandle,
  job: Omit<CloneJob, "askForCredentials">,
  opts: { auth?: AuthCallbacks; onProgress?: (p: CloneProgress) => void; signal?: AbortSignal } = {},
): Promise<void> {
  opts.signal?.throwIfAborted();
  const worker = createWorker();
  const rpc = new Rpc(worker);
  rpc.handle("progress", (p) => void opts.onProgress?.(p), progressSchema);
  rpc.handle(
    "auth",
    async ({ hook, url, auth }) => {
      const fn = opts.auth?.[hook] as ((url: string, auth: GitAuth) => unknown) | undefined;
      if (!fn) return hook === "onAuthSuccess" ? null : { cancel: true };
      return (await fn(url, (auth ?? {}) as GitAuth)) ?? null;
    },
    authRequestSchema,
  );
  let stop: (error: unknown) => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  const onAbort = () => stop(opts.signal?.reason ?? new DOMException("The clone was cancelled", "AbortError"));
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  worker.addEventListener("error", (ev) => stop(new Error(`The clone's worker failed to start${ev.message ? `: ${ev.message}` : ""}.`)));
  try {
    await Promise.race([rpc.call("clone", { ...job, askForCredentials: opts.auth !== undefined } satisfies CloneJob), stopped]);
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
    rpc.close("The clone ended");
    // Ending the worker releases the storage's lock (the file tree was saved before it answered).
    worker.terminate();
  }
}
