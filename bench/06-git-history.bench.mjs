/**
 * The terminal's git on a long history: `git log` and `git blame` over a packed
 * 6,000-commit repository (bench/git/history-repo.mjs), by the workspace shell in Node over
 * node:fs, next to native git on the same repository in the same run, with ratios. Targets
 * (issue: git round trip): log within 5× native, blame -L within 10×. Every output is compared
 * with native git's (byte for byte, abbreviations included).
 * Standalone: `node bench/06-git-history.bench.mjs`.
 */
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildBundles } from "./shell/build.mjs";
import { buildHistoryRepo } from "./git/history-repo.mjs";

const COMMITS = Number(process.env.TABULA_BENCH_HISTORY_COMMITS ?? 6000);
const RUNS = 3;
const OPS = [
  { name: "logAll", cmd: "git log --oneline | wc -l" },
  { name: "logHead3", cmd: "git log --oneline | head -3" },
  { name: "logPath3", cmd: "git log -3 --format=%H -- index.js" },
  { name: "blameTop3", cmd: "git blame -L 1,3 index.js" },
  { name: "blameFile", cmd: "git blame src/d1/f1.js" },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r1 = (x) => Math.round(x * 10) / 10;

export async function run() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-history-"));
  let bundles;
  try {
    const t0 = performance.now();
    const repo = buildHistoryRepo(path.join(tmp, "repo"), { commits: COMMITS });
    const dir = path.join(tmp, "repo");
    bundles = await buildBundles();
    const m = await import(pathToFileURL(bundles.nodeFile).href);
    const setupMs = Math.round(performance.now() - t0);
    const shell = await m.nodeShell(dir);
    const native = (cmd) => execSync(cmd, { cwd: dir, encoding: "utf8", shell: "/bin/bash" });
    const figures = {};
    const failures = [];
    for (const op of OPS) {
      const ours = [];
      const theirs = [];
      for (let i = 0; i < RUNS; i++) {
        let t = performance.now();
        const r = await shell.exec(op.cmd);
        ours.push(performance.now() - t);
        if (r.exitCode !== 0) failures.push(`${op.name}: exit ${r.exitCode} ${r.stderr.slice(0, 200)}`);
        t = performance.now();
        native(op.cmd);
        theirs.push(performance.now() - t);
      }
      const check = op.parity ?? op.cmd;
      const same = (await shell.exec(check)).stdout === native(check);
      if (!same) failures.push(`${op.name}: output differs from native git for \`${check}\``);
      figures[op.name] = { command: op.cmd, engineMs: r1(median(ours)), nativeMs: r1(median(theirs)), ratio: r1(median(ours) / median(theirs)), runsMs: ours.map(r1), sameAsNative: same };
    }
    return { repository: { ...repo, packMB: r1(dirBytes(path.join(dir, ".git/objects/pack")) / 1e6), setupMs }, figures, ...(failures.length ? { failures } : {}) };
  } finally {
    if (bundles) fs.rmSync(bundles.dir, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function dirBytes(d) {
  return fs.readdirSync(d).reduce((n, f) => n + fs.statSync(path.join(d, f)).size, 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await run(), null, 2));
  process.exit(0);
}
