/**
 * Ctrl-C on a Python program in the shell: the exec waits for a run that stops itself (the
 * runtimes' interrupt, then their hard stop) instead of abandoning it after the short grace
 * other commands get, so the program has ended when the prompt returns and its traceback reaches
 * the terminal; and a run interrupted while it waits behind another never starts
 * (one-at-a-time.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { createShell } from "../../lib/shell";
import type { PythonJob } from "../../lib/runtimes/python/protocol";
import type { PythonRunOptions, PythonRunOutcome, PythonRuntime } from "../../lib/runtimes/python/runtime";
import { oneAtATime } from "../../lib/runtimes/one-at-a-time";

const NO_CHANGES = { written: [], deleted: [], removedDirs: [], madeDirs: [] };
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A Python runtime whose programs run until interrupted, then take `stopMs` to print their traceback and end. */
function slowToStop(stopMs: number): PythonRuntime & { runs: string[]; started: () => Promise<void> } {
  const runs: string[] = [];
  let onStart = () => {};
  const runNow = (job: PythonJob, opts: PythonRunOptions) =>
    new Promise<PythonRunOutcome>((resolve) => {
      // As the worker runtimes do: a run already interrupted when its turn comes does not start.
      if (opts.signal?.aborted) return resolve({ exitCode: 130, changes: NO_CHANGES, stopped: "interrupted" });
      runs.push(job.target.kind === "code" ? job.target.code : "");
      onStart();
      const stop = () =>
        setTimeout(() => {
          opts.onOutput("stderr", new TextEncoder().encode("Traceback (most recent call last):\nKeyboardInterrupt\n"));
          resolve({ exitCode: 130, changes: NO_CHANGES, stopped: "interrupted" });
        }, stopMs);
      opts.signal?.addEventListener("abort", stop, { once: true });
    });
  return {
    runs,
    started: () => new Promise<void>((resolve) => (onStart = resolve)),
    run: oneAtATime(runNow, () => ({ exitCode: 130, changes: NO_CHANGES, stopped: "interrupted" as const })),
    version: async () => "3.0.0",
  };
}

async function shellWith(python: PythonRuntime) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-int-"));
  dirs.push(dir);
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal: new ChangeJournal() });
  return createShell({ fs: fs as unknown as IsoFs, dir, wsfs, defenseInDepth: false, python });
}

describe("Ctrl-C on a Python program", () => {
  it("waits for the program to stop (longer than the grace other commands get) before it answers ^C and 130", async () => {
    const python = slowToStop(900);
    const shell = await shellWith(python);
    const ctl = new AbortController();
    void python.started().then(() => ctl.abort());
    const r = await shell.exec("python3 -c 'while True: pass'", { signal: ctl.signal });
    // just-bash drops a signalled command's result; what the program printed reaches a terminal live (next test).
    expect(r).toMatchObject({ exitCode: 130, stderr: "^C\n" });
    expect(r.durationMs).toBeGreaterThanOrEqual(900);
  });

  it("shows the traceback live when the program's output streams to a terminal", async () => {
    const python = slowToStop(600);
    const shell = await shellWith(python);
    const ctl = new AbortController();
    void python.started().then(() => ctl.abort());
    let live = "";
    const r = await shell.exec("python3 -c 'while True: pass'", { signal: ctl.signal, onOutput: (_s, t) => (live += t) });
    expect(live).toBe("Traceback (most recent call last):\nKeyboardInterrupt\n");
    expect(r).toMatchObject({ exitCode: 130, stderr: "^C\n" });
  });

  it("a program interrupted while it waits behind another never starts", async () => {
    const python = slowToStop(50);
    const first = await shellWith(python);
    const second = await shellWith(python);
    const running = new AbortController();
    const firstStarted = python.started();
    const busy = first.exec("python3 -c 'first'", { signal: running.signal });
    await firstStarted;
    const queued = new AbortController();
    setTimeout(() => queued.abort(), 50);
    const t0 = Date.now();
    const r = await second.exec("python3 -c 'second'", { signal: queued.signal });
    expect(r.exitCode).toBe(130);
    expect(Date.now() - t0).toBeLessThan(2_000);
    running.abort();
    expect((await busy).exitCode).toBe(130);
    await new Promise((r) => setTimeout(r, 100));
    expect(python.runs).toEqual(["first"]);
  });
});
