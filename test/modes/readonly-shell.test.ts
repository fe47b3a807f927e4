/**
 * The second layer of Plan mode: the whole write corpus run through the project's read-only shell
 * (just-bash over a jailed node:fs temp git repo) leaves the repo byte-identical, .git included;
 * the same commands on writable copies do change them (the corpus is not vacuous).
 *
 * Commands run ONLY through lib/shell's in-process shell, over temp directories made here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShell, type Shell } from "../../lib/shell";
import { allWrites, READ_CORPUS } from "./guard-corpus";
import { copyTree, hashTree, jailedFs, makeFixtureRepo, materialize, removeTempDir, snapshotTree } from "./helpers";
import { testDefenseInDepth } from "../helpers/defense-in-depth";

const ENV = { GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" };

/** Paths a corpus command may name: the shell's own namespace only (a second belt besides the jail). */
const HOST_PATH = /\/(work|home|root|etc|var|opt|proc|sys|mnt|srv|lib|boot|snap|Users)\b|\/usr\/(?!bin\/)|\.\./;

let repo: string;

beforeAll(async () => {
  repo = await makeFixtureRepo();
});
afterAll(() => {
  if (repo) removeTempDir(repo);
});

describe("the corpus through the read-only shell", () => {
  it("names no host path", () => {
    expect([...allWrites(), ...READ_CORPUS].filter((c) => HOST_PATH.test(c))).toEqual([]);
  });

  it("leaves the workspace byte-identical, .git included", async () => {
    const jail = jailedFs(repo);
    const shell: Shell = await createShell({ fs: jail.fs, dir: repo, readOnly: true, defenseInDepth: testDefenseInDepth });
    expect(shell.isReadOnly).toBe(true);
    const before = hashTree(repo);
    const leaks: string[] = [];
    let last = before;
    for (const cmd of allWrites()) {
      await shell.exec(cmd, { env: ENV, timeoutMs: 5_000 });
      const now = hashTree(repo);
      if (now !== last) leaks.push(cmd);
      last = now;
    }
    expect(leaks).toEqual([]);
    expect(hashTree(repo)).toBe(before);
    expect(jail.violations).toEqual([]);
  }, 300_000);

  it("the same commands do change writable copies (the corpus is not vacuous)", async () => {
    const changed: string[] = [];
    const violations: string[] = [];
    const pristine = hashTree(repo);
    const snapshot = snapshotTree(repo);
    // A copy is reused until a command changes it.
    let copy: string | undefined = copyTree(repo);
    try {
      expect(hashTree(copy)).toBe(pristine);
      for (const cmd of allWrites()) {
        copy ??= materialize(snapshot);
        const jail = jailedFs(copy);
        const shell = await createShell({ fs: jail.fs, dir: copy, defenseInDepth: testDefenseInDepth });
        await shell.exec(cmd, { env: ENV, timeoutMs: 5_000 });
        violations.push(...jail.violations.map((v) => `${cmd}: ${v}`));
        if (hashTree(copy) !== pristine) {
          changed.push(cmd);
          removeTempDir(copy);
          copy = undefined;
        }
      }
    } finally {
      if (copy) removeTempDir(copy);
    }
    expect(violations).toEqual([]);
    // Some forms cannot write in this shell at all (no node, npm, python, network, remotes…);
    // every core form must, and most of the corpus does.
    for (const core of ["echo x > a.txt", "rm -rf d", "sed -i 's/hello/HI/' a.txt", "git commit -am x", "bash -c 'rm -rf d'", "find d -delete", "ls | xargs rm", "\\rm -rf d", "eval 'rm -rf d'"]) {
      expect(changed, core).toContain(core);
    }
    expect(changed.length).toBeGreaterThanOrEqual(150);
  }, 600_000);
});
