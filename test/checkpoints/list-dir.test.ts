/**
 * The one-call directory listing the walk takes as `ws.listDir`: lightning-fs's (from its
 * in-memory tree, found through the app's wrappers) and node's (sync calls). Same answers as
 * readdir + lstat, the same checkpoint trees as without it, and "ask the ordinary way" where it
 * cannot answer.
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { createCheckpoint, syncListDir, type ListDir } from "../../lib/checkpoints";
import { listDirOf } from "../../lib/fs/listing";
import { openNamedLightningFs } from "../../lib/fs/lightning";
import { revocableFs } from "../../lib/fs/revocable";
import { withWorktreeStamp } from "../../lib/fs/worktree-stamp";
import type { IsoFs } from "../../lib/fs/types";
import { nativeTree, nodeFs, rmrf, tempRepo, writeFiles } from "./helpers";

(globalThis as { navigator?: unknown }).navigator ??= {};

let counter = 0;
function lightning(): IsoFs {
  return openNamedLightningFs(`tabula-listdir-test-${process.pid}-${Date.now()}-${counter++}`, { wipe: true });
}

async function write(lfs: IsoFs, abs: string, data: string): Promise<void> {
  const parts = abs.split("/").filter(Boolean);
  let cur = "";
  for (const p of parts.slice(0, -1)) {
    cur += "/" + p;
    await lfs.promises.mkdir(cur).catch((e: { code?: string }) => {
      if (e.code !== "EEXIST") throw e;
    });
  }
  await lfs.promises.writeFile(abs, new TextEncoder().encode(data));
}

/** What a walk would see the ordinary way. */
async function ordinary(lfs: IsoFs, dir: string) {
  const names = await lfs.promises.readdir(dir);
  const stats = await Promise.all(names.map((n) => lfs.promises.lstat(`${dir === "/" ? "" : dir}/${n}`)));
  return { names, stats: stats.map((s) => ({ dir: s.isDirectory(), file: s.isFile(), link: s.isSymbolicLink(), size: s.size, mtimeMs: s.mtimeMs, mode: s.mode, ino: s.ino })) };
}
const shape = (l: { names: string[]; stats: (import("../../lib/fs/types").IsoFsStat | null)[] } | undefined) =>
  l && { names: l.names, stats: l.stats.map((s) => s && { dir: s.isDirectory(), file: s.isFile(), link: s.isSymbolicLink(), size: s.size, mtimeMs: s.mtimeMs, mode: s.mode, ino: s.ino }) };

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmrf(dirs.pop()!);
});

describe("lightning-fs listing (listDirOf)", () => {
  it("answers what readdir + lstat answer, through the revocable and stamped wrappers, and again after the fs went idle", async () => {
    const lfs = lightning();
    await write(lfs, "/ws/a.txt", "a");
    await write(lfs, "/ws/sub/b.txt", "bb");
    await lfs.promises.symlink!("a.txt", "/ws/link");
    const wrapped = withWorktreeStamp(revocableFs(lfs).fs, "/ws");
    for (const f of [lfs, wrapped]) {
      const list = listDirOf(f)!;
      expect(list).toBeTypeOf("function");
      expect(shape(await list("/ws"))).toEqual(await ordinary(lfs, "/ws"));
      expect(shape(await list("/ws/sub/"))).toEqual(await ordinary(lfs, "/ws/sub"));
    }
    // lightning-fs unloads its tree after 500 ms without calls; the listing loads it again.
    await new Promise((r) => setTimeout(r, 800));
    await write(lfs, "/ws/sub/c.txt", "ccc");
    await new Promise((r) => setTimeout(r, 800));
    expect(shape(await listDirOf(wrapped)!("/ws/sub"))).toEqual(await ordinary(lfs, "/ws/sub"));
  });

  it("answers the same at the root, deep down, and through a directory reached by a symlink", async () => {
    const lfs = lightning();
    await write(lfs, "/ws/a/b/c/d/e.txt", "e");
    await write(lfs, "/ws/a/b/f.txt", "f");
    await lfs.promises.symlink!("a/b", "/ws/to-b");
    const list = listDirOf(lfs)!;
    expect(shape(await list("/"))).toEqual(await ordinary(lfs, "/"));
    expect(shape(await list("/ws/a/b/c/d"))).toEqual(await ordinary(lfs, "/ws/a/b/c/d"));
    const viaLink = shape(await list("/ws/to-b"));
    expect(viaLink).toEqual(await ordinary(lfs, "/ws/to-b"));
    expect(viaLink!.names.sort()).toEqual(["c", "f.txt"]);
    expect(await list("/ws/a/b/f.txt")).toBeUndefined();
  });

  it("says 'ask the ordinary way' for a file, a missing path and a revoked fs, and has nothing for other file systems", async () => {
    const lfs = lightning();
    await write(lfs, "/ws/a.txt", "a");
    const r = revocableFs(lfs);
    const list = listDirOf(r.fs)!;
    expect(await list("/ws/a.txt")).toBeUndefined();
    expect(await list("/ws/nothing")).toBeUndefined();
    r.revoke("all", "the workspace was deleted in another tab");
    expect(await list("/ws")).toBeUndefined();
    await expect(r.fs.promises.readdir("/ws")).rejects.toThrow(/deleted in another tab/);
    expect(listDirOf(nodeFs)).toBeUndefined();
    expect(listDirOf({ promises: lfs.promises })).toBeUndefined();
  });

  it("a checkpoint walked with it has the tree of one walked without it (ignored files, links, nested folders, a nested repository)", async () => {
    const files: Record<string, string> = {
      ".gitignore": "*.log\nbuild/\n",
      "src/.gitignore": "gen-*\n!gen-keep.ts\n",
      "src/a.ts": "a",
      "src/gen-x.ts": "ignored",
      "src/gen-keep.ts": "kept",
      "src/deep/er/still/x.ts": "x",
      "debug.log": "ignored",
      "build/out.js": "ignored",
      "nested/.git/HEAD": "ref: refs/heads/main\n",
      "nested/file.txt": "inside a nested repository",
    };
    const make = async () => {
      const lfs = lightning();
      for (const [rel, data] of Object.entries(files)) await write(lfs, `/ws/${rel}`, data);
      await write(lfs, "/ws/.git/HEAD", "ref: refs/heads/main\n");
      await lfs.promises.mkdir("/ws/.git/objects");
      await lfs.promises.mkdir("/ws/.git/refs");
      await lfs.promises.symlink!("src/a.ts", "/ws/link");
      return lfs;
    };
    const plain = await createCheckpoint({ fs: await make(), dir: "/ws" }, { sessionId: "s", run: 1 });
    const lfs = await make();
    let calls = 0;
    const inner = listDirOf(lfs)!;
    const listDir: ListDir = async (d) => {
      calls++;
      return inner(d);
    };
    const fast = await createCheckpoint({ fs: lfs, dir: "/ws", listDir }, { sessionId: "s", run: 1 });
    expect(calls).toBeGreaterThan(4);
    expect(fast.tree).toBe(plain.tree);
    expect(fast.stats.nestedReposSkipped).toEqual(["nested"]);
  });
});

describe("node listing (syncListDir)", () => {
  it("gives native git's tree, and a directory it cannot list is listed the ordinary way", async () => {
    const dir = tempRepo();
    dirs.push(dir);
    writeFiles(dir, { ".gitignore": "*.log\n", "a/b/c.txt": "c", "a/skip.log": "x", "d.txt": "d", "e/f.txt": "f" });
    fs.symlinkSync("d.txt", path.join(dir, "link"));
    const inner = syncListDir(fs.readdirSync, fs.lstatSync);
    const refused = path.join(dir, "a");
    const listed: string[] = [];
    const listDir: ListDir = async (d) => {
      if (d === refused) return undefined;
      listed.push(d);
      return inner(d);
    };
    const c = await createCheckpoint({ fs: nodeFs, dir, listDir }, { sessionId: "s", run: 1 });
    expect(c.tree).toBe(nativeTree(dir));
    expect(listed).toContain(path.join(dir, "a/b"));
    expect(await inner(path.join(dir, "d.txt"))).toBeUndefined();
    expect(await inner(path.join(dir, "missing"))).toBeUndefined();
  });

  it("lstats files and symlinks only: a subdirectory's type comes with the listing", async () => {
    const dir = tempRepo();
    dirs.push(dir);
    writeFiles(dir, { "a/b/c.txt": "c", "a/d.txt": "d", "e/f/g/h.txt": "h" });
    fs.symlinkSync("d.txt", path.join(dir, "a/link"));
    const lstated: string[] = [];
    const lstat = (p: string) => {
      lstated.push(path.relative(dir, p));
      return fs.lstatSync(p);
    };
    const c = await createCheckpoint({ fs: nodeFs, dir, listDir: syncListDir(fs.readdirSync, lstat) }, { sessionId: "s", run: 1 });
    expect(c.tree).toBe(nativeTree(dir));
    expect(lstated.sort()).toEqual(["a/b/c.txt", "a/d.txt", "a/link", "e/f/g/h.txt"]);
  });
});
