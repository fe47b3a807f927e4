/**
 * What a checkpoint with nothing new writes: the commit and its ref, not the generation stamp
 * (no other engine's cache can have become wrong); one with a change still replaces the stamp.
 * Another engine sees the new checkpoint either way.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import isoGit from "isomorphic-git";
import { openNamedLightningFs } from "../../lib/fs/lightning";
import { IdbCommitLog } from "../fs/idb-commit-log";
import { uniqueName } from "../fs/backends";
import fs from "node:fs";
import path from "node:path";
import { createCheckpoint, listCheckpoints } from "../../lib/checkpoints";
import { ChangeJournal } from "../../lib/fs/journal";
import type { IsoFs } from "../../lib/fs/types";
import { withWorktreeStamp } from "../../lib/fs/worktree-stamp";
import { ageFiles, git, rmrf, tempRepo, writeFiles } from "./helpers";

/** A stamped fs that records the path of every write into .git (renames by destination). */
function recording(dir: string) {
  const base = fs.promises;
  const writes: string[] = [];
  const rel = (p: string) => path.relative(path.join(dir, ".git"), p);
  const raw = {
    promises: {
      ...base,
      writeFile: (p: string, d: Uint8Array | string, o?: unknown) => {
        if (!/\.tmp-|tmp_obj_/.test(path.basename(p))) writes.push(rel(p)); // temp files: their rename is the write
        return base.writeFile(p, d, o as undefined);
      },
      rename: (from: string, to: string) => {
        writes.push(rel(to));
        return base.rename(from, to);
      },
    },
  } as unknown as IsoFs;
  return { fs: withWorktreeStamp(raw, dir), writes };
}

describe("a no-change checkpoint's writes", () => {
  it("are the commit and the ref only; a change also replaces the generation stamp", async () => {
    const dir = tempRepo("tabula-nochange-");
    try {
      writeFiles(dir, { "a.txt": "a\n", "src/b.ts": "b\n" });
      ageFiles(dir, 30);
      const { fs: f, writes } = recording(dir);
      const ws = { fs: f, dir, journal: new ChangeJournal() };
      await createCheckpoint(ws, { sessionId: "s", run: 1 });
      writes.length = 0;
      const quiet = await createCheckpoint(ws, { sessionId: "s", run: 2 });
      expect(quiet.stats.objectsWritten).toBe(1);
      expect(writes.filter((w) => !w.startsWith("objects/"))).toEqual(["refs/tabula/checkpoints/s/2"]);
      expect(writes.filter((w) => w.startsWith("objects/"))).toHaveLength(1);

      await f.promises.writeFile(path.join(dir, "a.txt"), "changed\n");
      ws.journal.record({ kind: "write", path: "a.txt" });
      writes.length = 0;
      await createCheckpoint(ws, { sessionId: "s", run: 3 });
      expect(writes).toContain("tabula/generation");

      const other = { fs: { promises: fs.promises } as unknown as IsoFs, dir };
      expect((await listCheckpoints(other, { sessionId: "s" })).map((c) => c.run)).toEqual([1, 2, 3]);
    } finally {
      rmrf(dir);
    }
  });

  it("write a generation token once when the repository has none, so the next checkpoints trust their caches", async () => {
    // A clone: native git wrote every blob and tree, so the first checkpoint's only new object
    // is its commit. Without a token every later check reads "changed behind the engine".
    const dir = tempRepo("tabula-nochange-clone-");
    try {
      writeFiles(dir, { "a.txt": "a\n", "src/b.ts": "b\n", "src/deep/c.md": "c\n" });
      git(dir, ["add", "-A"]);
      git(dir, ["commit", "-qm", "clone"]);
      ageFiles(dir, 30);
      const { fs: f, writes } = recording(dir);
      const ws = { fs: f, dir, journal: new ChangeJournal() };
      const first = await createCheckpoint(ws, { sessionId: "s", run: 1 });
      expect(first.stats.objectsWritten).toBe(1);
      expect(writes).toContain("tabula/generation");
      for (const run of [2, 3]) {
        writes.length = 0;
        const quiet = await createCheckpoint(ws, { sessionId: "s", run });
        expect(quiet.stats.scan).toBe("journal");
        expect(writes).not.toContain("tabula/generation");
      }
    } finally {
      rmrf(dir);
    }
  });

  it("on lightning-fs, are one IndexedDB commit: the commit object and its ref stored together", async () => {
    (globalThis as { navigator?: unknown }).navigator ??= {};
    const name = uniqueName("tabula-nochange-lfs");
    const lfs = openNamedLightningFs(name, { wipe: true });
    const dir = "/ws";
    await lfs.promises.mkdir(dir);
    await isoGit.init({ fs: lfs as never, dir, defaultBranch: "main" });
    await lfs.promises.mkdir(`${dir}/src`);
    await lfs.promises.writeFile(`${dir}/a.txt`, "a\n", "utf8");
    await lfs.promises.writeFile(`${dir}/src/b.ts`, "b\n", "utf8");
    const f = withWorktreeStamp(lfs, dir);
    const ws = { fs: f, dir, journal: new ChangeJournal() };
    await createCheckpoint(ws, { sessionId: "s", run: 1 });
    await createCheckpoint(ws, { sessionId: "s", run: 2 });
    const log = new IdbCommitLog((db) => db === name);
    log.start();
    let quiet;
    try {
      quiet = await createCheckpoint(ws, { sessionId: "s", run: 3 });
    } finally {
      log.stop();
    }
    expect(quiet.stats.scan).toBe("journal");
    expect(quiet.stats.objectsWritten).toBe(1);
    expect(log.committed).toHaveLength(1);
    expect(log.committed[0]!.ops.map((o) => o.kind)).toEqual(["put", "put"]);
    // Another engine (a reload) finds the checkpoint and its commit.
    const other = { fs: openNamedLightningFs(name) as IsoFs, dir };
    expect((await listCheckpoints(other, { sessionId: "s" })).map((c) => c.run)).toEqual([1, 2, 3]);
  });
});
