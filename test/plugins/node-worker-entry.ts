/** The sandbox runtime in a Node worker thread (what a Web Worker is in the browser), for tests. */
import { parentPort } from "node:worker_threads";
import { startPluginRuntime } from "../../lib/plugins/sandbox/runtime";

const listeners: ((ev: { data: unknown }) => void)[] = [];
parentPort!.on("message", (data) => listeners.forEach((l) => l({ data })));
startPluginRuntime({ postMessage: (m) => parentPort!.postMessage(m), addEventListener: (_t, l) => listeners.push(l) });
