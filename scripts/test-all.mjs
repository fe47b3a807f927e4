#!/usr/bin/env node
/**
 * The one test command (`npm test`): unit tests (vitest, Node), a production build (which also
 * type-checks), then end-to-end tests (Playwright in Debian's Chromium). It ends with the plain
 * line "N passed, N failed" and a non-zero exit code on any failure.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const reports = ".ci-reports";
fs.mkdirSync(reports, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
let passed = 0;
let failed = 0;

function run(label, cmd, args) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env });
  return r.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

// 1. Unit tests.
fs.rmSync(`${reports}/vitest.json`, { force: true });
const unitOk = run("unit", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile=${reports}/vitest.json`]);
const unit = readJson(`${reports}/vitest.json`);
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
  if (!unitOk && unit.numFailedTests === 0) failed += 1; // e.g. a suite that failed to load
} else failed += 1;

// 2. Build (type-check included). The e2e tests run against this build.
const skipE2e = process.argv.includes("--unit-only");
if (!skipE2e) {
  const buildOk = run("build", "npx", ["next", "build"]);
  if (!buildOk) {
    failed += 1;
    console.log("next build failed: end-to-end tests skipped");
  } else {
    // 3. End-to-end tests.
    fs.rmSync(`${reports}/playwright.json`, { force: true });
    const e2eOk = run("e2e", "npx", ["playwright", "test"]);
    const e2e = readJson(`${reports}/playwright.json`);
    if (e2e?.stats) {
      passed += e2e.stats.expected + (e2e.stats.flaky ?? 0);
      failed += e2e.stats.unexpected;
      if (!e2eOk && e2e.stats.unexpected === 0) failed += 1;
    } else failed += 1;
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
