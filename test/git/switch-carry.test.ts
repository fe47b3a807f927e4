/**
 * The workbench's branch switch (lib/git switchBranch) against native `git switch` on copies of
 * the same repository: local changes that git carries are carried (staged new files included),
 * what git refuses is refused with nothing changed, and the result has the same index, status
 * and files.
 */
import nodeFs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ChangeJournal } from "../../lib/fs/journal";
import type { IsoFs } from "../../lib/fs/types";
import { currentBranch, switchBranch } from "../../lib/git/branches";
import { nativeGit } from "./helpers";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) nodeFs.rmSync(d, { recursive: true, force: true });
});

function write(dir: string, rel: string, text: string) {
  nodeFs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  nodeFs.writeFileSync(path.join(dir, rel), text);
}

/** main: a, shared, docs/x, gone/y; feature: shared changed, docs/x removed, new/z added, a mode +x. */
function base(): string {
  const dir = nodeFs.mkdtempSync(path.join(os.tmpdir(), "tabula-switch-"));
  dirs.push(dir);
  nativeGit(dir, "init", "-q");
  write(dir, "a.txt", "a\n");
  write(dir, "shared.txt", "main\n");
  write(dir, "docs/x.md", "x\n");
  write(dir, "keep/k.txt", "k\n");
  nativeGit(dir, "add", "-A");
  nativeGit(dir, "commit", "-qm", "main");
  nativeGit(dir, "switch", "-qc", "feature");
  write(dir, "shared.txt", "feature\n");
  nodeFs.rmSync(path.join(dir, "docs"), { recursive: true });
  write(dir, "new/z.txt", "z\n");
  nodeFs.chmodSync(path.join(dir, "a.txt"), 0o755);
  nativeGit(dir, "add", "-A");
  nativeGit(dir, "commit", "-qm", "feature");
  nativeGit(dir, "switch", "-q", "main");
  return dir;
}

function copy(dir: string): string {
  const to = nodeFs.mkdtempSync(path.join(os.tmpdir(), "tabula-switch-copy-"));
  dirs.push(to);
  nodeFs.cpSync(dir, to, { recursive: true });
  return to;
}

function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of nodeFs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (p === ".git") continue;
      if (e.isDirectory()) walk(p);
      else out[p] = nodeFs.readFileSync(path.join(dir, p), "utf8");
    }
  };
  walk("");
  return out;
}

const state = (dir: string) => ({
  branch: nativeGit(dir, "branch", "--show-current").trim(),
  index: nativeGit(dir, "ls-files", "-s"),
  status: nativeGit(dir, "status", "--porcelain", "-uall"),
  files: files(dir),
});

async function both(setup: (dir: string) => void): Promise<{ native: ReturnType<typeof state> | Error; ours: ReturnType<typeof state> | Error; oursError?: Error & { code?: string }; repo: string }> {
  const dir = base();
  setup(dir);
  const mine = copy(dir);
  let native: ReturnType<typeof state> | Error;
  try {
    nativeGit(dir, "switch", "-q", "feature");
    native = state(dir);
  } catch (e) {
    native = e as Error;
  }
  const journal = new ChangeJournal();
  let oursError: (Error & { code?: string }) | undefined;
  try {
    await switchBranch({ fs: nodeFs as unknown as IsoFs, dir: mine, journal }, "feature");
  } catch (e) {
    oursError = e as Error & { code?: string };
  }
  return { native, ours: oursError ?? state(mine), oursError, repo: mine };
}

describe("switching branches with local changes, as native git does", () => {
  it("carries an edit to a file both branches have alike, a staged new file and an untracked one", async () => {
    const r = await both((dir) => {
      write(dir, "keep/k.txt", "edited, not staged\n");
      write(dir, "staged.txt", "staged new file\n");
      nativeGit(dir, "add", "staged.txt");
      write(dir, "scratch.txt", "untracked\n");
    });
    expect(r.native).not.toBeInstanceOf(Error);
    expect(r.ours).toEqual(r.native);
    expect((r.ours as ReturnType<typeof state>).files["staged.txt"]).toBe("staged new file\n");
    expect(nativeGit(r.repo, "fsck", "--no-progress")).toBe("");
  });

  it("a clean switch matches native git: files, modes, the index and an empty status", async () => {
    const r = await both(() => undefined);
    expect(r.ours).toEqual(r.native);
    expect((r.ours as ReturnType<typeof state>).status).toBe("");
    expect(nodeFs.statSync(path.join(r.repo, "a.txt")).mode & 0o111).not.toBe(0);
    expect(nodeFs.existsSync(path.join(r.repo, "docs"))).toBe(false);
  });

  it("refuses, changing nothing, when a changed file differs between the branches (staged or not)", async () => {
    for (const setup of [
      (dir: string) => write(dir, "shared.txt", "local\n"),
      (dir: string) => {
        write(dir, "docs/x.md", "local\n");
        nativeGit(dir, "add", "docs/x.md");
      },
    ]) {
      const dir = base();
      setup(dir);
      const before = state(dir);
      await expect(switchBranch({ fs: nodeFs as unknown as IsoFs, dir }, "feature")).rejects.toMatchObject({ code: "DIRTY" });
      expect(state(dir)).toEqual(before);
      expect(await currentBranch({ fs: nodeFs as unknown as IsoFs, dir })).toBe("main");
      expect(() => nativeGit(dir, "switch", "-q", "feature")).toThrow(/would be overwritten/);
    }
  });

  it("refuses when an untracked file stands where the target has a file, even with the same content", async () => {
    for (const text of ["mine\n", "z\n"]) {
      const r = await both((dir) => write(dir, "new/z.txt", text));
      expect(r.native).toBeInstanceOf(Error);
      expect(r.oursError?.code).toBe("CONFLICT");
      expect(nodeFs.readFileSync(path.join(r.repo, "new/z.txt"), "utf8")).toBe(text);
      expect(await currentBranch({ fs: nodeFs as unknown as IsoFs, dir: r.repo })).toBe("main");
    }
  });
});
