import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { createCheckpoint, restoreCheckpoint, syncReadMany } from "../../lib/checkpoints";
import { fromHex, toHex } from "../../lib/checkpoints/util";
import { nativeTree, nodeFs, picture, rmrf, tempRepo, writeFiles } from "./helpers";

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmrf(dirs.pop()!);
});

function workspace(): string {
  const dir = tempRepo();
  dirs.push(dir);
  const files: Record<string, string | Uint8Array> = {
    ".gitignore": "*.log\n",
    "skip.log": "ignored\n",
    "big.bin": new Uint8Array((1 << 20) + 7).map((_, i) => i & 0xff), // over the sync cap
    "empty.txt": "",
  };
  for (let i = 0; i < 300; i++) files[`src/d${i % 17}/f${i}.ts`] = `export const v${i} = ${i};\n`;
  writeFiles(dir, files);
  fs.symlinkSync("src/d1/f1.ts", path.join(dir, "link.ts"));
  return dir;
}

describe("syncReadMany (node:fs accelerator for a checkpoint's reads)", () => {
  it("gives native git's tree, reading through it in batches, and leaves big files, links and misfits to the fs", async () => {
    const dir = workspace();
    const inner = syncReadMany(fs.readFileSync);
    const asked: string[] = [];
    let vouched = 0;
    const readMany: typeof inner = async (paths, stats) => {
      asked.push(...paths);
      const out = await inner(paths, stats);
      vouched += out.filter((d) => d !== undefined).length;
      return out;
    };
    const c = await createCheckpoint({ fs: nodeFs, dir, readMany }, { sessionId: "s", run: 1 });
    expect(c.tree).toBe(nativeTree(dir));
    expect(asked.some((p) => p.endsWith("link.ts"))).toBe(false); // symlinks are read with readlink
    expect(asked.some((p) => p.endsWith("big.bin"))).toBe(true);
    expect(vouched).toBe(asked.length - 1); // all but big.bin, which the engine read itself
    expect(c.stats.filesHashed).toBe(asked.length + 1);
  });

  it("answers undefined for a file that changed size since its lstat, a vanished file and a directory", async () => {
    const dir = workspace();
    const read = syncReadMany(fs.readFileSync);
    const a = path.join(dir, "src/d0/f0.ts");
    const st = await nodeFs.promises.lstat(a);
    fs.writeFileSync(a, "grown since the lstat\n");
    const dirSt = await nodeFs.promises.lstat(path.join(dir, "src"));
    const b = path.join(dir, "src/d1/f1.ts");
    const stB = await nodeFs.promises.lstat(b);
    fs.rmSync(b);
    const good = path.join(dir, "src/d2/f2.ts");
    const out = await read([a, path.join(dir, "src"), b, good], [st, dirSt, stB, await nodeFs.promises.lstat(good)]);
    expect(out.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(new TextDecoder().decode(out[3])).toBe("export const v2 = 2;\n");
  });

  it("a checkpoint taken with it restores byte for byte", async () => {
    const dir = workspace();
    const ws = { fs: nodeFs, dir, readMany: syncReadMany(fs.readFileSync) };
    const before = picture(dir);
    const c = await createCheckpoint(ws, { sessionId: "s", run: 1 });
    writeFiles(dir, { "src/d3/f3.ts": "changed\n", "new.txt": "new\n" });
    await restoreCheckpoint(ws, c.oid);
    expect(picture(dir)).toEqual(before);
  });
});

describe("hex helpers", () => {
  it("fromHex inverts toHex for every byte value, in either case", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect([...fromHex(toHex(all))]).toEqual([...all]);
    expect([...fromHex("FFa0")]).toEqual([255, 160]);
  });
});
