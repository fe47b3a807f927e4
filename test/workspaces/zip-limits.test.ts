/**
 * Zip bombs, made here byte by byte: honest archives that expand too far, and archives whose central
 * directory lies about what an entry holds, lists one entry many times over the same data, or names
 * entries the stream does not hold.
 */
import { describe, expect, it } from "vitest";
import { zipSync } from "fflate";
import { inspectZip, judgeZipSize, readZip } from "../../lib/workspaces/zip";

const MB = 1024 * 1024;
const zeros = (n: number) => new Uint8Array(n);
const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** Offsets of every record with this signature (local header 0x04034b50, central 0x02014b50, end 0x06054b50). */
function records(zip: Uint8Array, signature: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + 4 <= zip.length; i++) if (view(zip).getUint32(i, true) === signature) out.push(i);
  return out;
}
const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;

/** Set the uncompressed size an entry declares, in its local header and its central directory record. */
function declareSize(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  for (const at of records(out, LOCAL)) view(out).setUint32(at + 22, size, true);
  for (const at of records(out, CENTRAL)) view(out).setUint32(at + 24, size, true);
  return out;
}

/**
 * The overlapping-entries bomb: one small deflated entry, and a central directory that lists it
 * `copies` times under different names, all pointing at the same bytes.
 */
function overlappingBomb(entrySize: number, copies: number): Uint8Array {
  const one = zipSync({ "f00000.bin": zeros(entrySize) }, { level: 9 });
  const cd = records(one, CENTRAL)[0]!;
  const end = records(one, END)[0]!;
  const record = one.subarray(cd, end);
  const parts: Uint8Array[] = [one.subarray(0, cd)];
  for (let i = 0; i < copies; i++) {
    const r = record.slice();
    r.set(new TextEncoder().encode(`f${String(i).padStart(5, "0")}.bin`), 46);
    parts.push(r);
  }
  const eocd = one.slice(end);
  view(eocd).setUint16(8, copies, true);
  view(eocd).setUint16(10, copies, true);
  view(eocd).setUint32(12, record.length * copies, true);
  view(eocd).setUint32(16, cd, true);
  parts.push(eocd);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

describe("zip size limits", () => {
  it("reads the total from the central directory without inflating, and judges it", () => {
    const archive = zipSync({ "big.bin": zeros(30 * MB), "small.txt": new TextEncoder().encode("hi") }, { level: 9 });
    expect(archive.length).toBeLessThan(100 * 1024); // 30 MB of zeros deflate to ~30 KB
    const summary = inspectZip(archive);
    expect(summary).toMatchObject({ files: 2, bytes: 30 * MB + 2 });
    expect(judgeZipSize(summary, { warnBytes: 40 * MB, maxBytes: 100 * MB })).toEqual({ verdict: "ok" });
    const ask = judgeZipSize(summary, { warnBytes: 10 * MB, maxBytes: 100 * MB });
    expect(ask.verdict).toBe("confirm");
    expect(ask.verdict !== "ok" && ask.message).toContain("30.0 MB in 2 files");
    const refuse = judgeZipSize(summary, { warnBytes: 10 * MB, maxBytes: 20 * MB });
    expect(refuse.verdict).toBe("refuse");
    expect(refuse.verdict !== "ok" && refuse.message).toContain("at most 20.0 MB");
  });

  it("refuses an archive over the hard limit before expanding it", async () => {
    const archive = zipSync({ "big.bin": zeros(30 * MB) }, { level: 9 });
    await expect(readZip(archive, { maxBytes: 20 * MB })).rejects.toThrow(/expands to 30\.0 MB in 1 file; this browser imports at most 20\.0 MB/);
    expect((await readZip(archive, { maxBytes: 40 * MB }))[0]!.data).toHaveLength(30 * MB);
  });

  it("refuses an entry that inflates past what the directory declares", async () => {
    const honest = zipSync({ "bomb.bin": zeros(50 * MB) }, { level: 9 });
    const lying = declareSize(honest, 1000);
    expect(inspectZip(lying).bytes).toBe(1000); // the directory says 1000 bytes: under every limit
    const before = process.memoryUsage().arrayBuffers;
    await expect(readZip(lying, { maxBytes: 10 * MB })).rejects.toThrow(/"bomb\.bin" expands to more than the 1000 B the archive declares/);
    // It stopped at the first slice past the declared size: the 50 MB never sat in memory together.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(25 * MB);
  });

  it("refuses an entry shorter than declared as damaged", async () => {
    const honest = zipSync({ "a.bin": zeros(5000) });
    await expect(readZip(declareSize(honest, 6000))).rejects.toThrow(/damaged: "a\.bin" is shorter than declared/);
  });

  it("counts every directory entry of the overlapping-entries bomb, and refuses it", async () => {
    const bomb = overlappingBomb(1 * MB, 2000); // ~2 GB declared from a few KB
    expect(bomb.length).toBeLessThan(200 * 1024);
    const summary = inspectZip(bomb);
    expect(summary.files).toBe(2000);
    expect(summary.bytes).toBe(2000 * MB);
    await expect(readZip(bomb)).rejects.toThrow(/expands to 1\.95 GB in 2,000 files; this browser imports at most 256\.0 MB/);
    // Under a limit it passes the directory check, and the stream holds one entry only: nothing extra is made up.
    const small = overlappingBomb(1000, 3);
    const read = await readZip(small, { maxBytes: 10 * MB });
    expect(read.map((e) => e.path)).toEqual(["f00000.bin"]);
  });

  it("refuses entries the directory does not list, and names listed twice", async () => {
    const archive = zipSync({ "a.txt": new TextEncoder().encode("aaaa"), "b.txt": new TextEncoder().encode("bbbb") });
    const renamedLocal = archive.slice();
    renamedLocal[records(renamedLocal, LOCAL)[1]! + 30] = "c".charCodeAt(0); // the stream says c.txt, the directory b.txt
    await expect(readZip(renamedLocal)).rejects.toThrow(/"c\.txt" is not in its directory/);
    const twice = archive.slice();
    twice[records(twice, CENTRAL)[1]! + 46] = "a".charCodeAt(0); // the directory lists a.txt twice
    expect(() => inspectZip(twice)).toThrow(/holds "a\.txt" twice/);
  });
});
