/**
 * The share store's server settings, used as an operator would: environment variables set, requests
 * sent to the real route handlers, and the files the store leaves on disk (or in s3rver) read back.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import S3rver from "s3rver";
import { POST } from "../../app/api/shares/route";
import { GET, DELETE } from "../../app/api/shares/[id]/route";
import { sharePackageOf } from "../share/share-fixture";

let pkg: Uint8Array;
let s3: S3rver;
let s3Port = 0;
let s3Dir = "";
const tmp: string[] = [];
const savedEnv = { ...process.env };

beforeAll(async () => {
  pkg = await sharePackageOf({ "a.txt": "hello\n" }, tmp);
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-s3rver-"));
  tmp.push(s3Dir);
  s3 = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3Dir, configureBuckets: [{ name: "tabula" }] });
  s3Port = (await s3.run()).port;
});
afterAll(async () => {
  await s3?.close();
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});
afterEach(() => {
  for (const k of Object.keys(process.env)) if (k.startsWith("TABULA_")) delete process.env[k];
  Object.assign(process.env, savedEnv);
});

/** A fresh share directory per test, so each test gets its own store (and its own rate limits). */
function shareDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-share-dir-"));
  tmp.push(d);
  process.env.TABULA_SHARE_DIR = d;
  return d;
}

const APP = "http://localhost:3000"; // what Next puts in request.url, whatever the user opened
function create(headers: Record<string, string> = {}) {
  return POST(new Request(`${APP}/api/shares`, { method: "POST", headers: { "content-type": "application/zip", ...headers }, body: pkg as BodyInit }));
}
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const get = (id: string) => GET(new Request(`${APP}/api/shares/${id}`), params(id));
const revoke = (id: string, secret: string) => DELETE(new Request(`${APP}/api/shares/${id}`, { method: "DELETE", headers: { "x-delete-secret": secret } }), params(id));

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

describe("TABULA_* share settings", () => {
  it("TABULA_SHARE_DIR: shares land there, and the delete secret is stored only as its hash", async () => {
    const dir = shareDir();
    const res = await create();
    expect(res.status).toBe(201);
    const { id, deleteSecret } = (await res.json()) as { id: string; deleteSecret: string };
    expect(fs.readdirSync(dir).sort()).toEqual([`${id}.json`, `${id}.zip`]);
    expect(Buffer.from(fs.readFileSync(path.join(dir, `${id}.zip`))).equals(Buffer.from(pkg))).toBe(true);
    const meta = JSON.parse(fs.readFileSync(path.join(dir, `${id}.json`), "utf8"));
    expect(meta.secretHash).toBe(sha256(deleteSecret));
    for (const file of filesUnder(dir)) expect(fs.readFileSync(file).includes(Buffer.from(deleteSecret)), file).toBe(false);

    expect(Buffer.from(await (await get(id)).arrayBuffer()).equals(Buffer.from(pkg))).toBe(true);
    expect((await revoke(id, "not-the-secret")).status).toBe(403);
    expect((await revoke(id, deleteSecret)).status).toBe(204);
    expect((await get(id)).status).toBe(410);
    expect(fs.existsSync(path.join(dir, `${id}.zip`))).toBe(false);
  });

  it("TABULA_SHARE_MAX_BYTES: one byte over is refused with 413, at the limit is stored", async () => {
    const dir = shareDir();
    process.env.TABULA_SHARE_MAX_BYTES = String(pkg.length - 1);
    const over = await create();
    expect(over.status).toBe(413);
    expect((await over.json()).error).toContain(String(pkg.length - 1));
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    process.env.TABULA_SHARE_MAX_BYTES = String(pkg.length);
    expect((await create()).status).toBe(201);
  });

  it("TABULA_SHARE_BACKEND=s3: shares go to the bucket (s3rver), secrets only as hashes there too", async () => {
    const dir = shareDir(); // set, but the s3 backend must not use it
    const prefix = `p${Date.now()}/`;
    Object.assign(process.env, {
      TABULA_SHARE_BACKEND: "s3",
      TABULA_S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      TABULA_S3_BUCKET: "tabula",
      TABULA_S3_ACCESS_KEY_ID: "S3RVER",
      TABULA_S3_SECRET_ACCESS_KEY: "S3RVER",
      TABULA_S3_PREFIX: prefix,
    });
    const res = await create();
    expect(res.status).toBe(201);
    const { id, deleteSecret } = (await res.json()) as { id: string; deleteSecret: string };
    expect(fs.readdirSync(dir)).toEqual([]);
    const stored = filesUnder(s3Dir).filter((f) => f.includes(id));
    expect(stored.length).toBeGreaterThanOrEqual(2);
    for (const file of filesUnder(s3Dir)) expect(fs.readFileSync(file).includes(Buffer.from(deleteSecret)), file).toBe(false);
    expect(Buffer.from(await (await get(id)).arrayBuffer()).equals(Buffer.from(pkg))).toBe(true);
    expect((await revoke(id, deleteSecret)).status).toBe(204);
    expect((await get(id)).status).toBe(410);

    delete process.env.TABULA_S3_BUCKET;
    expect((await create()).status).toBe(500); // a missing setting is an operator error, not a stored share
  });

  it("TABULA_TRUST_PROXY=1: X-Forwarded-For names the client for the rate limit", async () => {
    shareDir();
    process.env.TABULA_TRUST_PROXY = "1";
    for (let i = 0; i < 30; i++) expect((await create({ "x-forwarded-for": "203.0.113.1, 10.0.0.1" })).status).toBe(201);
    expect((await create({ "x-forwarded-for": "203.0.113.1" })).status).toBe(429);
    expect((await create({ "x-forwarded-for": "203.0.113.2" })).status).toBe(201);
  });

  it("without TABULA_TRUST_PROXY, X-Forwarded-For and X-Real-IP change nothing", async () => {
    shareDir();
    for (let i = 0; i < 30; i++) expect((await create({ "x-forwarded-for": `203.0.113.${i}` })).status).toBe(201);
    expect((await create({ "x-forwarded-for": "198.51.100.7" })).status).toBe(429);
    expect((await create({ "x-real-ip": "198.51.100.8" })).status).toBe(429);
    expect((await create()).status).toBe(429);
  });

  it("links carry the page's origin, or TABULA_PUBLIC_URL when set", async () => {
    shareDir();
    const url = async (headers: Record<string, string>) => ((await (await create(headers)).json()) as { url: string }).url;
    expect(await url({ origin: "http://127.0.0.1:3000" })).toMatch(/^http:\/\/127\.0\.0\.1:3000\/s\/[A-Za-z0-9_-]{22}$/);
    expect(await url({ host: "192.168.1.20:3000" })).toMatch(/^http:\/\/192\.168\.1\.20:3000\/s\//);
    expect(await url({ host: "127.0.0.1:3000", "x-forwarded-host": "evil.example" })).toMatch(/^http:\/\/127\.0\.0\.1:3000\/s\//);
    process.env.TABULA_TRUST_PROXY = "1";
    expect(await url({ host: "10.0.0.2:3000", "x-forwarded-host": "tabula.example.org", "x-forwarded-proto": "https" })).toMatch(/^https:\/\/tabula\.example\.org\/s\//);
    process.env.TABULA_PUBLIC_URL = "https://share.example.org/";
    expect(await url({ origin: "http://127.0.0.1:3000" })).toMatch(/^https:\/\/share\.example\.org\/s\//);
  });
});
