import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { annotateCheckpoint, createCheckpoint, listCheckpoints, pruneCheckpoints, restoreCheckpoint, readFileAt } from "../../lib/checkpoints";
import { git, nodeFs, rmrf, tempRepo, writeFiles } from "./helpers";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(rmrf));

function repo() {
  const dir = tempRepo();
  dirs.push(dir);
  writeFiles(dir, { "a.txt": "one\n" });
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "init"]);
  return { fs: nodeFs, dir };
}

describe("checkpoint kinds, names and pins", () => {
  it("records the kind and pin in the commit and reads them back", async () => {
    const ws = repo();
    await createCheckpoint(ws, { sessionId: "s1", run: 1 });
    await createCheckpoint(ws, { sessionId: "s1", run: "save-a", kind: "save", label: "before refactor", pinned: true });
    const list = await listCheckpoints(ws, { sessionId: "s1" });
    expect(list.map((c) => [c.run, c.kind, c.pinned ?? false, c.label])).toEqual([
      [1, "run", false, undefined],
      ["save-a", "save", true, "before refactor"],
    ]);
    await expect(createCheckpoint(ws, { sessionId: "s1", run: 2, kind: "bogus" as never })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("renames and pins without touching the tree, time or working files", async () => {
    const ws = repo();
    const c = await createCheckpoint(ws, { sessionId: "s1", run: "save-1", kind: "save", label: "draft" });
    fs.writeFileSync(path.join(ws.dir, "a.txt"), "two\n");
    const renamed = await annotateCheckpoint(ws, c.ref, { label: "works", pinned: true });
    expect(renamed).toMatchObject({ ref: c.ref, tree: c.tree, createdAt: c.createdAt, kind: "save", label: "works", pinned: true });
    expect(renamed.oid).not.toBe(c.oid);
    expect(git(ws.dir, ["rev-parse", c.ref])).toBe(renamed.oid);
    expect(git(ws.dir, ["rev-parse", `${c.ref}^`])).toBe(git(ws.dir, ["rev-parse", "HEAD"]));
    expect(fs.readFileSync(path.join(ws.dir, "a.txt"), "utf8")).toBe("two\n");
    const unpinned = await annotateCheckpoint(ws, c.ref, { pinned: false, label: "" });
    expect(unpinned.pinned).toBeUndefined();
    expect(unpinned.label).toBeUndefined();
    await expect(annotateCheckpoint(ws, "refs/heads/main", { label: "x" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("records a restore's saved state as a tick of the session", async () => {
    const ws = repo();
    const c = await createCheckpoint(ws, { sessionId: "s1", run: 1 });
    fs.writeFileSync(path.join(ws.dir, "a.txt"), "edited\n");
    const r = await restoreCheckpoint(ws, c.ref);
    const tick = await annotateCheckpoint(ws, r.savedRef, { label: "Before restoring to turn 1", as: { sessionId: "s1", run: `restore-${r.txid}`, kind: "restore" } });
    expect(tick.kind).toBe("restore");
    expect(new TextDecoder().decode(await readFileAt(ws, tick.ref, "a.txt"))).toBe("edited\n");
    expect(git(ws.dir, ["rev-parse", r.savedRef])).toBe(r.savedOid); // the source stays
  });

  it("prune keeps pinned checkpoints and does not count them toward keepLast", async () => {
    const ws = repo();
    await createCheckpoint(ws, { sessionId: "s1", run: "save-old", kind: "save", pinned: true });
    for (let run = 1; run <= 3; run++) {
      fs.writeFileSync(path.join(ws.dir, "a.txt"), `v${run}\n`);
      await createCheckpoint(ws, { sessionId: "s1", run });
    }
    const r = await pruneCheckpoints(ws, { keepLast: 1 });
    expect(r.removedRefs.sort()).toEqual(["refs/tabula/checkpoints/s1/1", "refs/tabula/checkpoints/s1/2"]);
    expect((await listCheckpoints(ws)).map((c) => c.run)).toEqual(["save-old", 3]);
    const all = await pruneCheckpoints(ws, { sessionId: "s1" });
    expect(all.removedRefs).toEqual(["refs/tabula/checkpoints/s1/3"]);
    expect(new TextDecoder().decode(await readFileAt(ws, "s1/save-old", "a.txt"))).toBe("one\n");
  });
});
