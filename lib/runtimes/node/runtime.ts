/**
 * Where node programs run, as the shell's `node` command sees it: in the browser a Web Worker
 * (worker-runtime.ts), in Node tests and the bench this process (inProcessNodeRuntime).
 */
import { runNodeJob, type EngineHost } from "./engine";
import type { NodeJob, NodeRunResult } from "./protocol";

export type NodeRunOptions = {
  onOutput(stream: "stdout" | "stderr", data: Uint8Array): void;
  /** Ctrl-C or the shell's time limit. */
  signal?: AbortSignal;
};

export type NodeRunOutcome = NodeRunResult & {
  /** "killed": the program was stopped from outside (its worker terminated); its changes are lost. */
  stopped?: "killed";
};

export interface NodeRuntime {
  run(job: NodeJob, opts: NodeRunOptions): Promise<NodeRunOutcome>;
}

const NO_CHANGES = { written: [], deleted: [], removedDirs: [], madeDirs: [] };

/** The host of an in-process run under Node: global eval, Node's timers, the process's rejection events. */
export function nodeProcessHost(): EngineHost {
  return {
    evaluate: (src) => (0, eval)(src),
    real: {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      macrotask: (fn) => setImmediate(fn),
    },
    onUnhandledRejection(cb) {
      const handler = (reason: unknown) => cb(reason);
      process.on("unhandledRejection", handler);
      return () => void process.off("unhandledRejection", handler);
    },
    fetch: globalThis.fetch,
  };
}

/**
 * Runs in this thread, one program at a time. A program that never yields blocks the thread,
 * so `signal` only stops a program that waits (timers, I/O): meant for tests and the bench.
 */
export function inProcessNodeRuntime(host: EngineHost = nodeProcessHost()): NodeRuntime {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run(job, opts) {
      const turn = queue.then(async (): Promise<NodeRunOutcome> => {
        if (opts.signal?.aborted) return { exitCode: 130, changes: NO_CHANGES, stopped: "killed" };
        let abort: (() => void) | undefined;
        const stopped = new Promise<NodeRunOutcome>((resolve) => {
          abort = () => resolve({ exitCode: 130, changes: NO_CHANGES, stopped: "killed" });
          opts.signal?.addEventListener("abort", abort, { once: true });
        });
        let live = true;
        const result = runNodeJob(job, (s, d) => live && opts.onOutput(s, d), host);
        try {
          return await Promise.race([result, stopped]);
        } finally {
          live = false;
          if (abort) opts.signal?.removeEventListener("abort", abort);
        }
      });
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}
