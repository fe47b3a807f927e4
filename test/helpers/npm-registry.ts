/**
 * A local npm registry for tests: a dependency-free Node http server on 127.0.0.1 (random port)
 * serving package documents (the abbreviated form npm asks for) and gzipped tarballs, with CORS
 * so the app in Chromium can install from it. Packages are real: `packDirectory` tars a folder of
 * this repository's node_modules (debug, ms, picomatch…) as `npm pack` lays it out ("package/…").
 * `addRaw` serves hand-made tarballs (a wrong integrity, an entry escaping its folder).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import type { AddressInfo } from "node:net";

type Served = { name: string; version: string; manifest: Record<string, unknown>; tgz: Buffer; integrity?: string };

export type LocalRegistry = {
  url: string;
  requests: { method: string; path: string }[];
  /** Serve a folder as a package (its package.json says name, version, dependencies, bin). */
  addDirectory(dir: string, overrides?: Record<string, unknown>): void;
  /** Serve given files as a package; `integrity` replaces the computed one (to publish a wrong one). */
  addRaw(name: string, version: string, files: Record<string, string | Buffer>, opts?: { manifest?: Record<string, unknown>; integrity?: string; entryPrefix?: string }): void;
  close(): Promise<void>;
};

/** A ustar archive of `files` (paths as given), gzipped. */
export function tarGz(files: Record<string, string | Buffer>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const header = Buffer.alloc(512);
    const put = (s: string, at: number, len: number) => header.write(s.slice(0, len), at, len, "utf8");
    let base = name;
    let prefix = "";
    if (Buffer.byteLength(name) > 100) {
      const cut = name.lastIndexOf("/", 154);
      prefix = name.slice(0, cut);
      base = name.slice(cut + 1);
    }
    put(base, 0, 100);
    put("0000644\0", 100, 8);
    put("0000000\0", 108, 8);
    put("0000000\0", 116, 8);
    put(data.length.toString(8).padStart(11, "0") + "\0", 124, 12);
    put("00000000000\0", 136, 12);
    put("        ", 148, 8);
    put("0", 156, 1);
    put("ustar\0", 257, 6);
    put("00", 263, 2);
    put(prefix, 345, 155);
    let sum = 0;
    for (const b of header) sum += b;
    put(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(blocks));
}

function walk(dir: string, rel = ""): [string, Buffer][] {
  const out: [string, Buffer][] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (e.name !== "node_modules") out.push(...walk(dir, r));
    } else if (e.isFile()) out.push([r, fs.readFileSync(path.join(dir, r))]);
  }
  return out;
}

export async function startLocalRegistry(): Promise<LocalRegistry> {
  const packages = new Map<string, Served[]>();
  const requests: { method: string; path: string }[] = [];
  const server = http.createServer((req, res) => {
    const cors = { "access-control-allow-origin": req.headers.origin ?? "*", "access-control-allow-headers": "accept, content-type", "access-control-allow-methods": "GET, OPTIONS" };
    requests.push({ method: req.method ?? "", path: req.url ?? "" });
    if (req.method === "OPTIONS") {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    const url = decodeURIComponent((req.url ?? "/").split("?")[0]!);
    const tarball = /^\/-\/(.+)-(\d+\.\d+\.\d+[^/]*)\.tgz$/.exec(url);
    if (tarball) {
      const served = packages.get(tarball[1]!.replace("__", "/"))?.find((s) => s.version === tarball[2]);
      if (!served) return void res.writeHead(404, cors).end();
      res.writeHead(200, { ...cors, "content-type": "application/octet-stream" });
      res.end(served.tgz);
      return;
    }
    const name = url.slice(1);
    const versions = packages.get(name);
    if (!versions) {
      res.writeHead(404, { ...cors, "content-type": "application/json" });
      res.end(JSON.stringify({ error: "Not found" }));
      return;
    }
    const doc = {
      name,
      "dist-tags": { latest: versions[versions.length - 1]!.version },
      versions: Object.fromEntries(
        versions.map((s) => [
          s.version,
          {
            ...s.manifest,
            name,
            version: s.version,
            dist: { tarball: `${base}/-/${name.replace("/", "__")}-${s.version}.tgz`, integrity: s.integrity ?? `sha512-${crypto.createHash("sha512").update(s.tgz).digest("base64")}`, shasum: crypto.createHash("sha1").update(s.tgz).digest("hex") },
          },
        ]),
      ),
    };
    res.writeHead(200, { ...cors, "content-type": "application/json" });
    res.end(JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const add = (s: Served) => {
    const list = packages.get(s.name) ?? [];
    list.push(s);
    list.sort((a, b) => a.version.localeCompare(b.version, undefined, { numeric: true }));
    packages.set(s.name, list);
  };
  return {
    url: base,
    requests,
    addDirectory(dir, overrides = {}) {
      const manifest = { ...(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Record<string, unknown>), ...overrides };
      const files = Object.fromEntries(walk(dir).map(([r, b]) => [`package/${r}`, r === "package.json" ? Buffer.from(JSON.stringify(manifest, null, 2)) : b]));
      add({ name: manifest.name as string, version: manifest.version as string, manifest: pick(manifest), tgz: tarGz(files) });
    },
    addRaw(name, version, files, opts = {}) {
      const prefix = opts.entryPrefix ?? "package/";
      const manifest = { name, version, ...(opts.manifest ?? {}) };
      const all: Record<string, string | Buffer> = { [`${prefix}package.json`]: JSON.stringify(manifest) };
      for (const [p, c] of Object.entries(files)) all[p.startsWith("../") || p.startsWith("/") ? `package/${p}` : `${prefix}${p}`] = c;
      add({ name, version, manifest: pick(manifest), tgz: tarGz(all), ...(opts.integrity ? { integrity: opts.integrity } : {}) });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What the abbreviated document keeps of a manifest. */
function pick(m: Record<string, unknown>): Record<string, unknown> {
  const keep = ["dependencies", "optionalDependencies", "peerDependencies", "bin", "engines", "os", "cpu", "deprecated"];
  return Object.fromEntries(Object.entries(m).filter(([k]) => keep.includes(k)));
}
