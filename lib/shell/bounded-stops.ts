/**
 * Runs that stop themselves within a bounded time once signalled: the Python and Node runtimes
 * raise an interrupt in the program and terminate its worker if it has not ended after their
 * grace. An interrupted exec normally gives a command a short grace and then abandons it (some
 * just-bash commands never look at the signal); while one of these runs is active it waits for
 * the run instead, so the program's last words (a KeyboardInterrupt traceback) and its exit
 * status reach the caller, and the next program does not queue behind a detached one.
 */
/** How long such a run may take to end once signalled: Python's KeyboardInterrupt grace (1.5 s)
 * before its worker is terminated, with room for a loaded machine. just-bash is told to wait this
 * long for a signalled custom command; other commands are still abandoned after the shell's grace. */
export const PROGRAM_STOP_MS = 5_000;

export class BoundedStops {
  private active = 0;

  /** Whether a run that stops itself is in progress. */
  get running(): boolean {
    return this.active > 0;
  }

  /** The runtime with each run counted while it is in progress. */
  track<R extends { run(job: J, opts: O): Promise<T> }, J, O, T>(runtime: R): R {
    const run = async (job: J, opts: O): Promise<T> => {
      this.active++;
      try {
        return await runtime.run(job, opts);
      } finally {
        this.active--;
      }
    };
    return new Proxy(runtime, { get: (target, key, receiver) => (key === "run" ? run : Reflect.get(target, key, receiver)) });
  }
}
