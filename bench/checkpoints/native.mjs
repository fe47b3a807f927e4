/**
 * Native git doing the same operations on a node:fs copy of the same workspace (the anchor):
 * checkpoint = `GIT_INDEX_FILE=<private> git add -A && git write-tree && git commit-tree &&
 * git update-ref`; restore = that snapshot as the saved state, then `git read-tree -m -u
 * <saved tree> <target tree>` (incremental: touches only the paths that differ).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { planWarm1, planWarm100, updateLive } from "./gen.mjs";

const HOME = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-home-"));

export function writeWorkspace(dir, gen) {
  fs.mkdirSync(dir, { recursive: true });
  const made = new Set();
  for (const f of [...gen.files, ...gen.ignored]) {
    const abs = path.join(dir, f.path);
    const d = path.dirname(abs);
    if (!made.has(d)) {
      fs.mkdirSync(d, { recursive: true });
      made.add(d);
    }
    fs.writeFileSync(abs, f.data);
    if (f.exec) fs.chmodSync(abs, 0o755);
  }
  const old = new Date(Date.now() - 60_000);
  for (const f of [...gen.files, ...gen.ignored]) fs.utimesSync(path.join(dir, f.path), old, old);
}

export function nativeDriver(dir) {
  const env = {
    ...process.env,
    HOME,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_INDEX_FILE: path.join(dir, ".git/bench-ckpt-index"),
    GIT_AUTHOR_NAME: "b",
    GIT_AUTHOR_EMAIL: "b@example.com",
    GIT_COMMITTER_NAME: "b",
    GIT_COMMITTER_EMAIL: "b@example.com",
  };
  const git = (...args) => execFileSync("git", ["-c", "init.defaultBranch=main", ...args], { cwd: dir, env, encoding: "utf8", maxBuffer: 1 << 26 }).trim();
  let live = [];
  let run = 0;
  const w = [];
  const v = [];
  const applyPlan = (plan) => {
    for (const m of plan.modify) fs.writeFileSync(path.join(dir, m.path), m.data);
    for (const a of plan.add) fs.writeFileSync(path.join(dir, a.path), a.data);
    for (const d of plan.delete) fs.unlinkSync(path.join(dir, d));
  };
  const snapshot = (refBase) => {
    git("add", "-A");
    const tree = git("write-tree");
    const commit = git("commit-tree", tree, "-m", "checkpoint");
    git("update-ref", `${refBase}/r${run++}`, commit);
    return { tree, commit };
  };
  const timed = (fn) => {
    const t = performance.now();
    const r = fn();
    return { ms: performance.now() - t, r };
  };
  return {
    init(gen) {
      writeWorkspace(dir, gen);
      git("init", "-q");
      live = [...gen.textPaths];
    },
    op(name, rep) {
      switch (name) {
        case "cold": {
          fs.rmSync(env.GIT_INDEX_FILE, { force: true });
          const { ms, r } = timed(() => snapshot("refs/app/checkpoints"));
          return { ms, tree: r.tree };
        }
        case "noChange":
        case "noChangeIdle":
        case "noChangeWalk":
        case "rebind": {
          const { ms, r } = timed(() => snapshot("refs/app/checkpoints"));
          return { ms, tree: r.tree };
        }
        case "warm1":
        case "warm1Walk": {
          applyPlan(planWarm1(live, name === "warm1" ? rep : 1000 + rep));
          const { ms, r } = timed(() => snapshot("refs/app/checkpoints"));
          w.push(r);
          return { ms, tree: r.tree };
        }
        case "warm100": {
          const plan = planWarm100(live, rep);
          applyPlan(plan);
          live = updateLive(live, plan);
          const { ms, r } = timed(() => snapshot("refs/app/checkpoints"));
          v.push(r);
          return { ms, tree: r.tree };
        }
        case "restore1":
        case "restore100": {
          const list = name === "restore1" ? w : v;
          const target = rep % 2 === 0 ? list[list.length - 2] : list[list.length - 1];
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
    git,
  };
}
