/**
 * Where the user's programs (python3, node) run in the browser: a classic Web Worker started
 * inside an `<iframe sandbox="allow-scripts">` whose Content-Security-Policy allows no
 * connection. A program is whatever the workspace holds — a stranger's `setup.py`, a test suite
 * the agent wrote — so what it can reach is decided by the browser, not by our runtime code:
 *
 * - No allow-same-origin: the iframe and its blob: worker have an opaque origin. The app's
 *   IndexedDB (every workspace, every session), its caches and cookies do not exist there
 *   (indexedDB.open throws SecurityError), and its BroadcastChannels cannot be heard.
 * - The CSP (`connect-src 'none'`, scripts only from the bootstrap's nonce and blob:) is a meta tag
 *   of the srcdoc document, inherited by the worker: fetch, XHR, WebSocket, EventSource and
 *   importScripts of any address are refused, the app's own /api routes included.
 *   'unsafe-eval' and 'wasm-unsafe-eval' are allowed because running code is the point (node's
 *   module loader evaluates sources, Pyodide compiles its wasm); neither opens a channel.
 * - Nothing is fetched by the sandbox: the worker's script comes in the start message as text
 *   (the page fetched it, through the service worker, so it works offline), and the runtime's
 *   own files (Pyodide's wasm and standard library) are asked of the page over the message
 *   channel, which serves only the runtime's paths (the runtimes' protocols say how).
 * - `allow="cross-origin-isolated"` keeps SharedArrayBuffer inside the sandbox (the page is
 *   COOP/COEP isolated and the srcdoc document inherits its policies). A SharedArrayBuffer cannot
 *   cross from the page into another agent cluster, so the interrupt cell (Python's Ctrl-C) is
 *   made in here and handed to the worker in a first `{ type: "host" }` message; the page sets it
 *   through the control port (`signal`).
 * - One iframe serves a runtime for the page's lifetime and starts a fresh worker per program
 *   from the script it was handed once (starting an iframe costs ~70 ms, a worker from a blob:
 *   URL ~100 ms, measured in Chromium here). The page talks to each worker through its own
 *   MessagePort, which the iframe relays (re-transferring every ArrayBuffer, so snapshots and
 *   results are moved, not copied); the iframe's own thread runs nothing but this bootstrap, so
 *   `end` (the hard stop: the worker is terminated) is handled at once whatever the program does.
 *
 * The same structure as the plugin sandbox (lib/plugins/sandbox/iframe-worker.ts). Why a classic
 * worker: a module worker made from a blob: in an opaque-origin document fails to start in
 * Chromium; a classic one can still `import()` a blob: module, which is how Pyodide's ES module
 * is loaded (lib/runtimes/python/worker.ts).
 */

const START = "tabula-program-sandbox";

/** The iframe's own script: keep the runtime's script, start workers from it, relay, signal, end. */
const BOOTSTRAP = `addEventListener("message", function start(e) {
  if (e.source !== parent || !e.data || e.data.type !== "${START}" || !e.ports[0]) return;
  removeEventListener("message", start);
  var control = e.ports[0];
  var script = URL.createObjectURL(new Blob([e.data.script], { type: "text/javascript" }));
  var name = String(e.data.name);
  var live = new Map();
  var moved = function (value) {
    var out = [], seen = new Set(), stack = [value], n = 0;
    while (stack.length && n++ < 100000) {
      var v = stack.pop();
      if (!v || typeof v !== "object") continue;
      if (v instanceof ArrayBuffer) { if (!seen.has(v)) { seen.add(v); out.push(v); } continue; }
      if (ArrayBuffer.isView(v)) { if (v.buffer instanceof ArrayBuffer && !seen.has(v.buffer)) { seen.add(v.buffer); out.push(v.buffer); } continue; }
      if (Array.isArray(v)) { for (var i = 0; i < v.length; i++) stack.push(v[i]); continue; }
      if (Object.getPrototypeOf(v) === Object.prototype) for (var k in v) stack.push(v[k]);
    }
    return out;
  };
  var spawn = function (id, port) {
    var fail = function (m) { control.postMessage({ type: "error", id: id, message: String(m).slice(0, 500) }); };
    var w;
    try { w = new Worker(script, { name: name }); }
    catch (err) { return fail("the program worker could not start: " + (err && err.message)); }
    var cell = self.crossOriginIsolated && typeof SharedArrayBuffer === "function" ? new Int32Array(new SharedArrayBuffer(8)) : null;
    w.postMessage({ type: "host", interrupt: cell ? cell.buffer : null });
    w.onmessage = function (ev) { port.postMessage(ev.data, moved(ev.data)); };
    w.onerror = function (ev) { ev.preventDefault(); fail(ev.message || "the program worker failed"); };
    port.onmessage = function (ev) { w.postMessage(ev.data, moved(ev.data)); };
    live.set(id, { worker: w, cell: cell, port: port });
  };
  control.onmessage = function (ev) {
    var m = ev.data || {};
    var x = live.get(m.id);
    if (m.type === "spawn" && ev.ports[0] && !x) spawn(m.id, ev.ports[0]);
    else if (m.type === "signal" && x && x.cell && typeof m.value === "number") { if (typeof m.runId === "number") Atomics.store(x.cell, 1, m.runId); Atomics.store(x.cell, 0, m.value); }
    else if (m.type === "end" && x) { x.worker.terminate(); x.port.close(); live.delete(m.id); }
  };
});`;

/** The policy of the sandbox document (and, inherited, of its workers). */
export function programSandboxPolicy(nonce: string): string {
  return [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}' blob: 'unsafe-eval' 'wasm-unsafe-eval'`,
    `worker-src blob:`,
    `connect-src 'none'`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join("; ");
}

export function programSandboxDocument(nonce: string): string {
  return `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${programSandboxPolicy(nonce)}"></head><body><script nonce="${nonce}">${BOOTSTRAP}</script></body></html>`;
}

/** A worker in the sandbox, shaped like the parts of a Worker the runtimes use. */
export type SandboxedWorker<In, Out> = {
  postMessage(message: In, transfer?: Transferable[]): void;
  /** The hard stop: the worker is terminated (and its iframe stays for the next program). */
  terminate(): void;
  onmessage: ((e: { data: Out }) => void) | null;
  onerror: ((e: { message?: string }) => void) | null;
  /**
   * Set the interrupt cell the worker was given (a no-op where the sandbox has none), for the run
   * `runId` (the cell's second slot), so that a run just starting keeps a signal meant for it.
   */
  signal(value: number, runId?: number): void;
};

export type ProgramSandboxOptions = {
  /** The page's document: the iframe is appended to its body. */
  document: Document;
  /** The runtime's worker script (a classic script bundle) as text; asked for once per iframe. */
  script(): Promise<string>;
  name: string;
};

export type ProgramSandbox = {
  /** A fresh worker running the script. */
  worker<In, Out>(): SandboxedWorker<In, Out>;
};

function randomNonce(): string {
  const bytes = new Uint8Array(18);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

type Frame = { iframe: HTMLIFrameElement; control: MessagePort; workers: Map<number, (message: string) => void> };

export function programSandbox(opts: ProgramSandboxOptions): ProgramSandbox {
  const doc = opts.document;
  let frame: Frame | null = null;
  let nextId = 1;

  /** The runtime's script could not be had: every worker waiting on this iframe fails; the next worker starts a new iframe. */
  const abandon = (f: Frame, reason: string) => {
    if (frame === f) frame = null;
    f.control.close();
    f.iframe.remove();
    for (const fail of f.workers.values()) fail(reason);
    f.workers.clear();
  };

  /** The iframe, started on first use; messages sent before it is up wait in the control port. */
  const current = (): Frame => {
    if (frame) return frame;
    const channel = new MessageChannel();
    const iframe = doc.createElement("iframe");
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.setAttribute("allow", "cross-origin-isolated");
    iframe.setAttribute("aria-hidden", "true");
    iframe.tabIndex = -1;
    iframe.title = `program sandbox ${opts.name}`;
    iframe.dataset.programSandbox = opts.name;
    iframe.style.display = "none";
    iframe.srcdoc = programSandboxDocument(randomNonce());
    const f: Frame = { iframe, control: channel.port1, workers: new Map() };
    channel.port1.onmessage = (e) => {
      const m = e.data as { type?: unknown; id?: unknown; message?: unknown } | null;
      if (m?.type === "error" && typeof m.id === "number") f.workers.get(m.id)?.(String(m.message));
    };
    iframe.addEventListener(
      "load",
      () => {
        opts.script().then(
          (script) => iframe.contentWindow?.postMessage({ type: START, script, name: opts.name }, "*", [channel.port2]),
          (e: unknown) => abandon(f, `the program runtime could not be loaded (${(e as Error).message})`),
        );
      },
      { once: true },
    );
    doc.body.append(iframe);
    frame = f;
    return f;
  };

  const worker = <In, Out>(): SandboxedWorker<In, Out> => {
    const f = current();
    const id = nextId++;
    const data = new MessageChannel();
    let ended = false;
    const handle: SandboxedWorker<In, Out> = {
      postMessage: (m, transfer) => {
        if (!ended) data.port1.postMessage(m, transfer ?? []);
      },
      terminate: () => {
        if (ended) return;
        ended = true;
        f.workers.delete(id);
        data.port1.close();
        f.control.postMessage({ type: "end", id });
      },
      onmessage: null,
      onerror: null,
      signal: (value, runId) => {
        if (!ended) f.control.postMessage({ type: "signal", id, value, runId });
      },
    };
    data.port1.onmessage = (e) => {
      if (!ended) handle.onmessage?.({ data: e.data as Out });
    };
    f.workers.set(id, (message) => {
      if (!ended) handle.onerror?.({ message });
    });
    f.control.postMessage({ type: "spawn", id }, [data.port2]);
    return handle;
  };

  return { worker };
}
