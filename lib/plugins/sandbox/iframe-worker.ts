/**
 * Where a sandboxed plugin runs in the browser: a dedicated worker started from inside an
 * `<iframe sandbox="allow-scripts">` whose document carries a Content-Security-Policy that allows
 * no connection. The guarantees come from the browser, not from the runtime's hardening:
 *
 * - No allow-same-origin: the iframe, and the blob: worker it creates, have an opaque origin.
 *   IndexedDB, localStorage, caches and cookies of the app's origin do not exist there (IndexedDB
 *   throws), and a BroadcastChannel opened there cannot hear the app's channels.
 * - The CSP (`default-src 'none'`, `connect-src 'none'`, `script-src` only the bootstrap's nonce
 *   and `data:`, `worker-src blob:`) is a meta tag of the srcdoc document; Chromium gives a blob:
 *   worker the policy of the document that created it (checked in e2e/plugin-isolation.spec.ts).
 *   So fetch, XHR, WebSocket, EventSource, sendBeacon, importScripts and import() of anything but a
 *   data: module are refused by the browser, for the worker and for any worker it nests, however
 *   the code reaches them (prototype chains, constructors, comments inside `import (…)`).
 * - Nothing is fetched by the iframe: the runtime's source text comes in the first message (the
 *   page fetched it from the app), and the worker is made from it as a blob.
 * - The only channel is the MessagePort handed in; the host validates what arrives on it
 *   (sandboxed.ts). The bootstrap forwards only the worker's start failures and crashes to the
 *   page, which checks that they come from this iframe's window.
 *
 * This is how VS Code for the web isolates its extension host (webWorkerExtensionHostIframe.html:
 * a worker inside a cross-origin iframe with its own CSP). Removing the iframe terminates the
 * worker, which is how a plugin over its time limit is stopped.
 */
import type { WorkerHandle } from "./sandboxed";

const START = "tabula-sandbox-start";
const FAILED = "tabula-sandbox-error";

/** The iframe's own script: make the worker from the runtime text, hand it the port, forward its failures. */
const BOOTSTRAP = `addEventListener("message", function start(e) {
  if (e.source !== parent || !e.data || e.data.type !== "${START}" || !e.ports[0]) return;
  removeEventListener("message", start);
  var fail = function (m) { parent.postMessage({ type: "${FAILED}", message: String(m).slice(0, 500) }, "*"); };
  var w;
  try {
    w = new Worker(URL.createObjectURL(new Blob([e.data.runtime], { type: "text/javascript" })), { name: String(e.data.name) });
  } catch (err) { return fail("the plugin worker could not start: " + (err && err.message)); }
  w.onerror = function (ev) { ev.preventDefault(); fail(ev.message || "the plugin worker failed"); };
  w.postMessage(null, [e.ports[0]]);
});`;

/** The policy of the sandbox document (and, inherited, of its workers). */
export function sandboxPolicy(nonce: string): string {
  return [`default-src 'none'`, `script-src 'nonce-${nonce}' data:`, `worker-src blob:`, `connect-src 'none'`, `base-uri 'none'`, `form-action 'none'`].join("; ");
}

export function sandboxDocument(nonce: string): string {
  return `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${sandboxPolicy(nonce)}"></head><body><script nonce="${nonce}">${BOOTSTRAP}</script></body></html>`;
}

export type IframeWorkerOptions = {
  /** The page's document: the iframe is appended to its body. */
  document: Document;
  /** The bundled runtime (lib/plugins/sandbox/worker.ts) as text. */
  runtimeSource(): Promise<string>;
  name?: string;
};

function randomNonce(): string {
  const bytes = new Uint8Array(18);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function iframeWorker(opts: IframeWorkerOptions): WorkerHandle {
  const doc = opts.document;
  const win = doc.defaultView!;
  const channel = new MessageChannel();
  const iframe = doc.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.setAttribute("aria-hidden", "true");
  iframe.tabIndex = -1;
  iframe.title = `plugin sandbox ${opts.name ?? ""}`.trim();
  iframe.dataset.pluginSandbox = opts.name ?? "";
  iframe.style.display = "none";
  iframe.srcdoc = sandboxDocument(randomNonce());
  let ended = false;

  const handle: WorkerHandle = {
    postMessage: (m) => channel.port1.postMessage(m),
    addEventListener: (_type, listener) => {
      channel.port1.addEventListener("message", listener as (ev: MessageEvent) => void);
      channel.port1.start();
    },
    removeEventListener: (_type, listener) => channel.port1.removeEventListener("message", listener as (ev: MessageEvent) => void),
    terminate: () => {
      if (ended) return;
      ended = true;
      win.removeEventListener("message", onWindowMessage);
      channel.port1.close();
      iframe.remove();
    },
    onerror: null,
  };
  const fail = (message: string) => {
    if (!ended) handle.onerror?.(new Error(message));
  };

  function onWindowMessage(ev: MessageEvent): void {
    if (ev.source !== iframe.contentWindow) return;
    const data = ev.data as { type?: unknown; message?: unknown } | null;
    if (data?.type === FAILED) fail(`Plugin sandbox: ${String(data.message)}`);
  }
  win.addEventListener("message", onWindowMessage);
  iframe.addEventListener(
    "load",
    () => {
      opts.runtimeSource().then(
        (runtime) => {
          if (!ended) iframe.contentWindow?.postMessage({ type: START, runtime, name: opts.name ?? "tabula-plugin" }, "*", [channel.port2]);
        },
        (e: unknown) => fail(`Plugin sandbox: the runtime could not be loaded (${(e as Error).message})`),
      );
    },
    { once: true },
  );
  doc.body.append(iframe);
  return handle;
}
