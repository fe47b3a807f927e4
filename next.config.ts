import type { NextConfig } from "next";
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from "next/constants";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The IDE must work offline: nothing is fetched from a CDN at run time.
  images: { unoptimized: true },
  // Cross-origin isolation: SharedArrayBuffer for Python's interrupt buffer (Ctrl-C raises
  // KeyboardInterrupt; lib/runtimes/python/worker-runtime.ts). Everything the app loads is its
  // own (no CDN), and the plugin sandbox's srcdoc iframe and blob workers inherit the policy.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
          { key: "Cross-Origin-Embedder-Policy", value: "require-corp" },
        ],
      },
    ];
  },
};

/** One worker or sandbox script, bundled on its own by esbuild for the browser (minified, no comments). */
async function bundleScript(entry: string, outfile: string, format: "iife" | "esm", external: string[] = []): Promise<void> {
  const { build } = await import("esbuild");
  await build({ entryPoints: [entry], outfile, bundle: true, format, platform: "browser", target: "es2022", minify: true, legalComments: "none", logLevel: "error", external });
}

/**
 * The plugin sandbox runtime is bundled on its own, into one classic script the page hands to
 * an opaque-origin iframe as text (lib/plugins/sandbox/iframe-worker.ts): a Turbopack worker
 * chunk would load further chunks from the app's origin, which the sandbox's CSP forbids.
 * Built with `next build` and `next dev`, so no extra step is needed.
 */
async function bundlePluginRuntime(): Promise<void> {
  await bundleScript("lib/plugins/sandbox/worker.ts", "public/sandbox/plugin-runtime.js", "iife");
}

/**
 * Python in the tab: Pyodide's files (the wasm, the standard library, the lock file and its
 * module) are served by the app itself from public/pyodide/ and handed by the page to the worker
 * that runs them (lib/runtimes/python/worker.ts), which runs in the program sandbox and so is a
 * classic script of its own in public/runtimes/ (lib/runtimes/sandbox/program-sandbox.ts says
 * why classic). Pyodide's files are copied only when missing or changed.
 */
const PYODIDE_FILES = ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

async function bundlePythonRuntime(): Promise<void> {
  const fs = await import("node:fs/promises");
  const path = await import("node:path");
  const from = path.join(process.cwd(), "node_modules/pyodide");
  const to = path.join(process.cwd(), "public/pyodide");
  await fs.mkdir(to, { recursive: true });
  for (const name of PYODIDE_FILES) {
    const [src, dst] = await Promise.all([fs.stat(path.join(from, name)), fs.stat(path.join(to, name)).catch(() => null)]);
    if (!dst || dst.size !== src.size || dst.mtimeMs < src.mtimeMs) await fs.copyFile(path.join(from, name), path.join(to, name));
  }
  // Pyodide's loader imports these only under Node.
  await bundleScript("lib/runtimes/python/worker.ts", "public/runtimes/python-worker.js", "iife", ["node:*", "ws"]);
}

/**
 * node in the tab: the worker that runs programs (lib/runtimes/node/worker.ts, with sucrase for
 * TypeScript and JSX and @noble/hashes for crypto) is bundled on its own into a classic script
 * at public/runtimes/node-worker.js: one fresh worker per program, in its own program sandbox.
 */
async function bundleNodeRuntime(): Promise<void> {
  await bundleScript("lib/runtimes/node/worker.ts", "public/runtimes/node-worker.js", "iife");
}

/**
 * The web preview's bundler (lib/preview/bundle.ts): esbuild's wasm, served by the app from
 * public/esbuild/ like Pyodide's files (no CDN), copied only when missing or changed.
 */
async function copyEsbuildWasm(): Promise<void> {
  const fs = await import("node:fs/promises");
  const path = await import("node:path");
  const from = path.join(process.cwd(), "node_modules/esbuild-wasm/esbuild.wasm");
  const to = path.join(process.cwd(), "public/esbuild/esbuild.wasm");
  await fs.mkdir(path.dirname(to), { recursive: true });
  const [src, dst] = await Promise.all([fs.stat(from), fs.stat(to).catch(() => null)]);
  if (!dst || dst.size !== src.size || dst.mtimeMs < src.mtimeMs) await fs.copyFile(from, to);
}

export default async function config(phase: string): Promise<NextConfig> {
  if (phase === PHASE_PRODUCTION_BUILD || phase === PHASE_DEVELOPMENT_SERVER) await Promise.all([bundlePluginRuntime(), bundlePythonRuntime(), bundleNodeRuntime(), copyEsbuildWasm()]);
  return nextConfig;
}
