/**
 * One run at a time on a runtime's worker, in the order asked. A run interrupted while it still
 * waits for its turn never starts: it ends at once with exit status 130 instead of waiting for
 * the runs ahead of it (which may be another terminal's endless program), so Ctrl-C on a queued
 * command is as prompt as on a running one.
 */
type Abortable = { signal?: AbortSignal };

export function oneAtATime<J, O extends Abortable, T>(runNow: (job: J, opts: O) => Promise<T>, notStarted: () => T): (job: J, opts: O) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return (job, opts) => {
    let started = false;
    const turn = queue.then(() => {
      started = true;
      return runNow(job, opts);
    });
    queue = turn.catch(() => undefined);
    const signal = opts.signal;
    if (!signal) return turn;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (!started) resolve(notStarted());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      turn.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  };
}
