/**
 * StatusTracker against native git: after every random change to the working tree (given as
 * the paths it touched), the incremental answer is `git status --porcelain -uall`'s, and a
 * change of HEAD, the index or a .gitignore — made behind the tracker — makes it walk again.
 */
import nodeFs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { IsoFs } from "../../lib/fs/types";
import { statusAll, type StatusEntry } from "../../lib/git/status";
import { StatusTracker, statusTrackerFor } from "../../lib/git/status-tracker";
import { withWorktreeStamp } from "../../lib/fs/worktree-stamp";
import { prng } from "../checkpoints/sweep";
import { nativeGit, nativeStatus } from "./helpers";

const fmt = (entries: StatusEntry[]) => entries.map((e) => `${e.index}${e.worktree} ${e.path}`);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) nodeFs.rmSync(d, { recursive: true, force: true });
});

function repo(): { dir: string; fs: IsoFs } {
  const dir = nodeFs.mkdtempSync(path.join(os.tmpdir(), "tabula-status-tracker-"));
  dirs.push(dir);
  nativeGit(dir, "init", "-q");
  const files: Record<string, string> = {
    ".gitignore": "*.log\nbuild/\n",
    "README.md": "# r\n",
    "src/a.ts": "a\n",
    "src/b.ts": "b\n",
    "src/deep/c.ts": "c\n",
    "src/deep/d.ts": "d\n",
    "docs/x.md": "x\n",
    "docs/sub/.gitignore": "secret.txt\n",
    "docs/sub/y.md": "y\n",
  };
  for (const [p, text] of Object.entries(files)) write(dir, p, text);
  nativeGit(dir, "add", "-A");
  nativeGit(dir, "commit", "-qm", "base");
  return { dir, fs: { promises: nodeFs.promises } as unknown as IsoFs };
}

function write(dir: string, rel: string, text: string): void {
  nodeFs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  nodeFs.writeFileSync(path.join(dir, rel), text);
}

function listFiles(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const name of nodeFs.readdirSync(path.join(dir, rel))) {
    if (name === ".git") continue;
    const r = rel ? `${rel}/${name}` : name;
    if (nodeFs.statSync(path.join(dir, r)).isDirectory()) out.push(...listFiles(dir, r));
    else out.push(r);
  }
  return out;
}

/** One random change to the working tree; returns the paths it touched (as the journal would). */
function randomChange(dir: string, rand: () => number, n: number): string[] {
  const files = listFiles(dir).filter((f) => !f.endsWith(".gitignore"));
  const pick = () => files[Math.floor(rand() * files.length)]!;
  const roll = rand();
  if (roll < 0.35 && files.length) {
    const f = pick();
    write(dir, f, `edit ${n}\n`);
    return [f];
  }
  if (roll < 0.55) {
    const where = ["", "src/", "src/deep/", "docs/sub/", "newdir/inner/", "build/"][Math.floor(rand() * 6)]!;
    const name = `${where}new${n}${rand() < 0.2 ? ".log" : rand() < 0.1 ? "secret.txt" : ".ts"}`.replace("new" + n + "secret.txt", "secret.txt");
    write(dir, name, `new ${n}\n`);
    return [name];
  }
  if (roll < 0.75 && files.length) {
    const f = pick();
    nodeFs.rmSync(path.join(dir, f));
    return [f];
  }
  if (roll < 0.9 && files.length) {
    const f = pick();
    const to = `moved/${n}-${path.basename(f)}`;
    nodeFs.mkdirSync(path.join(dir, "moved"), { recursive: true });
    nodeFs.renameSync(path.join(dir, f), path.join(dir, to));
    return [f, to];
  }
  // a whole directory removed
  const d = ["src/deep", "docs/sub", "newdir", "moved"][Math.floor(rand() * 4)]!;
  nodeFs.rmSync(path.join(dir, d), { recursive: true, force: true });
  return [d];
}

describe("StatusTracker", () => {
  it("answers native git's status after each change from the changed paths alone (6 random histories)", async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const { dir, fs } = repo();
      const tracker = new StatusTracker(fs, dir);
      expect((await tracker.update()).full).toBe(true);
      const rand = prng(seed);
      for (let n = 0; n < 25; n++) {
        const touched = randomChange(dir, rand, n);
        const pass = await tracker.update({ changed: touched });
        expect(pass.full, `seed ${seed} step ${n}`).toBe(false);
        expect(fmt(pass.entries), `seed ${seed} step ${n}: ${touched.join(", ")}`).toEqual(fmt(nativeStatus(dir)));
      }
    }
  }, 120_000);

  it("walks everything again when HEAD, the index or a .gitignore changed behind it, and is right after", async () => {
    const { dir, fs } = repo();
    const tracker = new StatusTracker(fs, dir);
    await tracker.update();
    write(dir, "src/a.ts", "changed\n");
    expect((await tracker.update({ changed: ["src/a.ts"] })).full).toBe(false);

    // git add behind the tracker (no working-tree path changed): the index moved.
    nativeGit(dir, "add", "src/a.ts");
    let pass = await tracker.update({ changed: [] });
    expect(pass.full).toBe(true);
    expect(fmt(pass.entries)).toEqual(fmt(nativeStatus(dir)));

    // a commit moves HEAD
    nativeGit(dir, "commit", "-qm", "next");
    pass = await tracker.update({ changed: [] });
    expect(pass.full).toBe(true);
    expect(fmt(pass.entries)).toEqual(fmt(nativeStatus(dir)));

    // a branch switch with the same commit changes HEAD's name only
    nativeGit(dir, "checkout", "-q", "-b", "other");
    expect((await tracker.update({ changed: [] })).full).toBe(true);

    // a .gitignore edit can change what is untracked anywhere
    write(dir, "notes.txt", "n\n");
    await tracker.update({ changed: ["notes.txt"] });
    write(dir, ".gitignore", "*.log\nbuild/\n*.txt\n");
    pass = await tracker.update({ changed: [".gitignore"] });
    expect(pass.full).toBe(true);
    expect(fmt(pass.entries)).toEqual(fmt(nativeStatus(dir)));
    expect(fmt(pass.entries).some((e) => e.endsWith("notes.txt"))).toBe(false);

    // no paths given: anything may have changed
    expect((await tracker.update()).full).toBe(true);
  });

  it("a git add made while an incremental pass runs is not missed: that pass walks everything", async () => {
    const { dir } = repo();
    write(dir, "src/b.ts", "edited\n");
    let armed = false;
    const fs = {
      promises: {
        ...nodeFs.promises,
        lstat: async (p: string) => {
          // The incremental pass looks at src/b.ts: the index changes right then.
          if (armed && p.endsWith("src/b.ts")) {
            armed = false;
            nativeGit(dir, "add", "src/b.ts");
          }
          return nodeFs.promises.lstat(p);
        },
      },
    } as unknown as IsoFs;
    const tracker = new StatusTracker(fs, dir);
    await tracker.update();
    write(dir, "src/b.ts", "edited again\n");
    armed = true;
    const pass = await tracker.update({ changed: ["src/b.ts"] });
    expect(armed).toBe(false);
    expect(pass.full).toBe(true);
    expect(fmt(pass.entries)).toEqual(fmt(nativeStatus(dir)));
    expect(fmt(pass.entries)).toEqual(fmt(await statusAll({ fs, dir })));
  });

  it("on a workspace's stamped fs it finds the changed paths itself, whoever wrote them through it, and is shared per fs", async () => {
    const { dir } = repo();
    const stamped = withWorktreeStamp({ promises: nodeFs.promises } as unknown as IsoFs, dir);
    const tracker = statusTrackerFor(stamped, dir);
    expect(statusTrackerFor(stamped, dir)).toBe(tracker);
    expect((await tracker.update()).full).toBe(true);
    const p = stamped.promises;
    await p.writeFile(path.join(dir, "src/a.ts"), "changed\n");
    await p.mkdir(path.join(dir, "fresh"));
    await p.writeFile(path.join(dir, "fresh/n.ts"), "n\n");
    await p.unlink(path.join(dir, "docs/x.md"));
    await p.rename(path.join(dir, "src/deep/c.ts"), path.join(dir, "fresh/c.ts"));
    let pass = await tracker.update();
    expect(pass.full).toBe(false);
    expect(pass.paths).toEqual(["docs/x.md", "fresh/c.ts", "fresh/n.ts", "src/a.ts", "src/deep/c.ts"]);
    expect(fmt(pass.entries)).toEqual(fmt(nativeStatus(dir)));
    // Nothing since: no walk at all.
    pass = await tracker.update();
    expect(pass).toMatchObject({ full: false, paths: [] });
    // A git command behind it (HEAD and the index move): walked again.
    nativeGit(dir, "add", "-A");
    nativeGit(dir, "commit", "-qm", "all");
    pass = await tracker.update();
    expect(pass.full).toBe(true);
    expect(fmt(pass.entries)).toEqual([]);
  });

  it("a write still running when a pass began is looked at again by the next pass", async () => {
    const { dir } = repo();
    let release: () => void = () => undefined;
    let hold = false;
    const slow = {
      promises: {
        ...nodeFs.promises,
        writeFile: async (f: string, d: Uint8Array | string) => {
          if (hold) await new Promise<void>((r) => (release = r));
          return nodeFs.promises.writeFile(f, d);
        },
      },
    } as unknown as IsoFs;
    const stamped = withWorktreeStamp(slow, dir);
    const tracker = new StatusTracker(stamped, dir);
    await tracker.update();
    hold = true;
    const writing = stamped.promises.writeFile(path.join(dir, "src/b.ts"), "late\n");
    await new Promise((r) => setTimeout(r, 20)); // the stamp has logged it; the bytes are not there yet
    const during = await tracker.update();
    expect(fmt(during.entries)).toEqual([]);
    hold = false;
    release();
    await writing;
    const after = await tracker.update();
    expect(after.full).toBe(false);
    expect(fmt(after.entries)).toEqual([" M src/b.ts"]);
  });
});
