import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { indexPack, PackError } from "../../lib/git/index-pack";
import { NATIVE_ENV, tempDir } from "./remote-helpers";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function git(cwd: string, args: string[], input?: Buffer | string): Buffer {
  return execFileSync("git", ["-c", "init.defaultBranch=main", ...args], { cwd, env: NATIVE_ENV, input, maxBuffer: 1 << 30 });
}

/** A repository with a history that packs into long delta chains, binary files, an empty file and a big one. */
function historyRepo(commits: number): string {
  const dir = tempDir("tabula-index-pack-");
  dirs.push(dir);
  git(dir, ["init", "-q"]);
  let text = Array.from({ length: 200 }, (_, i) => `line ${i} of a file that changes a little in every commit\n`).join("");
  fs.mkdirSync(path.join(dir, "src/deep/er"), { recursive: true });
  fs.writeFileSync(path.join(dir, "empty"), "");
  const big = Buffer.alloc(300_000);
  for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
  fs.writeFileSync(path.join(dir, "big.bin"), big);
  for (let c = 0; c < commits; c++) {
    text = text.replace(`line ${c % 200} `, `line ${c % 200} (edit ${c}) `);
    fs.writeFileSync(path.join(dir, "src/deep/er/file.txt"), text);
    fs.writeFileSync(path.join(dir, `src/f${c % 7}.txt`), `${c}\n${text.slice(0, 500 + c)}`);
    if (c % 5 === 0) big[c] = (big[c]! + 1) % 256;
    fs.writeFileSync(path.join(dir, "big.bin"), big);
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", `commit ${c}`]);
  }
  git(dir, ["tag", "-a", "v1", "-m", "a tag"]);
  return dir;
}

function nativePack(dir: string, args: string[]): { pack: Buffer; idx: Buffer } {
  const out = tempDir("tabula-pack-out-");
  dirs.push(out);
  const revs = git(dir, ["rev-list", "--objects", "--all"]);
  const name = git(dir, ["pack-objects", ...args, path.join(out, "p")], revs).toString().trim();
  return { pack: fs.readFileSync(path.join(out, `p-${name}.pack`)), idx: fs.readFileSync(path.join(out, `p-${name}.idx`)) };
}

describe("index-pack (native git's pack-objects and index-pack as the oracle)", () => {
  const repo = historyRepo(60);

  it("gives native git's .idx byte for byte for a pack of OFS deltas in long chains", async () => {
    const { pack, idx } = nativePack(repo, ["--delta-base-offset", "--depth=50", "--window=50"]);
    const phases = new Set<string>();
    const r = await indexPack(new Uint8Array(pack), { onProgress: (p) => phases.add(p.phase) });
    expect(r.deltas).toBeGreaterThan(50);
    expect(Buffer.from(r.idx).equals(idx)).toBe(true);
    expect(r.checksum).toBe(pack.subarray(pack.length - 20).toString("hex"));
    expect(phases).toEqual(new Set(["Indexing objects", "Resolving deltas"]));
  });

  it("and for a pack of REF deltas (bases named by oid)", async () => {
    const { pack, idx } = nativePack(repo, ["--depth=10"]);
    const r = await indexPack(new Uint8Array(pack));
    expect(r.deltas).toBeGreaterThan(50);
    expect(Buffer.from(r.idx).equals(idx)).toBe(true);
  });

  it("native git accepts the pack with our .idx (verify-pack)", async () => {
    const { pack } = nativePack(repo, ["--delta-base-offset"]);
    const r = await indexPack(new Uint8Array(pack));
    const out = tempDir("tabula-verify-");
    dirs.push(out);
    fs.writeFileSync(path.join(out, `pack-${r.checksum}.pack`), pack);
    fs.writeFileSync(path.join(out, `pack-${r.checksum}.idx`), r.idx);
    expect(() => git(out, ["verify-pack", path.join(out, `pack-${r.checksum}.idx`)])).not.toThrow();
  });

  it("refuses a damaged pack, a truncated one and a thin one with a clear error", async () => {
    const { pack } = nativePack(repo, ["--delta-base-offset"]);
    const flipped = new Uint8Array(pack);
    flipped[200] ^= 0xff;
    await expect(indexPack(flipped)).rejects.toThrow(/checksum does not match/);
    await expect(indexPack(new Uint8Array(pack.subarray(0, 1000)))).rejects.toThrow(PackError);
    await expect(indexPack(new TextEncoder().encode("<html>not a pack at all, just a page</html>"))).rejects.toThrow(/no PACK signature/);
    // A thin pack: deltas against objects the receiver is assumed to have.
    const head = git(repo, ["rev-parse", "HEAD"]).toString().trim();
    const thin = git(repo, ["pack-objects", "--thin", "--stdout", "--revs"], `${head}\n^${head}~1\n`);
    await expect(indexPack(new Uint8Array(thin))).rejects.toThrow(/unresolved deltas/);
  });

  it("stops when its signal is aborted: before it starts, and while it works", async () => {
    const { pack } = nativePack(repo, ["--delta-base-offset"]);
    const ac = new AbortController();
    ac.abort(new Error("cancelled by the user"));
    await expect(indexPack(new Uint8Array(pack), { signal: ac.signal })).rejects.toThrow("cancelled by the user");
    // Aborted from its first progress report on: it stops at its next pause.
    const later = new AbortController();
    const slow = await indexPack(new Uint8Array(pack), { signal: later.signal, onProgress: () => later.abort(new Error("stopped midway")) }).then(
      () => "finished",
      (e: Error) => e.message,
    );
    // A pack indexed within one pause (50 ms) never reports before the end: then it finished.
    expect(["finished", "stopped midway"]).toContain(slow);
  });
});
