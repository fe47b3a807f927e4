/**
 * The run's `process`: argv, env, cwd/chdir, exit/exitCode, the standard streams (stdout and
 * stderr write through to the page as the program writes; stdin delivers what was piped in),
 * nextTick, hrtime, memoryUsage, emitWarning, and the events a program listens for ('exit',
 * 'beforeExit', 'uncaughtException', 'unhandledRejection', 'warning'). Signals never arrive
 * here (Ctrl-C stops the worker) and kill/abort say so.
 */
import { Buffer } from "./builtins/buffer";
import { EventEmitter } from "./builtins/events";
import type { EventLoop } from "./event-loop";

export const NODE_VERSION = "v22.12.0";

/** Thrown by process.exit() to unwind the program's stack; never shown. */
export class ExitSignal {
  constructor(readonly code: number) {}
}

export type ProcessHost = {
  argv: string[];
  execArgv: string[];
  env: Record<string, string>;
  cwd(): string;
  chdir(dir: string): void;
  stdin: Uint8Array;
  write(stream: "stdout" | "stderr", data: Uint8Array): void;
  loop: EventLoop;
  /** process.exit(): the run ends now with this code. */
  exit(code: number): never;
};

function toBytes(chunk: unknown, enc?: unknown): Uint8Array {
  if (typeof chunk === "string") return Buffer.from(chunk, typeof enc === "string" ? enc : "utf8");
  if (chunk instanceof Uint8Array) return chunk;
  throw Object.assign(new TypeError(`The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ${chunk === null ? "null" : typeof chunk}`), { code: "ERR_INVALID_ARG_TYPE" });
}

function writable(host: ProcessHost, stream: "stdout" | "stderr", fd: number): EventEmitter & Record<string, unknown> {
  const s = new EventEmitter() as EventEmitter & Record<string, unknown>;
  Object.assign(s, {
    fd,
    isTTY: false,
    writable: true,
    write(chunk: unknown, enc?: unknown, cb?: unknown) {
      host.write(stream, toBytes(chunk, enc));
      const done = typeof enc === "function" ? enc : cb;
      if (typeof done === "function") host.loop.defer(() => (done as () => void)());
      return true;
    },
    end(chunk?: unknown, enc?: unknown, cb?: unknown) {
      if (chunk !== undefined && chunk !== null && typeof chunk !== "function") (s.write as (c: unknown, e?: unknown) => void)(chunk, enc);
      const done = [chunk, enc, cb].find((x) => typeof x === "function");
      if (done) host.loop.defer(done as () => void);
      return s;
    },
    cork() {},
    uncork() {},
    setDefaultEncoding() {
      return s;
    },
    getColorDepth: () => 1,
    hasColors: () => false,
    getWindowSize: () => [80, 24],
  });
  return s;
}

function readable(host: ProcessHost): EventEmitter & Record<string, unknown> {
  const s = new EventEmitter() as EventEmitter & Record<string, unknown>;
  let encoding: string | null = null;
  let delivered = false;
  const chunk = () => (encoding ? Buffer.wrap(host.stdin).toString(encoding) : Buffer.from(host.stdin));
  const deliver = () => {
    if (delivered) return;
    delivered = true;
    host.loop.defer(() => {
      if (host.stdin.length > 0) s.emit("data", chunk());
      s.emit("end");
      s.emit("close");
    });
  };
  const on = s.on.bind(s);
  s.on = s.addListener = ((event: string, fn: (...a: unknown[]) => void) => {
    on(event, fn);
    if (event === "data" || event === "end" || event === "readable") deliver();
    return s;
  }) as typeof s.on;
  s.once = ((event: string, fn: (...a: unknown[]) => void) => {
    EventEmitter.prototype.once.call(s, event, fn);
    if (event === "data" || event === "end" || event === "readable") deliver();
    return s;
  }) as typeof s.once;
  let readDone = false;
  Object.assign(s, {
    fd: 0,
    isTTY: false,
    readable: true,
    setEncoding(enc: string) {
      encoding = enc;
      return s;
    },
    resume() {
      deliver();
      return s;
    },
    pause() {
      return s;
    },
    read() {
      if (readDone || host.stdin.length === 0) return null;
      readDone = true;
      return chunk();
    },
    pipe(dest: { write(c: unknown): void; end?(): void }) {
      s.on("data", (c: unknown) => dest.write(c));
      s.on("end", () => dest.end?.());
      return dest;
    },
    setRawMode() {
      throw new Error("process.stdin.setRawMode is not available: stdin is not a terminal here");
    },
    unref() {
      return s;
    },
    ref() {
      return s;
    },
    [Symbol.asyncIterator]: async function* () {
      if (host.stdin.length > 0) yield chunk();
    },
  });
  return s;
}

export function createProcess(host: ProcessHost): EventEmitter & Record<string, unknown> {
  const p = new EventEmitter() as EventEmitter & Record<string, unknown>;
  const started = performance.now();
  let exitCode: number | undefined;
  const env = new Proxy(
    { ...host.env },
    {
      set(t, k, v) {
        (t as Record<string | symbol, string>)[k] = String(v);
        return true;
      },
    },
  );
  const hrtime = (prev?: [number, number]) => {
    const t = performance.timeOrigin + performance.now();
    const sec = Math.floor(t / 1000);
    const ns = Math.floor((t % 1000) * 1e6);
    if (!prev) return [sec, ns];
    let ds = sec - prev[0];
    let dn = ns - prev[1];
    if (dn < 0) {
      ds--;
      dn += 1e9;
    }
    return [ds, dn];
  };
  hrtime.bigint = () => BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1e6));
  let warnedUse = false;
  Object.assign(p, {
    title: "node",
    version: NODE_VERSION,
    versions: { node: NODE_VERSION.slice(1), tabula: "in-tab worker runtime", v8: "browser", uv: "none", modules: "127" },
    release: { name: "node" },
    platform: "linux",
    arch: "wasm32",
    pid: 42,
    ppid: 1,
    argv: host.argv,
    argv0: "node",
    execArgv: host.execArgv,
    execPath: "/usr/local/bin/node",
    env,
    config: { variables: {} },
    features: { inspector: false, typescript: "transform" },
    cwd: () => host.cwd(),
    chdir: (d: string) => host.chdir(d),
    umask: () => 0o022,
    getuid: () => 1000,
    getgid: () => 1000,
    geteuid: () => 1000,
    getegid: () => 1000,
    uptime: () => (performance.now() - started) / 1000,
    hrtime,
    memoryUsage: Object.assign(() => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }), { rss: () => 0 }),
    cpuUsage: () => ({ user: Math.round((performance.now() - started) * 1000), system: 0 }),
    resourceUsage: () => ({}),
    nextTick: (fn: (...a: unknown[]) => void, ...args: unknown[]) => {
      if (typeof fn !== "function") throw Object.assign(new TypeError(`The "callback" argument must be of type function. Received ${typeof fn}`), { code: "ERR_INVALID_ARG_TYPE" });
      queueMicrotask(() => host.loop.guard(() => fn(...args)));
    },
    emitWarning: (warning: string | Error, type?: string | { type?: string }, code?: string) => {
      const name = typeof type === "string" ? type : (type?.type ?? (warning instanceof Error ? warning.name : "Warning"));
      const msg = warning instanceof Error ? warning.message : String(warning);
      const w = Object.assign(new Error(msg), { name, code });
      host.loop.defer(() => {
        if (p.emit("warning", w) && p.listenerCount("warning") > 0) return;
        host.write("stderr", Buffer.from(`(node:42) ${code ? `[${code}] ` : ""}${name}: ${msg}\n${warnedUse ? "" : "(Use `node --trace-warnings ...` to show where the warning was created)\n"}`));
        warnedUse = true;
      });
    },
    exit: (code?: number | string) => {
      if (code !== undefined && code !== null) exitCode = Number(code) | 0;
      host.exit(exitCode ?? 0);
    },
    abort: () => {
      throw new Error("process.abort is not available in this runtime");
    },
    kill: () => {
      throw Object.assign(new Error("process.kill is not available: there are no other processes inside the browser tab"), { code: "ERR_NOT_AVAILABLE" });
    },
    binding: () => {
      throw new Error("process.binding is not available in this runtime");
    },
    stdout: writable(host, "stdout", 1),
    stderr: writable(host, "stderr", 2),
    stdin: readable(host),
  });
  Object.defineProperty(p, "exitCode", {
    get: () => exitCode,
    set: (v: unknown) => {
      exitCode = v === undefined || v === null ? undefined : Number(v) | 0;
    },
    enumerable: true,
  });
  Object.defineProperty(p, Symbol.toStringTag, { value: "process" });
  return p;
}
