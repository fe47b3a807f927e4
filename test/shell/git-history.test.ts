/**
 * History walks on a packed, delta-compressed history (what a real clone has): `git log` and
 * `git blame` against native git on the same repository, and the fast commit reader against
 * isomorphic-git's readCommit, commit by commit.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import git from "isomorphic-git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { createShell } from "../../lib/shell";
import { FastObjects, parseCommit } from "../../lib/shell/git/fast-objects";
import { testDefenseInDepth } from "../helpers/defense-in-depth";
import { native, tempDir } from "../git/remote-helpers";

let dir = "";

/** 400 commits over a few files, some with merges, odd headers and messages, then `git repack -adf`. */
function buildHistory(): string {
  const d = tempDir("tabula-history-");
  native(d, "init", "-q", "-b", "main");
  let s = 3;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const files: Record<string, string[]> = {
    "index.js": Array.from({ length: 60 }, (_, i) => `export const x${i} = ${i};`),
    "src/deep/util.js": Array.from({ length: 30 }, (_, i) => `// util ${i}`),
    "README.md": ["# project", "", "words"],
  };
  const write = () => {
    for (const [p, l] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(d, p)), { recursive: true });
      fs.writeFileSync(path.join(d, p), l.join("\n") + "\n");
    }
  };
  const env = (i: number) => ({ GIT_AUTHOR_DATE: `${1600000000 + i * 97} +0${i % 10}00`, GIT_COMMITTER_DATE: `${1600000000 + i * 97} -0130` });
  write();
  native(d, "add", "-A");
  execFileSync("git", ["commit", "-qm", "root"], { cwd: d, env: { ...process.env, ...env(0), GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@x", GIT_COMMITTER_NAME: "A", GIT_COMMITTER_EMAIL: "a@x" } });
  for (let c = 1; c < 400; c++) {
    const keys = Object.keys(files);
    const f = keys[Math.floor(rnd() * keys.length)]!;
    const lines = files[f]!;
    const at = Math.floor(rnd() * lines.length);
    if (rnd() < 0.2) lines.splice(at, 0, `inserted ${c}`);
    else if (rnd() < 0.1 && lines.length > 5) lines.splice(at, 1);
    else lines[at] = `changed ${c}: ${lines[at]}`.slice(0, 70);
    write();
    const who = c % 3 === 0 ? ["Bée Ünïcode", "b@x"] : ["A", "a@x"];
    const msg = c % 7 === 0 ? `subject ${c}\n\nbody line\r\nwith CR\n\n\n` : `commit ${c}`;
    execFileSync("git", ["commit", "-qam", msg], { cwd: d, env: { ...process.env, ...env(c), GIT_AUTHOR_NAME: who[0], GIT_AUTHOR_EMAIL: who[1], GIT_COMMITTER_NAME: "A", GIT_COMMITTER_EMAIL: "a@x" } });
  }
  native(d, "repack", "-adfq", "--depth=50", "--window=50");
  return d;
}

beforeAll(() => {
  dir = buildHistory();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function shell() {
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal: new ChangeJournal() });
  return createShell({ fs: fs as unknown as IsoFs, dir, wsfs, readOnly: true, defenseInDepth: testDefenseInDepth });
}

describe("history walks on a packed history", () => {
  it("reads every commit as isomorphic-git does, from delta chains", async () => {
    const objects = new FastObjects({ fs: fs as unknown as IsoFs, dir, gitdir: path.join(dir, ".git"), cache: {} });
    const oids = native(dir, "rev-list", "--all").trim().split("\n");
    expect(oids).toHaveLength(400);
    for (const oid of oids) {
      const ours = await objects.readCommit(oid);
      const theirs = await git.readCommit({ fs, dir, oid });
      expect(ours.commit, oid).toEqual(theirs.commit);
    }
    const headTree = (await objects.readCommit(oids[0]!)).commit.tree;
    const items = await objects.readTree(headTree);
    expect(items.map((e) => `${e.mode} ${e.name} ${e.oid}`)).toEqual((await git.readTree({ fs, dir, oid: headTree })).tree.map((e) => `${e.mode} ${e.path} ${e.oid}`));
    expect(await objects.entryAt(oids[0]!, "src/deep/util.js")).toEqual({ oid: native(dir, "rev-parse", "HEAD:src/deep/util.js").trim(), mode: 0o100644 });
    expect(await objects.entryAt(oids[0]!, "src/nope.js")).toBeUndefined();
    expect(() => parseCommit("parent x\n\nmsg")).toThrow("tree as the first commit header");
  });

  it("git log and git blame print what native git prints", async () => {
    const sh = await shell();
    for (const cmd of [
      "git log --format=%H%x09%an%x09%ai%x09%cd%x09%s",
      "git log --format=%H -- src/deep/util.js",
      "git log --format=%H --stat -3 -- index.js",
      "git log -5 --format=%B",
      "git blame -l index.js",
      "git blame -l -L 10,20 index.js",
      "git blame -l -e -L 3,+4 src/deep/util.js",
      "git blame -l -s README.md",
      "git blame -p -L 1,2 index.js",
      "git blame -p index.js",
      "git blame --line-porcelain -L 5,8 src/deep/util.js",
    ]) {
      const r = await sh.exec(cmd);
      expect(r.stderr, cmd).toBe("");
      const want = execFileSync("bash", ["-c", cmd], { cwd: dir, encoding: "utf8" });
      if (r.stdout !== want) { const a = r.stdout.split("\n"), b = want.split("\n"); const i = a.findIndex((l, k) => l !== b[k]); console.log("DIFF", cmd, "\n ours:", JSON.stringify(a[i]), "\n native:", JSON.stringify(b[i])); }
      expect(r.stdout, cmd).toBe(execFileSync("bash", ["-c", cmd], { cwd: dir, encoding: "utf8" }));
    }
  });
});

describe("abbreviated oids", () => {
  it("are as long as native git makes them for the repository's size (core.abbrev auto)", async () => {
    const { autoAbbrevLength } = await import("../../lib/shell/git/repository");
    expect([0, 1, 16383, 16384, 65535, 65536, 262144, 1 << 20, 1 << 24].map(autoAbbrevLength)).toEqual([7, 7, 7, 8, 8, 9, 10, 11, 13]);
    // A second pack of 17,000 blobs takes the count past 2^14: native git then prints 8 digits.
    const blobs = Array.from({ length: 17_000 }, (_, i) => `blob\ndata ${String(i).length + 1}\n${i}\n\n`).join("");
    execFileSync("git", ["fast-import", "--quiet"], { cwd: dir, input: blobs });
    const sh = await shell();
    for (const cmd of ["git log --oneline -3", "git log -2 --format=%h%x20%t%x20%p", "git blame -L 1,2 index.js", "git branch -v"]) {
      const r = await sh.exec(cmd);
      expect(r.stdout, cmd).toBe(execFileSync("bash", ["-c", cmd], { cwd: dir, encoding: "utf8" }));
    }
    expect((await sh.exec("git log --oneline -1")).stdout).toMatch(/^[0-9a-f]{8} /);
  });
});
