/** The Web Worker a clone runs in (the page's side and why: clone-in-worker.ts). */
import type { GitAuth } from "isomorphic-git";
import { openNamedLightningFs } from "../fs/lightning";
import { withWorktreeStamp } from "../fs/worktree-stamp";
import { Rpc, type Port } from "../plugins/sandbox/rpc";
import type { AuthCallbacks } from "../git/credentials";
import { cloneRepository } from "./clone";
import { cloneJobSchema } from "./clone-in-worker";

const rpc = new Rpc(self as unknown as Port);

const viaPage =
  (hook: keyof AuthCallbacks) =>
  async (url: string, auth: GitAuth): Promise<GitAuth | void> =>
    ((await rpc.call<GitAuth | null>("auth", { hook, url, auth })) ?? undefined) as GitAuth | undefined;

rpc.handle(
  "clone",
  async (job) => {
    const fs = openNamedLightningFs(job.fsName);
    // The workspace's writers all go through the stamped fs (a page load then skips a walk).
    const stamped = withWorktreeStamp(fs, "/");
    const auth: AuthCallbacks | undefined = job.askForCredentials
      ? { onAuth: viaPage("onAuth"), onAuthFailure: viaPage("onAuthFailure"), onAuthSuccess: viaPage("onAuthSuccess") as AuthCallbacks["onAuthSuccess"] }
      : undefined;
    let last = 0;
    await cloneRepository({ fs: stamped, dir: "/" }, job.url, {
      proxyEndpoint: job.proxyEndpoint,
      depth: job.depth,
      auth,
      onProgress: (p) => {
        const now = Date.now();
        if (now - last < 80 && p.loaded !== p.total) return;
        last = now;
        rpc.call("progress", p).catch(() => undefined);
      },
    });
    // The file tree (lightning-fs's superblock) is saved before the page is told: it ends this
    // worker at once.
    await fs.promises.flush?.();
    return { done: true };
  },
  cloneJobSchema,
);
