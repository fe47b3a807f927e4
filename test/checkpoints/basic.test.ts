import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import {
  checkpointStorage,
  createCheckpoint,
  diffCheckpoints,
  diffWorkingTree,
  listCheckpoints,
  pruneCheckpoints,
  readFileAt,
  restoreCheckpoint,
  undoRestore,
  CheckpointError,
} from "../../lib/checkpoints";
import { ageFiles, filesOnly, git, gitState, nativeTree, nodeFs, picture, rmrf, tempRepo, writeFiles } from "./helpers";
import { ChangeJournal } from "../../lib/fs";

const dirs: string[] = [];
function repo(files: Record<string, string | Uint8Array> = {}): string {
  const dir = tempRepo();
  dirs.push(dir);
  writeFiles(dir, files);
  return dir;
}
afterEach(() => {
  while (dirs.length) rmrf(dirs.pop()!);
});

const ws = (dir: string) => ({ fs: nodeFs, dir });

function richWorkspace(dir: string): void {
  writeFiles(dir, {
    ".gitignore": "node_modules/\n*.log\n!keep.log\nbuild\n/secret.txt\n",
    "README.md": "# hi\n",
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
    "src/deep/er/c.txt": "c\n",
    "src/deep/.gitignore": "*.tmp\n",
    "src/deep/x.tmp": "ignored by nested\n",
    "src/deep/y.tmp.txt": "kept\n",
    "node_modules/pkg/index.js": "ignored\n",
    "debug.log": "ignored\n",
    "keep.log": "re-included\n",
    "build/out.js": "ignored dir\n",
    "secret.txt": "root-anchored ignore\n",
    "sub/secret.txt": "not ignored (anchored pattern)\n",
    "ünïcödé/名前.txt": "unicode\n",
    "a-b/x": "1",
    "a.b": "2",
    "a/c": "3",
    "bin.dat": new Uint8Array([0, 1, 2, 255, 254, 0, 10, 13]),
    "empty.txt": "",
  });
  fs.mkdirSync(path.join(dir, "empty-dir/inner"), { recursive: true });
  fs.writeFileSync(path.join(dir, "run.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
  fs.chmodSync(path.join(dir, "run.sh"), 0o755);
  fs.symlinkSync("src/a.ts", path.join(dir, "link-to-a"));
  fs.symlinkSync("../nowhere", path.join(dir, "src/dangling"));
}

describe("checkpoint tree", () => {
  it("equals native git add -A + write-tree, and leaves HEAD, refs and the index alone", async () => {
    const dir = repo();
    richWorkspace(dir);
    git(dir, ["add", "README.md", "src/a.ts"]);
    git(dir, ["commit", "-qm", "init"]);
    fs.writeFileSync(path.join(dir, "src/a.ts"), "export const a = 42;\n");
    ageFiles(dir);
    const before = gitState(dir);
    const ck = await createCheckpoint(ws(dir), { sessionId: "s1", run: 1, label: "first\nline two" });
    expect(ck.tree).toBe(nativeTree(dir));
    expect(gitState(dir)).toEqual(before);
    expect(ck.ref).toBe("refs/tabula/checkpoints/s1/1");
    expect(git(dir, ["rev-parse", ck.ref])).toBe(ck.oid);
    expect(git(dir, ["rev-parse", `${ck.oid}^`])).toBe(git(dir, ["rev-parse", "HEAD"]));
    git(dir, ["fsck", "--strict", "--no-dangling"]);
    const list = await listCheckpoints(ws(dir));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ ref: ck.ref, oid: ck.oid, sessionId: "s1", run: 1, label: "first\nline two", createdAt: ck.createdAt });
    // no change: same tree, nothing hashed
    const ck2 = await createCheckpoint(ws(dir), { sessionId: "s1", run: 2 });
    expect(ck2.tree).toBe(ck.tree);
    expect(ck2.stats.filesHashed).toBe(0);
    // a new engine (another page load: a new fs object) reuses the persisted stat cache
    const reopened = { fs: { promises: fs.promises } as unknown as typeof nodeFs, dir };
    const ck3 = await createCheckpoint(reopened, { sessionId: "s1", run: 3 });
    expect(ck3.tree).toBe(ck.tree);
    expect(ck3.stats).toMatchObject({ filesHashed: 0, scan: "walk", objectsWritten: 1 });
  });

  it("works in an empty repository (no HEAD commit) and writes the empty tree", async () => {
    const dir = repo();
    const ck = await createCheckpoint(ws(dir), { sessionId: "s", run: 0 });
    expect(ck.tree).toBe("4b825dc642cb6eb9a060e54bf8d69288fbee4904");
    expect(git(dir, ["cat-file", "-p", ck.oid])).not.toContain("parent");
    writeFiles(dir, { "x.txt": "x" });
    const ck2 = await createCheckpoint(ws(dir), { sessionId: "s", run: 1 });
    expect(ck2.tree).toBe(nativeTree(dir));
  });

  it("writes a pack for a big batch that native git reads, and tracks exec-bit-only changes", async () => {
    const dir = repo();
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`d${i % 7}/f${i}.txt`] = `file ${i}\n`.repeat(i % 13);
    writeFiles(dir, files);
    const ck = await createCheckpoint(ws(dir), { sessionId: "s", run: 1 });
    expect(ck.stats.packsWritten).toBeGreaterThan(0);
    expect(ck.tree).toBe(nativeTree(dir));
    git(dir, ["fsck", "--strict", "--no-dangling"]);
    expect(git(dir, ["show", `${ck.oid}:d3/f10.txt`])).toBe("file 10\n".repeat(10).trim());
    fs.chmodSync(path.join(dir, "d1/f1.txt"), 0o755);
    const ck2 = await createCheckpoint(ws(dir), { sessionId: "s", run: 2 });
    expect(ck2.tree).toBe(nativeTree(dir));
    expect(ck2.stats.objectsWritten).toBe(3); // root tree, d1 tree, commit
    expect(await diffCheckpoints(ws(dir), ck.oid, ck2.ref)).toEqual([
      expect.objectContaining({ path: "d1/f1.txt", change: "modified", oldMode: "100644", newMode: "100755" }),
    ]);
  });

  it("merges the small packs of many checkpoints, and everything stays readable", async () => {
    const dir = repo({ "a.txt": "a", "d/b.txt": "b" });
    const refs: string[] = [];
    for (let i = 0; i < 70; i++) {
      fs.writeFileSync(path.join(dir, "d/b.txt"), `b${i}`);
      refs.push((await createCheckpoint(ws(dir), { sessionId: "many", run: i })).oid);
    }
    const packs = fs.readdirSync(path.join(dir, ".git/objects/pack")).filter((n) => n.endsWith(".idx"));
    expect(packs.length).toBeLessThanOrEqual(65);
    git(dir, ["fsck", "--strict", "--no-dangling"]);
    for (const [i, oid] of refs.entries()) expect(git(dir, ["show", `${oid}:d/b.txt`])).toBe(`b${i}`);
    expect(new TextDecoder().decode(await readFileAt(ws(dir), refs[3]!, "d/b.txt"))).toBe("b3");
  });

  it("validates session ids and runs", async () => {
    const dir = repo();
    for (const bad of ["", "..", "a/b", "a..b", ".x", "x.lock", "-x", "a b"]) {
      await expect(createCheckpoint(ws(dir), { sessionId: bad, run: 1 })).rejects.toThrow(CheckpointError);
    }
    await expect(createCheckpoint(ws(dir), { sessionId: "ok", run: -1 })).rejects.toThrow(/run/);
    await expect(createCheckpoint(ws(dir), { sessionId: "ok", run: "x/y" })).rejects.toThrow(/run/);
    const notRepo = fs.mkdtempSync(path.join(path.dirname(dir), "norepo-"));
    dirs.push(notRepo);
    await expect(createCheckpoint(ws(notRepo), { sessionId: "s", run: 1 })).rejects.toMatchObject({ code: "NOT_A_REPO" });
  });

  it("lists the files over the cap on every checkpoint the journal drives: unchanged, grown, newly large, shrunk", async () => {
    const dir = repo({ "small.txt": "s", "big.bin": new Uint8Array(2000).fill(7) });
    const w = { fs: nodeFs, dir, journal: new ChangeJournal() };
    const opts = (run: number) => ({ sessionId: "s", run, maxFileBytes: 1000 });
    expect((await createCheckpoint(w, opts(1))).stats.skippedLarge).toEqual([{ path: "big.bin", size: 2000 }]);
    const same = await createCheckpoint(w, opts(2));
    expect(same.stats.scan).toBe("journal");
    expect(same.stats.skippedLarge).toEqual([{ path: "big.bin", size: 2000 }]);
    fs.writeFileSync(path.join(dir, "big.bin"), new Uint8Array(2500).fill(1));
    w.journal.record({ kind: "write", path: "big.bin", origin: "test" });
    fs.writeFileSync(path.join(dir, "small.txt"), "x".repeat(1500));
    w.journal.record({ kind: "write", path: "small.txt", origin: "test" });
    expect((await createCheckpoint(w, opts(3))).stats.skippedLarge).toEqual([
      { path: "big.bin", size: 2500 },
      { path: "small.txt", size: 1500 },
    ]);
    expect((await createCheckpoint(w, opts(4))).stats.skippedLarge).toHaveLength(2);
    fs.writeFileSync(path.join(dir, "big.bin"), "small now");
    w.journal.record({ kind: "write", path: "big.bin", origin: "test" });
    expect((await createCheckpoint(w, opts(5))).stats.skippedLarge).toEqual([{ path: "small.txt", size: 1500 }]);
  });

  it("leaves files over the size cap out, lists them, and never touches them on restore", async () => {
    const dir = repo({ "small.txt": "s", "big.bin": new Uint8Array(2000).fill(7) });
    const ck = await createCheckpoint(ws(dir), { sessionId: "s", run: 1, maxFileBytes: 1000 });
    expect(ck.stats.skippedLarge).toEqual([{ path: "big.bin", size: 2000 }]);
    expect(git(dir, ["ls-tree", "-r", "--name-only", ck.oid])).toBe("small.txt");
    expect((await listCheckpoints(ws(dir)))[0]!.skippedLarge).toEqual([{ path: "big.bin", size: 2000 }]);
    fs.writeFileSync(path.join(dir, "big.bin"), new Uint8Array(3000).fill(9));
    fs.writeFileSync(path.join(dir, "small.txt"), "changed");
    const r = await restoreCheckpoint(ws(dir), ck.ref, { maxFileBytes: 1000 });
    expect(r.changed).toEqual([{ path: "small.txt", change: "modified" }]);
    expect(fs.readFileSync(path.join(dir, "big.bin"))).toEqual(Buffer.from(new Uint8Array(3000).fill(9)));
    // a small checkpointed file now replaced by a big one is not overwritten either
    const dir2 = repo({ "f.bin": "small" });
    const ck2 = await createCheckpoint(ws(dir2), { sessionId: "s", run: 1, maxFileBytes: 1000 });
    fs.writeFileSync(path.join(dir2, "f.bin"), new Uint8Array(5000));
    const r2 = await restoreCheckpoint(ws(dir2), ck2.ref, { maxFileBytes: 1000 });
    expect(r2.skipped).toEqual([{ path: "f.bin", reason: "large" }]);
    expect(fs.statSync(path.join(dir2, "f.bin")).size).toBe(5000);
  });
});

describe("restore", () => {
  it("restores, keeps ignored files and branches, and undo brings back the exact state", async () => {
    const dir = repo();
    richWorkspace(dir);
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "init"]);
    const ck = await createCheckpoint(ws(dir), { sessionId: "s", run: 1 });
    const atCheckpoint = filesOnly(picture(dir));
    // mutate: modify, delete, add (nested), exec bit, symlink retarget, ignored changes, a commit
    fs.writeFileSync(path.join(dir, "src/a.ts"), "changed\n");
    fs.rmSync(path.join(dir, "src/deep"), { recursive: true });
    writeFiles(dir, { "new/dir/file.txt": "new", "node_modules/pkg/index.js": "ignored but changed\n", "more.log": "ignored new" });
    fs.chmodSync(path.join(dir, "run.sh"), 0o644);
    fs.rmSync(path.join(dir, "link-to-a"));
    fs.symlinkSync("README.md", path.join(dir, "link-to-a"));
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "later"]);
    const headAfter = git(dir, ["rev-parse", "HEAD"]);
    const stateBefore = gitState(dir);
    const before = picture(dir);

    const r = await restoreCheckpoint(ws(dir), ck.ref);
    expect(gitState(dir)).toEqual(stateBefore);
    expect(git(dir, ["rev-parse", "HEAD"])).toBe(headAfter);
    const after = filesOnly(picture(dir));
    const expected = { ...atCheckpoint };
    // ignored files: untouched (the changed and the new one stay as they were before restore)
    expected["node_modules/pkg/index.js"] = filesOnly(before)["node_modules/pkg/index.js"]!;
    expected["more.log"] = filesOnly(before)["more.log"]!;
    delete expected["src/deep/x.tmp"]; // ignored, deleted by the user with its directory: not brought back
    expect(after).toEqual(expected);
    expect(fs.existsSync(path.join(dir, "new"))).toBe(false); // emptied directories are removed
    expect(r.changed.map((c) => c.path)).toContain("src/a.ts");
    expect(nativeTree(dir)).toBe(ck.tree);

    await undoRestore(ws(dir), r.txid);
    expect(picture(dir)).toEqual(before);
    expect(gitState(dir)).toEqual(stateBefore);
  });

  it("limits a restore to paths", async () => {
    const dir = repo({ "a/1.txt": "1", "a/2.txt": "2", "b/3.txt": "3" });
    const ck = await createCheckpoint(ws(dir), { sessionId: "s", run: 1 });
    writeFiles(dir, { "a/1.txt": "x", "a/2.txt": "y", "b/3.txt": "z", "a/new.txt": "n", "c.txt": "c" });
    const r = await restoreCheckpoint(ws(dir), ck.ref, { paths: ["a/1.txt", "a/new.txt", "b"] });
    expect(r.changed).toEqual([
      { path: "a/1.txt", change: "modified" },
      { path: "a/new.txt", change: "deleted" },
      { path: "b/3.txt", change: "modified" },
    ]);
    expect(fs.readFileSync(path.join(dir, "a/2.txt"), "utf8")).toBe("y");
    expect(fs.readFileSync(path.join(dir, "c.txt"), "utf8")).toBe("c");
  });

  it("never deletes what the checkpoint's own .gitignore ignores (Cline #14367 in reverse)", async () => {
    const dir = repo({ ".gitignore": "node_modules/\n", "index.js": "1", "node_modules/dep/x.js": "dep" });
    const ck = await createCheckpoint(ws(dir), { sessionId: "s", run: 1 });
    // the agent un-ignores node_modules: it gets captured now
    writeFiles(dir, { ".gitignore": "", "index.js": "2" });
    await createCheckpoint(ws(dir), { sessionId: "s", run: 2 });
    const r = await restoreCheckpoint(ws(dir), ck.ref);
    expect(fs.readFileSync(path.join(dir, "node_modules/dep/x.js"), "utf8")).toBe("dep");
    expect(fs.readFileSync(path.join(dir, ".gitignore"), "utf8")).toBe("node_modules/\n");
    expect(r.skipped).toContainEqual({ path: "node_modules/dep/x.js", reason: "ignored-by-target" });
    // and an uncommitted .gitignore change that newly ignores a file: the file is not deleted
    const dir2 = repo({ ".gitignore": "", "keep.env": "secret", "a.txt": "a" });
    const ck2 = await createCheckpoint(ws(dir2), { sessionId: "s", run: 1 });
    writeFiles(dir2, { ".gitignore": "*.env\n", "b.env": "new secret" });
    await restoreCheckpoint(ws(dir2), ck2.ref);
    expect(fs.readFileSync(path.join(dir2, "b.env"), "utf8")).toBe("new secret");
    expect(fs.readFileSync(path.join(dir2, "keep.env"), "utf8")).toBe("secret");
  });

  it("never overwrites an ignored file in the way", async () => {
    const dir = repo({ "conf.txt": "tracked" });
    const ck = await createCheckpoint(ws(dir), { sessionId: "s", run: 1 });
    fs.rmSync(path.join(dir, "conf.txt"));
    writeFiles(dir, { ".gitignore": "conf.txt\n", "conf.txt": "local secret" });
    const r = await restoreCheckpoint(ws(dir), ck.ref, { paths: ["conf.txt"] });
    expect(r.skipped).toEqual([{ path: "conf.txt", reason: "ignored" }]);
    expect(fs.readFileSync(path.join(dir, "conf.txt"), "utf8")).toBe("local secret");
  });

  it("refuses crafted tree entries that would escape the workspace or write into .git", async () => {
    const dir = repo({ "ok.txt": "ok" });
    const blob = git(dir, ["hash-object", "-w", "ok.txt"]);
    const entry = (name: string) => Buffer.concat([Buffer.from(`100644 ${name}\0`), Buffer.from(blob, "hex")]);
    const raw = Buffer.concat([".git", "..", "ok.txt"].sort().map(entry));
    const tmp = path.join(dir, "..", `tree-${path.basename(dir)}`);
    fs.writeFileSync(tmp, raw);
    const tree = git(dir, ["hash-object", "-w", "--literally", "-t", "tree", tmp]);
    fs.rmSync(tmp);
    fs.rmSync(path.join(dir, "ok.txt"));
    const r = await restoreCheckpoint(ws(dir), tree);
    expect(r.skipped.map((s) => s.reason).sort()).toEqual(["unsafe-name", "unsafe-name"]);
    expect(r.changed).toEqual([{ path: "ok.txt", change: "added" }]);
    expect(fs.statSync(path.join(dir, ".git")).isDirectory()).toBe(true);
    expect(fs.existsSync(path.join(path.dirname(dir), "ok.txt"))).toBe(false);
  });

  it("handles file <-> directory swaps and empty directories", async () => {
    const dir = repo({ "x/y.txt": "y", f: "file", "keep/empty/.gitkeep": "" });
    fs.mkdirSync(path.join(dir, "pre-existing-empty"));
    const ck = await createCheckpoint(ws(dir), { sessionId: "s", run: 1 });
    fs.rmSync(path.join(dir, "x"), { recursive: true });
    fs.writeFileSync(path.join(dir, "x"), "now a file");
    fs.rmSync(path.join(dir, "f"));
    writeFiles(dir, { "f/inner.txt": "now a dir" });
    const before = picture(dir);
    const r = await restoreCheckpoint(ws(dir), ck.ref);
    expect(fs.readFileSync(path.join(dir, "x/y.txt"), "utf8")).toBe("y");
    expect(fs.readFileSync(path.join(dir, "f"), "utf8")).toBe("file");
    expect(fs.existsSync(path.join(dir, "pre-existing-empty"))).toBe(true);
    expect(nativeTree(dir)).toBe(ck.tree);
    await undoRestore(ws(dir), r.txid);
    expect(picture(dir)).toEqual(before);
  });
});

describe("after native git gc (delta-compressed packs)", () => {
  it("reads, diffs, restores and checkpoints against objects git repacked", async () => {
    const dir = repo();
    const big = (n: number) => Array.from({ length: 200 }, (_, i) => `line ${i} ${i === n ? "CHANGED" : ""}`).join("\n");
    writeFiles(dir, { "doc.txt": big(-1), "other.txt": "o" });
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "1"]);
    const c1 = await createCheckpoint(ws(dir), { sessionId: "g", run: 1 });
    for (let k = 0; k < 5; k++) {
      writeFiles(dir, { "doc.txt": big(k) });
      git(dir, ["commit", "-qam", `c${k}`]);
      await createCheckpoint(ws(dir), { sessionId: "g", run: 2 + k });
    }
    git(dir, ["gc", "-q", "--aggressive", "--prune=now"]);
    expect(fs.readdirSync(path.join(dir, ".git/objects")).filter((d) => /^[0-9a-f]{2}$/.test(d))).toEqual([]);
    expect(new TextDecoder().decode(await readFileAt(ws(dir), c1.ref, "doc.txt"))).toBe(big(-1));
    expect((await diffCheckpoints(ws(dir), "g/1", "g/6")).map((d) => d.path)).toEqual(["doc.txt"]);
    const r = await restoreCheckpoint(ws(dir), c1.ref);
    expect(r.changed).toEqual([{ path: "doc.txt", change: "modified" }]);
    expect(fs.readFileSync(path.join(dir, "doc.txt"), "utf8")).toBe(big(-1));
    writeFiles(dir, { "third.txt": "3" });
    const c9 = await createCheckpoint(ws(dir), { sessionId: "g", run: 9 });
    expect(c9.tree).toBe(nativeTree(dir));
    git(dir, ["fsck", "--strict", "--no-dangling"]);
    const pr = await pruneCheckpoints(ws(dir), { sessionId: "g", keepLast: 1 });
    expect(pr.removedRefs).toHaveLength(6);
    git(dir, ["fsck", "--strict", "--no-dangling"]);
  });
});

describe("diff and read", () => {
  it("diffs checkpoints, the working tree, and reads files at a checkpoint", async () => {
    const dir = repo({ "a.txt": "a", "d/b.txt": "b", "d/c.txt": "c" });
    const c1 = await createCheckpoint(ws(dir), { sessionId: "s", run: 1 });
    writeFiles(dir, { "a.txt": "A", "d/new.txt": "n" });
    fs.rmSync(path.join(dir, "d/c.txt"));
    const c2 = await createCheckpoint(ws(dir), { sessionId: "s", run: 2 });
    const d = await diffCheckpoints(ws(dir), c1.ref, c2.ref);
    expect(d.map((e) => [e.path, e.change])).toEqual([
      ["a.txt", "modified"],
      ["d/c.txt", "deleted"],
      ["d/new.txt", "added"],
    ]);
    expect(d[0]).toMatchObject({ oldOid: git(dir, ["rev-parse", `${c1.oid}:a.txt`]), newOid: git(dir, ["rev-parse", `${c2.oid}:a.txt`]), oldMode: "100644" });
    expect(new TextDecoder().decode(await readFileAt(ws(dir), "s/1", "d/c.txt"))).toBe("c");
    await expect(readFileAt(ws(dir), c2.oid, "d/c.txt")).rejects.toMatchObject({ code: "NOT_FOUND" });
    fs.writeFileSync(path.join(dir, "d/b.txt"), "B");
    expect((await diffWorkingTree(ws(dir), c2.ref)).map((e) => [e.path, e.change])).toEqual([["d/b.txt", "modified"]]);
    expect(await diffWorkingTree(ws(dir), "s/2")).toHaveLength(1);
  });
});

describe("prune and storage", () => {
  it("removes refs and only the objects nothing else reaches", async () => {
    const dir = repo({ "base.txt": "base" });
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "base"]);
    writeFiles(dir, { "only-c1.txt": "only in c1", "shared.txt": "shared" });
    const c1 = await createCheckpoint(ws(dir), { sessionId: "old", run: 1 });
    fs.rmSync(path.join(dir, "only-c1.txt"));
    writeFiles(dir, { "staged.txt": "staged blob", "stash-me.txt": "stashed" });
    await createCheckpoint(ws(dir), { sessionId: "old", run: 2 });
    git(dir, ["add", "staged.txt"]); // the index now names a blob only c2 wrote
    git(dir, ["stash", "push", "-u", "-q", "--", "stash-me.txt"]); // and the stash one only c2 wrote
    writeFiles(dir, { "staged.txt": "changed after staging" });
    const c3 = await createCheckpoint(ws(dir), { sessionId: "other", run: 1 });
    const only = git(dir, ["rev-parse", `${c1.oid}:only-c1.txt`]);
    const shared = git(dir, ["rev-parse", `${c1.oid}:shared.txt`]);
    const stashBlob = git(dir, ["rev-parse", "stash@{0}^3:stash-me.txt"]);
    expect(() => git(dir, ["rev-parse", `${c3.oid}:stash-me.txt`])).toThrow();
    const storage = await checkpointStorage(ws(dir));
    expect(storage.checkpoints).toBe(3);
    expect(storage.objects).toBeGreaterThan(5);

    await expect(pruneCheckpoints(ws(dir), {})).rejects.toThrow(/keepLast/);
    const r = await pruneCheckpoints(ws(dir), { sessionId: "old" });
    expect(r.removedRefs.sort()).toEqual(["refs/tabula/checkpoints/old/1", "refs/tabula/checkpoints/old/2"]);
    expect(r.removedObjects).toBeGreaterThan(0);
    expect(() => git(dir, ["cat-file", "-e", only])).toThrow();
    git(dir, ["cat-file", "-e", shared]); // still in c3
    git(dir, ["cat-file", "-e", stashBlob]);
    git(dir, ["cat-file", "-e", git(dir, ["rev-parse", ":staged.txt"])]);
    git(dir, ["fsck", "--no-dangling"]);
    expect(await listCheckpoints(ws(dir))).toHaveLength(1);
    // the stat cache must not reuse a pruned blob: re-create the file and checkpoint it
    git(dir, ["stash", "pop", "-q"]);
    writeFiles(dir, { "only-c1.txt": "only in c1" });
    const c4 = await createCheckpoint(ws(dir), { sessionId: "new", run: 1 });
    expect(c4.tree).toBe(nativeTree(dir));
    git(dir, ["fsck", "--no-dangling"]);
  });

  it("prunes by keepLast and age, rewriting its own packs", async () => {
    const dir = repo();
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) files[`f${i}.txt`] = `v1 ${i}`;
    writeFiles(dir, files);
    const c1 = await createCheckpoint(ws(dir), { sessionId: "s", run: 1 });
    expect(c1.stats.packsWritten).toBeGreaterThan(0);
    for (let i = 0; i < 60; i++) fs.writeFileSync(path.join(dir, `f${i}.txt`), `v2 ${i}`);
    const c2 = await createCheckpoint(ws(dir), { sessionId: "s", run: 2 });
    const r = await pruneCheckpoints(ws(dir), { keepLast: 1 });
    expect(r.removedRefs).toEqual([c1.ref]);
    expect(r.removedObjects).toBe(60 + 1 + 1); // 60 old blobs, the old root tree, the commit
    git(dir, ["fsck", "--strict", "--no-dangling"]);
    expect(git(dir, ["show", `${c2.oid}:f100.txt`])).toBe("v1 100");
    const r2 = await pruneCheckpoints(ws(dir), { olderThan: c2.createdAt });
    expect(r2.removedRefs).toEqual([]);
  });
});
