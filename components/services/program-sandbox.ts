"use client";
/**
 * The page's binding of the program sandbox (lib/runtimes/sandbox/program-sandbox.ts): python3
 * and node programs run in workers inside opaque-origin iframes that can fetch nothing. The page
 * fetches each runtime's script once from the app (built by next.config.ts into
 * public/runtimes/; the service worker keeps it for offline use) and hands its text in.
 */
import { sandboxedWorker, type SandboxedWorker } from "@/lib/runtimes/sandbox/program-sandbox";

export const RUNTIMES_BASE = "/runtimes/";

const scripts = new Map<string, Promise<string>>();

function runtimeScript(file: string): Promise<string> {
  let text = scripts.get(file);
  if (!text) {
    const path = `${RUNTIMES_BASE}${file}`;
    text = fetch(path).then(async (r) => {
      if (!r.ok) throw new Error(`${path} answered ${r.status}`);
      return r.text();
    });
    text.catch(() => scripts.delete(file)); // try again on the next start
    scripts.set(file, text);
  }
  return text;
}

/** A worker running `file` (under /runtimes/) in its own program sandbox. */
export function sandboxedRuntimeWorker<In, Out>(file: string, name: string): SandboxedWorker<In, Out> {
  return sandboxedWorker<In, Out>({ document, name, script: () => runtimeScript(file) });
}
