/**
 * `git apply` against native git: the same patch (made by native `git diff`) applied to twin
 * repositories, to the index, the work tree or both, forwards and in reverse; the results
 * compared with native git's own diffs of each repository.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { runGit } from "../../lib/shell/git";
import { cloneDir, gitEnv, native } from "./helpers";
import { tempDir } from "../git/remote-helpers";

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});

const lines = (n: number, tag = "") => Array.from({ length: n }, (_, i) => `line ${i + 1}${tag}\n`).join("");

function baseRepo(): string {
  const dir = tempDir("tabula-apply-");
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, "a.txt"), lines(30));
  fs.writeFileSync(path.join(dir, "b.txt"), "b\n");
  fs.writeFileSync(path.join(dir, "gone.txt"), "to be deleted\n");
  native(dir, ["init", "-q", "-b", "main"]);
  native(dir, ["add", "-A"]);
  native(dir, ["commit", "-qm", "base"]);
  return dir;
}

/** Ours, in `dir`, with the patch on stdin. */
async function ours(dir: string, args: string[], stdin: string) {
  const nodeFs = fs as unknown as IsoFs;
  const wsfs = new WorkspaceFs({ fs: nodeFs, dir, journal: new ChangeJournal() });
  return runGit({ fs: nodeFs, wsfs, mountPoint: "/workspace", readOnly: false }, ["apply", ...args], "/workspace", new Map(Object.entries(gitEnv())), stdin);
}

/** Native git's view of a repository: what is staged, what is not, and the files. */
function picture(dir: string) {
  return {
    cached: native(dir, ["diff", "--cached"]).stdout,
    work: native(dir, ["diff"]).stdout,
    status: native(dir, ["status", "--porcelain"]).stdout,
    a: fs.existsSync(path.join(dir, "a.txt")) ? fs.readFileSync(path.join(dir, "a.txt"), "utf8") : null,
  };
}

/** The patch's header and only the hunks at `keep` (what staging one hunk feeds git apply). */
function onlyHunks(patch: string, keep: number[]): string {
  const [head, ...hunks] = patch.split(/^(?=@@ )/m);
  return head + keep.map((i) => hunks[i]).join("");
}

function twin(dir: string): string {
  const copy = cloneDir(dir);
  dirs.push(copy);
  return copy;
}

describe("git apply, next to native git", () => {
  it("--cached with one hunk of two stages just that hunk; -R --cached unstages it again", async () => {
    const dir = baseRepo();
    fs.writeFileSync(path.join(dir, "a.txt"), lines(30).replace("line 2\n", "line 2 changed\n").replace("line 28\n", "line 28 changed\n"));
    const patch = native(dir, ["diff", "a.txt"]).stdout;
    expect(patch.match(/^@@ /gm)).toHaveLength(2);
    const first = onlyHunks(patch, [0]);
    const nat = twin(dir);
    fs.writeFileSync(path.join(nat, "p.patch"), first);
    expect(native(nat, ["apply", "--cached", "p.patch"]).code).toBe(0);
    fs.rmSync(path.join(nat, "p.patch"));
    const r = await ours(dir, ["--cached"], first);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(picture(dir)).toEqual(picture(nat));
    expect(picture(dir).cached).toContain("+line 2 changed");
    expect(picture(dir).cached).not.toContain("line 28 changed");

    // Unstage: the staged hunk, reversed, from `git diff --cached`.
    const staged = native(dir, ["diff", "--cached"]).stdout;
    fs.writeFileSync(path.join(nat, "p.patch"), staged);
    expect(native(nat, ["apply", "--cached", "-R", "p.patch"]).code).toBe(0);
    fs.rmSync(path.join(nat, "p.patch"));
    expect((await ours(dir, ["--cached", "-R"], staged)).exitCode).toBe(0);
    expect(picture(dir)).toEqual(picture(nat));
    expect(picture(dir).cached).toBe("");
  });

  it("the work tree and --index: modified, new and deleted files; --check changes nothing", async () => {
    const dir = baseRepo();
    fs.writeFileSync(path.join(dir, "a.txt"), lines(30).replace("line 15\n", "line 15 edited\n"));
    fs.writeFileSync(path.join(dir, "new.txt"), "brand new\nfile\n");
    fs.rmSync(path.join(dir, "gone.txt"));
    native(dir, ["add", "-A"]);
    const patch = native(dir, ["diff", "--cached"]).stdout;
    native(dir, ["reset", "-q", "--hard"]);
    fs.rmSync(path.join(dir, "new.txt"), { force: true });
    const nat = twin(dir);
    expect((await ours(dir, ["--check"], patch)).exitCode).toBe(0);
    expect(picture(dir)).toEqual(picture(nat));
    for (const [args, natArgs] of [[[], ["apply", "-"]], [["--index"], ["apply", "--index", "-"]]] as const) {
      const d = twin(dir);
      const n = twin(dir);
      native(n, ["update-index", "-q", "--refresh"]); // a copied tree's stat data is new to native git
      const r = await ours(d, [...args], patch);
      expect(r.stderr).toBe("");
      const nr = spawnNative(n, [...natArgs], patch, true);
      expect(nr.stderr).toBe("");
      expect(nr.code).toBe(0);
      expect(picture(d)).toEqual(picture(n));
      expect(fs.readFileSync(path.join(d, "new.txt"), "utf8")).toBe("brand new\nfile\n");
      expect(fs.existsSync(path.join(d, "gone.txt"))).toBe(false);
    }
  });

  it("all or nothing: a patch whose second file does not apply changes neither, with git's message", async () => {
    const dir = baseRepo();
    fs.writeFileSync(path.join(dir, "a.txt"), lines(30).replace("line 3\n", "line 3 x\n"));
    fs.writeFileSync(path.join(dir, "b.txt"), "b changed\n");
    const patch = native(dir, ["diff"]).stdout;
    native(dir, ["checkout", "--", "."]);
    fs.writeFileSync(path.join(dir, "b.txt"), "b moved on\n"); // b's hunk no longer applies
    const before = picture(dir);
    const r = await ours(dir, [], patch);
    const nr = spawnNative(twin(dir), ["apply", "-"], patch, true);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(nr.stderr);
    expect(picture(dir)).toEqual(before);
    expect((await ours(dir, ["--cached"], "not a patch\n")).stderr).toMatch(/No valid patches in input/);
  });
});

import { spawnSync } from "node:child_process";
function spawnNative(dir: string, args: string[], stdin: string, full?: false): number;
function spawnNative(dir: string, args: string[], stdin: string, full: true): { code: number; stderr: string };
function spawnNative(dir: string, args: string[], stdin: string, full = false) {
  const r = spawnSync("git", args, { cwd: dir, input: stdin, encoding: "utf8", env: { ...process.env, ...gitEnv() } });
  return full ? { code: r.status ?? -1, stderr: r.stderr } : (r.status ?? -1);
}
