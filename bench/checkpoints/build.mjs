/** esbuild bundles of the engine: an ESM file for Node, and the browser entry. */
import { build } from "esbuild";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

/** Writes the Node bundle (engine + ChangeJournal) to a temp file and returns its path. */
export async function buildNodeBundle() {
  // A private directory: /tmp may be shared with other checkouts running the bench (and a pid
  // is no unique name across containers).
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tabula-ckpt-engine-")), "engine.mjs");
  await build({
    stdin: {
      contents: `export * from "./lib/checkpoints/index.ts";\nexport { ChangeJournal } from "./lib/fs/journal.ts";\nexport { withWorktreeStamp, worktreeStampOf } from "./lib/fs/worktree-stamp.ts";\n`,
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

/** A browser bundle as a string (lightning-fs included; the engine needs no Buffer). `extra`:
 * more esbuild options (`define` is merged), e.g. the clone bench's Buffer polyfill. */
export async function buildBrowserBundle(entry = path.join(here, "browser-entry.mjs"), extra = {}) {
  const r = await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "chrome120",
    write: false,
    logLevel: "error",
    ...extra,
    define: { "process.env.NODE_ENV": '"production"', ...extra.define },
  });
  return r.outputFiles[0].text;
}

export function cleanup(file) {
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

/** Serve a bundle on 127.0.0.1 behind an empty page that loads it as a module. */
export async function serveBundle(js) {
  const html = `<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="/bundle.js"></script>`;
  const server = http.createServer((req, res) => {
    if (req.url === "/bundle.js") {
      res.writeHead(200, { "content-type": "text/javascript", "cache-control": "no-store" });
      res.end(js);
    } else {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(html);
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}
