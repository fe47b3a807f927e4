import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startGitHttpServer } from "../../e2e/helpers/git-http-server";
import { createCheckpoint, restoreCheckpoint } from "../../lib/checkpoints";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { shellGitRunner } from "../../lib/scm/git-runner";
import { parseBranchLine, parseStatusZ } from "../../lib/scm/porcelain";
import { SourceControl, type ScmOutput } from "../../lib/scm/source-control";
import { native, nativeAsync, nativeClone, proxiedClient, tempDir } from "../git/remote-helpers";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ENV = { GIT_AUTHOR_NAME: "View", GIT_AUTHOR_EMAIL: "view@example.com", GIT_COMMITTER_NAME: "View", GIT_COMMITTER_EMAIL: "view@example.com" };

function workspace(dir = tempDir("tabula-scm-")) {
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const nodeFs = fs as unknown as IsoFs;
  const journal = new ChangeJournal();
  const wsfs = new WorkspaceFs({ fs: nodeFs, dir, journal });
  const git = shellGitRunner({ fs: nodeFs, wsfs, mountPoint: "/workspace", readOnly: false, transport: () => ({ http: proxiedClient() }) }, ENV);
  const ckws = { fs: nodeFs, dir, journal };
  const snapshots = {
    create: (o: { sessionId: string; run: number | string; label?: string }) => createCheckpoint(ckws, o),
    restore: (ref: string, o: { paths: string[] }) => restoreCheckpoint(ckws, ref, o),
  };
  const scm = new SourceControl(git, snapshots);
  const outputs: ScmOutput[] = [];
  scm.onOutput((o) => outputs.push(o));
  return { dir, scm, outputs, write: (p: string, s: string) => (fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true }), fs.writeFileSync(path.join(dir, p), s)) };
}

/** A repository in every state the view shows: staged, unstaged, both, renamed, deleted, untracked, odd names. */
function richRepo(dir: string) {
  native(dir, "init", "-q", "-b", "main");
  const w = (p: string, s: string) => (fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true }), fs.writeFileSync(path.join(dir, p), s));
  w("a.txt", "a\n");
  w("both.txt", "1\n");
  w("gone.txt", "bye\n");
  w("old name.txt", "rename me, with enough text that git sees the rename\n");
  w("staged-del.txt", "x\n");
  w("dir/é.txt", "unicode\n");
  native(dir, "add", "-A");
  native(dir, "commit", "-qm", "base");
  w("a.txt", "a changed\n");
  w("both.txt", "2\n");
  native(dir, "add", "both.txt");
  w("both.txt", "3\n");
  fs.rmSync(path.join(dir, "gone.txt"));
  native(dir, "mv", "old name.txt", "new name.txt");
  native(dir, "rm", "-q", "staged-del.txt");
  w("new.txt", "new\n");
  w("dir/sub/deep new.txt", "deep\n");
  w("dir/é.txt", "unicode changed\n");
  w("added.txt", "added\n");
  native(dir, "add", "added.txt");
}

describe("git status --porcelain -b -z as the Source Control view reads it", () => {
  it("our shell's git and native git give the same snapshot of every kind of change", async () => {
    const s = workspace();
    richRepo(s.dir);
    const ours = await s.scm.status();
    const theirs = parseStatusZ(native(s.dir, "-c", "core.quotePath=true", "status", "--porcelain", "-b", "-z", "-uall"));
    expect(ours).toEqual({ ...theirs, merging: false });
    expect(ours.branch).toBe("main");
    expect(ours.staged).toEqual([
      { path: "added.txt", letter: "A" },
      { path: "both.txt", letter: "M" },
      { path: "new name.txt", letter: "R", from: "old name.txt" },
      { path: "staged-del.txt", letter: "D" },
    ]);
    expect(ours.unstaged).toEqual([
      { path: "a.txt", letter: "M" },
      { path: "both.txt", letter: "M" },
      { path: "dir/é.txt", letter: "M" },
      { path: "gone.txt", letter: "D" },
    ]);
    expect(ours.untracked).toEqual(["dir/sub/deep new.txt", "new.txt"]);
  });

  it("reads the branch line's upstream, ahead/behind, gone and the no-commits and detached forms", () => {
    expect(parseBranchLine("## main...origin/main [ahead 2, behind 1]")).toEqual({ branch: "main", upstream: "origin/main", ahead: 2, behind: 1, gone: false, noCommits: false });
    expect(parseBranchLine("## feat/x...origin/feat/x [gone]")).toMatchObject({ branch: "feat/x", upstream: "origin/feat/x", gone: true });
    expect(parseBranchLine("## main")).toEqual({ branch: "main", ahead: 0, behind: 0, gone: false, noCommits: false });
    expect(parseBranchLine("## No commits yet on trunk")).toMatchObject({ branch: "trunk", noCommits: true });
    expect(parseBranchLine("## HEAD (no branch)")).toEqual({ ahead: 0, behind: 0, gone: false, noCommits: false });
  });
});

describe("Source Control actions (native git checks the result)", () => {
  it("stage, unstage and commit; amend keeps the message when none is given", async () => {
    const s = workspace();
    native(s.dir, "init", "-q", "-b", "main");
    s.write("a.txt", "a\n");
    s.write("b.txt", "b\n");
    // Before the first commit, unstaging takes the path out of the index.
    await s.scm.stage(["a.txt", "b.txt"]);
    await s.scm.unstage(["b.txt"]);
    expect(native(s.dir, "status", "--porcelain")).toBe("A  a.txt\n?? b.txt\n");
    await expect(s.scm.commit("   ")).rejects.toThrow("Type a commit message first.");
    await s.scm.commit("first");
    expect(native(s.dir, "log", "--format=%s|%an")).toBe("first|View\n");
    s.write("a.txt", "a2\n");
    await s.scm.stage(["a.txt"]);
    await s.scm.unstage(["a.txt"]);
    expect(native(s.dir, "status", "--porcelain")).toBe(" M a.txt\n?? b.txt\n");
    await s.scm.commit("everything", { all: true });
    expect(native(s.dir, "status", "--porcelain")).toBe("");
    expect(native(s.dir, "show", "--name-only", "--format=%s", "HEAD")).toBe("everything\n\na.txt\nb.txt\n");
    s.write("b.txt", "b2\n");
    await s.scm.stage(["b.txt"]);
    await s.scm.commit("", { amend: true });
    expect(native(s.dir, "log", "--format=%s")).toBe("everything\nfirst\n");
    expect(native(s.dir, "show", "HEAD:b.txt")).toBe("b2\n");
    native(s.dir, "fsck", "--strict", "--no-dangling");
    expect(s.outputs.map((o) => o.command)).toContain("git commit --amend --no-edit");
  });

  it("discard puts tracked files back and deletes untracked ones, after a checkpoint that undo restores from", async () => {
    const s = workspace();
    native(s.dir, "init", "-q", "-b", "main");
    s.write("keep.txt", "committed\n");
    s.write("gone.txt", "committed too\n");
    native(s.dir, "add", "-A");
    native(s.dir, "commit", "-qm", "base");
    s.write("keep.txt", "my unsaved idea\n");
    fs.rmSync(path.join(s.dir, "gone.txt"));
    s.write("scratch/new.txt", "brand new\n");
    const d = await s.scm.discard(["keep.txt", "gone.txt", "scratch/new.txt"]);
    expect(fs.readFileSync(path.join(s.dir, "keep.txt"), "utf8")).toBe("committed\n");
    expect(fs.readFileSync(path.join(s.dir, "gone.txt"), "utf8")).toBe("committed too\n");
    expect(fs.existsSync(path.join(s.dir, "scratch/new.txt"))).toBe(false);
    expect(native(s.dir, "status", "--porcelain")).toBe("");
    await d.undo();
    expect(fs.readFileSync(path.join(s.dir, "keep.txt"), "utf8")).toBe("my unsaved idea\n");
    expect(fs.existsSync(path.join(s.dir, "gone.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(s.dir, "scratch/new.txt"), "utf8")).toBe("brand new\n");
    expect(native(s.dir, "status", "--porcelain", "-uall")).toBe(" D gone.txt\n M keep.txt\n?? scratch/new.txt\n");
  });

  it("refuses to discard a conflicted file, and reports a failed command with git's own words", async () => {
    const s = workspace();
    native(s.dir, "init", "-q", "-b", "main");
    s.write("c.txt", "base\n");
    native(s.dir, "add", "-A");
    native(s.dir, "commit", "-qm", "base");
    native(s.dir, "switch", "-qc", "other");
    s.write("c.txt", "theirs\n");
    native(s.dir, "commit", "-qam", "theirs");
    native(s.dir, "switch", "-q", "main");
    s.write("c.txt", "ours\n");
    native(s.dir, "commit", "-qam", "ours");
    try {
      native(s.dir, "merge", "-q", "other");
    } catch {
      /* conflict: exit 1 */
    }
    const st = await s.scm.status();
    expect(st.conflicts).toEqual([{ path: "c.txt", code: "UU" }]);
    await expect(s.scm.discard(["c.txt"])).rejects.toThrow("Resolve the conflict in c.txt first");
    await expect(s.scm.push()).rejects.toThrow("This repository has no remote");
    await expect(s.scm.commit("oops", { all: false })).rejects.toThrow(/conflict|unmerged/i);
    expect(s.outputs.at(-1)).toMatchObject({ command: "git commit -m oops", ok: false });
    // Resolved and staged: an empty message concludes the merge with git's prepared one.
    s.write("c.txt", "resolved\n");
    expect((await s.scm.status()).merging).toBe(true);
    await s.scm.stage(["c.txt"]);
    await s.scm.commit("");
    expect(native(s.dir, "log", "-1", "--format=%s|%P").split("|")[0]).toBe("Merge branch 'other'");
    expect(native(s.dir, "log", "-1", "--format=%P").trim().split(" ")).toHaveLength(2);
    expect(await s.scm.status()).toMatchObject({ merging: false, conflicts: [], staged: [] });
    native(s.dir, "fsck", "--strict", "--no-dangling");
    // History: every branch's commits, as native git lists them, with the merge's two parents.
    const history = await s.scm.history();
    expect(history.map((h) => `${h.oid} ${h.parents.join(" ")}`.trim()).join("\n") + "\n").toBe(native(s.dir, "log", "--all", "--format=%H %P").replace(/ +\n/g, "\n"));
    expect(history[0]).toMatchObject({ subject: "Merge branch 'other'", author: "View", refs: ["HEAD -> main"] });
    expect(await s.scm.show(history[0]!.oid)).toContain("Merge branch 'other'");
  });
});

describe("staging and unstaging single hunks", () => {
  it("stages one hunk of two, then the other by its lines after the first moved it; unstages one; native git sees each step", async () => {
    const s = workspace();
    native(s.dir, "init", "-q", "-b", "main");
    const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join("");
    s.write("f.txt", text);
    native(s.dir, "add", "-A");
    native(s.dir, "commit", "-qm", "base");
    s.write("f.txt", text.replace("line 2\n", "line 2\nadded after 2\nand again\n").replace("line 27\n", "line 27 changed\n"));
    const listed = await s.scm.hunks("f.txt", false);
    expect(listed?.hunks.map((h) => [h.header.split(" @@")[0], h.added, h.removed])).toEqual([
      ["@@ -1,5 +1,7", 2, 0],
      ["@@ -24,7 +26,7", 1, 1],
    ]);
    // The second hunk first: the list the view showed is still right.
    await s.scm.stageHunk("f.txt", listed!.hunks[1]!);
    expect(native(s.dir, "diff", "--cached")).toContain("+line 27 changed");
    expect(native(s.dir, "diff", "--cached")).not.toContain("added after 2");
    expect(native(s.dir, "diff")).toContain("+added after 2");
    // Then the first, from the same (older) list.
    await s.scm.stageHunk("f.txt", listed!.hunks[0]!);
    expect(native(s.dir, "diff")).toBe("");
    expect(native(s.dir, "show", ":f.txt")).toBe(fs.readFileSync(path.join(s.dir, "f.txt"), "utf8"));
    // Unstage the line-27 hunk as the staged list shows it.
    const staged = await s.scm.hunks("f.txt", true);
    await s.scm.unstageHunk("f.txt", staged!.hunks.find((h) => h.lines.includes("+line 27 changed"))!);
    expect(native(s.dir, "diff", "--cached")).toContain("+added after 2");
    expect(native(s.dir, "diff", "--cached")).not.toContain("line 27 changed");
    expect(native(s.dir, "diff")).toContain("+line 27 changed");
    expect(s.outputs.at(-1)).toMatchObject({ command: "git apply --cached -R -", ok: true });
    // A hunk that is no longer there is refused, nothing changes.
    const before = native(s.dir, "diff", "--cached");
    await expect(s.scm.stageHunk("f.txt", listed!.hunks[0]!)).rejects.toThrow("changed since its changes were listed");
    expect(native(s.dir, "diff", "--cached")).toBe(before);
    expect(await s.scm.hunks("untracked.txt", false)).toBeNull();
  });
});

describe("conflicts without markers (modify/delete)", () => {
  /** base: keep.txt, drop.txt, both.txt; other modifies keep.txt, deletes drop.txt and both.txt; main deletes keep.txt and both.txt, modifies drop.txt. */
  function modifyDelete(dir: string) {
    native(dir, "init", "-q", "-b", "main");
    const w = (p: string, t: string) => fs.writeFileSync(path.join(dir, p), t);
    w("keep.txt", "base keep\n");
    w("drop.txt", "base drop\n");
    w("both.txt", "base both\n");
    native(dir, "add", "-A");
    native(dir, "commit", "-qm", "base");
    native(dir, "switch", "-qc", "other");
    w("keep.txt", "their keep\n");
    native(dir, "rm", "-q", "drop.txt", "both.txt");
    native(dir, "commit", "-qam", "theirs");
    native(dir, "switch", "-q", "main");
    native(dir, "rm", "-q", "keep.txt", "both.txt");
    w("drop.txt", "our drop\n");
    native(dir, "commit", "-qam", "ours");
    try {
      native(dir, "merge", "-q", "other");
    } catch {
      /* conflicts: exit 1 */
    }
  }

  it("keep stages the surviving side, delete removes the file after a checkpoint; the merge commit is native git's", async () => {
    const s = workspace();
    modifyDelete(s.dir);
    const twin = tempDir("tabula-scm-twin-");
    cleanups.push(() => fs.rmSync(twin, { recursive: true, force: true }));
    modifyDelete(twin);
    expect((await s.scm.status()).conflicts).toEqual([
      { path: "drop.txt", code: "UD" },
      { path: "keep.txt", code: "DU" },
    ]);
    await expect(s.scm.keepConflicted("both.txt")).rejects.toThrow("both.txt is not in conflict");
    await s.scm.keepConflicted("keep.txt");
    const deleted = await s.scm.deleteConflicted("drop.txt");
    expect(fs.existsSync(path.join(s.dir, "drop.txt"))).toBe(false);
    expect(await s.scm.status()).toMatchObject({ merging: true, conflicts: [] });
    // Undo brings the deleted version back into the working tree; deleting again settles it.
    await deleted.undo();
    expect(fs.readFileSync(path.join(s.dir, "drop.txt"), "utf8")).toBe("our drop\n");
    fs.rmSync(path.join(s.dir, "drop.txt"));
    await s.scm.commit("");
    native(twin, "add", "keep.txt");
    native(twin, "rm", "-q", "drop.txt");
    native(twin, "commit", "-q", "--no-edit");
    expect(native(s.dir, "rev-parse", "HEAD^{tree}")).toBe(native(twin, "rev-parse", "HEAD^{tree}"));
    expect(native(s.dir, "log", "-1", "--format=%s")).toBe(native(twin, "log", "-1", "--format=%s"));
    native(s.dir, "fsck", "--strict", "--no-dangling");
  });
});

describe("Fetch, pull, push and sync against native git http-backend", () => {
  it("publishes a new branch with -u, syncs a diverged upstream by merging, and native git agrees", async () => {
    const server = await startGitHttpServer({ "a.txt": "one\n", "b.txt": "bee\n" }, { receivePack: true });
    cleanups.push(server.close);
    const s = workspace();
    const clone = await shellGitRunner(
      { fs: fs as unknown as IsoFs, wsfs: new WorkspaceFs({ fs: fs as unknown as IsoFs, dir: s.dir, journal: new ChangeJournal() }), mountPoint: "/workspace", readOnly: false, transport: () => ({ http: proxiedClient() }) },
      ENV,
    )(["clone", server.url, "."]);
    expect(clone.exitCode, clone.stderr).toBe(0);

    // A native push from elsewhere, and a local commit: diverged.
    const other = await nativeClone(server.url);
    cleanups.push(() => fs.rmSync(other, { recursive: true, force: true }));
    fs.writeFileSync(path.join(other, "b.txt"), "theirs\n");
    native(other, "commit", "-qam", "native change");
    await nativeAsync(other, "push", "-q", "origin", "main");
    s.write("a.txt", "ours\n");
    await s.scm.commit("ours", { all: true });
    await s.scm.fetch();
    expect(await s.scm.status()).toMatchObject({ branch: "main", upstream: "origin/main", ahead: 1, behind: 1 });
    await s.scm.sync();
    expect(await s.scm.status()).toMatchObject({ ahead: 0, behind: 0 });
    expect(native(server.bare, "show", "main:a.txt")).toBe("ours\n");
    expect(native(server.bare, "show", "main:b.txt")).toBe("theirs\n");
    expect(native(server.bare, "log", "-1", "--format=%P", "main").trim().split(" ")).toHaveLength(2);
    native(server.bare, "fsck", "--strict", "--no-dangling");

    // A branch with no upstream is published to origin and tracks it afterwards.
    native(s.dir, "switch", "-qc", "feature");
    s.write("f.txt", "feature\n");
    await s.scm.commit("feature work", { all: true });
    await s.scm.push();
    expect(native(server.bare, "log", "-1", "--format=%s", "feature")).toBe("feature work\n");
    expect(await s.scm.status()).toMatchObject({ branch: "feature", upstream: "origin/feature", ahead: 0, behind: 0 });
    expect(s.outputs.map((o) => o.command)).toContain("git push -u origin feature");
  }, 60_000);
});
