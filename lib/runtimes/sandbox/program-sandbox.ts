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
 * - The page talks to the worker through a MessagePort that the iframe relays (re-transferring
 *   every ArrayBuffer, so big snapshots and results are moved, not copied). Removing the iframe
 *   ends the worker: that is the hard stop.
 *
 * The same structure as the plugin sandbox (lib/plugins/sandbox/iframe-worker.ts). Why a classic
 * worker: a module worker made from a blob: in an opaque-origin document fails to start in
 * Chromium; a classic one can still `import()` a blob: module, which is how Pyodide's ES module
 * is loaded (lib/runtimes/python/worker.ts).
 */

const START = "tabula-program-start";

/** The iframe's own script: start the worker, hand it the interrupt cell, relay both ways. */
const BOOTSTRAP = `addEventListener("message", function start(e) {
  if (e.source !== parent || !e.data || e.data.type !== "${START}" || e.ports.length !== 2) return;
  removeEventListener("message", start);
  var data = e.ports[0], control = e.ports[1];
  var fail = function (m) { control.postMessage({ type: "error", message: String(m).slice(0, 500) }); };
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
  var w;
  try {
    w = new Worker(URL.createObjectURL(new Blob([e.data.script], { type: "text/javascript" })), { name: String(e.data.name) });
  } catch (err) { return fail("the program worker could not start: " + (err && err.message)); }
  var cell = self.crossOriginIsolated && typeof SharedArrayBuffer === "function" ? new Int32Array(new SharedArrayBuffer(4)) : null;
  w.postMessage({ type: "host", interrupt: cell ? cell.buffer : null });
  w.onmessage = function (ev) { data.postMessage(ev.data, moved(ev.data)); };
  w.onerror = function (ev) { ev.preventDefault(); fail(ev.message || "the program worker failed"); };
  data.onmessage = function (ev) { w.postMessage(ev.data, moved(ev.data)); };
  control.onmessage = function (ev) { if (cell && ev.data && typeof ev.data.signal === "number") Atomics.store(cell, 0, ev.data.signal); };
});`;

/** The policy of the sandbox document (and, inherited, of its worker). */
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
  terminate(): void;
  onmessage: ((e: { data: Out }) => void) | null;
  onerror: ((e: { message?: string }) => void) | null;
  /** Set the interrupt cell the worker was given (a no-op where the sandbox has none). */
  signal(value: number): void;
};

export type ProgramSandboxOptions = {
  /** The page's document: the iframe is appended to its body. */
  document: Document;
  /** The worker's script (a classic script bundle) as text. */
  script(): Promise<string>;
  name: string;
};

function randomNonce(): string {
  const bytes = new Uint8Array(18);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function sandboxedWorker<In, Out>(opts: ProgramSandboxOptions): SandboxedWorker<In, Out> {
  const doc = opts.document;
  const data = new MessageChannel();
  const control = new MessageChannel();
  const iframe = doc.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.setAttribute("allow", "cross-origin-isolated");
  iframe.setAttribute("aria-hidden", "true");
  iframe.tabIndex = -1;
  iframe.title = `program sandbox ${opts.name}`;
  iframe.dataset.programSandbox = opts.name;
  iframe.style.display = "none";
  iframe.srcdoc = programSandboxDocument(randomNonce());
  let ended = false;

  const handle: SandboxedWorker<In, Out> = {
    // Messages sent before the iframe has its end of the port wait in the port's queue.
    postMessage: (m, transfer) => {
      if (!ended) data.port1.postMessage(m, transfer ?? []);
    },
    terminate: () => {
      if (ended) return;
      ended = true;
      data.port1.close();
      control.port1.close();
      iframe.remove();
    },
    onmessage: null,
    onerror: null,
    signal: (value) => {
      if (!ended) control.port1.postMessage({ signal: value });
    },
  };
  const fail = (message: string) => {
    if (!ended) handle.onerror?.({ message });
  };
  data.port1.onmessage = (e) => {
    if (!ended) handle.onmessage?.({ data: e.data as Out });
  };
  control.port1.onmessage = (e) => {
    const m = e.data as { type?: unknown; message?: unknown } | null;
    if (m?.type === "error") fail(String(m.message));
  };
  iframe.addEventListener(
    "load",
    () => {
      opts.script().then(
        (script) => {
          if (!ended) iframe.contentWindow?.postMessage({ type: START, script, name: opts.name }, "*", [data.port2, control.port2]);
        },
        (e: unknown) => fail(`the program runtime could not be loaded (${(e as Error).message})`),
      );
    },
    { once: true },
  );
  doc.body.append(iframe);
  return handle;
}
