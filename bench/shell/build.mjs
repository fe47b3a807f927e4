/** esbuild bundles of the shell for the benchmark: a browser one (Chromium) and a Node one. */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";
import { bufferStub, zlibStub } from "./stubs.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");

export async function buildBundles() {
  // Under node_modules/.cache so that the Node bundle's bare imports (just-bash, isomorphic-git…)
  // resolve to the project's packages; the caller removes the directory afterwards.
  const cache = path.join(root, "node_modules", ".cache");
  fs.mkdirSync(cache, { recursive: true });
  const out = fs.mkdtempSync(path.join(cache, "tabula-shell-bench-"));
  fs.writeFileSync(path.join(out, "zlib-stub.js"), zlibStub);
  fs.writeFileSync(path.join(out, "buffer-stub.js"), bufferStub);
  const browserFile = path.join(out, "bench-browser.js");
  const t0 = Date.now();
  await esbuild.build({
    entryPoints: [path.join(here, "entry.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    minify: true,
    outfile: browserFile,
    alias: { "node:zlib": path.join(out, "zlib-stub.js"), buffer: path.join(out, "buffer-stub.js") },
    logLevel: "error",
  });
  const nodeFile = path.join(out, "bench-node.mjs");
  await esbuild.build({
    entryPoints: [path.join(here, "node-entry.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: nodeFile,
    packages: "external",
    logLevel: "error",
  });
  return { dir: out, browserFile, nodeFile, browserBundleBytes: fs.statSync(browserFile).size, buildMs: Date.now() - t0 };
}
