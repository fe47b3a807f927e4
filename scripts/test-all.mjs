#!/usr/bin/env node
/**
 * The one test command (`npm test`): unit tests (vitest, Node), a production build (which also
 * type-checks), then end-to-end tests (Playwright in Debian's Chromium). Its very last line is
 * exactly "N passed, N failed, N skipped" (CI reads it) and the exit code is non-zero on any
 * failure.
 *
 * The figures are true ones: skipped and todo tests are counted as skipped; a test file that
 * fails to load counts its tests when they are known (else 1, and the file is named); a failed
 * build counts every e2e test it blocked as failed; a `.only` anywhere fails the run (vitest
 * `allowOnly: false`, Playwright `forbidOnly: true`).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const reports = ".ci-reports";
fs.mkdirSync(reports, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
let passed = 0;
let failed = 0;
let skipped = 0;
/** Why something counted as failed without being a failed test, repeated before the count. */
const notes = [];
/**
 * The failed tests by name, repeated just above the count: a CI log is often read from its tail,
 * and vitest's own list of failures scrolls away under the build's and Playwright's output.
 */
const failures = [];

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
const unitOk = run("unit", "npx", ["vitest", "run", "--allowOnly=false", "--reporter=default", "--reporter=json", `--outputFile=${reports}/vitest.json`]);
const unit = readJson(`${reports}/vitest.json`);
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
  skipped += (unit.numPendingTests ?? 0) + (unit.numTodoTests ?? 0);
  let unitFailuresSeen = unit.numFailedTests;
  for (const file of unit.testResults ?? []) {
    for (const a of file.assertionResults ?? []) {
      if (a.status !== "failed") continue;
      const why = String(a.failureMessages?.[0] ?? "").split("\n").find((l) => l.trim()) ?? "";
      failures.push(`unit ${path.relative(process.cwd(), file.name)} > ${a.fullName ?? a.title}${why ? `: ${why.trim().slice(0, 300)}` : ""}`);
    }
    if (file.status !== "failed") continue;
    const results = file.assertionResults ?? [];
    if (results.some((a) => a.status === "failed")) continue; // already counted
    const rel = path.relative(process.cwd(), file.name);
    const firstLine = String(file.message ?? "").split("\n")[0];
    if (results.length > 0) {
      // It loaded and its tests are known, but the file failed (a hook, an error outside tests):
      // its tests that "passed" did not really run to the end.
      const known = results.filter((a) => a.status === "passed").length;
      passed -= known;
      failed += Math.max(1, known);
      unitFailuresSeen += Math.max(1, known);
      notes.push(`${rel} failed outside its tests (${firstLine}): its ${known} test(s) count as failed`);
    } else {
      failed += 1;
      unitFailuresSeen += 1;
      notes.push(`${rel} failed to load (${firstLine}): counted as 1 failure, its tests are unknown`);
    }
  }
  if (!unitOk && unitFailuresSeen === 0) {
    failed += 1;
    notes.push("vitest exited with an error outside any test (an unhandled error?): counted as 1 failure");
  }
} else {
  failed += 1;
  notes.push("vitest wrote no report: counted as 1 failure");
}

/** How many e2e tests there are, without a build or a server: `playwright test --list`. */
function countE2eTests() {
  const r = spawnSync("npx", ["playwright", "test", "--list", "--reporter=json"], { env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  try {
    const stats = JSON.parse(r.stdout).stats;
    return stats.expected + stats.skipped + stats.unexpected + stats.flaky;
  } catch {
    return undefined;
  }
}

/** "file:line › title: first line of the error" for each e2e test whose final result failed. */
function playwrightFailures(report) {
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== "unexpected") continue;
        const last = t.results?.[t.results.length - 1];
        const why = String(last?.error?.message ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((l) => l.trim()) ?? "";
        out.push(`${spec.file}:${spec.line} › ${spec.title}${why ? `: ${why.trim().slice(0, 300)}` : ""}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return out;
}

// 2. Build (type-check included). The e2e tests run against this build.
const skipE2e = process.argv.includes("--unit-only");
if (!skipE2e) {
  const buildOk = run("build", "npx", ["next", "build"]);
  if (!buildOk) {
    const blocked = countE2eTests();
    failed += blocked ?? 1;
    notes.push(blocked === undefined ? "next build failed and the e2e tests could not be listed: counted as 1 failure" : `next build failed: the ${blocked} end-to-end tests it blocked count as failed`);
  } else {
    // 3. End-to-end tests (the config's json reporter writes .ci-reports/playwright.json).
    fs.rmSync(`${reports}/playwright.json`, { force: true });
    const e2eOk = run("e2e", "npx", ["playwright", "test"]);
    const e2e = readJson(`${reports}/playwright.json`);
    if (e2e?.stats) {
      const s = e2e.stats;
      passed += s.expected + (s.flaky ?? 0);
      failed += s.unexpected;
      for (const f of playwrightFailures(e2e)) failures.push(`e2e ${f}`);
      skipped += s.skipped ?? 0;
      if (!e2eOk && s.unexpected === 0) {
        // Nothing failed, yet the run did (a `.only` under forbidOnly, a config or server error):
        // every test that did not pass counts as failed.
        const total = countE2eTests();
        const notRun = total === undefined ? 1 : Math.max(1, total - s.expected - (s.flaky ?? 0));
        const why = (e2e.errors ?? []).map((e) => String(e.message ?? "").split("\n")[0]).filter(Boolean)[0] ?? "see the output above";
        skipped -= Math.min(skipped, s.skipped ?? 0);
        failed += notRun;
        notes.push(`playwright failed outside any test (${why}): ${notRun} test(s) count as failed`);
      }
    } else {
      const total = countE2eTests();
      failed += total ?? 1;
      notes.push(`playwright wrote no report: ${total ?? 1} test(s) count as failed`);
    }
  }
}

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  x ${f}`).join("\n")}`);
if (notes.length) console.log(`\n${notes.map((n) => `! ${n}`).join("\n")}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
