/**
 * The journal accelerator (lib/fs ChangeJournal via WorkspaceFs): a 1-file change hashes one
 * file and walks nothing; changes behind the journal's back are still captured once the
 * journal says it does not know (markUnknown), or without a journal at all; prune and
 * restore keep the cache honest; an interrupted restore is recovered.
 */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { createCheckpoint, pruneCheckpoints, recoverInterruptedRestore, restoreCheckpoint, __testing } from "../../lib/checkpoints";
import { ChangeJournal, WorkspaceFs } from "../../lib/fs";
import type { IsoFs } from "../../lib/fs/types";
import { ageFiles, git, nativeTree, nodeFs, picture, pictureObject, rmrf, tempRepo, writeFiles } from "./helpers";

const dirs: string[] = [];
afterEach(() => {
  __testing.crashOnRestoreFailure = false;
  while (dirs.length) rmrf(dirs.pop()!);
});

function setup(n = 60) {
  const dir = tempRepo();
  dirs.push(dir);
  const files: Record<string, string> = { ".gitignore": "*.log\n" };
  for (let i = 0; i < n; i++) files[`src/p${i % 6}/f${i}.txt`] = `content ${i}\n`;
  writeFiles(dir, files);
  ageFiles(dir);
  const journal = new ChangeJournal();
  const wsfs = new WorkspaceFs({ fs: nodeFs, dir, journal });
  return { dir, journal, wsfs, ws: { fs: nodeFs, dir, journal } };
}

describe("journal accelerator", () => {
  it("hashes exactly the one changed file, and follows renames, deletes and new dirs", async () => {
    const { dir, wsfs, ws } = setup();
    const c0 = await createCheckpoint(ws, { sessionId: "j", run: 0 });
    expect(c0.stats.scan).toBe("walk");
    await wsfs.writeFile("src/p1/f1.txt", "changed\n", { origin: "agent" });
    const c1 = await createCheckpoint(ws, { sessionId: "j", run: 1 });
    expect(c1.stats).toMatchObject({ scan: "journal", filesHashed: 1 });
    expect(c1.tree).toBe(nativeTree(dir));
    expect(c1.stats.objectsWritten).toBe(1 + 3 + 1); // blob, 3 trees (p1, src, root), commit

    const c2 = await createCheckpoint(ws, { sessionId: "j", run: 2 });
    expect(c2.stats).toMatchObject({ scan: "journal", filesHashed: 0 });
    expect(c2.tree).toBe(c1.tree);

    await wsfs.rename("src/p2", "moved/p2");
    await wsfs.remove("src/p3");
    await wsfs.writeFile("new/deeper/x.txt", "x");
    await wsfs.writeFile("ignored.log", "not captured");
    await wsfs.writeFile("src/p4/f4.txt", "exec", { mode: 0o755 });
    const c3 = await createCheckpoint(ws, { sessionId: "j", run: 3 });
    expect(c3.stats.scan).toBe("journal");
    expect(c3.tree).toBe(nativeTree(dir));
    // renamed files keep their content but get new paths: re-hashed (10 in p2) + x + f4
    expect(c3.stats.filesHashed).toBeLessThanOrEqual(12);

    await wsfs.writeFile(".gitignore", "*.log\nmoved/\n"); // ignore rules changed: full walk
    const c4 = await createCheckpoint(ws, { sessionId: "j", run: 4 });
    expect(c4.stats.scan).toBe("walk");
    expect(c4.tree).toBe(nativeTree(dir));
  });

  it("re-reads ignore rules when a directory is replaced, and skips WorkspaceFs temp files", async () => {
    const { dir, wsfs, ws } = setup(6);
    writeFiles(dir, { "a/.gitignore": "*.tmp\n", "a/x.tmp": "ignored", "a/y.txt": "y" });
    await createCheckpoint(ws, { sessionId: "j", run: 0 });
    await wsfs.rename("a", "old");
    await wsfs.writeFile("a/x.tmp", "a new a/ without .gitignore: captured");
    const c1 = await createCheckpoint(ws, { sessionId: "j", run: 1 });
    expect(c1.stats.scan).toBe("journal");
    expect(c1.tree).toBe(nativeTree(dir));
    fs.writeFileSync(path.join(dir, "src/.f.txt.tabula-tmp-abc123"), "a save in flight");
    const c2 = await createCheckpoint({ fs: nodeFs, dir }, { sessionId: "j", run: 2 });
    expect(git(dir, ["ls-tree", "-r", "--name-only", c2.oid])).not.toContain("tabula-tmp");
  });

  it("captures changes made behind the journal's back after markUnknown, or with no journal", async () => {
    const { dir, journal, ws } = setup();
    await createCheckpoint(ws, { sessionId: "j", run: 0 });
    fs.writeFileSync(path.join(dir, "src/p0/f0.txt"), "raw write, same size!!");
    fs.rmSync(path.join(dir, "src/p5/f5.txt"));
    journal.markUnknown();
    const c1 = await createCheckpoint(ws, { sessionId: "j", run: 1 });
    expect(c1.stats.scan).toBe("walk");
    expect(c1.tree).toBe(nativeTree(dir));
    // without a journal: always a stat walk, still exact
    fs.writeFileSync(path.join(dir, "src/p0/f6.txt"), "another raw write");
    const c2 = await createCheckpoint({ fs: nodeFs, dir }, { sessionId: "j", run: 2 });
    expect(c2.stats.scan).toBe("walk");
    expect(c2.tree).toBe(nativeTree(dir));
    // a journal instance that is not the one the cache was built with (a page reload): walk
    const c3 = await createCheckpoint({ fs: nodeFs, dir, journal: new ChangeJournal() }, { sessionId: "j", run: 3 });
    expect(c3.stats.scan).toBe("walk");
    expect(c3.tree).toBe(c2.tree);
  });

  it("stays exact across restores (which record into the journal) and prunes", async () => {
    const { dir, wsfs, ws } = setup(20);
    const c0 = await createCheckpoint(ws, { sessionId: "j", run: 0 });
    await wsfs.writeFile("src/p0/f0.txt", "v1");
    await wsfs.writeFile("extra/e.txt", "e");
    const c1 = await createCheckpoint(ws, { sessionId: "j", run: 1 });
    const events: string[] = [];
    ws.journal.subscribe((e) => events.push(`${e.kind}:${e.path}:${e.origin}`));
    await restoreCheckpoint(ws, c0.ref);
    expect(events).toContain("write:src/p0/f0.txt:checkpoint");
    expect(events).toContain("delete:extra/e.txt:checkpoint");
    const c2 = await createCheckpoint(ws, { sessionId: "j", run: 2 });
    expect(c2.stats).toMatchObject({ scan: "journal", filesHashed: 0 }); // the restore told the cache what it wrote
    expect(c2.tree).toBe(c0.tree);
    expect(c2.tree).toBe(nativeTree(dir));
    await wsfs.writeFile("src/p0/f0.txt", "edited after the restore");
    const c2b = await createCheckpoint(ws, { sessionId: "j", run: 20 });
    expect(c2b.tree).toBe(nativeTree(dir));
    // a restore without the journal must not leave a stale journal binding behind
    await restoreCheckpoint({ fs: nodeFs, dir }, c1.ref);
    const c3 = await createCheckpoint(ws, { sessionId: "j", run: 3 });
    expect(c3.tree).toBe(c1.tree);
    expect(c3.tree).toBe(nativeTree(dir));

    // prune everything: the cache must not hand out the deleted blobs afterwards
    const r = await pruneCheckpoints(ws, { sessionId: "j" });
    expect(r.removedObjects).toBeGreaterThan(0);
    await wsfs.writeFile("src/p1/f1.txt", "after prune");
    const c4 = await createCheckpoint(ws, { sessionId: "k", run: 1 });
    expect(c4.tree).toBe(nativeTree(dir));
    git(dir, ["fsck", "--strict", "--no-dangling"]);
  });

  it("recovers an interrupted restore on the next open", async () => {
    const { dir, wsfs, ws } = setup(30);
    const c0 = await createCheckpoint(ws, { sessionId: "j", run: 0 });
    for (let i = 0; i < 30; i += 3) await wsfs.writeFile(`src/p${i % 6}/f${i}.txt`, `edited ${i}`);
    await wsfs.writeFile("added.txt", "added");
    const before = pictureObject(picture(dir));
    // die in the middle of the working-tree writes
    let writes = 0;
    const p = fs.promises;
    const dying = {
      promises: {
        ...Object.fromEntries(Object.entries(p).map(([k, v]) => [k, typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(p) : v])),
        writeFile: async (f: string, d: Uint8Array, o?: unknown) => {
          if (String(f).includes("/src/") && ++writes === 4) throw Object.assign(new Error("power cut"), { code: "EIO" });
          return p.writeFile(f, d, o as never);
        },
      },
    } as unknown as IsoFs;
    __testing.crashOnRestoreFailure = true;
    await expect(restoreCheckpoint({ fs: dying, dir }, c0.ref)).rejects.toThrow(/power cut/);
    __testing.crashOnRestoreFailure = false;
    expect(fs.existsSync(path.join(dir, ".git/tabula/restore-in-progress.json"))).toBe(true);
    expect(pictureObject(picture(dir))).not.toEqual(before); // half restored
    await expect(createCheckpoint(ws, { sessionId: "j", run: 9 })).rejects.toMatchObject({ code: "RESTORE_IN_PROGRESS" });
    await expect(restoreCheckpoint(ws, c0.ref)).rejects.toMatchObject({ code: "RESTORE_IN_PROGRESS" });

    const r = await recoverInterruptedRestore(ws);
    expect(r).toMatchObject({ rolledBack: true });
    expect(pictureObject(picture(dir))).toEqual(before);
    expect(await recoverInterruptedRestore(ws)).toBeUndefined();
    const c1 = await createCheckpoint(ws, { sessionId: "j", run: 1 });
    expect(c1.tree).toBe(nativeTree(dir));
  });
});
