/**
 * Fault injection: the k-th mutating fs call of a restore fails once, for every k. Afterwards
 * the workspace is exactly the pre-restore state (or, when the fault missed the transaction,
 * exactly the checkpoint). Then the same with a "crash": the rollback is skipped and a fresh
 * session runs recoverInterruptedRestore.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCheckpoint, recoverInterruptedRestore, restoreCheckpoint, __testing, type Checkpoint } from "../../lib/checkpoints";
import type { IsoFs } from "../../lib/fs/types";
import { ageFiles, git, gitState, nodeFs, picture, pictureObject, rmrf, tempRepo, writeFiles } from "./helpers";

const MUTATING = ["writeFile", "unlink", "mkdir", "rmdir", "rename", "symlink", "chmod"] as const;

function faultyFs(failAt: number) {
  let n = 0;
  let fired = false;
  const p = fs.promises as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const promises: Record<string, unknown> = {};
  for (const name of ["readFile", "readdir", "stat", "lstat", "readlink", ...MUTATING]) {
    const fn = p[name]!;
    promises[name] = (MUTATING as readonly string[]).includes(name)
      ? async (...args: unknown[]) => {
          n++;
          if (n === failAt) {
            fired = true;
            throw Object.assign(new Error(`injected fault #${n} in ${name}(${String(args[0])})`), { code: "EIO" });
          }
          return fn(...args);
        }
      : (...args: unknown[]) => fn(...args);
  }
  return { fs: { promises } as unknown as IsoFs, calls: () => n, fired: () => fired };
}

let template: string;
let ck: Checkpoint;
let before: ReturnType<typeof pictureObject>;
let expectedAfter: ReturnType<typeof pictureObject>;
let gitBefore: ReturnType<typeof gitState>;
const work: string[] = [];

function copyTemplate(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-fault-"));
  fs.cpSync(template, dir, { recursive: true, verbatimSymlinks: true });
  work.push(dir);
  return dir;
}

beforeAll(async () => {
  template = tempRepo("tabula-fault-template-");
  writeFiles(template, {
    ".gitignore": "*.log\n",
    "a.txt": "a",
    "dir/b.txt": "b",
    "dir/sub/c.txt": "c",
    "swap/inner.txt": "inner",
    "keep.log": "ignored",
    "x/y/z.txt": "deep",
  });
  fs.writeFileSync(path.join(template, "exec.sh"), "#!/bin/sh\n", { mode: 0o755 });
  fs.chmodSync(path.join(template, "exec.sh"), 0o755);
  fs.symlinkSync("a.txt", path.join(template, "link"));
  git(template, ["add", "-A"]);
  git(template, ["commit", "-qm", "base"]);
  ck = await createCheckpoint({ fs: nodeFs, dir: template }, { sessionId: "f", run: 1 });
  // mutations after the checkpoint
  writeFiles(template, { "a.txt": "A!", "new/deep/n.txt": "new", "dir2/only.txt": "only", "keep.log": "ignored, changed", "more.log": "new ignored" });
  fs.rmSync(path.join(template, "dir/sub/c.txt")); // leaves dir/sub empty
  fs.rmSync(path.join(template, "x"), { recursive: true });
  fs.chmodSync(path.join(template, "exec.sh"), 0o644);
  fs.rmSync(path.join(template, "link"));
  fs.symlinkSync("dir/b.txt", path.join(template, "link"));
  fs.rmSync(path.join(template, "swap"), { recursive: true });
  fs.writeFileSync(path.join(template, "swap"), "now a file");
  fs.mkdirSync(path.join(template, "empty-before"));
  git(template, ["add", "-A"]);
  git(template, ["commit", "-qm", "moved on"]);
  ageFiles(template);
  before = pictureObject(picture(template));
  gitBefore = gitState(template);
  const probe = copyTemplate();
  await restoreCheckpoint({ fs: nodeFs, dir: probe }, ck.ref);
  expectedAfter = pictureObject(picture(probe));
  expect(expectedAfter).not.toEqual(before);
});

afterAll(() => {
  __testing.crashOnRestoreFailure = false;
  rmrf(template);
  while (work.length) rmrf(work.pop()!);
});

describe("restore under injected faults", () => {
  it("every k: exactly the pre-restore state, or exactly the checkpoint", async () => {
    let k = 1;
    let failures = 0;
    for (; k < 500; k++) {
      const dir = copyTemplate();
      const f = faultyFs(k);
      let threw: unknown;
      try {
        await restoreCheckpoint({ fs: f.fs, dir }, ck.ref);
      } catch (err) {
        threw = err;
      }
      const now = pictureObject(picture(dir));
      if (threw) {
        failures++;
        expect(now, `fault ${k}: ${String(threw)}`).toEqual(before);
        expect((threw as { code?: string }).code === "RESTORE_FAILED" || (threw as { code?: string }).code === "EIO").toBe(true);
        expect(fs.existsSync(path.join(dir, ".git/tabula/restore-in-progress.json"))).toBe(false);
      } else {
        expect(now, `fault ${k} (swallowed: ${f.fired()})`).toEqual(expectedAfter);
      }
      expect(gitState(dir)).toEqual(gitBefore);
      rmrf(dir);
      work.pop();
      if (!f.fired()) break;
    }
    expect(failures).toBeGreaterThan(20);
    expect(k).toBeLessThan(500);
  }, 120_000);

  it("every k with a crash instead of a rollback: recoverInterruptedRestore restores the pre-restore state", async () => {
    __testing.crashOnRestoreFailure = true;
    let recovered = 0;
    let k = 1;
    try {
      for (; k < 500; k++) {
        const dir = copyTemplate();
        const f = faultyFs(k);
        let threw = false;
        try {
          await restoreCheckpoint({ fs: f.fs, dir }, ck.ref);
        } catch {
          threw = true;
        }
        // a new session: a new fs object, hence a new engine with nothing in memory
        const fresh = { promises: fs.promises } as unknown as IsoFs;
        const r = await recoverInterruptedRestore({ fs: fresh, dir });
        if (r) recovered++;
        const now = pictureObject(picture(dir));
        expect(now, `crash at ${k}`).toEqual(threw ? before : expectedAfter);
        expect(await recoverInterruptedRestore({ fs: fresh, dir })).toBeUndefined();
        expect(gitState(dir)).toEqual(gitBefore);
        if (k % 10 === 0) git(dir, ["fsck", "--no-dangling"]);
        rmrf(dir);
        work.pop();
        if (!f.fired()) break;
      }
    } finally {
      __testing.crashOnRestoreFailure = false;
    }
    expect(recovered).toBeGreaterThan(10);
  }, 120_000);
});
