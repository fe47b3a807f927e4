/**
 * Timeline scrubbing (issue: ≤ 50 ms per step on a 1,000-file workspace with 20 changed files):
 * the preview of a tick — which files differ from the working tree, with +/- line counts — in
 * real Chromium over lightning-fs, against native git answering the same question on the same
 * tree in the same run (`git diff --numstat <tick>`, a process per step as a CLI user pays it).
 * Steps cycle over 4 ticks that differ from now by 20, 15, 10 and 5 files; every step is a cache
 * miss (the app caches previews until the working tree changes).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildBrowserBundle, serveBundle } from "./checkpoints/build.mjs";
import { generate } from "./checkpoints/gen.mjs";
import { writeWorkspace } from "./checkpoints/native.mjs";
import { changedFiles } from "./timeline/plan.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.TABULA_BENCH_TIMELINE_FILES ?? 1000);
const STEPS = 40;
const SEED = 7;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : null;
};
const p95 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] : null;
};
const round = (x) => (x === null ? null : Math.round(x * 10) / 10);

function nativeSetup(dir, gen) {
  const HOME = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-home-"));
  const env = { ...process.env, HOME, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.com" };
  const git = (...args) => execFileSync("git", ["-c", "init.defaultBranch=main", ...args], { cwd: dir, env, encoding: "utf8", maxBuffer: 64 << 20 });
  writeWorkspace(dir, gen);
  git("init", "-q");
  const steps = changedFiles(gen.textPaths);
  const ticks = [];
  for (let k = 0; k < steps.length; k++) {
    git("add", "-A");
    git("commit", "-qm", `tick ${k}`, "--allow-empty");
    ticks.push(git("rev-parse", "HEAD").trim());
    for (const f of steps[k]) fs.writeFileSync(path.join(dir, f.path), f.data);
  }
  git("status", "--porcelain"); // untimed: refreshes the index's stat data, as a user's git would have
  return { ticks, diff: (oid) => git("diff", "--numstat", oid), cleanup: () => fs.rmSync(HOME, { recursive: true, force: true }) };
}

export async function run({ browser }) {
  if (!browser) return { skipped: "no browser given" };
  const gen = generate(N, SEED);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-timeline-native-"));
  const server = await serveBundle(await buildBrowserBundle(path.join(here, "timeline/browser-entry.mjs")));
  const page = await browser.newPage();
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => globalThis.bench !== undefined);
    const setup = await page.evaluate(([n, seed]) => globalThis.bench.setup(n, seed), [N, SEED]);
    const native = nativeSetup(tmp, gen);
    const engineMs = [];
    const nativeMs = [];
    const ratios = [];
    const filesPerTick = {};
    await page.evaluate(() => globalThis.bench.step(0)); // warm-up (JIT, packs)
    for (let i = 0; i < STEPS; i++) {
      const r = await page.evaluate((k) => globalThis.bench.step(k), i);
      const t0 = performance.now();
      const out = native.diff(native.ticks[i % native.ticks.length]);
      const n = performance.now() - t0;
      engineMs.push(r.ms);
      nativeMs.push(n);
      ratios.push(r.ms / n);
      filesPerTick[`T${i % native.ticks.length}`] = { engine: r.files, native: out.trim().split("\n").filter(Boolean).length };
    }
    await page.evaluate(() => globalThis.bench.teardown());
    native.cleanup();
    const med = median(engineMs);
    const worst = Math.max(...engineMs);
    return {
      notes: [
        `${N} files + 5 binaries; ${setup.ticks} ticks differing from now by 20/15/10/5 files; ${STEPS} steps, each a preview cache miss.`,
        "engine: diffWorkingTree (journal-driven scan) + blobs + line counts (diff's diffLines), in Chromium over lightning-fs/IndexedDB.",
        "native: git diff --numstat <tick> on the same tree on node:fs (process spawn included).",
      ],
      perStepMs: { median: round(med), p95: round(p95(engineMs)), max: round(worst) },
      nativeMs: { median: round(median(nativeMs)) },
      ratioVsNative: Math.round(median(ratios) * 100) / 100,
      filesPerTick,
      target: { "every preview step <= 50 ms (max)": { value: round(worst), limit: 50, unit: "ms", met: worst <= 50 } },
    };
  } finally {
    await page.close();
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
