/**
 * The share store: the service's rules over both backends — the disk, and an S3-compatible
 * server (s3rver, on 127.0.0.1) through the same contract.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import S3rver from "s3rver";
import { DiskShareBackend } from "../../lib/server/shares/disk-backend";
import { S3ShareBackend } from "../../lib/server/shares/s3-backend";
import { isShareId, type ShareBackend } from "../../lib/server/shares/backend";
import { ShareService } from "../../lib/server/shares/service";
import { RateLimiter } from "../../lib/server/shares/rate-limit";
import { sharePackageOf } from "../share/share-fixture";

let pkg: Uint8Array;
let s3: S3rver;
let s3Port = 0;
const tmp: string[] = [];

beforeAll(async () => {
  pkg = await sharePackageOf({ "a.txt": "hello\n" }, tmp);
  const s3dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-s3rver-"));
  tmp.push(s3dir);
  s3 = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3dir, configureBuckets: [{ name: "tabula" }] });
  s3Port = (await s3.run()).port;
});
afterAll(async () => {
  await s3?.close();
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

const backends: [string, () => ShareBackend][] = [
  [
    "disk",
    () => {
      const d = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-shares-"));
      tmp.push(d);
      return new DiskShareBackend(d);
    },
  ],
  ["s3 (s3rver)", () => new S3ShareBackend({ endpoint: `http://127.0.0.1:${s3Port}`, bucket: "tabula", accessKeyId: "S3RVER", secretAccessKey: "S3RVER", prefix: `t${Math.random().toString(36).slice(2)}/` })],
];

for (const [name, make] of backends) {
  describe(`share store on ${name}`, () => {
    it("creates with an unguessable id, fetches byte-identical, revokes only with the secret", async () => {
      let t = 1_000;
      const svc = new ShareService({ backend: make(), now: () => t });
      const a = await svc.create(pkg, { client: "c" });
      const b = await svc.create(pkg, { client: "c" });
      expect(isShareId(a.id)).toBe(true);
      expect(a.id).not.toBe(b.id);
      expect(a.deleteSecret.length).toBeGreaterThanOrEqual(43);
      const got = await svc.get(a.id);
      expect(Buffer.from(got.data).equals(Buffer.from(pkg))).toBe(true);
      expect(got.meta).toMatchObject({ title: "Shared session", bytes: pkg.length });
      expect(JSON.stringify(got.meta)).not.toContain(a.deleteSecret);
      await expect(svc.revoke(a.id, "wrong", "c")).rejects.toMatchObject({ status: 403 });
      await expect(svc.revoke(a.id, b.deleteSecret, "c")).rejects.toMatchObject({ status: 403 });
      await svc.revoke(a.id, a.deleteSecret, "c");
      await expect(svc.get(a.id)).rejects.toMatchObject({ status: 410, reason: "revoked" });
      expect(await svc.get(b.id)).toBeDefined();
      t += 1;
    });

    it("expires: the link says so and the data is gone", async () => {
      let t = 1_000;
      const backend = make();
      const svc = new ShareService({ backend, now: () => t });
      const a = await svc.create(pkg, { client: "c", expiresInMs: 60_000 });
      expect(a.expiresAt).toBe(61_000);
      await svc.get(a.id);
      t = 61_000;
      await expect(svc.get(a.id)).rejects.toMatchObject({ status: 410, reason: "expired" });
      expect(await backend.getData(a.id)).toBeUndefined();
      await expect(svc.create(pkg, { client: "c", expiresInMs: -1 })).rejects.toMatchObject({ status: 400 });
    });
  });
}

describe("share store rules", () => {
  const svc = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-shares-"));
    tmp.push(d);
    return new ShareService({ backend: new DiskShareBackend(d), maxBytes: 1_000_000, createLimit: { limit: 2, windowMs: 60_000 } });
  };

  it("refuses bad content, oversize, and ids that could be paths", async () => {
    const s = svc();
    await expect(s.create(new TextEncoder().encode("hello"), { client: "x" })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/damaged/) });
    await expect(s.create(new Uint8Array(1_000_001), { client: "y" })).rejects.toMatchObject({ status: 413 });
    for (const id of ["../../etc/passwd", "..%2f..%2fx", "a".repeat(21), "a".repeat(23), "abc/def/ghi/jkl/mnopqr", ""]) {
      await expect(s.get(id)).rejects.toMatchObject({ status: 404 });
      await expect(s.revoke(id, "x", "z")).rejects.toMatchObject({ status: 404 });
    }
    await expect(new DiskShareBackend("/tmp").getData("../x")).rejects.toThrow(/Not a share id/);
  });

  it("rate-limits creation per client address", async () => {
    const s = svc();
    await s.create(pkg, { client: "1.2.3.4" });
    await s.create(pkg, { client: "1.2.3.4" });
    await expect(s.create(pkg, { client: "1.2.3.4" })).rejects.toMatchObject({ status: 429 });
    await s.create(pkg, { client: "5.6.7.8" });
    let t = 0;
    const r = new RateLimiter(1, 1000, () => t);
    expect([r.take("a"), r.take("a")]).toEqual([true, false]);
    t = 1000;
    expect(r.take("a")).toBe(true);
  });
});
