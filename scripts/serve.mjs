#!/usr/bin/env node
/**
 * Serves Tabula: the app on one port and its web preview on a second (`npm start`, `npm run dev`).
 *
 * Why a server of our own instead of `next start`: the previewed page is the workspace's code and
 * must not share the app's origin (it would read every workspace in the app's IndexedDB and the
 * keys in localStorage). The same Next app answers both ports, but each port serves only its part:
 * the preview port only /preview/* (the host page and its service worker, lib/preview/), the app
 * port everything but /preview/*. Same host, another port: another origin, the same site (see
 * lib/preview/origin.ts for why that matters).
 *
 *   node scripts/serve.mjs [--dev] [-p PORT] [-H HOST]
 *   PORT (3000), TABULA_PREVIEW_PORT (PORT + 1); TABULA_PREVIEW_ORIGIN overrides the origin the
 *   app uses for previews (a proxy in front); the preview port is then still listened on.
 */
import http from "node:http";

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const dev = args.includes("--dev");
const port = Number(flag("-p") ?? process.env.PORT ?? 3000);
const hostname = flag("-H") ?? "127.0.0.1";
const previewPort = Number(process.env.TABULA_PREVIEW_PORT ?? port + 1);
process.env.TABULA_PREVIEW_PORT = String(previewPort);
process.env.NODE_ENV ??= dev ? "development" : "production";
// No network beyond this machine unless the user asks for it: not Next's telemetry either.
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

const { default: next } = await import("next");
const app = next({ dev, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const PREVIEW = /^\/preview\//;
const notHere = (res, text) => {
  res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
  res.end(text);
};

const appServer = http.createServer((req, res) => {
  if (PREVIEW.test(req.url ?? "")) return notHere(res, `The web preview is served on port ${previewPort}, not on the app's.`);
  handle(req, res);
});
appServer.on("upgrade", app.getUpgradeHandler?.() ?? (() => undefined));

const previewServer = http.createServer((req, res) => {
  if (!PREVIEW.test(req.url ?? "") || req.method !== "GET") return notHere(res, `This port serves Tabula's web previews only; the app is on port ${port}.`);
  handle(req, res);
});

const listen = (server, p) =>
  new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(p, hostname, resolve);
  });
await listen(appServer, port);
await listen(previewServer, previewPort);
console.log(`Tabula on http://${hostname}:${port} (previews on port ${previewPort})${dev ? ", development" : ""}`);

const stop = () => {
  appServer.close();
  previewServer.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
