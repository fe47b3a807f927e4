/**
 * The real-shaped workload in one process: build the repository once (native git), copy it
 * (cp -a: same pack, same mtimes) for the engine, run REAL_SCHEDULE on both, interleaved.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildRealRepo, realEngineDriver, realNativeDriver, realShape, REAL_SCHEDULE } from "./real-shape.mjs";
import { runSchedule } from "./runner.mjs";

export async function runRealShape(bundle, files = 10_000) {
  const api = await import(path.resolve(bundle));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-real-"));
  try {
    const t0 = performance.now();
    const shape = realShape({ files, dirs: Math.round(files * 0.35) });
    const nativeDir = path.join(tmp, "native");
    const commits = Number(process.env.TABULA_BENCH_REAL_COMMITS ?? 10_000);
    const built = buildRealRepo(nativeDir, shape, { commits });
    const engineDir = path.join(tmp, "engine");
    execFileSync("cp", ["-a", nativeDir, engineDir]);
    const setup = {
      files: shape.files.length,
      directories: shape.dirCount,
      maxDepth: shape.maxDepth,
      gitignores: shape.files.filter((f) => f.path.endsWith(".gitignore")).length,
      ignoredFiles: shape.ignored.length,
      commits,
      packMB: Math.round(built.packBytes / 1e5) / 10,
      buildMs: Math.round(performance.now() - t0),
    };
    const engine = realEngineDriver(api, engineDir, built.paths);
    const native = realNativeDriver(nativeDir, built.paths);
    const verbose = !!process.env.TABULA_BENCH_VERBOSE;
    const result = await runSchedule(engine, native, REAL_SCHEDULE, verbose ? (l) => process.stderr.write(`[real-shape] ${l}\n`) : undefined);
    native.close();
    return { ...result, setup };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
