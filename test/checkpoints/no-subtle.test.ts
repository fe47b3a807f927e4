/**
 * Outside a secure context (the app over plain http on a LAN address) browsers hide
 * `crypto.subtle`: checkpoints then hash with a JS SHA-1 and must still give native git's
 * trees and round-trip a restore.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { createCheckpoint, restoreCheckpoint, undoRestore } from "../../lib/checkpoints";
import { git, nativeTree, nodeFs, picture, rmrf, tempRepo, writeFiles } from "./helpers";

const dirs: string[] = [];
afterEach(() => {
  vi.unstubAllGlobals();
  while (dirs.length) rmrf(dirs.pop()!);
});

describe("checkpoints without crypto.subtle", () => {
  it("hash like native git, write packs it reads, and restore", async () => {
    vi.stubGlobal("crypto", {});
    expect((globalThis as { crypto?: { subtle?: unknown } }).crypto?.subtle).toBeUndefined();
    const dir = tempRepo();
    dirs.push(dir);
    const files: Record<string, string> = { "README.md": "# hi\n", "src/名前.ts": "export {};\n" };
    for (let i = 0; i < 20; i++) files[`d/f${i}.txt`] = `file ${i}\n`.repeat(i + 1); // enough to be packed
    writeFiles(dir, files);
    git(dir, ["add", "README.md"]);
    git(dir, ["commit", "-qm", "base"]); // the rest is untracked: the checkpoint writes its objects
    const ws = { fs: { promises: fs.promises } as typeof nodeFs, dir };
    const ck = await createCheckpoint(ws, { sessionId: "plain-http", run: 1 });
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
