"use client";
/**
 * The page's binding of the plugin sandbox: each plugin worker starts inside its own
 * opaque-origin iframe (lib/plugins/sandbox/iframe-worker.ts). The iframe may fetch nothing, so
 * the page fetches the runtime bundle once from the app (built by next.config.ts into
 * public/sandbox/) and hands its text in.
 */
import { iframeWorker } from "@/lib/plugins/sandbox/iframe-worker";
import type { WorkerHandle } from "@/lib/plugins/sandbox/sandboxed";

export const PLUGIN_RUNTIME_PATH = "/sandbox/plugin-runtime.js";

let runtime: Promise<string> | undefined;
function runtimeSource(): Promise<string> {
  runtime ??= fetch(PLUGIN_RUNTIME_PATH).then(async (r) => {
    if (!r.ok) throw new Error(`${PLUGIN_RUNTIME_PATH} answered ${r.status}`);
    return r.text();
  });
  runtime.catch(() => (runtime = undefined)); // try again on the next start
  return runtime;
}

export function createSandboxedPluginWorker(): WorkerHandle {
  return iframeWorker({ document, runtimeSource, name: "tabula-plugin" });
}
