/** esbuild bundles of the engine: an ESM file for Node, and the browser entry. */
import { build } from "esbuild";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

/** Writes the Node bundle (engine + ChangeJournal) to a temp file and returns its path. */
export async function buildNodeBundle() {
  const out = path.join(os.tmpdir(), `tabula-ckpt-engine-${process.pid}.mjs`);
  await build({
    stdin: {
      contents: `export * from "./lib/checkpoints/index.ts";\nexport { ChangeJournal } from "./lib/fs/journal.ts";\n`,
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outfile: out,
    logLevel: "error",
  });
  return out;
}

/** The browser bundle as a string (lightning-fs included; the engine needs no Buffer). */
export async function buildBrowserBundle() {
  const r = await build({
    entryPoints: [path.join(here, "browser-entry.mjs")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "chrome120",
    write: false,
    logLevel: "error",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  return r.outputFiles[0].text;
}

export function cleanup(file) {
  fs.rmSync(file, { force: true });
}
