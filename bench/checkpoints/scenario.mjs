/**
 * The benchmark scenario for the engine, over any fs (node:fs, lightning-fs in Node or in the
 * browser). `op(name, rep)` applies the op's (untimed) mutation, then times the engine call.
 * Mutations go through the fs and are recorded in the journal, as WorkspaceFs would.
 *
 * Order: cold → noChange×R → noChangeIdle → warm1×R → noChangeWalk/warm1Walk (no journal:
 * stat walk) → restore1×R (alternating between the last two warm1 checkpoints: 1 differing
 * file) → warm100×R (90 modified, 5 added, 5 deleted) → restore100×R (100 differing paths).
 */
import { planWarm1, planWarm100, updateLive } from "./gen.mjs";

const now = () => globalThis.performance.now();

export function engineDriver({ api, fs, dir, journal, readMany, listDir }) {
  const ws = { fs, dir, journal, readMany, listDir };
  const wsWalk = { fs, dir, readMany, listDir };
  let live = [];
  let run = 0;
  const w = [];
  const v = [];
  let c0;

  async function applyPlan(plan) {
    for (const m of plan.modify) {
      await fs.promises.writeFile(`${dir}/${m.path}`, m.data);
      journal.record({ kind: "write", path: m.path, origin: "bench" });
    }
    for (const a of plan.add) {
      await fs.promises.writeFile(`${dir}/${a.path}`, a.data);
      journal.record({ kind: "write", path: a.path, origin: "bench" });
    }
    for (const d of plan.delete) {
      await fs.promises.unlink(`${dir}/${d}`);
      journal.record({ kind: "delete", path: d, origin: "bench" });
    }
  }

  async function checkpoint(target = ws) {
    const t = now();
    const c = await api.createCheckpoint(target, { sessionId: "bench", run: `r${run++}` });
    return { ms: now() - t, c };
  }

  const summary = (c) => ({ tree: c.tree, hashed: c.stats.filesHashed, written: c.stats.objectsWritten, packs: c.stats.packsWritten, scan: c.stats.scan });

  let phases = {};
  if (api.__testing) api.__testing.trace = (p, ms) => (phases[p] = (phases[p] ?? 0) + ms);
  const withPhases = (r) => {
    const out = {};
    for (const [k, val] of Object.entries(phases)) out[k] = Math.round(val * 10) / 10;
    return { ...r, phases: out };
  };

  return {
    init(textPaths) {
      live = [...textPaths];
    },
    async op(name, rep) {
      phases = {};
      return withPhases(await this.run(name, rep));
    },
    async run(name, rep) {
      switch (name) {
        case "cold": {
          const r = await checkpoint();
          c0 = r.c;
          return { ms: r.ms, ...summary(r.c) };
        }
        case "noChange":
        case "rebind": {
          // rebind: an untimed journal-mode checkpoint after walk-mode ones (binds the journal again)
          const r = await checkpoint();
          return { ms: r.ms, ...summary(r.c) };
        }
        case "noChangeIdle": {
          // after 700 ms without fs calls lightning-fs has deactivated (saved and dropped its
          // in-memory tree, closed IndexedDB): the next call pays for reloading it
          await new Promise((r) => setTimeout(r, 700));
          const r = await checkpoint();
          return { ms: r.ms, ...summary(r.c) };
        }
        case "noChangeWalk": {
          const r = await checkpoint(wsWalk);
          return { ms: r.ms, ...summary(r.c) };
        }
        case "warm1":
        case "warm1Walk": {
          await applyPlan(planWarm1(live, name === "warm1" ? rep : 1000 + rep));
          const r = await checkpoint(name === "warm1" ? ws : wsWalk);
          w.push(r.c);
          return { ms: r.ms, ...summary(r.c) };
        }
        case "restore1":
        case "restore100": {
          const list = name === "restore1" ? w : v;
          const target = rep % 2 === 0 ? list[list.length - 2] : list[list.length - 1];
          const t = now();
          const r = await api.restoreCheckpoint(ws, target.ref);
          return { ms: now() - t, changed: r.changed.length, skipped: r.skipped.length };
        }
        case "warm100": {
          const plan = planWarm100(live, rep);
          await applyPlan(plan);
          live = updateLive(live, plan);
          const r = await checkpoint();
          v.push(r.c);
          return { ms: r.ms, ...summary(r.c) };
        }
        case "storage":
          return { ms: 0, ...(await api.checkpointStorage(ws)) };
        default:
          throw new Error(`unknown op ${name}`);
      }
    },
    c0: () => c0,
  };
}
