/**
 * The README's promises, used the way the app uses the engine (default options, no test
 * hooks): nested repositories are left out and never touched, `.git/info/exclude` is
 * honoured, the default cap is 5 MB, a large file added after a checkpoint survives a
 * restore, and a restore writes only the paths that differ — checked on the fs calls
 * themselves (a recording fs), not on the engine's own report.
 */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { createCheckpoint, DEFAULT_MAX_FILE_BYTES, restoreCheckpoint, undoRestore } from "../../lib/checkpoints";
import type { IsoFs } from "../../lib/fs/types";
import { ageFiles, git, nativeTree, picture, rmrf, tempRepo, writeFiles } from "./helpers";

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmrf(dirs.pop()!);
});
function repo(files: Record<string, string | Uint8Array> = {}): string {
  const dir = tempRepo();
  dirs.push(dir);
  writeFiles(dir, files);
  return dir;
}

const MUTATING = ["writeFile", "unlink", "mkdir", "rmdir", "rename", "symlink", "chmod"];

/** node's fs behind a wrapper that records every mutating call (method + absolute path). */
function recordingFs(): { fs: IsoFs; calls: [string, string][] } {
  const calls: [string, string][] = [];
  const src = fs.promises as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const promises: Record<string, unknown> = {};
  for (const name of ["readFile", "readdir", "stat", "lstat", "readlink", ...MUTATING]) {
    const fn = src[name]!;
    promises[name] = MUTATING.includes(name)
      ? (...args: unknown[]) => {
          calls.push([name, String(args[name === "symlink" ? 1 : 0])]);
          if (name === "rename") calls.push(["rename-to", String(args[1])]);
          return fn(...args);
        }
      : fn;
  }
  return { fs: { promises } as unknown as IsoFs, calls };
}

const own = () => ({ promises: fs.promises }) as unknown as IsoFs; // a fresh engine per call site

describe("README claims", () => {
  it("a directory holding its own .git is left out of checkpoints and never touched by a restore", async () => {
    const dir = repo({ "app.txt": "app\n", "libs/inner/x.txt": "inner v1\n" });
    git(path.join(dir, "libs/inner"), ["init", "-q"]);
    git(path.join(dir, "libs/inner"), ["add", "-A"]);
    git(path.join(dir, "libs/inner"), ["commit", "-qm", "inner"]);
    const ws = { fs: own(), dir };
    const ck = await createCheckpoint(ws, { sessionId: "s", run: 1 });
    expect(ck.stats.nestedReposSkipped).toEqual(["libs/inner"]);
    expect(git(dir, ["ls-tree", "-r", "--name-only", ck.oid]).split("\n")).toEqual(["app.txt"]);
    // the nested repository changes, files are added to it, the outer file too
    writeFiles(dir, { "libs/inner/x.txt": "inner v2\n", "libs/inner/new.txt": "new\n", "app.txt": "app v2\n" });
    const innerBefore = picture(path.join(dir, "libs/inner"), { skip: [] });
    const r = await restoreCheckpoint(ws, ck.ref);
    expect(r.changed).toEqual([{ path: "app.txt", change: "modified" }]);
    expect(fs.readFileSync(path.join(dir, "app.txt"), "utf8")).toBe("app\n");
    expect(picture(path.join(dir, "libs/inner"), { skip: [] })).toEqual(innerBefore); // its .git included
  });

  it("honours .git/info/exclude: excluded files are not captured, overwritten or deleted", async () => {
    const dir = repo({ "keep.txt": "k\n", "local/notes.md": "mine\n", "scratch.tmp": "t\n" });
    fs.writeFileSync(path.join(dir, ".git/info/exclude"), "local/\n*.tmp\n");
    const ws = { fs: own(), dir };
    const ck = await createCheckpoint(ws, { sessionId: "s", run: 1 });
    expect(ck.tree).toBe(nativeTree(dir)); // native git honours the same file
    expect(git(dir, ["ls-tree", "-r", "--name-only", ck.oid])).toBe("keep.txt");
    writeFiles(dir, { "local/notes.md": "mine, edited\n", "local/more.md": "more\n", "keep.txt": "k2\n" });
    fs.rmSync(path.join(dir, "scratch.tmp"));
    writeFiles(dir, { "other.tmp": "new excluded\n" });
    await restoreCheckpoint(ws, ck.ref);
    expect(fs.readFileSync(path.join(dir, "keep.txt"), "utf8")).toBe("k\n");
    expect(fs.readFileSync(path.join(dir, "local/notes.md"), "utf8")).toBe("mine, edited\n");
    expect(fs.readFileSync(path.join(dir, "local/more.md"), "utf8")).toBe("more\n");
    expect(fs.readFileSync(path.join(dir, "other.tmp"), "utf8")).toBe("new excluded\n");
    expect(fs.existsSync(path.join(dir, "scratch.tmp"))).toBe(false); // never captured: not brought back
  });

  it("caps files at 5 MB by default: exactly 5 MB is captured, one byte more is listed and left out", async () => {
    expect(DEFAULT_MAX_FILE_BYTES).toBe(5 * 1024 * 1024);
    const dir = repo({
      "at-cap.bin": new Uint8Array(5 * 1024 * 1024).fill(1),
      "over-cap.bin": new Uint8Array(5 * 1024 * 1024 + 1).fill(2),
      "small.txt": "s\n",
    });
    const ck = await createCheckpoint({ fs: own(), dir }, { sessionId: "s", run: 1 });
    expect(ck.stats.skippedLarge).toEqual([{ path: "over-cap.bin", size: 5 * 1024 * 1024 + 1 }]);
    expect(git(dir, ["ls-tree", "-r", "--name-only", ck.oid]).split("\n")).toEqual(["at-cap.bin", "small.txt"]);
    expect(git(dir, ["cat-file", "-s", `${ck.oid}:at-cap.bin`])).toBe(String(5 * 1024 * 1024));
  });

  it("a large file added after a checkpoint survives a restore of it, and its undo", async () => {
    const dir = repo({ "a.txt": "a\n", "src/b.txt": "b\n" });
    const ws = { fs: own(), dir };
    const ck = await createCheckpoint(ws, { sessionId: "s", run: 1 });
    const big = new Uint8Array(6 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = i % 251;
    writeFiles(dir, { "src/dataset.bin": big, "a.txt": "a2\n" });
    fs.rmSync(path.join(dir, "src/b.txt")); // src would be removed if it were left empty
    const r = await restoreCheckpoint(ws, ck.ref);
    expect(fs.readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("a\n");
    expect(fs.readFileSync(path.join(dir, "src/b.txt"), "utf8")).toBe("b\n");
    expect(Buffer.compare(fs.readFileSync(path.join(dir, "src/dataset.bin")), Buffer.from(big))).toBe(0);
    await undoRestore(ws, r.txid);
    expect(Buffer.compare(fs.readFileSync(path.join(dir, "src/dataset.bin")), Buffer.from(big))).toBe(0);
    expect(fs.existsSync(path.join(dir, "src/b.txt"))).toBe(false);
  });

  it("undo brings back an empty directory the restore replaced with a file", async () => {
    // Found by the property test: a git tree holds no empty directory, so the saved state alone
    // could not bring it back.
    const dir = repo({ "a.txt": "a\n", "slot": "a file once\n" });
    const ws = { fs: own(), dir };
    const ck = await createCheckpoint(ws, { sessionId: "s", run: 1 });
    fs.rmSync(path.join(dir, "slot"));
    fs.mkdirSync(path.join(dir, "slot"));
    const r = await restoreCheckpoint(ws, ck.ref);
    expect(fs.readFileSync(path.join(dir, "slot"), "utf8")).toBe("a file once\n");
    await undoRestore(ws, r.txid);
    expect(fs.lstatSync(path.join(dir, "slot")).isDirectory()).toBe(true);
    expect(fs.readdirSync(path.join(dir, "slot"))).toEqual([]);
  });

  it("a restore writes only the paths that differ (the fs calls, not the engine's report)", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`d${i % 12}/sub${i % 3}/f${i}.txt`] = `file ${i}\n`;
    const dir = repo(files);
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "base"]);
    ageFiles(dir);
    const rec = recordingFs();
    const ws = { fs: rec.fs, dir };
    const ck = await createCheckpoint(ws, { sessionId: "s", run: 1 });
    // three differences: modified, deleted, added in a new directory
    writeFiles(dir, { "d1/sub1/f13.txt": "edited\n", "brand/new/x.txt": "x\n" });
    fs.rmSync(path.join(dir, "d5/sub2/f5.txt"));
    ageFiles(dir);
    rec.calls.length = 0;
    await restoreCheckpoint(ws, ck.ref);
    const touched = [...new Set(rec.calls.map(([, p]) => p).filter((p) => !p.startsWith(path.join(dir, ".git") + "/")))].map((p) => path.relative(dir, p)).sort();
    expect(touched).toEqual(["brand", "brand/new", "brand/new/x.txt", "d1/sub1/f13.txt", "d5/sub2/f5.txt"]);
    expect(rec.calls.filter(([, p]) => p === path.join(dir, "brand/new/x.txt")).map(([m]) => m)).toEqual(["unlink"]);
    expect(rec.calls.filter(([, p]) => p === path.join(dir, "brand")).map(([m]) => m)).toEqual(["rmdir"]);
    expect(fs.existsSync(path.join(dir, "brand"))).toBe(false);
    expect(nativeTree(dir)).toBe(ck.tree);
  });
});
