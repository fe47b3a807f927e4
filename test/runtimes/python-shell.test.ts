/**
 * `python3` in the workspace shell, against the real CPython (Pyodide under Node): command line,
 * exit codes, stdin, the workspace's own modules, writes reaching the workspace fs (and its
 * journal), Plan mode's read-only view, refusals.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { createShell } from "../../lib/shell";
import type { PythonRuntime } from "../../lib/runtimes/python/runtime";
import { nodePythonRuntime } from "./pyodide-node";

let runtime: PythonRuntime;
beforeAll(async () => {
  runtime = await nodePythonRuntime();
});

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function workspace(files: Record<string, string> = {}, opts: { readOnly?: boolean } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-py-"));
  dirs.push(dir);
  for (const [p, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), data);
  }
  const journal = new ChangeJournal();
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal });
  const shell = await createShell({ fs: fs as unknown as IsoFs, dir, wsfs, readOnly: opts.readOnly, defenseInDepth: false, python: runtime });
  return { dir, shell, journal, read: (p: string) => fs.readFileSync(path.join(dir, p), "utf8"), exists: (p: string) => fs.existsSync(path.join(dir, p)) };
}

describe("python3 command line", () => {
  it("runs a script with its arguments in sys.argv, and python is the same command", async () => {
    const ws = await workspace({ "app.py": "import sys\nprint(sys.argv)\n" });
    const r = await ws.shell.exec("python3 app.py one 'two words'");
    expect(r).toMatchObject({ stdout: "['app.py', 'one', 'two words']\n", stderr: "", exitCode: 0 });
    expect((await ws.shell.exec("python app.py x")).stdout).toBe("['app.py', 'x']\n");
    expect(ws.shell.commandNames()).toEqual(expect.arrayContaining(["python3", "python"]));
  });

  it("runs -c code with its arguments, and reports the version", async () => {
    const ws = await workspace();
    const r = await ws.shell.exec(`python3 -c 'import sys; print(sys.argv[1:], 6*7)' a b`);
    expect(r.stdout).toBe("['a', 'b'] 42\n");
    expect((await ws.shell.exec("python3 --version")).stdout).toMatch(/^Python 3\.\d+\.\d+\n$/);
  });

  it("gives SystemExit's code as the exit code, a message to stderr, and 1 with a traceback for an uncaught exception", async () => {
    const ws = await workspace({ "fail.py": "def f():\n    raise ValueError('bad value')\nf()\n" });
    expect((await ws.shell.exec("python3 -c 'import sys; sys.exit(3)'")).exitCode).toBe(3);
    const msg = await ws.shell.exec(`python3 -c 'raise SystemExit("stopping")'`);
    expect(msg).toMatchObject({ exitCode: 1, stderr: "stopping\n" });
    const r = await ws.shell.exec("python3 fail.py");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^Traceback \(most recent call last\):\n  File "\/workspace\/fail.py", line 3, in <module>/);
    expect(r.stderr).toContain("ValueError: bad value");
    expect(r.stderr).not.toMatch(/runpy|tabula-driver/);
    expect((await ws.shell.exec("python3 fail.py || echo failed=$?")).stdout).toBe("failed=1\n");
  });

  it("says so when the script does not exist (exit 2, as CPython)", async () => {
    const ws = await workspace();
    const r = await ws.shell.exec("python3 nope.py");
    expect(r).toMatchObject({ exitCode: 2, stderr: "python3: can't open file '/workspace/nope.py': [Errno 2] No such file or directory\n" });
  });

  it("reads stdin from a pipe, and runs a program piped in", async () => {
    const ws = await workspace({ "up.py": "import sys\nfor line in sys.stdin:\n    print(line.strip().upper())\n" });
    expect((await ws.shell.exec("printf 'a\\nb\\n' | python3 up.py")).stdout).toBe("A\nB\n");
    expect((await ws.shell.exec("echo 'print(2**10)' | python3")).stdout).toBe("1024\n");
    expect((await ws.shell.exec(`python3 -c 'import sys; print(repr(sys.stdin.read()))' < up.py`)).stdout).toContain("import sys");
    expect((await ws.shell.exec(`python3 -c 'import sys; print(repr(sys.stdin.read()))'`)).stdout).toBe("''\n");
  });

  it("its output feeds a pipe and a redirection", async () => {
    const ws = await workspace();
    expect((await ws.shell.exec("python3 -c 'for i in range(5): print(i)' | wc -l")).stdout.trim()).toBe("5");
    await ws.shell.exec("python3 -c 'print(\"saved\")' > out.txt");
    expect(ws.read("out.txt")).toBe("saved\n");
  });
});

describe("python3's live output", () => {
  it("a lone python3 command line delivers its output to onOutput, line by line, not again in the result", async () => {
    const ws = await workspace();
    const seen: string[] = [];
    const r = await ws.shell.exec(`python3 -c 'import sys; print("one"); print("oops", file=sys.stderr); print("two")'`, { onOutput: (s, t) => seen.push(`${s}:${t}`) });
    expect(seen).toEqual(["stdout:one\n", "stderr:oops\n", "stdout:two\n"]);
    expect(r).toMatchObject({ stdout: "", stderr: "", exitCode: 0 });
    expect(r.env.TABULA_LIVE_OUTPUT).toBeUndefined();
  });

  it("a pipe, a redirection or a list is collected as usual, and the program never sees the live token", async () => {
    const ws = await workspace();
    const seen: string[] = [];
    const onOutput = (_s: string, t: string) => seen.push(t);
    expect((await ws.shell.exec("python3 -c 'print(1)' | cat", { onOutput })).stdout).toBe("1\n");
    expect((await ws.shell.exec("python3 -c 'print(2)'; echo done", { onOutput })).stdout).toBe("2\ndone\n");
    expect(seen).toEqual([]);
    await ws.shell.exec(`python3 -c 'import os; print(sorted(k for k in os.environ if "LIVE" in k))'`, { onOutput });
    expect(seen).toEqual(["[]\n"]);
  });
});

describe("python3 -m", () => {
  it("runs json.tool on stdin", async () => {
    const ws = await workspace();
    const r = await ws.shell.exec(`echo '{"b":1,"a":[1,2]}' | python3 -m json.tool --sort-keys`);
    expect(r.stdout).toBe('{\n    "a": [\n        1,\n        2\n    ],\n    "b": 1\n}\n');
  });

  it("runs unittest over the workspace's tests: exit 1 when one fails, both reported", async () => {
    const ws = await workspace({
      "calc.py": "def add(a, b):\n    return a + b\n",
      "test_calc.py": "import unittest\nfrom calc import add\nclass T(unittest.TestCase):\n    def test_ok(self):\n        self.assertEqual(add(1, 2), 3)\n    def test_bad(self):\n        self.assertEqual(add(1, 1), 3)\n",
    });
    const r = await ws.shell.exec("python3 -m unittest -v test_calc");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/test_ok .* ok/);
    expect(r.stderr).toMatch(/test_bad .* FAIL/);
    expect(r.stderr).toContain("Ran 2 tests");
  });

  it("runs doctest on a workspace file", async () => {
    const ws = await workspace({ "d.py": 'def sq(x):\n    """\n    >>> sq(3)\n    9\n    >>> sq(2)\n    5\n    """\n    return x * x\n' });
    const r = await ws.shell.exec("python3 -m doctest d.py");
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("Failed example:\n    sq(2)");
  });

  it("refuses http.server and pip with a clear message", async () => {
    const ws = await workspace();
    const srv = await ws.shell.exec("python3 -m http.server 8000");
    expect(srv).toMatchObject({ exitCode: 1 });
    expect(srv.stderr).toMatch(/http\.server: cannot listen on a port/);
    for (const cmd of ["pip install requests", "pip3 install requests", "python3 -m pip install requests"]) {
      const r = await ws.shell.exec(cmd);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/package downloads are off/);
    }
  });
});

describe("python3 on the workspace", () => {
  it("imports the workspace's own modules and packages, from the script's directory and from cwd", async () => {
    const ws = await workspace({
      "pkg/__init__.py": "NAME = 'pkg'\n",
      "pkg/util.py": "def twice(x):\n    return 2 * x\n",
      "helper.py": "VALUE = 21\n",
      "scripts/run.py": "import sibling\nprint(sibling.X)\n",
      "scripts/sibling.py": "X = 'next to the script'\n",
    });
    expect((await ws.shell.exec("python3 -c 'import helper, pkg; from pkg.util import twice; print(pkg.NAME, twice(helper.VALUE))'")).stdout).toBe("pkg 42\n");
    expect((await ws.shell.exec("python3 scripts/run.py")).stdout).toBe("next to the script\n");
  });

  it("adds PYTHONPATH's directories to sys.path, unless -E or -I", async () => {
    const ws = await workspace({ "src/lib_a.py": "A = 'from src'\n" });
    expect((await ws.shell.exec("PYTHONPATH=src python3 -c 'import lib_a; print(lib_a.A)'")).stdout).toBe("from src\n");
    const isolated = await ws.shell.exec("PYTHONPATH=src python3 -I -c 'import lib_a'");
    expect(isolated.stderr).toContain("ModuleNotFoundError: No module named 'lib_a'");
  });

  it("imports an edited module afresh on the next run, and leaves no __pycache__ behind", async () => {
    const ws = await workspace({ "m.py": "X = 1\n" });
    expect((await ws.shell.exec("python3 -c 'import m; print(m.X)'")).stdout).toBe("1\n");
    fs.writeFileSync(path.join(ws.dir, "m.py"), "X = 2\n");
    expect((await ws.shell.exec("python3 -c 'import m; print(m.X)'")).stdout).toBe("2\n");
    expect(ws.exists("__pycache__")).toBe(false);
  });

  it("reads workspace files relative to cwd, and its writes, deletions and new directories reach the workspace fs and its journal", async () => {
    const ws = await workspace({ "data/in.csv": "name,n\na,1\nb,2\n", "old.txt": "x", "sub/keep.txt": "k" });
    const events: string[] = [];
    ws.journal.subscribe((e) => events.push(`${e.kind}:${e.path}:${e.origin}`));
    const code = [
      "import csv, os",
      "rows = list(csv.DictReader(open('in.csv')))",
      "open('../total.txt', 'w').write(str(sum(int(r['n']) for r in rows)))",
      "os.remove('../old.txt')",
      "os.makedirs('../made/deeper')",
    ].join("\n");
    fs.writeFileSync(path.join(ws.dir, "job.py"), code);
    const r = await ws.shell.exec("cd data && python3 ../job.py");
    expect(r).toMatchObject({ stderr: "", exitCode: 0 });
    expect(ws.read("total.txt")).toBe("3");
    expect(ws.exists("old.txt")).toBe(false);
    expect(fs.statSync(path.join(ws.dir, "made/deeper")).isDirectory()).toBe(true);
    expect(ws.read("sub/keep.txt")).toBe("k");
    expect(events).toEqual(expect.arrayContaining(["write:total.txt:shell", "delete:old.txt:shell", "mkdir:made/deeper:shell"]));
    expect((await ws.shell.exec("cat total.txt")).stdout).toBe("3");
  });

  it("does not see .git or ignored paths, and keeps ignored files when it removes a directory", async () => {
    const ws = await workspace({ ".gitignore": "node_modules/\n", "node_modules/big/index.js": "x", "lib/a.txt": "a", "lib/node_modules/n.txt": "kept" });
    fs.mkdirSync(path.join(ws.dir, ".git"));
    fs.writeFileSync(path.join(ws.dir, ".git/HEAD"), "ref: refs/heads/main\n");
    const seen = await ws.shell.exec("python3 -c 'import os; print(sorted(os.path.exists(p) for p in [\".git\", \"node_modules\", \"lib/a.txt\"]))'");
    expect(seen.stdout).toBe("[False, False, True]\n");
    const r = await ws.shell.exec("python3 -c 'import shutil; shutil.rmtree(\"lib\")'");
    expect(r.exitCode).toBe(0);
    expect(ws.exists("lib/a.txt")).toBe(false);
    expect(ws.read("lib/node_modules/n.txt")).toBe("kept");
    expect(ws.read(".git/HEAD")).toBe("ref: refs/heads/main\n");
  });

  it("a program cannot write into .git: the write is refused with a warning, and nothing lands there", async () => {
    const ws = await workspace({ "a.txt": "a" });
    fs.mkdirSync(path.join(ws.dir, ".git"));
    const r = await ws.shell.exec(`python3 -c "import os; os.makedirs('.git/hooks', exist_ok=True); open('.git/hooks/pre-commit', 'w').write('evil')"`);
    expect(r.stderr).toMatch(/python3: could not (write|create) \.git/);
    expect(ws.exists(".git/hooks/pre-commit")).toBe(false);
  });

  it("in Plan mode's read-only view, reading works and a write fails with a read-only error, changing nothing", async () => {
    const ws = await workspace({ "a.txt": "original\n" });
    const ro = ws.shell.readOnlyView();
    expect((await ro.exec("python3 -c 'print(open(\"a.txt\").read(), end=\"\")'")).stdout).toBe("original\n");
    for (const code of ["open('a.txt', 'w').write('x')", "open('new.txt', 'w')", "import os; os.remove('a.txt')", "import os; os.mkdir('d')", "open('a.txt', 'a').write('more')"]) {
      const r = await ro.exec(`python3 -c "${code}"`);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/OSError: \[Errno \d+\] Read-only file system/);
    }
    expect(ws.read("a.txt")).toBe("original\n");
    expect(ws.exists("new.txt")).toBe(false);
    expect(ws.exists("d")).toBe(false);
  });

  it("sees the shell's exported environment and cwd", async () => {
    const ws = await workspace({ "sub/.keep": "" });
    const r = await ws.shell.exec("export GREETING=hi; cd sub && python3 -c 'import os; print(os.environ[\"GREETING\"], os.getcwd())'");
    expect(r.stdout).toBe("hi /workspace/sub\n");
  });
});

describe("isLoneCommand", () => {
  it("accepts one python3 command with quoted code, refuses pipes, redirections, lists and substitutions", async () => {
    const { isLoneCommand } = await import("../../lib/runtimes/python/live-output");
    const names = ["python3", "python"];
    for (const ok of [`python3 -c 'print("a|b>c"); x = (1)'`, "python app.py --flag 'two words'", `python3 -c "print('hi')"`, "  python3 x.py"]) expect(isLoneCommand(ok, names), ok).toBe(true);
    for (const no of ["python3 x.py | cat", "python3 x.py > out", "python3 x.py; ls", "python3 x.py && ls", `python3 -c "$(cat f)"`, "python3 $(echo x.py)", "python3x a", "ls python3", "python3 'unclosed"]) expect(isLoneCommand(no, names), no).toBe(false);
  });
});
