/**
 * The worktree stamp (lib/fs/worktree-stamp.ts): a page load's first checkpoint looks only at
 * the paths the stamp lists instead of walking, and must still be native git's tree.
 *
 * Property runs (TABULA_STAMP_RUNS random workspaces, default 10): every mutation goes through
 * the stamped fs (WorkspaceFs over it, or isomorphic-git-style raw calls on it), with page loads
 * (a new fs object, engine, stamp and journal) before and after mutations, a second stamped fs
 * object over the same files writing behind the first (another tab, without its journal),
 * .gitignore edits, nested repositories appearing, native commits, checkpoints racing a write,
 * and faults: the stamp write failing, the mutation failing after the stamp was written, a
 * persisted cache file no stamp names. Each checkpoint's tree is compared with native git's.
 * Unit tests pin the wrapper's bookkeeping.
 */
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { createCheckpoint, type Checkpoint } from "../../lib/checkpoints";
import { ChangeJournal } from "../../lib/fs/journal";
import type { IsoFs } from "../../lib/fs/types";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { MAX_STAMP_PATHS, WORKTREE_STAMP_FILE, withWorktreeStamp, worktreeStampOf } from "../../lib/fs/worktree-stamp";
import { ageFiles, git, nativeTree, rmrf, tempRepo } from "./helpers";
import { rnd, tryWrite, type Rnd } from "./sweep";

const RUNS = Number(process.env.TABULA_STAMP_RUNS ?? 10);

type Page = { fs: IsoFs; dir: string; journal: ChangeJournal; wsfs: WorkspaceFs };

/** A page load: a new fs object over the same files, stamped, with a WorkspaceFs and journal. */
function page(dir: string, raw: IsoFs = { promises: fs.promises } as unknown as IsoFs): Page {
  const stamped = withWorktreeStamp(raw, dir);
  const journal = new ChangeJournal();
  return { fs: stamped, dir, journal, wsfs: new WorkspaceFs({ fs: stamped, dir, journal }) };
}

let runNo = 0;
const ck = (p: Page, session = "s"): Promise<Checkpoint> => createCheckpoint({ fs: p.fs, dir: p.dir, journal: p.journal }, { sessionId: session, run: `r${runNo++}` });

async function expectNative(p: Page, what: string, expectMode?: "journal" | "walk"): Promise<Checkpoint> {
  const c = await ck(p);
  const native = nativeTreeWithoutNested(p.dir);
  if (c.tree !== native) what += ` (${c.stats.scan}; engine vs native: ${git(p.dir, ["diff-tree", "-r", "--name-status", c.tree, native]).replace(/\n/g, ", ")})`;
  expect(c.tree, `${what}: tree`).toBe(native);
  if (expectMode) expect(c.stats.scan, `${what}: scan mode`).toBe(expectMode);
  return c;
}

const DIRS = ["", "src", "src/lib", "src/lib/deep", "docs", "ü-dir", "notes"];
const bytes = (r: Rnd, n: number) => Buffer.from(Array.from({ length: n }, () => 97 + r.int(26)));
const relOf = (r: Rnd, i: number) => {
  const d = r.pick(DIRS);
  return (d ? d + "/" : "") + `f${i}-${r.int(50)}.${r.pick(["ts", "md", "log"])}`;
};

function workingFiles(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const name of fs.readdirSync(path.join(dir, rel))) {
    const p = rel ? `${rel}/${name}` : name;
    if (name === ".git") continue;
    const st = fs.lstatSync(path.join(dir, p));
    if (st.isDirectory()) out.push(...workingFiles(dir, p));
    else out.push(p);
  }
  return out;
}

async function mkdirp(ifs: IsoFs, abs: string): Promise<void> {
  try {
    await ifs.promises.mkdir(abs);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT") throw err;
    await mkdirp(ifs, path.dirname(abs));
    await ifs.promises.mkdir(abs).catch((e: { code?: string }) => {
      if (e.code !== "EEXIST") throw e;
    });
  }
}

/**
 * Native git's tree, with the nested repository the mutations may make left out: the engine
 * leaves nested repositories out (lib/checkpoints/README.md), where `git add -A` would record
 * a gitlink.
 */
function nativeTreeWithoutNested(dir: string): string {
  if (!fs.existsSync(path.join(dir, "src/lib/.git"))) return nativeTree(dir);
  const idx = path.join(dir, ".git", `test-index-${Math.random().toString(36).slice(2)}`);
  try {
    git(dir, ["add", "-A", "--", ".", ":(exclude)src/lib"], { GIT_INDEX_FILE: idx });
    return git(dir, ["write-tree"], { GIT_INDEX_FILE: idx });
  } finally {
    fs.rmSync(idx, { force: true });
  }
}

let template: string | undefined;
/** A repository with one commit, made once, whose .git the nested-repository step copies. */
function nestedTemplate(): string {
  if (!template) {
    template = tempRepo("tabula-stamp-nested-");
    fs.writeFileSync(path.join(template, "inner.txt"), "inner\n");
    git(template, ["add", "-A"]);
    git(template, ["commit", "-qm", "inner"]);
  }
  return template;
}

async function copyTree(ifs: IsoFs, from: string, to: string): Promise<void> {
  await ifs.promises.mkdir(to);
  for (const name of fs.readdirSync(from)) {
    const src = path.join(from, name);
    if (fs.lstatSync(src).isDirectory()) await copyTree(ifs, src, path.join(to, name));
    else await ifs.promises.writeFile(path.join(to, name), fs.readFileSync(src));
  }
}

async function removeTree(ifs: IsoFs, abs: string): Promise<void> {
  for (const name of await ifs.promises.readdir(abs)) {
    const child = path.join(abs, name);
    if ((await ifs.promises.lstat(child)).isDirectory()) await removeTree(ifs, child);
    else await ifs.promises.unlink(child);
  }
  await ifs.promises.rmdir(abs);
}

/** Random changes through `p`'s stamped fs: WorkspaceFs saves, deletes and renames, and raw
 * calls as isomorphic-git makes them (writeFile in place, unlink, chmod, symlink). */
async function mutate(p: Page, r: Rnd, n: number): Promise<void> {
  const raw = p.fs.promises;
  for (let i = 0; i < n; i++) {
    const files = workingFiles(p.dir).filter((f) => !f.includes("/.git/") && !f.endsWith(".gitignore"));
    const roll = r.next();
    try {
      if (roll < 0.3 || files.length === 0) await p.wsfs.writeFile(relOf(r, i), bytes(r, 1 + r.int(200)));
      else if (roll < 0.45) await p.wsfs.remove(r.pick(files));
      else if (roll < 0.55) await p.wsfs.rename(r.pick(files), `${r.pick(DIRS) || "moved"}/mv-${r.int(1e6)}.ts`);
      else if (roll < 0.7) {
        const f = r.pick(files);
        if (!fs.lstatSync(path.join(p.dir, f)).isSymbolicLink()) await raw.writeFile(path.join(p.dir, f), bytes(r, 1 + r.int(100)));
      } else if (roll < 0.78) {
        const f = r.pick(files);
        if (!fs.lstatSync(path.join(p.dir, f)).isSymbolicLink()) await raw.chmod!(path.join(p.dir, f), r.chance(0.5) ? 0o755 : 0o644);
      } else if (roll < 0.84) {
        const link = path.join(p.dir, `link-${r.int(3)}`);
        await raw.unlink(link).catch(() => undefined);
        await raw.symlink!(r.pick(files), link);
      } else if (roll < 0.9) {
        // a directory becomes a nested repository (left out), or stops being one
        const sub = path.join(p.dir, "src/lib");
        // (a real repository's .git, copied in file by file as an in-browser clone writes it)
        if (fs.existsSync(path.join(sub, ".git"))) await removeTree(p.fs, path.join(sub, ".git"));
        else if (fs.existsSync(sub) && fs.lstatSync(sub).isDirectory()) await copyTree(p.fs, path.join(nestedTemplate(), ".git"), path.join(sub, ".git"));
      } else if (roll < 0.95) {
        await p.wsfs.writeFile(r.pick(["notes/.gitignore", ".gitignore"]), r.pick(["*.log\n", "*.md\n", "deep/\n", ""]));
      } else {
        await mkdirp(p.fs, path.join(p.dir, `empty-${r.int(3)}/x`));
      }
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (!["EEXIST", "ENOENT", "EISDIR", "ENOTDIR", "GITDIR"].includes(String(code))) throw err;
    }
  }
}

async function runOne(seed: number): Promise<void> {
  const r = rnd(seed);
  const dir = tempRepo("tabula-stamp-");
  try {
    tryWrite(dir, ".gitignore", Buffer.from("*.log\n"));
    for (let i = 0; i < 15 + r.int(15); i++) tryWrite(dir, relOf(r, i), bytes(r, 1 + r.int(300)), r.chance(0.15));
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "base"]);
    ageFiles(dir, 30);

    let p = page(dir);
    await expectNative(p, "first checkpoint (no stamp yet)", "walk");
    // a walk that found the cache file's tree leaves a stamp: the next load need not walk
    p = page(dir);
    await expectNative(p, "reload, nothing changed", "journal");

    for (let step = 0; step < 8; step++) {
      const what = `step ${step}`;
      const roll = r.next();
      if (roll < 0.25) {
        await mutate(p, r, 1 + r.int(6));
        await expectNative(p, `${what}: in-session changes`);
      } else if (roll < 0.45) {
        await mutate(p, r, 1 + r.int(6));
        p = page(dir);
        await expectNative(p, `${what}: changes, then a reload`);
      } else if (roll < 0.6) {
        p = page(dir);
        await mutate(p, r, 1 + r.int(6));
        await expectNative(p, `${what}: a reload, then changes before its first checkpoint`);
      } else if (roll < 0.72) {
        // another tab: its own fs object and stamp over the same files, writing without this
        // page's journal; this page must notice (the stamp file changed behind it) and walk
        const other = page(dir);
        await mutate(other, r, 1 + r.int(4));
        await expectNative(p, `${what}: a second fs object wrote`);
        if (r.chance(0.5)) p = page(dir);
      } else if (roll < 0.8) {
        // a checkpoint racing writes: whatever the snapshot caught, the next load must see them
        const racing = mutate(p, r, 1 + r.int(4));
        await ck(p);
        await racing;
        p = page(dir);
        await expectNative(p, `${what}: reload after a checkpoint raced writes`);
      } else if (roll < 0.88) {
        git(dir, ["add", "-A"]);
        git(dir, ["commit", "-qm", "native", "--allow-empty"]);
        await expectNative(p, `${what}: native commit`);
      } else {
        p = page(dir);
        const c = await expectNative(p, `${what}: reload`);
        // nothing was written since the last checkpoint recorded its snapshot (or this one
        // walked and stamped it): a second load must not walk
        if (c.stats.scan === "walk" || c.stats.filesHashed === 0) {
          p = page(dir);
          await expectNative(p, `${what}: a second reload with no change`, "journal");
        }
      }
    }
  } finally {
    rmrf(dir);
  }
}

describe("the worktree stamp: a page load's checkpoint without a walk (node:fs, native git as the oracle)", () => {
  it(`never yields a tree other than native git's (${RUNS} random workspaces)`, async () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      try {
        await runOne(seed);
      } catch (err) {
        throw new Error(`seed ${seed}: ${(err as Error).message}`, { cause: err });
      }
    }
  }, 600_000);

  it("a write that failed after the stamp named it, and a stamp write that failed, are both safe", async () => {
    const dir = tempRepo("tabula-stamp-fault-");
    try {
      tryWrite(dir, "a.txt", Buffer.from("a\n"));
      tryWrite(dir, "b.txt", Buffer.from("b\n"));
      ageFiles(dir, 30);
      let p = page(dir);
      await expectNative(p, "first", "walk");

      // the raw writeFile puts the bytes down, then reports EIO (a half-done mutation the
      // journal never hears of): the stamp named the path before, so a load looks at it
      const base = fs.promises;
      const failingAfterWrite = {
        promises: {
          ...base,
          writeFile: async (f: string, d: Uint8Array | string, o?: unknown) => {
            await base.writeFile(f, d, o as undefined);
            if (f.endsWith("a.txt")) throw Object.assign(new Error("EIO after write"), { code: "EIO" });
          },
        },
      } as unknown as IsoFs;
      const q = page(dir, failingAfterWrite);
      await expect(q.fs.promises.writeFile(path.join(dir, "a.txt"), "changed\n")).rejects.toThrow("EIO");
      p = page(dir);
      await expectNative(p, "after a mutation that failed half-way", "journal");

      // the stamp itself cannot be written: the mutation must not run at all
      const failingStamp = {
        promises: {
          ...base,
          rename: (from: string, to: string) => (to.endsWith("worktree-stamp") ? Promise.reject(Object.assign(new Error("EIO stamp"), { code: "EIO" })) : base.rename(from, to)),
        },
      } as unknown as IsoFs;
      const s = page(dir, failingStamp);
      await expect(s.fs.promises.writeFile(path.join(dir, "c.txt"), "new\n")).rejects.toThrow("EIO stamp");
      expect(fs.existsSync(path.join(dir, "c.txt"))).toBe(false);
      await expectNative(page(dir), "after a failed stamp write");

      // a cache file written by an engine the stamp does not know (a prune, a crash between
      // cache and stamp): the names differ, so the load walks
      const cache = path.join(dir, ".git/tabula/checkpoint-cache.json");
      const data = JSON.parse(fs.readFileSync(cache, "utf8"));
      data.id = "someone-else";
      fs.writeFileSync(cache, JSON.stringify(data));
      await expectNative(page(dir), "cache file the stamp does not name", "walk");
    } finally {
      rmrf(dir);
    }
  });

  it("a write behind the stamped fs (node:fs directly) is not seen after a load: the documented limit", async () => {
    // Not a guarantee but the boundary, pinned so a change to it is a decision: writes must go
    // through the workspace's fs object (see lib/fs/worktree-stamp.ts).
    const dir = tempRepo("tabula-stamp-bypass-");
    try {
      tryWrite(dir, "a.txt", Buffer.from("a\n"));
      ageFiles(dir, 30);
      await expectNative(page(dir), "first", "walk");
      const before = (await ck(page(dir))).tree;
      fs.writeFileSync(path.join(dir, "b.txt"), "behind its back\n");
      const c = await ck(page(dir));
      expect(c.stats.scan).toBe("journal");
      expect(c.tree).toBe(before);
      expect(c.tree).not.toBe(nativeTree(dir));
    } finally {
      rmrf(dir);
    }
  });
});

describe("withWorktreeStamp", () => {
  const setup = () => {
    const dir = tempRepo("tabula-stamp-unit-");
    fs.mkdirSync(path.join(dir, ".git/tabula"), { recursive: true });
    fs.writeFileSync(path.join(dir, WORKTREE_STAMP_FILE), JSON.stringify({ v: 1, cache: "c1", root: "r1", paths: ["src"] }));
    const base = fs.promises;
    const stampWrites: string[] = [];
    const calls: string[] = [];
    const spy = {
      promises: {
        ...base,
        writeFile: async (f: string, d: Uint8Array | string, o?: unknown) => {
          if (f.includes("worktree-stamp")) stampWrites.push(String(d));
          else {
            // what the stamp says at the moment the mutation reaches the storage
            const now = JSON.parse(fs.readFileSync(path.join(dir, WORKTREE_STAMP_FILE), "utf8"));
            calls.push(`${path.relative(dir, f)} listed=${JSON.stringify(now.paths ?? "dirty")}`);
          }
          return base.writeFile(f, d, o as undefined);
        },
        // a storage that writes several files at once (lightning-fs's writeFiles)
        writeFiles: async (files: readonly { path: string; data: Uint8Array }[]) => {
          const now = JSON.parse(fs.readFileSync(path.join(dir, WORKTREE_STAMP_FILE), "utf8"));
          calls.push(`${files.map((f) => path.relative(dir, f.path)).join("+")} listed=${JSON.stringify(now.paths ?? "dirty")}`);
          for (const f of files) await base.writeFile(f.path, f.data);
        },
      },
    } as unknown as IsoFs;
    return { dir, stamped: withWorktreeStamp(spy, dir), stampWrites, calls };
  };

  it("names a path in the stamp file before the write reaches the storage; a listed path costs nothing", async () => {
    const { dir, stamped, stampWrites, calls } = setup();
    try {
      await stamped.promises.writeFile(path.join(dir, "a.txt"), "1");
      expect(calls).toEqual([`a.txt listed=["src","a.txt"]`]);
      await stamped.promises.writeFile(path.join(dir, "a.txt"), "2");
      await stamped.promises.writeFile(path.join(dir, "src"), "a file named src: listed already");
      expect(stampWrites).toHaveLength(1);
      // inside .git: not the working tree
      await stamped.promises.writeFile(path.join(dir, ".git/tabula/other"), "x");
      expect(stampWrites).toHaveLength(1);
      expect(withWorktreeStamp(stamped, dir)).toBe(stamped);
    } finally {
      rmrf(dir);
    }
  });

  it("a group write (writeFiles) names its working-tree paths first, and none inside .git", async () => {
    const { dir, stamped, calls } = setup();
    try {
      const bytes = new TextEncoder().encode("x");
      await stamped.promises.writeFiles!([
        { path: path.join(dir, "g.txt"), data: bytes },
        { path: path.join(dir, ".git/tabula/y"), data: bytes },
      ]);
      expect(calls).toEqual([`g.txt+.git/tabula/y listed=["src","g.txt"]`]);
      calls.length = 0;
      await stamped.promises.writeFiles!([{ path: path.join(dir, ".git/tabula/z"), data: bytes }]);
      expect(calls).toEqual([`.git/tabula/z listed=["src","g.txt"]`]);
    } finally {
      rmrf(dir);
    }
  });

  it("mkdir of a directory lists nothing, except one that makes a nested repository (its parent)", async () => {
    const { dir, stamped } = setup();
    try {
      await stamped.promises.mkdir(path.join(dir, "plain"));
      await stamped.promises.mkdir(path.join(dir, "plain/.git"));
      const file = JSON.parse(fs.readFileSync(path.join(dir, WORKTREE_STAMP_FILE), "utf8"));
      expect(file.paths).toEqual(["src", "plain"]);
    } finally {
      rmrf(dir);
    }
  });

  it("past the path limit the stamp says dirty and stops writing", async () => {
    const { dir, stamped, stampWrites } = setup();
    try {
      const stamp = worktreeStampOf(stamped)!;
      await stamp.cover(Array.from({ length: MAX_STAMP_PATHS - 1 }, (_, i) => `p${i}`));
      const before = stampWrites.length;
      await stamp.cover(["one-more", "and-another"]);
      expect(JSON.parse(fs.readFileSync(path.join(dir, WORKTREE_STAMP_FILE), "utf8"))).toEqual({ v: 1, dirty: true });
      await stamped.promises.writeFile(path.join(dir, "z.txt"), "z");
      expect(stampWrites.length).toBe(before + 1);
      expect((await stamp.view()).known).toBeNull();
    } finally {
      rmrf(dir);
    }
  });

  it("a stamp file changed by another fs object is read again and counted as foreign", async () => {
    const { dir, stamped } = setup();
    try {
      const mine = worktreeStampOf(stamped)!;
      const v0 = await mine.view();
      const other = withWorktreeStamp({ promises: fs.promises } as unknown as IsoFs, dir);
      await other.promises.writeFile(path.join(dir, "theirs.txt"), "t");
      const v1 = await mine.view();
      expect(v1.foreign).toBe(v0.foreign + 1);
      expect(v1.known?.paths).toContain("theirs.txt");
    } finally {
      rmrf(dir);
    }
  });

  it("stampClean is refused while a mutation was running when the scan began", async () => {
    const { dir, stamped } = setup();
    try {
      const stamp = worktreeStampOf(stamped)!;
      let release!: () => void;
      const gate = new Promise<void>((res) => (release = res));
      const running = stamp.mutate(["slow.txt"], () => gate);
      await new Promise((res) => setTimeout(res, 10));
      const view = await stamp.view();
      expect(view.inflight).toBe(1);
      expect(await stamp.stampClean(view, "c2", "r2")).toBe(false);
      release();
      await running;
      const after = await stamp.view();
      expect(await stamp.stampClean(after, "c2", "r2")).toBe(true);
      await stamped.promises.writeFile(path.join(dir, "late.txt"), "l");
      expect(JSON.parse(fs.readFileSync(path.join(dir, WORKTREE_STAMP_FILE), "utf8"))).toEqual({ v: 1, cache: "c2", root: "r2", paths: ["late.txt"] });
      // a stamp taken from a view before late.txt was written lists it
      expect(await stamp.stampClean(after, "c3", "r3")).toBe(true);
      expect(JSON.parse(fs.readFileSync(path.join(dir, WORKTREE_STAMP_FILE), "utf8")).paths).toEqual(["late.txt"]);
    } finally {
      rmrf(dir);
    }
  });
});
