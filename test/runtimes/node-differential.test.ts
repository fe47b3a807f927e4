/**
 * The same small programs under the real `node` of this machine and under the tab's runtime:
 * stdout and the exit code must be equal (stderr is compared by its error line only: stack
 * frames name each runtime's own internals). Each program runs from a copy of the same files,
 * so relative paths, modules and written files line up.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inProcessNodeRuntime } from "../../lib/runtimes/node/runtime";

const runtime = inProcessNodeRuntime();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-node-diff-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Case = { name: string; files: Record<string, string>; main: string; args?: string[]; stdin?: string };

const CASES: Case[] = [
  {
    name: "console.log formatting of nested values",
    main: "fmt.js",
    files: {
      "fmt.js": `
class Point { constructor(x, y) { this.x = x; this.y = y; } }
const circ = { name: 'loop' }; circ.self = circ;
console.log({ a: 1, s: 'it\\'s', n: null, u: undefined, neg: -0, big: 10n, sym: Symbol('s'), f() {}, g: () => 1, C: class Foo {} });
console.log([1, 'two', [3, [4, [5, [6]]]]], new Map([['k', { v: [1, 2] }]]), new Set([1, 'a']));
console.log(new Point(1, 2), Object.create(null), [ , 1, , ], circ);
console.log(Array.from({ length: 30 }, (_, i) => i * 7));
console.log(Array.from({ length: 8 }, (_, i) => 'item-' + i));
console.log({ longKeyNumberOne: 'aaaaaaaaaaaa', longKeyNumberTwo: 'bbbbbbbbbbbb', longKeyNumberThree: 'cccccccccccc' });
console.log({ deep: { deeper: { deepest: { gone: 1 } } }, list: [[[[1]]]] });
console.log('%s is %d years and %i days, %f, %j %o', 'Ann', 42.5, 3.9, '1.5', { j: 1 }, [1]);
console.log(new Date(0), /re+/gi, new Error('shown').message, [undefined, null], 'a\\nb', ['a\\nb']);
console.log(new Uint8Array([1, 2, 3]), Buffer.from('hi'), [1.5, -2, NaN, Infinity], { 'quoted-key': 1, valid_id: 2, 3: 'num' });
console.log(Array(120).fill(0).length, Array(101).fill(1).slice(0, 101).length === 101 ? 'ok' : 'no');
console.log(Array(105).fill(1));
console.table([{ a: 1, b: 'x' }, { a: 2, c: true }]);
`,
    },
  },
  {
    name: "console.log of classes, getters, symbols keys, errors inside objects, long strings",
    main: "more.js",
    files: {
      "more.js": `
class Temp { #hidden = 1; constructor() { this.c = 20; } get f() { return this.c * 9 / 5 + 32; } }
const withGetter = { get g() { return 1; }, set s(v) {}, [Symbol('k')]: 'sym' };
console.log(new Temp(), withGetter, { err: new RangeError('inside').message });
console.log(['a'.repeat(30), 'b'.repeat(30), 'c'.repeat(30)], { text: 'x'.repeat(90) });
console.log(Object.assign(Object.create({ inherited: 1 }), { own: 2 }), [function named() {}, async () => {}, function* gen() {}]);
console.log(new Array(3), [1, , 3], Object.freeze({ f: 1 }), [[1, 2], [3, 4]], { a: [{ b: { c: {} } }] });
console.log(-0, [-0], 0.1 + 0.2, 1e21, 2n ** 70n, [true, false], 'tab\there', ['tab\there', "it's", 'say "hi"', \`both ' and "\`]);
`,
    },
  },
  {
    name: "ES modules: named, default and namespace imports; live bindings; import.meta",
    main: "main.mjs",
    files: {
      "main.mjs": `
import def, { count, inc } from './counter.mjs';
import * as ns from './counter.mjs';
import { readFileSync } from 'node:fs';
import path from 'node:path';
inc(); inc();
console.log(def, count, ns.count, Object.keys(ns).sort());
console.log(path.basename(import.meta.url), readFileSync(new URL('./data.txt', import.meta.url), 'utf8').trim());
const lazy = await import('./lazy.mjs');
console.log(lazy.default());
`,
      "counter.mjs": "export let count = 0;\nexport function inc() { count++; }\nexport default 'counter';\n",
      "lazy.mjs": "await new Promise((r) => setTimeout(r, 5));\nexport default () => 'lazy loaded';\n",
      "data.txt": "data file\n",
    },
  },
  {
    name: "CommonJS: module.exports, require cache, __dirname, JSON, cycles",
    main: "main.cjs",
    files: {
      "main.cjs": `
const a = require('./a.cjs');
const again = require('./a.cjs');
console.log(a.name, a === again, require('./b.cjs').fromA, require('./config.json').list);
console.log(require('path').basename(__dirname) === require('path').basename(process.cwd()), require.main === module, typeof module.exports);
`,
      "a.cjs": "exports.name = 'a';\nconst b = require('./b.cjs');\nexports.sawB = b.name;\n",
      "b.cjs": "const a = require('./a.cjs');\nexports.name = 'b';\nexports.fromA = a.name;\n",
      "config.json": '{ "list": [1, 2, 3] }',
    },
  },
  {
    name: "the event loop: timers, immediates, nextTick, promises, beforeExit and exit",
    main: "loop.js",
    files: {
      "loop.js": `
const order = [];
setTimeout(() => order.push('timeout'), 0);
setImmediate(() => order.push('immediate'));
Promise.resolve().then(() => order.push('promise'));
process.nextTick(() => order.push('tick'));
order.push('sync');
let n = 0;
const iv = setInterval(() => { if (++n === 3) { clearInterval(iv); console.log('interval ran', n); } }, 2);
const t = setTimeout(() => console.log('never'), 100000); t.unref();
let once = false;
process.on('beforeExit', (code) => { if (!once) { once = true; console.log('beforeExit', code, order.includes('sync')); setTimeout(() => console.log('after beforeExit'), 1); } });
process.on('exit', (code) => console.log('exit', code));
`,
    },
  },
  {
    name: "fs: write, append, readdir with types, stat, rename, rm, promises, missing file error code",
    main: "files.js",
    files: {
      "files.js": `
const fs = require('fs');
const fsp = require('fs/promises');
fs.mkdirSync('out/sub', { recursive: true });
fs.writeFileSync('out/a.txt', 'alpha');
fs.appendFileSync('out/a.txt', '+more');
fs.writeFileSync('out/sub/b.json', JSON.stringify({ b: 1 }));
console.log(fs.readFileSync('out/a.txt', 'utf8'), fs.readdirSync('out').sort(), fs.readdirSync('out', { withFileTypes: true }).map((d) => [d.name, d.isDirectory()]).sort());
console.log(fs.statSync('out/a.txt').size, fs.statSync('out').isDirectory(), fs.existsSync('out/none'));
fs.renameSync('out/a.txt', 'out/c.txt');
try { fs.readFileSync('out/a.txt'); } catch (e) { console.log(e.code, e.syscall, e.errno); }
(async () => {
  await fsp.writeFile('out/p.txt', 'from promises');
  console.log(await fsp.readFile('out/p.txt', 'utf8'), (await fsp.readdir('out')).sort());
  fs.rmSync('out', { recursive: true });
  console.log(fs.existsSync('out'));
  fs.readFile('nope', (err) => console.log('callback', err.code));
})();
`,
    },
  },
  {
    name: "process.exitCode, argv and stdin",
    main: "args.js",
    args: ["--flag", "value"],
    stdin: "line one\nline two\n",
    files: {
      "args.js": `
console.log(process.argv.slice(2));
let data = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (data += c));
process.stdin.on('end', () => { console.log(data.split('\\n').filter(Boolean).length, 'lines'); process.exitCode = 5; });
`,
    },
  },
  {
    name: "an uncaught error exits 1",
    main: "throws.js",
    files: { "throws.js": "console.log('before');\nnull.x;\n" },
  },
  {
    name: "an unhandled rejection exits 1, an async error in a timer too",
    main: "reject.mjs",
    files: { "reject.mjs": "console.log('start');\nsetTimeout(() => { throw new RangeError('late failure'); }, 1);\n" },
  },
  {
    name: "process.exit inside a callback stops at once",
    main: "exit.js",
    files: { "exit.js": "setTimeout(() => { console.log('a'); process.exit(7); console.log('not printed'); }, 1);\nsetTimeout(() => console.log('never'), 50);\n" },
  },
  {
    name: "events, util and assert",
    main: "libs.js",
    files: {
      "libs.js": `
const { EventEmitter } = require('events');
const util = require('util');
const assert = require('assert');
const e = new EventEmitter();
e.once('x', (v) => console.log('once', v));
e.on('x', (v) => console.log('on', v));
e.emit('x', 1); e.emit('x', 2);
console.log(e.listenerCount('x'), util.format('%s:%s', 'a'), util.inspect({ a: { b: { c: { d: 1 } } } }, { depth: 0 }), util.isDeepStrictEqual([1, { a: 2 }], [1, { a: 2 }]));
try { assert.strictEqual(1, 2); } catch (err) { console.log(err.code, err.operator, err.actual, err.expected); }
try { assert.deepStrictEqual({ a: 1 }, { a: '1' }); } catch (err) { console.log(err.name, err.generatedMessage); }
try { e.emit('error', new Error('unhandled emitter error')); } catch (err) { console.log('caught', err.message); }
console.log(util.types.isPromise(Promise.resolve()), util.inspect('str'), util.inspect(new Map([[1, [1, 2]]])));
`,
    },
  },
  {
    name: "path and url",
    main: "paths.js",
    files: {
      "paths.js": `
const path = require('path');
const url = require('url');
console.log(path.join('/a/b', '../c', './d.txt'), path.resolve('/x', 'y', '..', 'z'), path.normalize('a//b/../c/'), path.relative('/data/a/b', '/data/c'));
console.log(path.basename('/p/q/file.tar.gz', '.gz'), path.extname('.bashrc'), path.extname('a.b.c'), path.dirname('/a/b/'), path.parse('/home/u/f.txt'), path.format({ dir: '/d', name: 'n', ext: '.e' }));
console.log(url.fileURLToPath('file:///tmp/a%20b.txt'), url.pathToFileURL('/tmp/a b#c.txt').href, new URL('../x?y=1#z', 'http://h.com/a/b').href);
console.log(new URLSearchParams({ q: 'a b', n: '1' }).toString(), path.isAbsolute('./x'), path.sep, path.delimiter);
`,
    },
  },
  {
    name: "buffer and crypto",
    main: "bytes.js",
    files: {
      "bytes.js": `
const crypto = require('crypto');
const b = Buffer.from('héllo wörld');
console.log(b.length, b.toString('hex'), b.toString('base64'), b.slice(0, 5).toString(), Buffer.concat([b, Buffer.from('!')]).toString());
console.log(Buffer.alloc(4, 'ab'), Buffer.from('ff00', 'hex'), Buffer.byteLength('€'), b.indexOf('wö'), Buffer.compare(Buffer.from('a'), Buffer.from('b')));
const w = Buffer.alloc(8); w.writeUInt32BE(0xdeadbeef, 0); w.writeInt16LE(-2, 4); console.log(w, w.readUInt32BE(0).toString(16), w.readInt16LE(4), JSON.stringify(Buffer.from([1, 2])));
console.log(crypto.createHash('sha256').update('x').update('y').digest('hex'), crypto.createHash('md5').update('abc').digest('hex'), crypto.createHmac('sha256', 'key').update('msg').digest('base64'));
`,
    },
  },
];

function writeTree(root: string, files: Record<string, string>) {
  for (const [p, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), data);
  }
}

/** The message line of an uncaught error (the line after the caret block). */
function errorLine(stderr: string): string | undefined {
  return stderr.split("\n").find((l) => /^[A-Z]\w*(Error|Exception)\b/.test(l) || l.startsWith("[UnhandledPromiseRejection"));
}

describe("node differential: real node and the tab's runtime agree", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const dir = fs.mkdtempSync(path.join(tmp, "case-"));
      writeTree(dir, c.files);
      const real = spawnSync("node", [c.main, ...(c.args ?? [])], { cwd: dir, input: c.stdin ?? "", encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });

      const files = Object.entries(c.files).map(([p, d]) => ({ path: p, data: new TextEncoder().encode(d) }));
      const out = { stdout: "", stderr: "" };
      const dec = { stdout: new TextDecoder(), stderr: new TextDecoder() };
      const ours = await runtime.run(
        { target: { kind: "script", path: `/workspace/${c.main}` }, args: c.args ?? [], execArgv: [], cwd: "/workspace", env: { HOME: "/home/user" }, stdin: new TextEncoder().encode(c.stdin ?? ""), mountPoint: "/workspace", files, dirs: [], readOnly: false },
        { onOutput: (s, d) => (out[s] += dec[s].decode(d, { stream: true })) },
      );
      expect(out.stdout).toBe(real.stdout);
      expect(ours.exitCode).toBe(real.status);
      expect(errorLine(out.stderr)).toBe(errorLine(real.stderr));
    });
  }
});
