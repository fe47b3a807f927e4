/** The light index reader against native git: its paths are `git ls-files`'s, conflicts included. */
import nodeFs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hasUnmergedEntries, indexPaths } from "../../lib/git/index-scan";
import { nativeGit } from "./helpers";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) nodeFs.rmSync(d, { recursive: true, force: true });
});
const fs = { promises: nodeFs.promises };

function repo(): string {
  const dir = nodeFs.mkdtempSync(path.join(os.tmpdir(), "tabula-index-scan-"));
  dirs.push(dir);
  nativeGit(dir, "init", "-q");
  return dir;
}

function write(dir: string, rel: string, text: string) {
  nodeFs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  nodeFs.writeFileSync(path.join(dir, rel), text);
}

describe("index-scan", () => {
  it("lists the index's paths as git ls-files does (long, nested and unicode names; v2 and v3 with intent-to-add)", async () => {
    const dir = repo();
    expect(await indexPaths(fs, `${dir}/.git`)).toEqual([]);
    const names = ["a.txt", "src/b.ts", "src/deep/c.ts", "docs/ünïcødé file.md", `long/${"x".repeat(240)}/${"y".repeat(240)}/${"z".repeat(240)}.txt`, "z-last"];
    for (const n of names) write(dir, n, n);
    nativeGit(dir, "add", "-A");
    const lsFiles = () => nativeGit(dir, "ls-files", "-z").split("\0").filter(Boolean);
    expect(await indexPaths(fs, `${dir}/.git`)).toEqual(lsFiles());
    // intent-to-add sets the extended flag: git writes index version 3
    write(dir, "later.txt", "later");
    nativeGit(dir, "add", "-N", "later.txt");
    expect(nodeFs.readFileSync(path.join(dir, ".git/index")).readUInt32BE(4)).toBe(3);
    expect(await indexPaths(fs, `${dir}/.git`)).toEqual(lsFiles());
    expect(await hasUnmergedEntries(fs, `${dir}/.git`)).toBe(false);
  });

  it("names a conflicted path once and sees that it is unmerged", async () => {
    const dir = repo();
    write(dir, "f.txt", "base\n");
    write(dir, "g.txt", "g\n");
    nativeGit(dir, "add", "-A");
    nativeGit(dir, "commit", "-qm", "base");
    nativeGit(dir, "checkout", "-qb", "other");
    write(dir, "f.txt", "theirs\n");
    nativeGit(dir, "commit", "-qam", "theirs");
    nativeGit(dir, "checkout", "-q", "-");
    write(dir, "f.txt", "ours\n");
    nativeGit(dir, "commit", "-qam", "ours");
    try {
      nativeGit(dir, "merge", "-q", "other");
    } catch {
      // the conflict is the point
    }
    expect(await hasUnmergedEntries(fs, `${dir}/.git`)).toBe(true);
    expect(await indexPaths(fs, `${dir}/.git`)).toEqual(["f.txt", "g.txt"]);
  });

  it("answers undefined for an index it does not read (version 4), and an empty list without one", async () => {
    const dir = repo();
    write(dir, "a.txt", "a");
    nativeGit(dir, "add", "-A");
    nativeGit(dir, "update-index", "--index-version", "4");
    expect(await indexPaths(fs, `${dir}/.git`)).toBeUndefined();
  });
});
