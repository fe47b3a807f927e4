/**
 * `node` in the workspace shell over the in-process runtime: the command line, ES modules and
 * CommonJS over the workspace's files and node_modules, TypeScript, the built-ins, exit codes,
 * live output, writes reaching the workspace fs (and its journal), Plan mode's read-only view,
 * and the refusals that name their limit.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { createShell } from "../../lib/shell";
import { inProcessNodeRuntime } from "../../lib/runtimes/node/runtime";

const runtime = inProcessNodeRuntime();
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function workspace(files: Record<string, string> = {}, opts: { readOnly?: boolean } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-node-"));
  dirs.push(dir);
  for (const [p, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), data);
  }
  const journal = new ChangeJournal();
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal });
  const shell = await createShell({ fs: fs as unknown as IsoFs, dir, wsfs, readOnly: opts.readOnly, defenseInDepth: false, node: runtime });
  return { dir, shell, journal, read: (p: string) => fs.readFileSync(path.join(dir, p), "utf8"), exists: (p: string) => fs.existsSync(path.join(dir, p)) };
}

describe("node command line", () => {
  it("runs a script with its arguments in process.argv, and nodejs is the same command", async () => {
    const ws = await workspace({ "app.js": "console.log(process.argv.slice(2), process.argv[1]);\n" });
    expect(await ws.shell.exec("node app.js one 'two words'")).toMatchObject({ stdout: "[ 'one', 'two words' ] /workspace/app.js\n", stderr: "", exitCode: 0 });
    expect((await ws.shell.exec("nodejs app.js x")).stdout).toBe("[ 'x' ] /workspace/app.js\n");
    expect(ws.shell.commandNames()).toEqual(expect.arrayContaining(["node", "nodejs"]));
  });

  it("runs -e and -p, and reports its version", async () => {
    const ws = await workspace();
    expect((await ws.shell.exec(`node -e 'console.log(6 * 7, process.argv.slice(1))' a b`)).stdout).toBe("42 [ 'a', 'b' ]\n");
    expect((await ws.shell.exec(`node -p '({ sum: 1 + 2, list: [1, "x"] })'`)).stdout).toBe("{ sum: 3, list: [ 1, 'x' ] }\n");
    expect((await ws.shell.exec(`node -p '"plain"'`)).stdout).toBe("plain\n");
    expect((await ws.shell.exec("node --version")).stdout).toMatch(/^v\d+\.\d+\.\d+\n$/);
  });

  it("runs a program piped in, and gives a program the piped stdin", async () => {
    const ws = await workspace({ "up.js": "let s = '';\nprocess.stdin.on('data', (c) => (s += c));\nprocess.stdin.on('end', () => console.log(s.toUpperCase().trim()));\n" });
    expect((await ws.shell.exec("echo 'console.log(2 ** 10)' | node")).stdout).toBe("1024\n");
    expect((await ws.shell.exec("printf 'a\\nb\\n' | node up.js")).stdout).toBe("A\nB\n");
    expect((await ws.shell.exec(`echo hi | node -e 'console.log(require("fs").readFileSync(0, "utf8").trim() + "!")'`)).stdout).toBe("hi!\n");
  });

  it("says so when the script does not exist (exit 1, as node)", async () => {
    const ws = await workspace();
    const r = await ws.shell.exec("node nope.js");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("Cannot find module '/workspace/nope.js'");
  });

  it("an uncaught error prints the line, a caret and the stack, and exits 1; process.exit and exitCode set the code", async () => {
    const ws = await workspace({ "fail.js": "function f() {\n  throw new TypeError('bad value');\n}\nf();\n" });
    const r = await ws.shell.exec("node fail.js");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^\/workspace\/fail\.js:2\n  throw new TypeError\('bad value'\);\n  \^\n\nTypeError: bad value\n    at f \(\/workspace\/fail\.js:2:9\)/);
    expect(r.stderr).not.toMatch(/engine\.ts|loader\.ts/);
    expect((await ws.shell.exec("node fail.js || echo failed=$?")).stdout).toBe("failed=1\n");
    expect((await ws.shell.exec(`node -e 'process.exit(3)'`)).exitCode).toBe(3);
    expect((await ws.shell.exec(`node -e 'process.exitCode = 4; setTimeout(() => console.log("still ran"), 5)'`))).toMatchObject({ exitCode: 4, stdout: "still ran\n" });
    expect((await ws.shell.exec(`node -e 'Promise.reject(new Error("nobody caught me"))'`))).toMatchObject({ exitCode: 1, stderr: expect.stringContaining("Error: nobody caught me") });
  });

  it("its output feeds a pipe and a redirection", async () => {
    const ws = await workspace();
    expect((await ws.shell.exec("node -e 'for (let i = 0; i < 5; i++) console.log(i)' | wc -l")).stdout.trim()).toBe("5");
    await ws.shell.exec(`node -e 'console.log("saved")' > out.txt`);
    expect(ws.read("out.txt")).toBe("saved\n");
  });
});

describe("node modules", () => {
  it("an ES module imports a workspace module (extension and index resolution) and node:fs, with top-level await", async () => {
    const ws = await workspace({
      "main.mjs": "import fs from 'node:fs';\nimport { readFile } from 'node:fs/promises';\nimport { add } from './lib/math';\nimport util from './lib';\nconst text = await readFile('data.txt', 'utf8');\nconsole.log(add(2, 3), util.name, fs.existsSync('data.txt'), text.trim());\n",
      "lib/math.js": "export const add = (a, b) => a + b;\n",
      "lib/index.js": "export default { name: 'lib-index' };\n",
      "data.txt": "from the workspace\n",
    });
    expect(await ws.shell.exec("node main.mjs")).toMatchObject({ stdout: "5 lib-index true from the workspace\n", stderr: "", exitCode: 0 });
  });

  it("CommonJS requires relative files and JSON, and a package from node_modules by main and by exports", async () => {
    const ws = await workspace({
      ".gitignore": "node_modules\n",
      "main.js": "const a = require('./a');\nconst cfg = require('./cfg.json');\nconst left = require('left-pad');\nconst { shout } = require('shouty/helpers');\nconsole.log(a.value, cfg.port, left('7', 3), shout('hi'), require.main === module);\n",
      "a.js": "exports.value = 'A';\n",
      "cfg.json": '{ "port": 8080 }',
      "node_modules/left-pad/package.json": '{ "name": "left-pad", "main": "lib/pad.js" }',
      "node_modules/left-pad/lib/pad.js": "module.exports = (s, n) => String(s).padStart(n, '0');\n",
      "node_modules/shouty/package.json": '{ "name": "shouty", "exports": { ".": "./index.js", "./helpers": { "require": "./helpers.cjs", "import": "./helpers.mjs" } } }',
      "node_modules/shouty/helpers.cjs": "exports.shout = (s) => s.toUpperCase() + '!';\n",
      "node_modules/shouty/helpers.mjs": "export const shout = () => 'wrong condition';\n",
    });
    expect(await ws.shell.exec("node main.js")).toMatchObject({ stdout: "A 8080 007 HI! true\n", stderr: "", exitCode: 0 });
  });

  it("runs TypeScript (types stripped, enums compiled) and imports .ts through a .js specifier; TSX compiles to createElement", async () => {
    const ws = await workspace({
      "src/main.ts": "import { total, type Item } from './cart.js';\nenum Color { Red, Green }\nconst items: Item[] = [{ price: 2 }, { price: 3 }];\nconsole.log(total(items), Color[1]);\n",
      "src/cart.ts": "export interface Item { price: number }\nexport function total(items: Item[]): number {\n  return items.reduce((s, i) => s + i.price, 0);\n}\n",
      "view.tsx": "const React = { createElement: (t: string, _p: unknown, ...c: unknown[]) => `<${t}>${c.join('')}</${t}>` };\nconst el = <b>bold</b>;\nconsole.log(el);\n",
    });
    expect(await ws.shell.exec("node src/main.ts")).toMatchObject({ stdout: "5 Green\n", stderr: "", exitCode: 0 });
    expect((await ws.shell.exec("node view.tsx")).stdout).toBe("<b>bold</b>\n");
  });

  it("runs the sample project's entry as it is (TypeScript, type: module, an import without extension)", async () => {
    const { SAMPLE_PROJECT } = await import("../../lib/workspaces/sample");
    const ws = await workspace(SAMPLE_PROJECT);
    expect(await ws.shell.exec("node src/index.ts")).toMatchObject({ stdout: "Hello, world!\n", stderr: "", exitCode: 0 });
  });

  it("import() loads a module at run time, and a require of a missing module names it", async () => {
    const ws = await workspace({ "dyn.mjs": "const m = await import('./m.mjs');\nconsole.log(m.default, m.x);\n", "m.mjs": "export default 'def';\nexport const x = 1;\n" });
    expect((await ws.shell.exec("node dyn.mjs")).stdout).toBe("def 1\n");
    const r = await ws.shell.exec(`node -e 'require("not-installed")'`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("Cannot find module 'not-installed'");
  });
});

describe("node's built-ins", () => {
  it("fs writes reach the workspace through the workspace fs (the journal sees them), and cat shows them", async () => {
    const ws = await workspace();
    const r = await ws.shell.exec(`node -e 'const fs = require("fs"); fs.mkdirSync("out/deep", { recursive: true }); fs.writeFileSync("out/deep/r.txt", "by node\\n"); fs.appendFileSync("out/deep/r.txt", "more\\n")'`);
    expect(r.exitCode).toBe(0);
    expect(ws.read("out/deep/r.txt")).toBe("by node\nmore\n");
    expect((await ws.shell.exec("cat out/deep/r.txt")).stdout).toBe("by node\nmore\n");
    expect(ws.journal.since(0)!.filter((e) => e.path === "out/deep/r.txt").map((e) => e.origin)).toContain("shell");
  });

  it("deleting and renaming go back too", async () => {
    const ws = await workspace({ "a.txt": "a", "b.txt": "b" });
    await ws.shell.exec(`node -e 'const fs = require("fs"); fs.unlinkSync("a.txt"); fs.renameSync("b.txt", "c.txt")'`);
    expect(ws.exists("a.txt")).toBe(false);
    expect(ws.exists("b.txt")).toBe(false);
    expect(ws.read("c.txt")).toBe("b");
  });

  it("on the read-only view (Plan mode) reading works and a write fails with EROFS; nothing changes", async () => {
    const ws = await workspace({ "notes.txt": "keep me\n" }, { readOnly: true });
    expect((await ws.shell.exec(`node -e 'console.log(require("fs").readFileSync("notes.txt", "utf8").trim())'`)).stdout).toBe("keep me\n");
    const r = await ws.shell.exec(`node -e 'require("fs").writeFileSync("notes.txt", "changed")'`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("EROFS: read-only file system, open 'notes.txt'");
    expect(ws.read("notes.txt")).toBe("keep me\n");
  });

  it("crypto hashes, UUIDs and random bytes; path, url, util, events, assert, buffer, os", async () => {
    const ws = await workspace({
      "b.mjs": [
        "import { createHash, randomUUID, randomBytes } from 'node:crypto';",
        "import path from 'node:path';",
        "import { fileURLToPath } from 'node:url';",
        "import { format, promisify } from 'node:util';",
        "import { EventEmitter, once } from 'node:events';",
        "import assert from 'node:assert/strict';",
        "import os from 'node:os';",
        "console.log(createHash('sha256').update('abc').digest('hex'));",
        "console.log(createHash('sha1').update('abc').digest('base64'));",
        "console.log(/^[0-9a-f-]{36}$/.test(randomUUID()), randomBytes(8).length);",
        "console.log(path.relative('/a/b/c', '/a/d'), path.parse('/x/y.tar.gz').ext, fileURLToPath(import.meta.url));",
        "console.log(format('%s=%d %j', 'n', 42, { a: 1 }));",
        "const sleep = promisify((ms, cb) => setTimeout(() => cb(null, ms), ms));",
        "console.log(await sleep(5));",
        "const e = new EventEmitter(); setTimeout(() => e.emit('go', 7), 1); console.log(await once(e, 'go'));",
        "assert.deepEqual({ a: [1] }, { a: [1] });",
        "assert.throws(() => assert.equal(1, '1'), { code: 'ERR_ASSERTION' });",
        "console.log(Buffer.from('hello').toString('base64'), Buffer.from('aGk=', 'base64').toString(), Buffer.from([1, 255]));",
        "console.log(os.EOL === '\\n', os.tmpdir(), typeof os.cpus().length);",
      ].join("\n"),
    });
    const r = await ws.shell.exec("node b.mjs");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=",
        "true 8",
        "../../d .gz /workspace/b.mjs",
        'n=42 {"a":1}',
        "5",
        "[ 7 ]",
        "aGVsbG8= hi <Buffer 01 ff>",
        "true /tmp number",
        "",
      ].join("\n"),
    );
  });

  it("what cannot run in a tab fails at once with a message naming the limit", async () => {
    const ws = await workspace();
    const spawn = await ws.shell.exec(`node -e 'require("child_process").execSync("ls")'`);
    expect(spawn.exitCode).toBe(1);
    expect(spawn.stderr).toContain("child_process.execSync is not available: programs run inside the browser tab, where no other process can be started");
    const listen = await ws.shell.exec(`node -e 'require("http").createServer(() => {}).listen(3000)'`);
    expect(listen.exitCode).toBe(1);
    expect(listen.stderr).toContain("cannot listen on a port");
    const addon = await workspace({ "addon.node": "\0binary", "use.js": "require('./addon.node')\n" });
    expect((await addon.shell.exec("node use.js")).stderr).toContain("compiled addons (.node files) cannot run in the browser tab");
  });
});

describe("node's live output and stopping", () => {
  it("a lone node command line delivers its output to onOutput as it is written, not again in the result", async () => {
    const ws = await workspace();
    const seen: string[] = [];
    const r = await ws.shell.exec(`node -e 'console.log("one"); console.error("oops"); setTimeout(() => console.log("two"), 20)'`, { onOutput: (s, t) => seen.push(`${s}:${t}`) });
    expect(seen).toEqual(["stdout:one\n", "stderr:oops\n", "stdout:two\n"]);
    expect(r).toMatchObject({ stdout: "", stderr: "", exitCode: 0 });
  });

  it("the shell's time limit stops a program that keeps a timer going", async () => {
    const ws = await workspace();
    const started = Date.now();
    const r = await ws.shell.exec(`node -e 'setInterval(() => {}, 100)'`, { timeoutMs: 500 });
    expect(r.exitCode).toBe(124);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe("node --test", () => {
  const suite = {
    "src/math.js": "exports.add = (a, b) => a + b;\n",
    "test/math.test.js": [
      "const { describe, it, before, beforeEach, after } = require('node:test');",
      "const assert = require('node:assert');",
      "const { add } = require('../src/math');",
      "const seen = [];",
      "describe('add', () => {",
      "  before(() => seen.push('before'));",
      "  beforeEach(() => seen.push('each'));",
      "  after(() => seen.push('after'));",
      "  it('adds small numbers', () => assert.strictEqual(add(1, 2), 3));",
      "  it('is wrong on purpose', () => assert.strictEqual(add(1, 1), 3));",
      "  it.skip('not now', () => {});",
      "});",
      "it('saw the hooks in order', () => assert.deepStrictEqual(seen, ['before', 'each', 'each', 'after']));",
    ].join("\n"),
    "lib.test.mjs": "import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('async passes', async () => { await new Promise((r) => setTimeout(r, 5)); assert.ok(true); });\ntest('subtests', async (t) => { await t.test('inner', () => {}); });\n",
    "node_modules/dep/dep.test.js": "throw new Error('must not run');\n",
  };

  it("finds the test files, runs each, reports passes and failures as the spec reporter does, and exits 1 on a failure", async () => {
    const ws = await workspace(suite);
    const r = await ws.shell.exec("node --test");
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("▶ add\n  ✔ adds small numbers (");
    expect(r.stdout).toMatch(/  ✖ is wrong on purpose \(.*\)\n    AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal:\n\n    2 !== 3\n/);
    expect(r.stdout).toContain("  ﹣ not now (");
    expect(r.stdout).toContain("✔ saw the hooks in order (");
    expect(r.stdout).toContain("✔ async passes (");
    expect(r.stdout).toContain("  ✔ inner (");
    expect(r.stdout).toMatch(/ℹ tests 7\nℹ suites 1\nℹ pass 5\nℹ fail 1\nℹ cancelled 0\nℹ skipped 1\nℹ todo 0\nℹ duration_ms [\d.]+\n/);
    expect(r.stdout).toContain("✖ failing tests:");
    expect(r.stdout).not.toContain("must not run");
  });

  it("runs only the files named, and exits 0 when they all pass", async () => {
    const ws = await workspace(suite);
    const r = await ws.shell.exec("node --test lib.test.mjs");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/ℹ tests 3\nℹ suites 0\nℹ pass 3\nℹ fail 0\n/);
    expect(r.stdout).not.toContain("add");
  });

  it("a test file that throws before its tests counts as a failure", async () => {
    const ws = await workspace({ "broken.test.js": "require('./missing');\n" });
    const r = await ws.shell.exec("node --test");
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("ℹ fail 1");
  });
});

describe("the previous line's exit status", () => {
  it("is $? on the next command line, as a terminal carries it", async () => {
    const ws = await workspace();
    const failed = await ws.shell.exec(`node -e 'throw new Error("x")'`);
    expect(failed.exitCode).toBe(1);
    expect((await ws.shell.exec("echo $?", { lastExitCode: failed.exitCode })).stdout).toBe("1\n");
    expect((await ws.shell.exec("echo $?", { lastExitCode: 0 })).stdout).toBe("0\n");
  });
});
