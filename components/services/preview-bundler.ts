"use client";
/**
 * The preview's bundler: esbuild's wasm build, served by the app (public/esbuild/esbuild.wasm,
 * copied by next.config.ts) and started on the first module that needs it, in a worker of its own.
 */
import type { Esbuild } from "@/lib/preview/bundle";

let ready: Promise<Esbuild> | undefined;

export function browserBundler(): Promise<Esbuild> {
  ready ??= (async () => {
    const esbuild = await import("esbuild-wasm");
    await esbuild.initialize({ wasmURL: "/esbuild/esbuild.wasm", worker: true });
    return esbuild as unknown as Esbuild;
  })();
  ready.catch(() => (ready = undefined));
  return ready;
}
