/**
 * The shell's `node` command: parse node's command line, hand the program and a snapshot of
 * the workspace (with node_modules' code, even when it is ignored) to a NodeRuntime, stream or
 * collect its output, and write what it changed back through the workspace fs, so the change
 * journal, the timeline and checkpoints see it. `npm` and `npx` are ./npm.ts.
 */
import type { Command, ResolvedCommandContext } from "just-bash";
import type { WorkspaceFs } from "../../fs/workspace-fs";
import { resolveShellPath, toWorkspacePath } from "../../shell/paths";
import { programEnvironment, type LiveOutputs } from "../python/live-output";
import { applyChanges, snapshotForProgram } from "../python/workspace-sync";
import { OutputCollector } from "../python/command";
import { NODE_USAGE, parseNodeArgs } from "./args";
import { NODE_VERSION } from "./process";
import type { NodeJob, NodeTarget } from "./protocol";
import type { NodeRuntime } from "./runtime";
import { failureSection, summary, type TestCounts } from "./test-runner";
import picomatch from "picomatch";

export type NodeCommandOptions = {
  runtime: NodeRuntime;
  /** The shell's view of the workspace (read-only in Plan/Review modes). */
  wsfs: WorkspaceFs;
  mountPoint: string;
  readOnly: boolean;
  /** Journal origin of the program's writes. */
  origin: string;
  live?: LiveOutputs;
};

export const NODE_COMMAND_NAMES = ["node", "nodejs", "npm", "npx"];

/** Under node_modules only code and package metadata is handed over (no docs, maps, types). */
const PACKAGE_FILE = /\.(js|mjs|cjs|json|ts|mts|cts|tsx|jsx|node)$/;
function packageCode(path: string, isDir: boolean): boolean {
  if (!/(^|\/)node_modules(\/|$)/.test(path)) return false;
  return isDir || (PACKAGE_FILE.test(path) && !/\.d\.[mc]?ts$/.test(path));
}

type Result = { stdout: string; stderr: string; exitCode: number };

export function createNodeCommands(jb: Pick<typeof import("just-bash"), "defineCommand">, opts: NodeCommandOptions): Command[] {
  const node = (name: string) => jb.defineCommand(name, (args, ctx) => runNode(name, args, ctx, opts));
  return [node("node"), node("nodejs")];
}

async function runNode(name: string, argv: string[], ctx: ResolvedCommandContext, opts: NodeCommandOptions): Promise<Result> {
  const parsed = parseNodeArgs(argv);
  if (parsed.kind === "help") return { stdout: NODE_USAGE, stderr: "", exitCode: 0 };
  if (parsed.kind === "version") return { stdout: `${NODE_VERSION}\n`, stderr: "", exitCode: 0 };
  if (parsed.kind === "usage-error") return { stdout: "", stderr: `${parsed.message}\n`, exitCode: 9 };

  if (parsed.kind === "test") return runTests(name, parsed.files, parsed.execArgv, ctx, opts);

  const stdinText = String((ctx.stdin as unknown) ?? "");
  const stdin = Uint8Array.from(stdinText, (c) => c.charCodeAt(0) & 0xff);
  const inWorkspace = toWorkspacePath(opts.mountPoint, ctx.cwd, ctx.cwd) !== null;
  const cwd = inWorkspace ? ctx.cwd : opts.mountPoint;

  let target: NodeTarget;
  let programStdin = stdin;
  const t = parsed.target;
  if (t.kind === "eval") target = t;
  else if (t.kind === "script") {
    const abs = resolveShellPath(ctx.cwd, t.path);
    if (toWorkspacePath(opts.mountPoint, abs) === null) {
      return { stdout: "", stderr: `${name}: ${abs}: only files inside the workspace (${opts.mountPoint}) can be run\n`, exitCode: 1 };
    }
    target = { kind: "script", path: abs };
  } else {
    if (stdin.length === 0) {
      return { stdout: "", stderr: `${name}: the interactive prompt (REPL) is not available in the tab; run a file, -e 'code', or pipe a program in\n`, exitCode: 9 };
    }
    target = { kind: "eval", code: new TextDecoder().decode(stdin), print: false };
    programStdin = new Uint8Array();
  }

  const snapshot = await snapshotForProgram(name, opts.wsfs, { program: "node", includeIgnored: packageCode });
  if ("error" in snapshot) return { stdout: "", stderr: snapshot.error, exitCode: 1 };
  const { env, live } = programEnvironment(ctx, opts.live);
  const job: NodeJob = {
    target,
    args: parsed.args,
    execArgv: parsed.execArgv,
    cwd,
    env,
    stdin: programStdin,
    mountPoint: opts.mountPoint,
    files: snapshot.files,
    dirs: snapshot.dirs,
    readOnly: opts.readOnly,
  };

  const out = new OutputCollector(live, name);
  let outcome;
  try {
    outcome = await opts.runtime.run(job, { onOutput: (s, d) => out.push(s, d), signal: ctx.signal });
  } catch (err) {
    const partial = out.result();
    return { stdout: partial.stdout, stderr: partial.stderr + `${name}: ${(err as Error).message}\n`, exitCode: 1 };
  }
  const warnings = opts.readOnly ? [] : await applyChanges(opts.wsfs, snapshot, outcome.changes, opts.origin, name);
  const r = out.result();
  let stderr = r.stderr + warnings.map((w) => w + "\n").join("");
  if (outcome.stopped === "killed") stderr += `${name}: stopped; the program's file changes were discarded\n`;
  return { stdout: r.stdout, stderr, exitCode: outcome.exitCode };
}

/** Node's default test file patterns (with TypeScript's extensions too), outside node_modules. */
const TEST_PATTERNS = ["**/*.test.{cjs,mjs,js,cts,mts,ts}", "**/*-test.{cjs,mjs,js,cts,mts,ts}", "**/*_test.{cjs,mjs,js,cts,mts,ts}", "**/test-*.{cjs,mjs,js,cts,mts,ts}", "**/test.{cjs,mjs,js,cts,mts,ts}", "**/test/**/*.{cjs,mjs,js,cts,mts,ts}"];

/** `node --test [files, directories or globs]`: each file runs in its own worker, as node runs each in its own process. */
async function runTests(name: string, args: string[], execArgv: string[], ctx: ResolvedCommandContext, opts: NodeCommandOptions): Promise<Result> {
  const started = performance.now();
  const cwdAbs = toWorkspacePath(opts.mountPoint, ctx.cwd, ctx.cwd) !== null ? ctx.cwd : opts.mountPoint;
  const cwdRel = toWorkspacePath(opts.mountPoint, cwdAbs) ?? "";
  const snapshot = await snapshotForProgram(name, opts.wsfs, { program: "node", includeIgnored: packageCode });
  if ("error" in snapshot) return { stdout: "", stderr: snapshot.error, exitCode: 1 };
  const inNodeModules = (p: string) => /(^|\/)node_modules\//.test(p);
  const under = (p: string, dir: string) => dir === "" || p.startsWith(dir + "/");
  const defaults = picomatch(TEST_PATTERNS);
  const candidates = snapshot.files.map((f) => f.path).filter((p) => !inNodeModules(p));
  let files: string[] = [];
  if (args.length === 0) files = candidates.filter((p) => under(p, cwdRel) && defaults(cwdRel === "" ? p : p.slice(cwdRel.length + 1)));
  else {
    for (const a of args) {
      const rel = toWorkspacePath(opts.mountPoint, resolveShellPath(cwdAbs, a));
      if (rel === null) continue;
      if (/[*?{[]/.test(a)) {
        const m = picomatch(rel);
        files.push(...candidates.filter((p) => m(p)));
      } else if (candidates.includes(rel)) files.push(rel);
      else if (candidates.some((p) => under(p, rel))) files.push(...candidates.filter((p) => under(p, rel) && defaults(p.slice(rel === "" ? 0 : rel.length + 1))));
      else return { stdout: "", stderr: `Could not find '${resolveShellPath(cwdAbs, a)}'\n`, exitCode: 1 };
    }
  }
  files = [...new Set(files)].sort();

  const { env, live } = programEnvironment(ctx, opts.live);
  const out = new OutputCollector(live, name);
  const totals: TestCounts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  const failures: string[] = [];
  let extraWarnings: string[] = [];
  for (const file of files) {
    const job: NodeJob = {
      target: { kind: "script", path: `${opts.mountPoint}/${file}` },
      args: [],
      execArgv,
      cwd: cwdAbs,
      env: { ...env, NODE_TEST_CONTEXT: "child-v8" },
      stdin: new Uint8Array(),
      mountPoint: opts.mountPoint,
      files: snapshot.files,
      dirs: snapshot.dirs,
      readOnly: opts.readOnly,
      test: true,
    };
    let outcome;
    try {
      outcome = await opts.runtime.run(job, { onOutput: (s, d) => out.push(s, d), signal: ctx.signal });
    } catch (err) {
      outcome = { exitCode: 1, changes: { written: [], deleted: [], removedDirs: [], madeDirs: [] }, error: (err as Error).message };
    }
    if ("stopped" in outcome && outcome.stopped === "killed") {
      totals.cancelled++;
      break;
    }
    if (!opts.readOnly) extraWarnings = extraWarnings.concat(await applyChanges(opts.wsfs, snapshot, outcome.changes, opts.origin, name));
    const t = outcome.tests;
    if (t) {
      for (const k of Object.keys(totals) as (keyof TestCounts)[]) totals[k] += t[k];
      failures.push(...t.failures);
    }
    if (outcome.exitCode !== 0 && (!t || t.fail === 0)) {
      // The file itself failed (a syntax error, an uncaught exception): node counts it as a failed test.
      totals.tests++;
      totals.fail++;
      const line = `✖ ${opts.mountPoint}/${file}\n  'test failed'`;
      out.push("stdout", new TextEncoder().encode(line + "\n"));
      failures.push(line);
    }
  }
  out.push("stdout", new TextEncoder().encode(summary(totals, performance.now() - started) + failureSection(failures)));
  const r = out.result();
  return { stdout: r.stdout, stderr: r.stderr + extraWarnings.map((w) => w + "\n").join(""), exitCode: totals.fail > 0 || totals.cancelled > 0 ? 1 : 0 };
}
