/**
 * The real-shaped workload: what a popular JavaScript project looks like, not 10k files in 20
 * directories. Generated (deterministic): ~10,000 files over ~3,500 directories up to depth
 * 10 (≈2.8 files per directory), a dozen nested .gitignore files with ignored content under
 * them, and a history of ~10,000 commits written with `git fast-import` (so the objects sit
 * in a pack native git made), the working tree checked out from HEAD.
 *
 * Ops, engine (node:fs) and native git on two copies of the same repository, interleaved:
 *   cold: first checkpoint (fresh engine, no cache file)
 *   noChange / warm1 / warm100: with the ChangeJournal (in-session)
 *   noChangeReload / warm1Reload / warm100Reload: a new engine, no journal (a page reload)
 *   restore1 / restore100: restore of 1 / 100 differing files
 * native = private-index `git add -A && write-tree && commit-tree && update-ref`; restore =
 * that snapshot, then `git read-tree -m -u <saved> <target>`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { mulberry32 } from "./gen.mjs";
import { nextLive, planChange, realShape, REAL_SCHEDULE } from "./real-shape-plan.mjs";

export { nextLive, planChange, realShape, REAL_SCHEDULE };

const gitEnv = (home) => ({
  ...process.env,
  HOME: home,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "b",
  GIT_AUTHOR_EMAIL: "b@example.com",
  GIT_COMMITTER_NAME: "b",
  GIT_COMMITTER_EMAIL: "b@example.com",
});

/**
 * Build the repository at `dir`: history with fast-import (commit 1 adds everything, then
 * `commits - 1` commits of 1–3 changed files each), HEAD checked out, ignored content added.
 */
export function buildRealRepo(dir, shape, { commits = 10_000, seed = 11 } = {}) {
  const rand = mulberry32(seed);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-home-"));
  const env = gitEnv(home);
  fs.mkdirSync(dir, { recursive: true });
  execFileSync("git", ["-c", "init.defaultBranch=main", "init", "-q"], { cwd: dir, env });
  const chunks = [];
  let mark = 0;
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const current = new Map(shape.files.map((f) => [f.path, f.data]));
  const paths = [...current.keys()].filter((p) => !p.endsWith(".gitignore"));
  let t = 1_600_000_000;
  let prevCommit = 0;
  for (let c = 0; c < commits; c++) {
    const changes = [];
    if (c === 0) for (const [p, d] of current) changes.push([p, d]);
    else {
      const k = 1 + Math.floor(rand() * 3);
      for (let i = 0; i < k; i++) {
        const p = paths[Math.floor(rand() * paths.length)];
        const d = current.get(p) + `// change ${c}.${i}\n`;
        current.set(p, d);
        changes.push([p, d]);
      }
    }
    const blobMarks = [];
    for (const [, d] of changes) {
      mark++;
      chunks.push(`blob\nmark :${mark}\n${data(d)}`);
      blobMarks.push(mark);
    }
    mark++;
    t += 60;
    let s = `commit refs/heads/main\nmark :${mark}\ncommitter b <b@example.com> ${t} +0000\n${data(`commit ${c}`)}`;
    if (c > 0) s += `from :${prevCommit}\n`;
    changes.forEach(([p], i) => (s += `M 100644 :${blobMarks[i]} ${p}\n`));
    chunks.push(s + "\n");
    prevCommit = mark;
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: dir, env, input: chunks.join(""), maxBuffer: 1 << 28 });
  execFileSync("git", ["read-tree", "-u", "--reset", "HEAD"], { cwd: dir, env });
  for (const f of shape.ignored) {
    fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, f.path), f.data);
  }
  // every file older than the engine's racy margin, as in a repository cloned a while ago
  const old = new Date(Date.now() - 60_000);
  const walk = (rel) => {
    for (const name of fs.readdirSync(path.join(dir, rel))) {
      if (rel === "" && name === ".git") continue;
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(path.join(dir, r));
      if (st.isDirectory()) walk(r);
      else fs.utimesSync(path.join(dir, r), old, old);
    }
  };
  walk("");
  fs.rmSync(home, { recursive: true, force: true });
  return { paths: paths.filter((p) => !p.endsWith("keep.tmp")), packBytes: dirBytes(path.join(dir, ".git/objects/pack")) };
}

function dirBytes(d) {
  let n = 0;
  for (const f of fs.readdirSync(d)) n += fs.statSync(path.join(d, f)).size;
  return n;
}

/** Apply a plan with node's sync calls (native git's side, and the engine's: the same bytes). */
export function applyChange(dir, plan, journal) {
  for (const m of [...plan.modify, ...plan.add]) {
    fs.writeFileSync(path.join(dir, m.path), m.data);
    journal?.record({ kind: "write", path: m.path, origin: "bench" });
  }
  for (const d of plan.delete) {
    fs.unlinkSync(path.join(dir, d));
    journal?.record({ kind: "delete", path: d, origin: "bench" });
  }
}

const now = () => performance.now();

/** The engine (a bundle of lib/checkpoints) on node:fs. */
export function realEngineDriver(api, dir, paths) {
  // A page load: a new fs object (so a new engine whose state comes only from the cache file
  // and the worktree stamp, as the app's: lib/fs/worktree-stamp.ts) and a new journal (which
  // cannot vouch for anything before it). TABULA_BENCH_NO_STAMP=1: without the stamp (a walk).
  const stamped = !process.env.TABULA_BENCH_NO_STAMP && api.withWorktreeStamp;
  const newSession = () => {
    const raw = { promises: fs.promises };
    return { fs: stamped ? api.withWorktreeStamp(raw, dir) : raw, dir, journal: new api.ChangeJournal(), readMany: api.syncReadMany(fs.readFileSync), listDir: api.syncListDir(fs.readdirSync, fs.lstatSync) };
  };
  let session = newSession();
  let live = [...paths];
  let run = 0;
  const ones = [];
  const hundreds = [];
  let phases = {};
  if (api.__testing) api.__testing.trace = (p, ms) => (phases[p] = (phases[p] ?? 0) + ms);
  const checkpoint = async (ws) => {
    const t = now();
    const c = await api.createCheckpoint(ws, { sessionId: "bench", run: `r${run++}` });
    return { ms: now() - t, c, info: { tree: c.tree, hashed: c.stats.filesHashed, written: c.stats.objectsWritten, scan: c.stats.scan } };
  };
  const change = async (count, seed) => {
    const plan = planChange(live, count, seed);
    // The engine's side: the paths named in the worktree stamp first, as the stamped fs every
    // app writer goes through does before each write.
    if (stamped) await api.worktreeStampOf(session.fs).cover([...plan.modify, ...plan.add].map((m) => m.path).concat(plan.delete));
    applyChange(dir, plan, session.journal);
    live = nextLive(live, plan);
  };
  return {
    async op(name, rep) {
      phases = {};
      const r = await this.run(name, rep);
      const out = {};
      for (const [k, v] of Object.entries(phases)) out[k] = Math.round(v * 10) / 10;
      return { ...r, phases: out };
    },
    async run(name, rep) {
      switch (name) {
        case "cold":
          // Again from nothing: a new engine, no cache file and no stamp naming one.
          if (rep > 0) {
            for (const f of [".git/tabula/checkpoint-cache.json", ".git/tabula/worktree-stamp"]) fs.rmSync(path.join(dir, f), { force: true });
            session = newSession();
          }
        // falls through
        case "noChange": {
          const r = await checkpoint(session);
          return { ms: r.ms, ...r.info };
        }
        case "noChangeReload": {
          session = newSession();
          const r = await checkpoint(session);
          return { ms: r.ms, ...r.info };
        }
        case "warm1":
        case "warm100": {
          await change(name === "warm1" ? 1 : 100, 100 + rep + (name === "warm1" ? 0 : 50));
          const r = await checkpoint(session);
          (name === "warm1" ? ones : hundreds).push(r.c);
          return { ms: r.ms, ...r.info };
        }
        case "warm1Reload":
        case "warm100Reload": {
          await change(name === "warm1Reload" ? 1 : 100, 200 + rep + (name === "warm1Reload" ? 0 : 50));
          session = newSession();
          const r = await checkpoint(session);
          (name === "warm1Reload" ? ones : hundreds).push(r.c);
          return { ms: r.ms, ...r.info };
        }
        case "restore1":
        case "restore100": {
          const list = name === "restore1" ? ones : hundreds;
          const target = list[list.length - 2 + (rep % 2)];
          const t = now();
          const r = await api.restoreCheckpoint(session, target.ref);
          return { ms: now() - t, changed: r.changed.length };
        }
        default:
          throw new Error(`unknown op ${name}`);
      }
    },
  };
}

/** Native git on its own copy of the same repository, the same plans. */
export function realNativeDriver(dir, paths) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-home-"));
  const env = { ...gitEnv(home), GIT_INDEX_FILE: path.join(dir, ".git/bench-ckpt-index") };
  const git = (...args) => execFileSync("git", args, { cwd: dir, env, encoding: "utf8", maxBuffer: 1 << 26 }).trim();
  let live = [...paths];
  let run = 0;
  const ones = [];
  const hundreds = [];
  const snapshot = (base) => {
    git("add", "-A");
    const tree = git("write-tree");
    const commit = git("commit-tree", tree, "-m", "checkpoint");
    git("update-ref", `${base}/r${run++}`, commit);
    return { tree, commit };
  };
  const timed = (fn) => {
    const t = now();
    const r = fn();
    return { ms: now() - t, r };
  };
  const change = (count, seed) => {
    const plan = planChange(live, count, seed);
    applyChange(dir, plan);
    live = nextLive(live, plan);
  };
  return {
    op(name, rep) {
      switch (name) {
        case "cold":
          fs.rmSync(env.GIT_INDEX_FILE, { force: true });
        // falls through
        case "noChange":
        case "noChangeReload": {
          const { ms, r } = timed(() => snapshot("refs/app/checkpoints"));
          return { ms, tree: r.tree };
        }
        case "warm1":
        case "warm100":
        case "warm1Reload":
        case "warm100Reload": {
          const one = name.startsWith("warm1") && !name.startsWith("warm100");
          change(one ? 1 : 100, (name.endsWith("Reload") ? 200 : 100) + rep + (one ? 0 : 50));
          const { ms, r } = timed(() => snapshot("refs/app/checkpoints"));
          (one ? ones : hundreds).push(r);
          return { ms, tree: r.tree };
        }
        case "restore1":
        case "restore100": {
          const list = name === "restore1" ? ones : hundreds;
          const target = list[list.length - 2 + (rep % 2)];
          const { ms } = timed(() => {
            const saved = snapshot("refs/app/restore");
            git("read-tree", "-m", "-u", saved.tree, target.tree);
          });
          return { ms };
        }
        default:
          return { ms: 0 };
      }
    },
    close: () => fs.rmSync(home, { recursive: true, force: true }),
  };
}
