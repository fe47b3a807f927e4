"use client";
/**
 * The page's binding of the program sandbox (lib/runtimes/sandbox/program-sandbox.ts): python3
 * and node programs run in workers inside opaque-origin iframes that can fetch nothing, one
 * iframe per runtime for the page's lifetime. The page fetches each runtime's script once from
 * the app (built by next.config.ts into public/runtimes/; the service worker keeps it for
 * offline use) and hands its text in.
 */
import { programSandbox, type ProgramSandbox, type SandboxedWorker } from "@/lib/runtimes/sandbox/program-sandbox";

const RUNTIMES_BASE = "/runtimes/";

const sandboxes = new Map<string, ProgramSandbox>();

async function runtimeScript(file: string): Promise<string> {
  const path = `${RUNTIMES_BASE}${file}`;
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.text();
}

/** A fresh worker running `file` (under /runtimes/) in that runtime's program sandbox. */
export function sandboxedRuntimeWorker<In, Out>(file: string, name: string): SandboxedWorker<In, Out> {
  let sandbox = sandboxes.get(file);
  if (!sandbox) {
    sandbox = programSandbox({ document, name, script: () => runtimeScript(file) });
    sandboxes.set(file, sandbox);
  }
  return sandbox.worker<In, Out>();
}
