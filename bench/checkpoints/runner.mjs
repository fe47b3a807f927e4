/**
 * Runs a schedule of ops on an engine driver and the native anchor, interleaved op by op (so
 * both see the same machine load), and reduces them to medians and ratios. A checkpoint whose
 * tree is not native git's for the same files throws (ParityError): no figures for it.
 */
export const SCHEDULE = [
  ["cold", 1],
  ["noChange", 5],
  ["noChangeIdle", 2],
  ["warm1", 5],
  ["noChangeWalk", 3],
  ["warm1Walk", 3],
  ["rebind", 1],
  ["restore1", 4],
  ["warm100", 3],
  ["restore100", 4],
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x, d = 1) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);

export async function runSchedule(engine, native, schedule = SCHEDULE, log = () => {}) {
  const raw = {};
  let treesMatch = true;
  let compared = 0;
  const mismatches = [];
  for (const [name, reps] of schedule) {
    raw[name] = { engine: [], native: [], info: [] };
    for (let rep = 0; rep < reps; rep++) {
      const e = await engine.op(name, rep);
      const n = await native.op(name, rep);
      raw[name].engine.push(e.ms);
      raw[name].native.push(n.ms);
      const { ms, ...info } = e;
      raw[name].info.push(info);
      // Native parity: every checkpoint the engine makes must have native git's tree for the
      // same files. Figures for a wrong tree mean nothing, so a mismatch stops the run.
      if (e.tree !== undefined || n.tree !== undefined) {
        if (!e.tree || !n.tree || e.tree !== n.tree) {
          treesMatch = false;
          mismatches.push({ op: name, rep, engine: e.tree ?? null, native: n.tree ?? null });
          throw new ParityError(mismatches);
        }
        compared++;
      }
      log(`${name}#${rep}: engine ${ms.toFixed(1)} ms, native ${n.ms.toFixed(1)} ms ${info.scan ? `(${info.scan}, hashed ${info.hashed}, wrote ${info.written})` : ""}`);
    }
  }
  const figures = {};
  for (const [name] of schedule) {
    if (name === "rebind") continue;
    const e = median(raw[name].engine);
    const n = median(raw[name].native);
    const ratios = raw[name].engine.map((x, i) => x / raw[name].native[i]);
    const { phases, ...last } = raw[name].info[raw[name].info.length - 1];
    figures[name] = {
      engineMs: round(e),
      nativeMs: round(n),
      ratio: round(median(ratios), 2),
      reps: raw[name].engine.length,
      engineRunsMs: raw[name].engine.map((x) => round(x)),
      info: last,
      phasesOfLastRun: phases,
    };
  }
  if (compared === 0) throw new ParityError([{ op: "*", note: "no checkpoint was compared with native git" }]);
  return { figures, treesMatch, treesCompared: compared, mismatches };
}

export class ParityError extends Error {
  constructor(mismatches) {
    super(`native parity failed: the engine's tree differs from native git's: ${JSON.stringify(mismatches)}`);
    this.name = "ParityError";
    this.mismatches = mismatches;
  }
}
