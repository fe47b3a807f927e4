/**
 * One node run: the snapshot becomes the run's file tree (memfs.ts), the built-ins and globals
 * are made for this run alone, the entry module (or -e code) is loaded (loader.ts), and the run
 * lasts as Node's process would — until nothing is pending (event-loop.ts) or process.exit().
 * An uncaught exception or unhandled rejection is printed the way Node prints it (the source
 * line, a caret, the stack without the runtime's own frames, the version) and ends the run with
 * exit code 1. What the program changed in the workspace comes back as `changes`.
 *
 * The same code runs in the browser's Web Worker (a fresh worker per run, so nothing a program
 * does to the global scope outlives it) and in Node tests, in-process.
 */
import { Buffer } from "./builtins/buffer";
import { createBuiltins, BUILTIN_NAMES } from "./builtins/index";
import { setWarningSink } from "./builtins/events";
import { setCwd } from "./builtins/path";
import { createConsole } from "./console";
import { EventLoop, type RealTimers } from "./event-loop";
import { createTestModule, failureSection, summary, type TestFileReport } from "./test-runner";
import { inspect } from "./inspect";
import { Loader } from "./loader";
import { MemFs } from "./memfs";
import { createProcess, ExitSignal, NODE_VERSION } from "./process";
import type { NodeJob, NodeRunResult } from "./protocol";

export type EngineHost = {
  /** Indirect eval: the source runs in the global scope. */
  evaluate(source: string): unknown;
  real: RealTimers;
  /** Report the run's unhandled promise rejections; returns the unsubscribe. */
  onUnhandledRejection(cb: (reason: unknown) => void): () => void;
  /** Put the run's globals on the global object (the worker does; Node tests do not). */
  installGlobals?(globals: Record<string, unknown>): void;
  fetch?: typeof fetch;
};

export type OutputSink = (stream: "stdout" | "stderr", data: Uint8Array) => void;

export function runNodeJob(job: NodeJob, sink: OutputSink, host: EngineHost): Promise<NodeRunResult> {
  return new Promise<NodeRunResult>((resolve) => {
    const startedAt = performance.now();
    const memfs = new MemFs(job.mountPoint, job.files, job.dirs, job.readOnly);
    let cwd = job.cwd;
    setCwd(cwd);
    const loop = new EventLoop(host.real);
    let finished = false;
    let exiting = false;
    const write = (stream: "stdout" | "stderr", data: Uint8Array) => {
      if (!finished && data.length > 0) sink(stream, data.slice());
    };
    const writeText = (stream: "stdout" | "stderr", text: string) => write(stream, new TextEncoder().encode(text));
    let unsubscribe = () => undefined as void;
    let testReport: TestFileReport | undefined;

    const finish = (code: number) => {
      if (finished) return;
      finished = true;
      loop.stop();
      unsubscribe();
      resolve({ exitCode: code & 0xff, changes: memfs.changes(), ...(testReport ? { tests: testReport } : {}) });
    };
    /** Emit 'exit' (once) and end the run with process.exitCode as the listeners leave it. */
    const exitWith = (code: number) => {
      if (finished) return;
      if (!exiting) {
        exiting = true;
        process.exitCode = code;
        try {
          process.emit("exit", code);
        } catch (err) {
          if (!(err instanceof ExitSignal)) {
            writeText("stderr", describeUncaught(err, false, memfs, loader));
            process.exitCode = 7;
          }
        }
      }
      finish(Number(process.exitCode ?? code));
    };

    const script = job.target.kind === "script" ? job.target.path : null;
    const process = createProcess({
      argv: ["/usr/local/bin/node", ...(script ? [script] : []), ...job.args],
      execArgv: job.execArgv,
      env: job.env,
      cwd: () => cwd,
      chdir: (d: string) => {
        const target = memfs.resolve(cwd, d);
        const n = memfs.lookup(target);
        if (!n) throw Object.assign(new Error(`ENOENT: no such file or directory, chdir ${cwd} -> '${d}'`), { code: "ENOENT", errno: -2, syscall: "chdir", path: cwd, dest: d });
        if (n.kind !== "dir") throw Object.assign(new Error(`ENOTDIR: not a directory, chdir ${cwd} -> '${d}'`), { code: "ENOTDIR", errno: -20, syscall: "chdir", path: cwd, dest: d });
        cwd = target;
        setCwd(cwd);
      },
      stdin: job.stdin,
      write,
      loop,
      exit: (code: number) => {
        exitWith(code);
        throw new ExitSignal(code);
      },
    });

    const onUncaught = (err: unknown, fromPromise: boolean) => {
      if (err instanceof ExitSignal || finished || exiting) return;
      const event = fromPromise && process.listenerCount("unhandledRejection") > 0 ? "unhandledRejection" : process.listenerCount("uncaughtException") > 0 ? "uncaughtException" : null;
      if (event) {
        try {
          if (event === "unhandledRejection") process.emit(event, err);
          else process.emit(event, err, fromPromise ? "unhandledRejection" : "uncaughtException");
          return;
        } catch (again) {
          if (again instanceof ExitSignal) return;
          writeText("stderr", describeUncaught(again, false, memfs, loader));
          return exitWith(7);
        }
      }
      writeText("stderr", describeUncaught(err, fromPromise, memfs, loader));
      exitWith(1);
    };
    loop.onError = (err) => onUncaught(err, false);
    loop.onIdle = () => {
      if (finished || exiting) return;
      if (process.listenerCount("beforeExit") === 0) return exitWith(Number(process.exitCode ?? 0));
      loop.guard(() => process.emit("beforeExit", Number(process.exitCode ?? 0)));
      // Listeners that scheduled nothing: the run is over. (If they did, onIdle comes again.)
      host.real.macrotask(() => {
        if (loop.pending === 0) exitWith(Number(process.exitCode ?? 0));
      });
    };
    unsubscribe = host.onUnhandledRejection((reason) => onUncaught(reason, true));

    const timers = {
      setTimeout: (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => loop.setTimeout(fn, ms, args, false),
      setInterval: (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => loop.setTimeout(fn, ms, args, true),
      clearTimeout: (t: unknown) => loop.clear(t),
      clearInterval: (t: unknown) => loop.clear(t),
      setImmediate: (fn: (...a: unknown[]) => void, ...args: unknown[]) => loop.setImmediate(fn, args),
      clearImmediate: (im: { clear?: () => void } | undefined) => im?.clear?.(),
    };
    const console = createConsole(writeText);
    // "[CODE] SomeWarning: text" (util.deprecate, the max-listeners check) → process.emitWarning.
    const warn = (msg: string) => {
      const m = /^(?:\[(\w+)\] )?(\w+): ([\s\S]*)$/.exec(msg);
      const emit = process.emitWarning as (text: string, type?: string, code?: string) => void;
      if (m) emit(m[3]!, m[2], m[1]);
      else emit(msg);
    };
    setWarningSink(warn);
    let testApi: unknown;
    const testModule = () =>
      (testApi ??= createTestModule({
        write: writeText,
        loop,
        done: (report) => {
          testReport = report;
          if (report.fail > 0) process.exitCode = 1;
          // `node file.test.js` (without --test) reports its own totals; `node --test` adds up the files.
          if (!job.test) writeText("stdout", summary(report, performance.now() - startedAt) + failureSection(report.failures));
        },
      }));
    const builtins = createBuiltins({
      fsHost: { memfs, cwd: () => cwd, stdin: job.stdin, write: (fd, data) => write(fd === 1 ? "stdout" : "stderr", data), defer: (fn) => loop.defer(fn) },
      process,
      console,
      env: job.env,
      timers,
      warn,
      createRequire: (filename: string) => loader.makeRequire(null, filename.endsWith("/") ? filename : filename.slice(0, filename.lastIndexOf("/")) || "/"),
      test: testModule,
    });
    const realFetch = host.fetch;
    const globals: Record<string, unknown> = {
      process,
      Buffer,
      global: globalThis,
      console,
      ...timers,
      queueMicrotask: (fn: () => void) => queueMicrotask(() => loop.guard(fn)),
      fetch: realFetch ? (...a: Parameters<typeof fetch>) => loop.track(realFetch(...a)) : undefined,
    };
    host.installGlobals?.(globals);
    const loader: Loader = new Loader({
      fs: memfs,
      builtin: (name) => builtins.get(name),
      isBuiltin: (name) => builtins.has(name),
      evaluate: host.evaluate,
      globals,
    });

    const main = async () => {
      if (job.target.kind === "script") {
        await loader.runMain(job.target.path);
      } else {
        const value = await loader.runEval(job.target.code, cwd, job.target.print);
        if (job.target.print) writeText("stdout", (typeof value === "string" ? value : inspect(value)) + "\n");
      }
    };
    main().then(
      () => loop.mainFinished(),
      (err) => {
        onUncaught(err, false);
        loop.mainFinished();
      },
    );
  });
}

/** Node's report of an uncaught exception: where it was thrown, then the error, then the version. */
export function describeUncaught(err: unknown, fromPromise: boolean, fs: MemFs, loader: Loader | undefined): string {
  const tail = `\nNode.js ${NODE_VERSION}\n`;
  if (!(err instanceof Error) && !(err && typeof err === "object" && "stack" in err)) {
    if (fromPromise) {
      const reason = typeof err === "string" ? `"${err}"` : inspect(err);
      return `[UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason ${reason}.] {\n  code: 'ERR_UNHANDLED_REJECTION'\n}\n${tail}`;
    }
    return `Uncaught ${inspect(err)}\n(Use \`node --trace-uncaught ...\` to show where the exception was thrown)\n${tail}`;
  }
  const e = err as Error & { tabulaFile?: string };
  const userFile = (loc: string) => loc === "[eval]" || loc === "[eval1]" || (loader?.cache.has(loc) ?? false);
  const lines = String(e.stack ?? `${e.name}: ${e.message}`).split("\n");
  const kept: string[] = [];
  let where: { file: string; line: number; col: number } | null = null;
  for (const l of lines) {
    const m = /^\s+at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/.exec(l);
    if (!m) {
      if (!/^\s+at /.test(l)) kept.push(l);
      continue;
    }
    if (!userFile(m[1]!)) continue;
    where ??= { file: m[1]!, line: Number(m[2]), col: Number(m[3]) };
    // The module's own wrapper is anonymous: Node calls that frame Object.<anonymous> (CommonJS)
    // or names only the location (ES modules).
    kept.push(l.replace(/^(\s+at )Object\.eval \(/, "$1Object.<anonymous> (").replace(/^(\s+at )eval \((.*)\)$/, "$1$2"));
  }
  try {
    Object.defineProperty(e, "stack", { value: kept.join("\n"), configurable: true, writable: true });
  } catch {
    // a frozen error keeps its stack
  }
  let head = "";
  if (where && where.file.startsWith("/")) {
    const src = (() => {
      try {
        return new TextDecoder().decode(fs.readFile(where.file)).split("\n")[where.line - 1] ?? "";
      } catch {
        return "";
      }
    })();
    // Node points at the throw statement; the stack knows where the error was made. On the
    // same line, the `throw` before that column is where Node's caret goes.
    const thrownAt = src.lastIndexOf("throw", where.col - 1);
    const col = thrownAt >= 0 ? thrownAt : where.col - 1;
    head = `${where.file}:${where.line}\n${src}\n${" ".repeat(Math.max(0, col))}^\n\n`;
  } else if (e.tabulaFile) head = `${e.tabulaFile}\n\n`;
  return `${head}${inspect(e)}\n${tail}`;
}

export { BUILTIN_NAMES };
