import "fake-indexeddb/auto";
import nodeFs from "node:fs";
import os from "node:os";
import path from "node:path";
import git from "isomorphic-git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IsoFs } from "../../lib/fs/types";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { commit, stage } from "../../lib/git/commit";
import { createIgnoreMatcher, isIgnored } from "../../lib/git/ignore";
import { initRepo } from "../../lib/git/repo";
import { fileStatus, ignoredPaths, statusAll, type StatusEntry } from "../../lib/git/status";
import type { GitRepo } from "../../lib/git/types";
import { lightningBackend } from "../fs/backends";
import { nativeCheckIgnore, nativeFileStatus, nativeGit, nativeIgnored, nativeStatus } from "./helpers";
import { INFO_EXCLUDE, SCENARIO } from "./scenario";

const fmt = (entries: StatusEntry[]) => entries.map((e) => `${e.index}${e.worktree} ${e.path}`);

function buildNative(dir: string): void {
  nativeGit(dir, "init", "-q");
  nodeFs.writeFileSync(path.join(dir, ".git/info/exclude"), INFO_EXCLUDE);
  for (const step of SCENARIO) {
    const abs = step.op === "add" || step.op === "commit" ? "" : path.join(dir, step.path);
    switch (step.op) {
      case "write":
        nodeFs.mkdirSync(path.dirname(abs), { recursive: true });
        nodeFs.writeFileSync(abs, step.content);
        break;
      case "delete":
        nodeFs.rmSync(abs);
        break;
      case "mkdir":
        nodeFs.mkdirSync(abs, { recursive: true });
        break;
      case "add":
        nativeGit(dir, "add", "--", ...step.paths);
        break;
      case "rm":
        nativeGit(dir, "rm", "-q", "--", step.path);
        break;
      case "rmCached":
        nativeGit(dir, "rm", "-q", "--cached", "--", step.path);
        break;
      case "commit":
        nativeGit(dir, "commit", "-q", "-m", step.message);
        break;
    }
  }
}

async function buildWithFacade(ws: WorkspaceFs, repo: GitRepo): Promise<void> {
  await initRepo(repo);
  await repo.fs.promises.writeFile(repo.dir + "/.git/info/exclude", INFO_EXCLUDE).catch(async () => {
    await repo.fs.promises.mkdir(repo.dir + "/.git/info");
    await repo.fs.promises.writeFile(repo.dir + "/.git/info/exclude", INFO_EXCLUDE);
  });
  for (const step of SCENARIO) {
    switch (step.op) {
      case "write":
        await ws.writeFile(step.path, step.content);
        break;
      case "delete":
        await ws.remove(step.path);
        break;
      case "mkdir":
        await ws.mkdir(step.path);
        break;
      case "add":
        if (step.paths.includes(".")) await git.add({ fs: repo.fs as never, dir: repo.dir, filepath: "." });
        else await stage(repo, step.paths);
        break;
      case "rm":
        await ws.remove(step.path);
        await stage(repo, [step.path]);
        break;
      case "rmCached":
        await git.remove({ fs: repo.fs as never, dir: repo.dir, filepath: step.path });
        break;
      case "commit":
        await commit(repo, { message: step.message });
        break;
    }
  }
}

describe("statusAll matches native git status --porcelain -uall", () => {
  let dir: string;
  let native: StatusEntry[];
  const repo = () => ({ fs: nodeFs as unknown as IsoFs, dir });

  beforeAll(() => {
    dir = nodeFs.mkdtempSync(path.join(os.tmpdir(), "tabula-git-"));
    buildNative(dir);
    native = nativeStatus(dir);
  });
  afterAll(() => nodeFs.rmSync(dir, { recursive: true, force: true }));

  it("the scenario covers every kind of entry", () => {
    const codes = new Set(native.map((e) => e.index + e.worktree));
    for (const c of [" M", "M ", "MM", " D", "D ", "A ", "AM", "AD", "??"]) expect(codes).toContain(c);
    expect(native.some((e) => e.path.includes("文件"))).toBe(true);
  });

  it("on node's fs, over the repository native git built", async () => {
    expect(fmt(await statusAll(repo()))).toEqual(fmt(native));
    // Twice: the first call refreshed the index's stat cache; results must not change.
    expect(fmt(await statusAll(repo()))).toEqual(fmt(native));
  });

  it("on lightning-fs, over the same tree built with the facade", async () => {
    const b = await lightningBackend("/repo");
    const ws = new WorkspaceFs({ fs: b.fs, dir: b.dir });
    const lrepo = { fs: b.fs, dir: b.dir, cache: {} };
    await buildWithFacade(ws, lrepo);
    expect(fmt(await statusAll(lrepo))).toEqual(fmt(native));
  });

  it("reports a changed executable bit like git (core.filemode=true)", async () => {
    nodeFs.chmodSync(path.join(dir, "README.md"), 0o755);
    try {
      const expected = nativeStatus(dir);
      expect(expected.find((e) => e.path === "README.md")).toEqual({ path: "README.md", index: " ", worktree: "M" });
      expect(fmt(await statusAll(repo()))).toEqual(fmt(expected));
    } finally {
      nodeFs.chmodSync(path.join(dir, "README.md"), 0o644);
    }
  });

  it("fileStatus gives one word per file, the word native git's status implies", async () => {
    const r = repo();
    const paths = [
      "README.md", "src/mod.ts", "docs/guide.md", "docs/both.md", "src/added.ts", "src/added-mod.ts", "src/del.ts",
      "src/staged-del.ts", "src/untrack-me.ts", "notes.txt", "newdir/sub/deeper/file.md", "debug.log", "build/out.js",
      "src/generated/x.ts", "secret.env", "tracked.log", "nope.txt", "src/added-gone.ts",
    ];
    const words = new Set<string>();
    for (const p of paths) {
      const expected = nativeFileStatus(dir, p);
      words.add(expected);
      expect([p, await fileStatus(r, p)]).toEqual([p, expected]);
    }
    // The paths above reach every word.
    expect([...words].sort()).toEqual(["absent", "added", "deleted", "ignored", "modified", "unmodified", "untracked"]);
  });

  it("ignoredPaths lists ignored untracked paths, a matched directory once (git status --ignored=matching)", async () => {
    const expected = nativeIgnored(dir);
    expect(expected).toContain("build/");
    expect(await ignoredPaths(repo())).toEqual(expected);
  });

  it("the ignore matcher agrees with git check-ignore", async () => {
    const r = repo();
    const matcher = await createIgnoreMatcher(r);
    const paths = [
      "debug.log", "important.log", "tracked.log", "logs/deep/trace.log", "build", "build/out.js",
      "build/important.log", "root-only.txt", "sub/root-only.txt", "src/generated", "src/generated/x.ts",
      "src/a.gen.ts", "src/keep.gen.ts", "src/keep.ts", "deep/a/b/c/y.tmp", "deep/a/b/c/x.txt",
      "deep/a/c/z.tmp", "#hash.txt", "spaced.txt", "secret.env", "notes.txt", "newdir/sub/deeper/file.md",
    ];
    const ignored = nativeCheckIgnore(dir, paths);
    for (const p of paths) {
      const isDir = nodeFs.existsSync(path.join(dir, p)) && nodeFs.statSync(path.join(dir, p)).isDirectory();
      expect([p, matcher(p, isDir)]).toEqual([p, ignored.has(p)]);
      expect([p, await isIgnored(r, p)]).toEqual([p, ignored.has(p)]);
    }
  });
});
