/**
 * The persisted stat cache (.git/tabula/checkpoint-cache.json, git's index in spirit) after
 * the working tree or the repository changed behind it. Each "page" is a new fs object, so a
 * new engine whose only memory is the cache file, as after a reload. For random workspaces:
 *   (a) racy entries: files whose mtime is not older than the checkpoint that records them,
 *       then edited to the same size with their mtime put back (what a coarse file-system
 *       clock does to two writes in one tick): the next page must see the new bytes;
 *   (b) coarse mtimes: every mtime truncated to whole seconds, then same-size edits;
 *   (c) another engine writing: a second page restores an earlier checkpoint;
 *   (d) a prune by an engine with no state of its own that deletes the blobs the cache file
 *       names (the working tree's files live only in the pruned checkpoints) and cannot
 *       rewrite that file;
 *   (e) ordinary native edits and commits.
 * After each, a new page's checkpoint must be native git's tree for the same files, and every
 * object it reaches must be in the repository (native git says so).
 * TABULA_CACHE_RUNS (default 12) sets the number of workspaces.
 */
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { createCheckpoint, pruneCheckpoints, restoreCheckpoint, type Checkpoint } from "../../lib/checkpoints";
import { ChangeJournal } from "../../lib/fs/journal";
import type { IsoFs } from "../../lib/fs/types";
import { ageFiles, git, nativeTree, rmrf, tempRepo } from "./helpers";
import { rnd, tryWrite, type Rnd } from "./sweep";

const RUNS = Number(process.env.TABULA_CACHE_RUNS ?? 12);

/** A page load: a new fs object (so a new engine) and a new journal. */
const page = (dir: string) => ({ fs: { promises: fs.promises } as unknown as IsoFs, dir, journal: new ChangeJournal() });

const DIRS = ["", "src", "src/lib", "src/lib/deep", "docs", "test/unit", "ü-dir"];
function randomRel(r: Rnd, i: number): string {
  const d = r.pick(DIRS);
  return (d ? d + "/" : "") + `f${i}-${r.int(1000)}.${r.pick(["ts", "md", "json"])}`;
}
const bytes = (r: Rnd, n: number) => Buffer.from(Array.from({ length: n }, () => 97 + r.int(26)));

function trackedFiles(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const name of fs.readdirSync(path.join(dir, rel))) {
    const p = rel ? `${rel}/${name}` : name;
    if (name === ".git") continue;
    const st = fs.lstatSync(path.join(dir, p));
    if (st.isDirectory()) out.push(...trackedFiles(dir, p));
    else if (st.isFile() && !name.endsWith(".log") && name !== ".gitignore") out.push(p);
  }
  return out;
}

/** A page whose writes of the stat cache file fail (EIO); everything else works. */
function failingCacheWrites(dir: string) {
  const base = fs.promises;
  const eio = (p: string) => Promise.reject(Object.assign(new Error(`EIO: ${p}`), { code: "EIO" }));
  const promises = {
    ...base,
    writeFile: (p: string, ...rest: unknown[]) => (p.includes("checkpoint-cache") ? eio(p) : (base.writeFile as (p: string, ...r: unknown[]) => Promise<void>)(p, ...rest)),
    rename: (from: string, to: string) => (to.includes("checkpoint-cache") ? eio(to) : base.rename(from, to)),
  };
  return { ...page(dir), fs: { promises } as unknown as IsoFs };
}

/** Same length, different bytes, mtime (and atime) put back to what they were. */
function sameSizeEditKeepingMtime(dir: string, rel: string, r: Rnd): void {
  const abs = path.join(dir, rel);
  const st = fs.statSync(abs);
  const old = fs.readFileSync(abs);
  const next = Buffer.from(old);
  const at = r.int(Math.max(1, next.length));
  next[at] = next[at] === 122 ? 121 : 122;
  if (next.length === 0) return;
  fs.writeFileSync(abs, next);
  fs.utimesSync(abs, st.atime, st.mtime);
}

/** Native git's verdict: the tree is the working tree's, and nothing it reaches is missing. */
function expectSound(dir: string, c: Checkpoint, what: string): void {
  // objects first: native git's `add -A` below writes any blob that is missing
  const listed = git(dir, ["rev-list", "--objects", "--missing=print", c.oid]);
  expect(
    listed.split("\n").filter((l) => l.startsWith("?")),
    `${what}: objects missing`,
  ).toEqual([]);
  expect(c.tree, `${what}: tree`).toBe(nativeTree(dir));
}

async function runOne(seed: number): Promise<void> {
  const r = rnd(seed);
  const dir = tempRepo("tabula-cache-");
  try {
    tryWrite(dir, ".gitignore", Buffer.from("*.log\n"));
    for (let i = 0; i < 12 + r.int(12); i++) tryWrite(dir, randomRel(r, i), bytes(r, 1 + r.int(400)), r.chance(0.15));
    tryWrite(dir, "debug.log", Buffer.from("ignored\n"));
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "base"]);
    ageFiles(dir, 30);
    let run = 0;
    const ck = async (ws: ReturnType<typeof page>, session = "s") => createCheckpoint(ws, { sessionId: session, run: `r${run++}` });

    // (a) racy entries: fresh files recorded at once, then changed within "the same tick"
    // (stamped a little ahead of the clock, so they are not older than the moment the
    // checkpoint records them, however slow the machine: the case git calls racy)
    const fresh = trackedFiles(dir).filter(() => r.chance(0.4));
    const ahead = (Math.floor(Date.now()) + 2_000) / 1000;
    for (const f of fresh) {
      fs.writeFileSync(path.join(dir, f), bytes(r, 1 + r.int(300)));
      fs.utimesSync(path.join(dir, f), ahead, ahead);
    }
    const first = await ck(page(dir));
    expectSound(dir, first, "after fresh writes");
    for (const f of fresh) sameSizeEditKeepingMtime(dir, f, r);
    expectSound(dir, await ck(page(dir)), "(a) racy same-size edits");

    // (b) coarse mtimes: whole seconds, then same-size edits in the same second
    ageFiles(dir, 20);
    const whole = Math.floor(Date.now() / 1000) - 5;
    for (const f of trackedFiles(dir)) fs.utimesSync(path.join(dir, f), whole, whole);
    await ck(page(dir));
    for (const f of trackedFiles(dir).filter(() => r.chance(0.3))) {
      const abs = path.join(dir, f);
      const len = fs.statSync(abs).size;
      if (len === 0) continue;
      fs.writeFileSync(abs, bytes(r, len));
      // a whole-second clock would stamp "now"; a file edited in the same second as its last
      // record is the racy case, covered by (a); here the stamp moves to the next second
      fs.utimesSync(abs, whole + 1, whole + 1);
    }
    expectSound(dir, await ck(page(dir)), "(b) coarse mtimes");

    // (c) another engine writes the working tree: a second page restores the first checkpoint
    const before = await ck(page(dir));
    await restoreCheckpoint(page(dir), first.ref);
    expectSound(dir, await ck(page(dir)), "(c) restore by another engine");
    await restoreCheckpoint(page(dir), before.ref);

    // (d) the working tree's blobs exist only in checkpoints of session "tmp"; a cache file
    // names them; an engine without state prunes that session; a reload checkpoints
    for (const f of trackedFiles(dir)) if (r.chance(0.5)) fs.writeFileSync(path.join(dir, f), bytes(r, 1 + r.int(300)));
    ageFiles(dir, 10);
    for (const p of await Promise.all([0, 1].map(async () => page(dir)))) await ck(p, "tmp");
    // the pruning engine cannot rewrite the cache file (a full disk, a crash): the file left
    // behind still names the deleted blobs
    await pruneCheckpoints(failingCacheWrites(dir), { sessionId: "tmp" });
    expectSound(dir, await ck(page(dir)), "(d) prune by an engine with no state");

    // (e) ordinary edits and a native commit
    for (const f of trackedFiles(dir)) {
      if (r.chance(0.2)) fs.rmSync(path.join(dir, f));
      else if (r.chance(0.2)) fs.writeFileSync(path.join(dir, f), bytes(r, 1 + r.int(300)));
    }
    tryWrite(dir, randomRel(r, 99), bytes(r, 50));
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "more"]);
    expectSound(dir, await ck(page(dir)), "(e) native edits");
  } finally {
    rmrf(dir);
  }
}

describe("the persisted stat cache after the tree changed behind it (node:fs, native git as the oracle)", () => {
  it(`never yields a wrong checkpoint (${RUNS} random workspaces)`, async () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      try {
        await runOne(seed);
      } catch (err) {
        throw new Error(`seed ${seed}: ${(err as Error).message}`, { cause: err });
      }
    }
  }, 600_000);
});
