/**
 * The browser entry of a plugin sandbox: one plugin per worker. It is bundled on its own
 * (esbuild, see next.config.ts) into one classic script, because it does not load from the
 * app's origin: iframe-worker.ts starts it from a blob: URL inside an opaque-origin iframe whose
 * CSP forbids every fetch. The only channel is the MessagePort handed over in the first
 * message; the worker's own postMessage reaches nothing (the iframe does not listen).
 */
import { startPluginRuntime } from "./runtime";
import type { Port } from "./rpc";

const scope = self as unknown as { addEventListener(t: "message", l: (ev: MessageEvent) => void): void; removeEventListener(t: "message", l: (ev: MessageEvent) => void): void };

function first(ev: MessageEvent): void {
  const port = ev.ports?.[0];
  if (!port) return;
  scope.removeEventListener("message", first);
  startPluginRuntime(port as unknown as Port);
  port.start();
}
scope.addEventListener("message", first);
