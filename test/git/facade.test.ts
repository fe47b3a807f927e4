import "fake-indexeddb/auto";
import nodeFs from "node:fs";
import os from "node:os";
import path from "node:path";
import git from "isomorphic-git";
import { beforeEach, describe, expect, it } from "vitest";
import { ChangeJournal } from "../../lib/fs/journal";
import type { IsoFs } from "../../lib/fs/types";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { createBranch, currentBranch, listBranches, switchBranch } from "../../lib/git/branches";
import { commit, DEFAULT_AUTHOR, log, stage, stageAll } from "../../lib/git/commit";
import { diffFileAgainstHead, readHeadText } from "../../lib/git/diff";
import { initRepo, isRepo } from "../../lib/git/repo";
import { statusAll } from "../../lib/git/status";
import type { GitRepo } from "../../lib/git/types";
import { lightningBackend } from "../fs/backends";
import { nativeGit, nativeStatus } from "./helpers";

async function errorOf(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error("expected a rejection");
}

const fmt = (e: { index: string; worktree: string; path: string }[]) => e.map((x) => `${x.index}${x.worktree} ${x.path}`);

describe("git facade on lightning-fs", () => {
  let ws: WorkspaceFs;
  let repo: GitRepo;
  let journal: ChangeJournal;

  beforeEach(async () => {
    const b = await lightningBackend("/");
    journal = new ChangeJournal();
    ws = new WorkspaceFs({ fs: b.fs, dir: "/", journal });
    repo = { fs: b.fs, dir: "/", cache: {}, journal };
  });

  it("initRepo / isRepo", async () => {
    expect(await isRepo(repo)).toBe(false);
    await initRepo(repo);
    expect(await isRepo(repo)).toBe(true);
    expect(await currentBranch(repo)).toBe("main");
    await initRepo(repo); // idempotent
    await initRepo({ ...repo, dir: "/other" }, { defaultBranch: "trunk" });
    expect(await currentBranch({ ...repo, dir: "/other" })).toBe("trunk");
  });

  it("stageAll + commit + log, default and configured authors", async () => {
    await initRepo(repo);
    expect(await log(repo)).toEqual([]);
    await ws.writeFile("a.txt", "a\n");
    await ws.writeFile("dir/b.txt", "b\n");
    expect(fmt(await statusAll(repo))).toEqual(["?? a.txt", "?? dir/b.txt"]);
    await stageAll(repo);
    expect(fmt(await statusAll(repo))).toEqual(["A  a.txt", "A  dir/b.txt"]);
    const first = await commit(repo, { message: "first" });
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    expect(await statusAll(repo)).toEqual([]);

    await git.setConfig({ fs: repo.fs as never, dir: "/", path: "user.name", value: "Ada" });
    await git.setConfig({ fs: repo.fs as never, dir: "/", path: "user.email", value: "ada@example.com" });
    await ws.writeFile("a.txt", "a2\n");
    await ws.remove("dir/b.txt");
    await ws.writeFile("c.txt", "c\n");
    await stageAll(repo);
    expect(fmt(await statusAll(repo))).toEqual(["M  a.txt", "A  c.txt", "D  dir/b.txt"]);
    const second = await commit(repo, { message: "second\n\nbody" });
    const third = await commit(repo, { message: "third", author: { name: "Bob", email: "bob@example.com" }, allowEmpty: true });

    const entries = await log(repo);
    expect(entries.map((e) => e.oid)).toEqual([third, second, first]);
    expect(entries[0]).toMatchObject({ message: "third", author: { name: "Bob", email: "bob@example.com" }, parents: [second] });
    expect(entries[1]).toMatchObject({ message: "second\n\nbody", author: { name: "Ada", email: "ada@example.com" } });
    expect(entries[2]).toMatchObject({ message: "first", author: DEFAULT_AUTHOR, parents: [] });
    expect(entries[2]!.author.timestamp).toBeGreaterThan(1_600_000_000);
    expect((await log(repo, { depth: 1 })).map((e) => e.oid)).toEqual([third]);
    expect((await log(repo, { ref: second })).map((e) => e.oid)).toEqual([second, first]);
  });

  it("commit refuses an empty message and an empty commit", async () => {
    await initRepo(repo);
    expect((await errorOf(commit(repo, { message: "first" }))).code).toBe("NOTHING_TO_COMMIT");
    await ws.writeFile("a.txt", "a");
    await stage(repo, ["a.txt"]);
    expect((await errorOf(commit(repo, { message: "  " }))).code).toBe("EMPTY_MESSAGE");
    await commit(repo, { message: "first" });
    await ws.writeFile("a.txt", "changed but not staged");
    expect((await errorOf(commit(repo, { message: "second" }))).code).toBe("NOTHING_TO_COMMIT");
  });

  it("stage handles modifications, deletions of files and of directories", async () => {
    await initRepo(repo);
    await ws.writeFile("keep.txt", "k");
    await ws.writeFile("gone.txt", "g");
    await ws.writeFile("dir/x.txt", "x");
    await ws.writeFile("dir/y/z.txt", "z");
    await stageAll(repo);
    await commit(repo, { message: "base" });
    await ws.writeFile("keep.txt", "k2");
    await ws.remove("gone.txt");
    await ws.remove("dir");
    await stage(repo, ["keep.txt", "gone.txt", "dir"]);
    expect(fmt(await statusAll(repo))).toEqual(["D  dir/x.txt", "D  dir/y/z.txt", "D  gone.txt", "M  keep.txt"]);
  });

  it("readHeadText and diffFileAgainstHead", async () => {
    await initRepo(repo);
    await ws.writeFile("a.txt", "v1\n");
    expect(await readHeadText(repo, "a.txt")).toBeNull(); // no commit yet
    expect(await diffFileAgainstHead(repo, "a.txt")).toEqual({ head: null, work: "v1\n", binary: false });
    await ws.writeFile("bin.dat", new Uint8Array([1, 0, 2]));
    await ws.writeFile("sub/c.txt", "c\n");
    await stageAll(repo);
    await commit(repo, { message: "c1" });
    await ws.writeFile("a.txt", "v2\n");
    expect(await readHeadText(repo, "a.txt")).toBe("v1\n");
    expect(await readHeadText(repo, "/a.txt")).toBe("v1\n");
    expect(await readHeadText(repo, "nope.txt")).toBeNull();
    expect(await readHeadText(repo, "sub")).toBeNull();
    expect(await diffFileAgainstHead(repo, "a.txt")).toEqual({ head: "v1\n", work: "v2\n", binary: false });
    await ws.remove("sub/c.txt");
    expect(await diffFileAgainstHead(repo, "sub/c.txt")).toEqual({ head: "c\n", work: null, binary: false });
    expect(await diffFileAgainstHead(repo, "bin.dat")).toEqual({ head: "", work: "", binary: true });
  });

  it("branches: list, create, switch, with dirty and conflict refusals", async () => {
    await initRepo(repo);
    expect(await listBranches(repo)).toEqual([{ name: "main", current: true }]); // unborn
    expect((await errorOf(createBranch(repo, "feature"))).code).toBe("NO_COMMITS");
    await ws.writeFile("shared.txt", "main version\n");
    await ws.writeFile("only-main.txt", "main only\n");
    await stageAll(repo);
    await commit(repo, { message: "main 1" });

    await createBranch(repo, "feature");
    expect(await currentBranch(repo)).toBe("main");
    expect(await listBranches(repo)).toEqual([
      { name: "feature", current: false },
      { name: "main", current: true },
    ]);
    expect((await errorOf(createBranch(repo, "feature"))).code).toBe("EXISTS");
    expect((await errorOf(createBranch(repo, "bad..name"))).code).toBe("INVALID_NAME");
    expect((await errorOf(switchBranch(repo, "nope"))).code).toBe("NOT_FOUND");

    await switchBranch(repo, "feature");
    expect(await currentBranch(repo)).toBe("feature");
    await ws.writeFile("shared.txt", "feature version\n");
    await ws.remove("only-main.txt");
    await ws.writeFile("only-feature.txt", "feature only\n");
    await stageAll(repo);
    await commit(repo, { message: "feature 1" });

    const mark = journal.seq;
    await switchBranch(repo, "main");
    expect(await currentBranch(repo)).toBe("main");
    expect(await ws.readText("shared.txt")).toBe("main version\n");
    expect(await ws.exists("only-feature.txt")).toBe(false);
    expect(await ws.readText("only-main.txt")).toBe("main only\n");
    expect(await statusAll(repo)).toEqual([]);
    const events = journal.since(mark)!;
    expect(events.map((e) => `${e.kind} ${e.path} ${e.origin}`).sort()).toEqual([
      "delete only-feature.txt git",
      "write only-main.txt git",
      "write shared.txt git",
    ]);

    // Uncommitted change to a tracked file: refused, nothing touched.
    await ws.writeFile("shared.txt", "dirty\n");
    const dirty = await errorOf(switchBranch(repo, "feature"));
    expect(dirty.code).toBe("DIRTY");
    expect(dirty.message).toMatch(/shared\.txt/);
    expect(await currentBranch(repo)).toBe("main");
    expect(await ws.readText("shared.txt")).toBe("dirty\n");
    await ws.writeFile("shared.txt", "main version\n");

    // Untracked files are fine, unless the target branch has a file there.
    await ws.writeFile("scratch.txt", "untracked\n");
    await ws.writeFile("only-feature.txt", "would be overwritten\n");
    expect((await errorOf(switchBranch(repo, "feature"))).code).toBe("CONFLICT");
    expect(await ws.readText("only-feature.txt")).toBe("would be overwritten\n");
    await ws.remove("only-feature.txt");
    await switchBranch(repo, "feature");
    expect(await ws.readText("scratch.txt")).toBe("untracked\n");
    expect(await ws.readText("shared.txt")).toBe("feature version\n");

    // checkout: true on creation moves HEAD without touching files.
    await createBranch(repo, "topic", { checkout: true });
    expect(await currentBranch(repo)).toBe("topic");
    expect(await ws.readText("shared.txt")).toBe("feature version\n");
  });

  it("a readOnly repo reads without writing anything and refuses mutations", async () => {
    await initRepo(repo);
    await ws.writeFile("a.txt", "a");
    await stageAll(repo);
    await commit(repo, { message: "c1" });
    await createBranch(repo, "other");
    await ws.writeFile("a.txt", "changed");
    await ws.writeFile("b.txt", "new");
    // Every write to the raw fs throws: the reader must not touch storage at all.
    const deny = () => Promise.reject(new Error("reader wrote to storage"));
    const p = repo.fs.promises;
    const fs: IsoFs = {
      promises: {
        readFile: p.readFile.bind(p), readdir: p.readdir.bind(p), stat: p.stat.bind(p), lstat: p.lstat.bind(p),
        writeFile: deny, unlink: deny, mkdir: deny, rmdir: deny, rename: deny,
      },
    };
    const ro: GitRepo = { fs, dir: "/", readOnly: true };
    expect(fmt(await statusAll(ro))).toEqual([" M a.txt", "?? b.txt"]);
    expect(await readHeadText(ro, "a.txt")).toBe("a");
    expect((await log(ro)).length).toBe(1);
    expect((await listBranches(ro)).map((b) => b.name)).toEqual(["main", "other"]);
    for (const op of [
      () => stage(ro, ["a.txt"]),
      () => stageAll(ro),
      () => commit(ro, { message: "x" }),
      () => createBranch(ro, "x"),
      () => switchBranch(ro, "other"),
      () => initRepo(ro),
    ]) {
      expect((await errorOf(op())).code).toBe("EROFS");
    }
  });

  it("path arguments are confined to the repository", async () => {
    await initRepo(repo);
    expect((await errorOf(readHeadText(repo, "../etc/passwd"))).code).toBe("ESCAPE");
    expect((await errorOf(diffFileAgainstHead(repo, "a/../../x"))).code).toBe("ESCAPE");
    expect((await errorOf(stage(repo, ["../x"]))).code).toBe("ESCAPE");
  });

  it("createBranch with checkout on an unborn repository just renames the future branch", async () => {
    await initRepo(repo);
    await createBranch(repo, "dev", { checkout: true });
    expect(await currentBranch(repo)).toBe("dev");
    await ws.writeFile("a.txt", "a");
    await stageAll(repo);
    await commit(repo, { message: "on dev" });
    expect(await listBranches(repo)).toEqual([{ name: "dev", current: true }]);
  });
});

describe("git facade on node's fs, checked by native git", () => {
  it("commits made by the facade are read by native git", async () => {
    const dir = nodeFs.mkdtempSync(path.join(os.tmpdir(), "tabula-facade-"));
    try {
      const fs = nodeFs as unknown as IsoFs;
      const repo = { fs, dir };
      const ws = new WorkspaceFs({ fs, dir });
      await initRepo(repo);
      await ws.writeFile("src/main.ts", "console.log(1);\n");
      await ws.writeFile("run.sh", "#!/bin/sh\n", { mode: 0o755 });
      await ws.writeFile(".gitignore", "*.tmp\n");
      await ws.writeFile("x.tmp", "ignored");
      await stageAll(repo);
      const oid = await commit(repo, { message: "from the facade" });
      expect(nativeGit(dir, "rev-parse", "HEAD").trim()).toBe(oid);
      expect(nativeGit(dir, "log", "-1", "--format=%an <%ae>|%s")).toBe("Tabula User <user@tabula.local>|from the facade\n");
      expect(nativeGit(dir, "ls-files", "-s").split("\n").filter(Boolean).map((l) => l.split(/\s+/)[0] + " " + l.split("\t")[1])).toEqual([
        "100644 .gitignore",
        "100755 run.sh",
        "100644 src/main.ts",
      ]);
      nativeGit(dir, "fsck", "--strict");
      expect(nativeStatus(dir)).toEqual([]);
      await createBranch(repo, "next");
      expect(nativeGit(dir, "branch", "--list").split("\n").filter(Boolean).map((s) => s.trim())).toEqual(["* main", "next"]);
    } finally {
      nodeFs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
