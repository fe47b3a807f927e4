/**
 * The engine hashes with Node's hasher in Node, `crypto.subtle` in a browser, and a JS SHA-1
 * outside a secure context (the app over plain http on a LAN address, where browsers hide
 * `crypto.subtle`). Each must give native git's ids, trees and packs, and round-trip a restore.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { createCheckpoint, restoreCheckpoint, undoRestore } from "../../lib/checkpoints";
import { hashing, hashObject, sha1Hex, type Sha1Backend } from "../../lib/checkpoints/git-format";
import { git, nativeTree, nodeFs, picture, rmrf, tempRepo, writeFiles } from "./helpers";

const dirs: string[] = [];
afterEach(() => {
  vi.unstubAllGlobals();
  hashing.force = undefined;
  while (dirs.length) rmrf(dirs.pop()!);
});

const BACKENDS: Sha1Backend[] = ["node", "wasm", "subtle", "js"];

describe.each(BACKENDS)("hashing with the %s backend", (backend) => {
  it("gives git hash-object's ids, for empty, text, binary and large contents", async () => {
    hashing.force = backend;
    const dir = tempRepo();
    dirs.push(dir);
    const samples = [new Uint8Array(0), new TextEncoder().encode("héllo\n"), Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) & 255)];
    for (const [i, bytes] of samples.entries()) {
      const file = path.join(dir, `s${i}`);
      fs.writeFileSync(file, bytes);
      const native = execFileSync("git", ["hash-object", file], { encoding: "utf8" }).trim();
      expect(await hashObject("blob", bytes)).toBe(native);
    }
    expect(await sha1Hex(new TextEncoder().encode("abc"))).toBe("a9993e364706816aba3e25717850c26c9cd0d89d");
  });

  it("checkpoints like native git, writes packs git reads, and restores", async () => {
    hashing.force = backend;
    if (backend === "js") vi.stubGlobal("crypto", {}); // what a page outside a secure context sees
    const dir = tempRepo();
    dirs.push(dir);
    const files: Record<string, string> = { "README.md": "# hi\n", "src/名前.ts": "export {};\n" };
    for (let i = 0; i < 20; i++) files[`d/f${i}.txt`] = `file ${i}\n`.repeat(i + 1); // enough to be packed
    writeFiles(dir, files);
    git(dir, ["add", "README.md"]);
    git(dir, ["commit", "-qm", "base"]); // the rest is untracked: the checkpoint writes its objects
    const ws = { fs: { promises: fs.promises } as typeof nodeFs, dir };
    const ck = await createCheckpoint(ws, { sessionId: `hash-${backend}`, run: 1 });
    expect(ck.tree).toBe(nativeTree(dir));
    expect(ck.stats.packsWritten).toBeGreaterThan(0);
    git(dir, ["fsck", "--strict", "--no-dangling"]); // pack checksums and index too
    const atCk = picture(dir);
    fs.writeFileSync(path.join(dir, "README.md"), "changed\n");
    fs.rmSync(path.join(dir, "d/f3.txt"));
    const before = picture(dir);
    const r = await restoreCheckpoint(ws, ck.ref);
    expect(picture(dir)).toEqual(atCk);
    await undoRestore(ws, r.txid);
    expect(picture(dir)).toEqual(before);
  });
});
