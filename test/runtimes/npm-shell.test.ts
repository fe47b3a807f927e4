/**
 * `npm` and `npx` in the workspace shell over the in-process node runtime: package.json scripts
 * with their pre/post stages, arguments after --, npm's environment and banner, failures with
 * their exit code, the script list, "Missing script", package bins from node_modules (direct, by
 * bin map, scoped), tsx as node, npx, and the refusals that say why (install needs the network).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startLocalRegistry, type LocalRegistry } from "../helpers/npm-registry";
import type { IsoFs } from "../../lib/fs";
import { tempWorkspace } from "../helpers/node-workspace";
import { createShell } from "../../lib/shell";
import { inProcessNodeRuntime } from "../../lib/runtimes/node/runtime";

const runtime = inProcessNodeRuntime();
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

async function workspace(files: Record<string, string>, opts: { packages?: () => { url: string; fetch: typeof fetch } | undefined; readOnly?: boolean } = {}) {
  const { dir, wsfs, cleanup } = tempWorkspace(files);
  cleanups.push(cleanup);
  const shell = await createShell({ fs: fs as unknown as IsoFs, dir, wsfs, defenseInDepth: false, node: runtime, packages: opts.packages, readOnly: opts.readOnly });
  return { dir, shell, read: (p: string) => fs.readFileSync(path.join(dir, p), "utf8") };
}

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) => JSON.stringify({ name: "demo", version: "1.2.3", scripts, ...extra });

describe("npm scripts", () => {
  it("npm test runs pretest, test and posttest through the shell, in order, with npm's banner and environment", async () => {
    const ws = await workspace({
      "package.json": pkg({ pretest: "echo before", test: "node check.js", posttest: "echo after" }),
      "check.js": "console.log('event=' + process.env.npm_lifecycle_event, 'pkg=' + process.env.npm_package_name + '@' + process.env.npm_package_version);\n",
    });
    const r = await ws.shell.exec("npm test");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("\n> demo@1.2.3 pretest\n> echo before\n\nbefore\n\n> demo@1.2.3 test\n> node check.js\n\nevent=test pkg=demo@1.2.3\n\n> demo@1.2.3 posttest\n> echo after\n\nafter\n");
    // -s drops the banner; `npm t` is test.
    expect((await ws.shell.exec("npm t -s")).stdout).toBe("before\nevent=test pkg=demo@1.2.3\nafter\n");
  });

  it("npm run passes arguments after --, runs in the package's folder from a subfolder, and writes reach the workspace", async () => {
    const ws = await workspace({
      "package.json": pkg({ build: "node build.js" }),
      "build.js": "require('fs').writeFileSync('out.txt', process.argv.slice(2).join(',') + ' in ' + process.cwd());\n",
      "src/keep.txt": "x",
    });
    const r = await ws.shell.exec("cd src && npm run build -- --mode 'two words'");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("> node build.js --mode 'two words'");
    expect(ws.read("out.txt")).toBe("--mode,two words in /workspace");
  });

  it("a failing script ends npm with its exit code and says which stage failed; the post stage does not run", async () => {
    const ws = await workspace({ "package.json": pkg({ test: "node -e 'process.exit(3)'", posttest: "echo never" }) });
    const r = await ws.shell.exec("npm test");
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain("npm error Lifecycle script `test` failed with error:\nnpm error code 3");
    expect(r.stdout).not.toContain("never");
  });

  it("npm run lists the scripts; a missing one is named with the ones there are", async () => {
    const ws = await workspace({ "package.json": pkg({ test: "node --test", build: "node build.js" }) });
    expect((await ws.shell.exec("npm run")).stdout).toBe("Lifecycle scripts included in demo@1.2.3:\n  test\n    node --test\n\navailable via `npm run-script`:\n  build\n    node build.js\n");
    const r = await ws.shell.exec("npm run lint");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('npm error Missing script: "lint"');
    expect(r.stderr).toContain("npm run build");
  });

  it("runs node --test from a script: a failing test fails npm test", async () => {
    const ws = await workspace({
      "package.json": pkg({ test: "node --test" }),
      "math.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => assert.strictEqual(1 + 1, 2));\ntest('breaks', () => assert.strictEqual(1 + 1, 3));\n",
    });
    const r = await ws.shell.exec("npm test");
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("ℹ pass 1");
    expect(r.stdout).toContain("ℹ fail 1");
  });

  it("a script's first word that is a package bin runs that bin's file with node; tsx is node, which runs TypeScript", async () => {
    const ws = await workspace({
      "package.json": pkg({ greet: "hello-cli world", ts: "tsx app.ts", scoped: "sc-tool" }),
      "node_modules/hello-cli/package.json": JSON.stringify({ name: "hello-cli", bin: "cli.js" }),
      "node_modules/hello-cli/cli.js": "console.log('hello ' + process.argv[2]);\n",
      "node_modules/@acme/tools/package.json": JSON.stringify({ name: "@acme/tools", bin: { "sc-tool": "bin/run.js" } }),
      "node_modules/@acme/tools/bin/run.js": "console.log('scoped tool');\n",
      "app.ts": "const n: number = 40 + 2;\nconsole.log(`typed ${n}`);\n",
    });
    expect((await ws.shell.exec("npm run -s greet")).stdout).toBe("hello world\n");
    expect((await ws.shell.exec("npm run -s ts")).stdout).toBe("typed 42\n");
    expect((await ws.shell.exec("npm run -s scoped")).stdout).toBe("scoped tool\n");
    // npx: the same bins, with a version suffix tolerated; tsx is node.
    expect((await ws.shell.exec("npx hello-cli there")).stdout).toBe("hello there\n");
    expect((await ws.shell.exec("npx -y hello-cli@1.0.0 again")).stdout).toBe("hello again\n");
    expect((await ws.shell.exec("npx tsx app.ts")).stdout).toBe("typed 42\n");
    // Piped: the output goes to the pipe.
    expect((await ws.shell.exec("npx hello-cli piped | tr a-z A-Z")).stdout).toBe("HELLO PIPED\n");
  });

  it("a lone npm test shows the banner and each stage's output live, in order, and not again in the result", async () => {
    const ws = await workspace({
      "package.json": pkg({ pretest: "echo before | tr a-z A-Z", test: "node -e 'console.log(1); setTimeout(() => console.log(2), 20)'" }),
    });
    const seen: string[] = [];
    const r = await ws.shell.exec("npm test", { onOutput: (_s, t) => seen.push(t) });
    expect(r.exitCode).toBe(0);
    expect(seen.join("")).toBe("\n> demo@1.2.3 pretest\n> echo before | tr a-z A-Z\n\nBEFORE\n\n> demo@1.2.3 test\n> node -e 'console.log(1); setTimeout(() => console.log(2), 20)'\n\n1\n2\n");
    expect(r.stdout).toBe("");
  });

  it("says why what needs the network is not here, and when there is no package.json", async () => {
    const ws = await workspace({ "package.json": pkg({}) });
    const install = await ws.shell.exec("npm install left-pad");
    expect(install.exitCode).toBe(1);
    expect(install.stderr).toContain("package downloads are off. Allow them under Models → Packages");
    const missing = await ws.shell.exec("npx cowsay hi");
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('"cowsay" is not a bin of any package in node_modules');
    expect((await ws.shell.exec("npm -v")).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const bare = await workspace({ "a.txt": "x" });
    const r = await bare.shell.exec("npm test");
    expect(r.exitCode).toBe(254);
    expect(r.stderr).toContain("Could not read package.json");
  });
});

describe("npm install in the shell (a local registry of real packages)", () => {
  let registry: LocalRegistry;
  beforeAll(async () => {
    registry = await startLocalRegistry();
    registry.addDirectory(path.resolve("node_modules/ms"));
    registry.addDirectory(path.resolve("node_modules/debug"));
  });
  afterAll(() => registry.close());

  it("installs, then node requires the package; a second install is up to date; uninstall removes it", async () => {
    const ws = await workspace({ "package.json": pkg({ start: "node main.js" }), "main.js": "const ms = require('ms');\nconsole.log(ms('2h'), typeof require('debug'));\n" }, { packages: () => ({ url: registry.url, fetch: globalThis.fetch }) });
    const seen: string[] = [];
    const r = await ws.shell.exec("npm install debug", { onOutput: (_s, t) => seen.push(t) });
    expect(r.exitCode).toBe(0);
    expect(seen.join("")).toContain("added 2 packages");
    expect(JSON.parse(ws.read("package.json")).dependencies).toEqual({ debug: "^4.4.3" });
    expect((await ws.shell.exec("npm start -s")).stdout).toBe("7200000 function\n");
    expect((await ws.shell.exec("npm ci")).stdout).toContain("up to date");
    expect((await ws.shell.exec("npm i")).stdout).toContain("up to date");
    const un = await ws.shell.exec("npm uninstall debug");
    expect(un.stdout).toContain("removed 2");
    expect(JSON.parse(ws.read("package.json")).dependencies).toEqual({});
    expect((await ws.shell.exec("node main.js")).stderr).toContain("Cannot find module 'ms'");
  });

  it("is refused in a read-only mode, and says what went wrong when the registry does not have the package", async () => {
    const on = () => ({ url: registry.url, fetch: globalThis.fetch });
    const ro = await workspace({ "package.json": pkg({}) }, { packages: on, readOnly: true });
    const r = await ro.shell.exec("npm install debug");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("read-only");
    const ws = await workspace({ "package.json": pkg({}) }, { packages: on });
    const missing = await ws.shell.exec("npm install left-pad");
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('npm error 404 Not Found');
    const ci = await ws.shell.exec("npm ci");
    expect(ci.stderr).toContain("npm ci needs a package-lock.json");
  });
});
