/**
 * The built-in modules of a run, made on first `require`/`import` and shared by every module of
 * the run. What cannot work in a browser tab (processes, listening sockets, native addons,
 * worker threads) loads, so a program that only mentions it still runs, and throws a message
 * naming the limit when it is used — it never hangs.
 */
import { assertModule } from "./assert";
import { Buffer, bufferModule } from "./buffer";
import { cryptoModule } from "./crypto";
import { eventsModule, EventEmitter } from "./events";
import { createFs, type FsHost } from "./fs";
import { osModule } from "./os";
import { pathModule } from "./path";
import { streamModule, Readable } from "./stream";
import { urlModule } from "./url";
import { utilModule } from "./util";
import { inspect } from "../inspect";

export type BuiltinContext = {
  fsHost: FsHost;
  process: Record<string, unknown>;
  console: Record<string, unknown>;
  env: Record<string, string>;
  timers: Record<string, unknown>;
  warn(msg: string): void;
  /** module.createRequire */
  createRequire(filename: string): unknown;
  /** node:test */
  test: () => unknown;
};

export const BUILTIN_NAMES = [
  "assert", "assert/strict", "async_hooks", "buffer", "child_process", "cluster", "console", "constants", "crypto", "dgram",
  "diagnostics_channel", "dns", "dns/promises", "events", "fs", "fs/promises", "http", "http2", "https", "inspector", "module", "net",
  "os", "path", "path/posix", "perf_hooks", "process", "querystring", "readline", "readline/promises", "repl", "stream",
  "stream/promises", "string_decoder", "sys", "test", "timers", "timers/promises", "tls", "tty", "url", "util", "util/types", "v8",
  "vm", "wasi", "worker_threads", "zlib",
];

const NO_PROCESSES = "programs run inside the browser tab, where no other process can be started";
const NO_LISTEN = "cannot listen on a port: programs run inside the browser tab, where no server can be started";
const NO_SOCKETS = "raw network sockets are not available inside the browser tab";

function refusal(module: string, name: string, why: string): () => never {
  return () => {
    throw Object.assign(new Error(`${module}.${name} is not available: ${why}`), { code: "ERR_NOT_AVAILABLE_IN_TAB" });
  };
}

function refusingModule(module: string, names: string[], why: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const m: Record<string, unknown> = { ...extra };
  for (const n of names) m[n] = refusal(module, n, why);
  return m;
}

function httpModule(name: string): Record<string, unknown> {
  const createServer = (..._args: unknown[]) => {
    const server = new EventEmitter() as EventEmitter & Record<string, unknown>;
    server.listen = refusal(`${name}.Server`, "listen", NO_LISTEN);
    server.close = (cb?: () => void) => {
      if (cb) queueMicrotask(cb);
      return server;
    };
    server.address = () => null;
    return server;
  };
  return refusingModule(name, ["request", "get"], "outgoing requests from node's http module are not available here; use fetch()", {
    createServer,
    Server: createServer,
    Agent: class Agent {},
    globalAgent: {},
    STATUS_CODES: { 200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 302: "Found", 304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 500: "Internal Server Error" },
    METHODS: ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"],
  });
}

function stringDecoderModule(): Record<string, unknown> {
  class StringDecoder {
    private readonly d: TextDecoder;
    constructor(readonly encoding = "utf8") {
      this.d = new TextDecoder(encoding === "utf8" || encoding === "utf-8" ? "utf-8" : encoding === "latin1" || encoding === "binary" ? "latin1" : encoding === "utf16le" ? "utf-16le" : "utf-8");
    }
    write(b: Uint8Array): string {
      return typeof b === "string" ? b : this.d.decode(b, { stream: true });
    }
    end(b?: Uint8Array): string {
      return (b ? this.d.decode(b, { stream: true }) : "") + this.d.decode();
    }
  }
  return { StringDecoder };
}

function querystringModule(): Record<string, unknown> {
  const parse = (s: string, sep = "&", eq = "=") => {
    const out: Record<string, string | string[]> = Object.create(null);
    for (const part of String(s).split(sep)) {
      if (part === "") continue;
      const i = part.indexOf(eq);
      const k = decodeURIComponent((i < 0 ? part : part.slice(0, i)).replace(/\+/g, " "));
      const v = i < 0 ? "" : decodeURIComponent(part.slice(i + eq.length).replace(/\+/g, " "));
      const prev = out[k];
      out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    return out;
  };
  const esc = (s: unknown) => encodeURIComponent(String(s)).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  const stringify = (o: Record<string, unknown>, sep = "&", eq = "=") =>
    Object.entries(o ?? {})
      .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${esc(k)}${eq}${esc(x)}`) : [`${esc(k)}${eq}${v === undefined || v === null ? "" : esc(v)}`]))
      .join(sep);
  return { parse, stringify, decode: parse, encode: stringify, escape: esc, unescape: decodeURIComponent };
}

function readlineModule(ctx: BuiltinContext, promises: boolean): Record<string, unknown> {
  const createInterface = (opts: { input?: EventEmitter } | EventEmitter) => {
    const input = (opts && "input" in opts ? opts.input : opts) as EventEmitter | undefined;
    const rl = new EventEmitter() as EventEmitter & Record<string, unknown>;
    const lines: string[] = [];
    let ended = false;
    let closed = false;
    const waiters: Array<(l: string | null) => void> = [];
    let partial = "";
    const feed = (line: string) => {
      const w = waiters.shift();
      if (w) w(line);
      else lines.push(line);
      rl.emit("line", line);
    };
    input?.on("data", (c: unknown) => {
      partial += typeof c === "string" ? c : new TextDecoder().decode(c as Uint8Array);
      const parts = partial.split(/\r?\n/);
      partial = parts.pop()!;
      for (const l of parts) feed(l);
    });
    input?.on("end", () => {
      if (partial !== "") feed(partial);
      partial = "";
      ended = true;
      for (const w of waiters.splice(0)) w(null);
      close();
    });
    const close = () => {
      if (closed) return;
      closed = true;
      queueMicrotask(() => rl.emit("close"));
    };
    const next = () => new Promise<string | null>((resolve) => (lines.length ? resolve(lines.shift()!) : ended ? resolve(null) : waiters.push(resolve)));
    Object.assign(rl, {
      close,
      setPrompt() {},
      prompt() {},
      pause: () => rl,
      resume: () => rl,
      write: (s: string) => (ctx.process.stdout as { write(s: string): void }).write(s),
      question: (q: string, optsOrCb?: unknown, cb?: (a: string) => void) => {
        (ctx.process.stdout as { write(s: string): void }).write(q);
        const done = typeof optsOrCb === "function" ? (optsOrCb as (a: string) => void) : cb;
        const p = next().then((l) => l ?? "");
        if (done) void p.then(done);
        return promises ? p : undefined;
      },
      [Symbol.asyncIterator]: async function* () {
        for (let l = await next(); l !== null; l = await next()) yield l;
      },
    });
    return rl;
  };
  return { createInterface, Interface: EventEmitter, emitKeypressEvents: () => undefined, clearLine: () => true, cursorTo: () => true, moveCursor: () => true };
}

export function createBuiltins(ctx: BuiltinContext): { get(name: string): unknown; has(name: string): boolean } {
  const made = new Map<string, unknown>();
  const fsPair = () => {
    if (!made.has("fs")) {
      const { fs, promises } = createFs(ctx.fsHost);
      made.set("fs", fs);
      made.set("fs/promises", promises);
    }
  };
  const factories: Record<string, () => unknown> = {
    assert: () => assertModule(),
    "assert/strict": () => (get("assert") as Record<string, unknown>).strict,
    async_hooks: () => ({
      AsyncLocalStorage: class AsyncLocalStorage<T> {
        private store: T | undefined;
        getStore(): T | undefined {
          return this.store;
        }
        run<R>(store: T, fn: (...a: unknown[]) => R, ...args: unknown[]): R {
          const prev = this.store;
          this.store = store;
          try {
            return fn(...args);
          } finally {
            this.store = prev;
          }
        }
        enterWith(store: T): void {
          this.store = store;
        }
      },
      createHook: () => ({ enable: () => undefined, disable: () => undefined }),
      executionAsyncId: () => 1,
    }),
    buffer: () => bufferModule(),
    child_process: () => refusingModule("child_process", ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"], NO_PROCESSES),
    cluster: () => refusingModule("cluster", ["fork", "setupPrimary", "setupMaster"], NO_PROCESSES, { isPrimary: true, isMaster: true, isWorker: false }),
    console: () => ctx.console,
    constants: () => ({ O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2 }),
    crypto: () => cryptoModule(),
    dgram: () => refusingModule("dgram", ["createSocket"], NO_SOCKETS),
    diagnostics_channel: () => ({ channel: () => ({ hasSubscribers: false, publish() {}, subscribe() {}, unsubscribe() {} }), hasSubscribers: () => false, subscribe() {}, unsubscribe() {} }),
    dns: () => refusingModule("dns", ["lookup", "resolve", "resolve4", "resolve6"], "name lookups are not available inside the browser tab"),
    "dns/promises": () => refusingModule("dns/promises", ["lookup", "resolve"], "name lookups are not available inside the browser tab"),
    events: () => eventsModule(),
    fs: () => (fsPair(), made.get("fs")),
    "fs/promises": () => (fsPair(), made.get("fs/promises")),
    http: () => httpModule("http"),
    https: () => httpModule("https"),
    http2: () => refusingModule("http2", ["createServer", "createSecureServer", "connect"], NO_LISTEN),
    inspector: () => refusingModule("inspector", ["open", "url", "waitForDebugger"], "the inspector is not available in the browser tab"),
    module: () => ({
      createRequire: (f: string | URL) => ctx.createRequire(typeof f === "string" ? (f.startsWith("file:") ? decodeURIComponent(new URL(f).pathname) : f) : decodeURIComponent(f.pathname)),
      builtinModules: [...BUILTIN_NAMES],
      isBuiltin: (n: string) => has(n.replace(/^node:/, "")),
      register: refusal("module", "register", "loader hooks are not available in this runtime"),
    }),
    net: () =>
      refusingModule("net", ["connect", "createConnection"], NO_SOCKETS, {
        createServer: () => Object.assign(new EventEmitter(), { listen: refusal("net.Server", "listen", NO_LISTEN), close: () => undefined }),
        isIP: (s: string) => (/^\d{1,3}(\.\d{1,3}){3}$/.test(s) ? 4 : s.includes(":") ? 6 : 0),
        isIPv4: (s: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(s),
        isIPv6: (s: string) => s.includes(":"),
      }),
    os: () => osModule(ctx.env),
    path: () => pathModule,
    "path/posix": () => pathModule,
    perf_hooks: () => ({ performance, PerformanceObserver: globalThis.PerformanceObserver }),
    process: () => ctx.process,
    querystring: () => querystringModule(),
    readline: () => readlineModule(ctx, false),
    "readline/promises": () => readlineModule(ctx, true),
    repl: () => refusingModule("repl", ["start"], "the interactive prompt is not available in the tab"),
    stream: () => streamModule(),
    "stream/promises": () => (get("stream") as Record<string, unknown>).promises,
    string_decoder: () => stringDecoderModule(),
    sys: () => get("util"),
    test: () => ctx.test(),
    timers: () => ctx.timers,
    "timers/promises": () => ({
      setTimeout: (ms: number, value?: unknown) => new Promise((r) => (ctx.timers.setTimeout as (f: () => void, ms: number) => void)(() => r(value), ms)),
      setImmediate: (value?: unknown) => new Promise((r) => (ctx.timers.setImmediate as (f: () => void) => void)(() => r(value))),
      setInterval: refusal("timers/promises", "setInterval", "not in this runtime; use setInterval from node:timers"),
      scheduler: { wait: (ms: number) => new Promise((r) => (ctx.timers.setTimeout as (f: () => void, ms: number) => void)(r as () => void, ms)), yield: () => new Promise((r) => (ctx.timers.setImmediate as (f: () => void) => void)(r as () => void)) },
    }),
    tls: () => refusingModule("tls", ["connect", "createServer", "createSecureContext"], NO_SOCKETS),
    tty: () => ({ isatty: () => false, ReadStream: Readable, WriteStream: EventEmitter }),
    url: () => urlModule(),
    util: () => utilModule(ctx.warn),
    "util/types": () => (get("util") as Record<string, unknown>).types,
    v8: () => ({ getHeapStatistics: () => ({ total_heap_size: 0, used_heap_size: 0, heap_size_limit: 0 }), serialize: (v: unknown) => Buffer.from(JSON.stringify(v)), deserialize: (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b)) }),
    vm: () => refusingModule("vm", ["runInNewContext", "runInThisContext", "runInContext", "createContext", "Script", "compileFunction"], "separate JavaScript contexts are not available in this runtime"),
    wasi: () => refusingModule("wasi", ["WASI"], "WASI is not available in this runtime"),
    worker_threads: () => refusingModule("worker_threads", ["Worker"], "worker threads are not available in this runtime", { isMainThread: true, parentPort: null, workerData: null, threadId: 0 }),
    zlib: () => refusingModule("zlib", ["gzipSync", "gunzipSync", "deflateSync", "inflateSync", "createGzip", "createGunzip", "gzip", "gunzip", "brotliCompressSync"], "compression is not in this runtime yet"),
  };
  function has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(factories, name);
  }
  function get(name: string): unknown {
    if (!made.has(name)) made.set(name, factories[name]!());
    return made.get(name);
  }
  void inspect;
  return { get, has };
}
