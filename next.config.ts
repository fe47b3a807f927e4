import type { NextConfig } from "next";
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from "next/constants";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The IDE must work offline: nothing is fetched from a CDN at run time.
  images: { unoptimized: true },
};

/**
 * The plugin sandbox runtime is bundled on its own, into one classic script the page hands to
 * an opaque-origin iframe as text (lib/plugins/sandbox/iframe-worker.ts): a Turbopack worker
 * chunk would load further chunks from the app's origin, which the sandbox's CSP forbids.
 * Built with `next build` and `next dev`, so no extra step is needed.
 */
async function bundlePluginRuntime(): Promise<void> {
  const { build } = await import("esbuild");
  await build({
    entryPoints: ["lib/plugins/sandbox/worker.ts"],
    outfile: "public/sandbox/plugin-runtime.js",
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "error",
  });
}

export default async function config(phase: string): Promise<NextConfig> {
  if (phase === PHASE_PRODUCTION_BUILD || phase === PHASE_DEVELOPMENT_SERVER) await bundlePluginRuntime();
  return nextConfig;
}
