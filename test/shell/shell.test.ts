import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { IsoFs } from "../../lib/fs";
import { capOutput, CommandHistory, completions, createShell, DEFAULT_MOUNT_POINT, toShellPath, toWorkspacePath } from "../../lib/shell";
import { tempWorkspace, type TempWorkspace } from "./helpers";
import { testDefenseInDepth } from "../helpers/defense-in-depth";

let ws: TempWorkspace;

beforeEach(async () => {
  ws = await tempWorkspace({
    "a.txt": "hello\nworld\n",
    "src/one.ts": "// TODO one\nexport const one = 1;\n",
    "src/two.ts": "export const two = 2;\n",
    "src/deep/three.ts": "// TODO three\n",
    "notes.md": "# notes\n",
  });
});
afterEach(() => ws.cleanup());

describe("shell basics", () => {
  it("runs in the workspace mount with cwd defaulting to the root", async () => {
    const r = await ws.run("pwd; ls");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("/workspace\na.txt\nnotes.md\nsrc\n");
    expect(r.cwd).toBe("/workspace");
    expect(ws.shell.mountPoint).toBe(DEFAULT_MOUNT_POINT);
  });

  it("pipes", async () => {
    expect((await ws.run("cat a.txt | grep wor | tr a-z A-Z")).stdout).toBe("WORLD\n");
    expect((await ws.run("ls src | wc -l")).stdout.trim()).toBe("3");
  });

  it("redirections: > >> 2> &> 2>&1 <", async () => {
    await ws.run("echo one > out.txt; echo two >> out.txt");
    expect(ws.read("out.txt")).toBe("one\ntwo\n");
    await ws.run("ls nope 2> err.txt");
    expect(ws.read("err.txt")).toMatch(/nope/);
    await ws.run("{ echo o; ls nope; } &> both.txt");
    expect(ws.read("both.txt")).toMatch(/^o\n.*nope/s);
    expect((await ws.run("ls nope 2>&1 | wc -l")).stdout.trim()).toBe("1");
    expect((await ws.run("wc -l < a.txt")).stdout.trim()).toBe("2");
  });

  it("globs and brace expansion", async () => {
    expect((await ws.run("echo src/*.ts")).stdout).toBe("src/one.ts src/two.ts\n");
    expect((await ws.run("shopt -s globstar; echo src/**/*.ts")).stdout).toBe("src/deep/three.ts src/one.ts src/two.ts\n");
    expect((await ws.run("echo {a,b}{1,2}")).stdout).toBe("a1 a2 b1 b2\n");
  });

  it("here-docs and here-strings, keeping indentation", async () => {
    await ws.run("cat > hd.txt <<EOF\n  indented $((1+1))\nEOF");
    expect(ws.read("hd.txt")).toBe("  indented 2\n");
    expect((await ws.run("cat <<'EOF'\n$HOME\nEOF")).stdout).toBe("$HOME\n");
    expect((await ws.run("tr a-z A-Z <<< shout")).stdout).toBe("SHOUT\n");
  });

  it("substitutions, loops, functions, conditionals", async () => {
    expect((await ws.run('n=$(ls src | wc -l); echo "n=$n"')).stdout).toBe("n=3\n");
    expect((await ws.run("for f in src/*.ts; do basename $f .ts; done")).stdout).toBe("one\ntwo\n");
    expect((await ws.run('f() { echo "[$1]"; }; f x')).stdout).toBe("[x]\n");
    expect((await ws.run("if [ -f a.txt ]; then echo yes; else echo no; fi")).stdout).toBe("yes\n");
    expect((await ws.run("echo $((6 * 7))")).stdout).toBe("42\n");
  });

  it("carries cd and exported variables through the returned cwd/env", async () => {
    const r1 = await ws.run("cd src && export FOO=bar");
    expect(r1.cwd).toBe("/workspace/src");
    expect(r1.env.FOO).toBe("bar");
    const r2 = await ws.shell.exec("pwd; echo $FOO; ls", { cwd: r1.cwd, env: r1.env });
    expect(r2.stdout).toBe("/workspace/src\nbar\ndeep\none.ts\ntwo.ts\n");
    const r3 = await ws.shell.exec("cd ..; pwd", { cwd: r2.cwd, env: r2.env });
    expect(r3.cwd).toBe("/workspace");
  });

  it("accepts a workspace-relative cwd and falls back to the root when cwd vanished", async () => {
    expect((await ws.shell.exec("pwd", { cwd: "src/deep" })).stdout).toBe("/workspace/src/deep\n");
    const r = await ws.shell.exec("pwd", { cwd: "/workspace/gone" });
    expect(r.stdout).toBe("/workspace\n");
    expect(r.stderr).toMatch(/gone/);
  });

  it("exit codes and $?", async () => {
    expect((await ws.run("false")).exitCode).toBe(1);
    expect((await ws.run("exit 3")).exitCode).toBe(3);
    expect((await ws.run("false; echo $?")).stdout).toBe("1\n");
    expect((await ws.run("ls nope")).exitCode).not.toBe(0);
  });

  it("command not found is 127 with bash's message", async () => {
    const r = await ws.run("frobnicate --now");
    expect(r.exitCode).toBe(127);
    expect(r.stderr).toBe("bash: frobnicate: command not found\n");
  });

  it("never throws: a bad redirect target becomes exit 1 + stderr", async () => {
    const r = await ws.run("echo x > /workspace/missing/dir/f.txt");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/No such file or directory/);
    expect((await ws.run("echo x > .git/HEAD")).exitCode).not.toBe(0);
  });

  it("/tmp is scratch memory, outside the workspace", async () => {
    const r = await ws.run("echo scratch > /tmp/s.txt && cat /tmp/s.txt && ls /tmp");
    expect(r.stdout).toBe("scratch\ns.txt\n");
    expect(fs.existsSync(path.join(ws.dir, "tmp"))).toBe(false);
    expect(ws.journal.since(0)).toEqual([]);
  });

  it("records shell writes in the journal with origin 'shell'", async () => {
    await ws.run("echo x > new.txt; mkdir -p d/e; mv new.txt d/e/moved.txt; rm notes.md; cp a.txt b.txt");
    const events = ws.journal.since(0)!;
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.origin === "shell")).toBe(true);
    const kinds = events.map((e) => `${e.kind}:${e.path}`);
    expect(kinds).toContain("write:new.txt");
    expect(kinds).toContain("mkdir:d/e");
    expect(kinds).toContain("rename:d/e/moved.txt");
    expect(kinds).toContain("delete:notes.md");
    expect(kinds).toContain("write:b.txt");
    expect(ws.read("d/e/moved.txt")).toBe("x\n");
  });

  it("sees .git read-only: ls -a and cat work, writes are refused", async () => {
    await ws.run("git init -q");
    const r = await ws.run("ls -a; cat .git/HEAD");
    expect(r.stdout).toMatch(/^\.git$/m);
    expect(r.stdout).toMatch(/ref: refs\/heads\/main/);
    const before = fs.readFileSync(path.join(ws.dir, ".git/HEAD"), "utf8");
    expect((await ws.run("echo junk > .git/HEAD")).exitCode).not.toBe(0);
    const rm = await ws.run("rm -rf .git");
    expect(rm.exitCode).not.toBe(0);
    expect(rm.stderr).toMatch(/Permission denied/);
    expect((await ws.run("touch .git/x; mkdir .git/y; cp a.txt .git/z")).exitCode).not.toBe(0);
    expect(fs.readFileSync(path.join(ws.dir, ".git/HEAD"), "utf8")).toBe(before);
    expect(fs.existsSync(path.join(ws.dir, ".git/x"))).toBe(false);
  });

  it("reads through the WorkspaceFs read cache and sees outside writes", async () => {
    await ws.run("cat a.txt");
    expect(ws.wsfs.readCache.size).toBeGreaterThan(0);
    ws.write("a.txt", "changed!\n");
    expect((await ws.run("cat a.txt")).stdout).toBe("changed!\n");
  });

  it("sees its own writes within one command line (metadata memo)", async () => {
    const r = await ws.run("mkdir fresh && ls -d fresh && echo hi > fresh/f && ls fresh && rm -r fresh && ls fresh; echo rc=$?");
    expect(r.stdout).toBe("fresh\nf\nrc=2\n");
  });

  it("leaves binary output bytes as they are", async () => {
    ws.write("bin.dat", new Uint8Array([0xff, 0x00, 0x41, 0xfe]));
    const r = await ws.run("cat bin.dat");
    expect([...r.stdout].map((c) => c.charCodeAt(0))).toEqual([0xff, 0x00, 0x41, 0xfe]);
    expect((await ws.run("wc -c < bin.dat")).stdout.trim()).toBe("4");
  });

  it("copes with non-UTF-8 file names", async () => {
    const weird = Buffer.from([0x6e, 0xe9, 0x2e, 0x74, 0x78, 0x74]); // "n\xe9.txt" in latin1
    fs.writeFileSync(Buffer.concat([Buffer.from(ws.dir + "/"), weird]), "x");
    const r = await ws.run("ls; find . -name '*.txt' | wc -l; git init -q && git status --porcelain | wc -l");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/a\.txt/);
  });

  it("supports the usual file commands over the workspace", async () => {
    const r = await ws.run("grep -rn TODO . | sort; find . -name '*.ts' | sort; head -1 a.txt; wc -l a.txt; sed -n 2p a.txt");
    // (just-bash's grep prints "src/…" for "grep -r … ." where GNU grep prints "./src/…")
    expect(r.stdout).toBe("src/deep/three.ts:1:// TODO three\nsrc/one.ts:1:// TODO one\n./src/deep/three.ts\n./src/one.ts\n./src/two.ts\nhello\n2 a.txt\nworld\n");
    await ws.run("sed -i 's/hello/HELLO/' a.txt && chmod +x a.txt && ln -s a.txt link.txt");
    expect(ws.read("a.txt")).toBe("HELLO\nworld\n");
    expect(fs.statSync(path.join(ws.dir, "a.txt")).mode & 0o111).not.toBe(0);
    expect(fs.readlinkSync(path.join(ws.dir, "link.txt"))).toBe("a.txt");
    expect((await ws.run("cat link.txt")).stdout).toBe("HELLO\nworld\n");
  });
});

describe("limits", () => {
  it("times out with exit code 124", async () => {
    const t0 = Date.now();
    const r = await ws.run("sleep 5", { timeoutMs: 300 });
    expect(r.exitCode).toBe(124);
    expect(r.stderr).toMatch(/timed out after 0\.3s/);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it("cancels `sleep 30` through an AbortSignal promptly (130, ^C), and the shell still works", async () => {
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 200);
    const r = await ws.run("sleep 30", { signal: ac.signal });
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toBe("^C\n");
    expect(Date.now() - t0).toBeLessThan(1000);
    expect((await ws.run("echo still alive")).stdout).toBe("still alive\n");
  });

  it("cancels a loop, and an already-aborted signal", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 150);
    expect((await ws.run("while true; do sleep 0.01; done", { signal: ac.signal })).exitCode).toBe(130);
    const pre = new AbortController();
    pre.abort();
    expect((await ws.run("echo never", { signal: pre.signal })).exitCode).toBe(130);
  });

  it("caps output with a clear marker", async () => {
    const shell = await createShell({ fs: fs as unknown as IsoFs, dir: ws.dir, limits: { maxOutputBytes: 1000 }, defenseInDepth: testDefenseInDepth });
    const r = await shell.exec("seq 1 5000");
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBeLessThan(1100);
    expect(r.stdout).toMatch(/^1\n2\n3\n/);
    expect(r.stdout).toMatch(/\[output truncated: \d+ bytes omitted\]\n$/);
    const omitted = Number(/\[output truncated: (\d+) bytes omitted\]/.exec(r.stdout)![1]);
    const full = (await ws.run("seq 1 5000")).stdout;
    expect(omitted + r.stdout.indexOf("\n[output truncated")).toBe(full.length);
  });

  it("capOutput keeps stderr visible", () => {
    const c = capOutput("x".repeat(5000), "boom\n", 100);
    expect(c.stderr).toBe("boom\n");
    expect(c.stdout.startsWith("x".repeat(95))).toBe(true);
  });
});

describe("paths", () => {
  it("converts between shell and workspace paths", () => {
    expect(ws.shell.toShellPath("src/a.ts")).toBe("/workspace/src/a.ts");
    expect(ws.shell.toShellPath("")).toBe("/workspace");
    expect(ws.shell.toWorkspacePath("/workspace/src/a.ts")).toBe("src/a.ts");
    expect(ws.shell.toWorkspacePath("../a.ts", "/workspace/src")).toBe("a.ts");
    expect(ws.shell.toWorkspacePath("/tmp/x")).toBeNull();
    expect(toShellPath("/ws", "a/b")).toBe("/ws/a/b");
    expect(toWorkspacePath("/ws", "b", "/ws/a")).toBe("a/b");
  });
});

describe("completions", () => {
  it("completes command names, git subcommands, branches and paths", async () => {
    const c1 = await completions(ws.shell, "gre", 3);
    expect(c1.candidates).toContain("grep");
    expect(c1.start).toBe(0);
    expect((await completions(ws.shell, "echo hi | he")).candidates).toEqual(["head", "help"]);
    expect((await completions(ws.shell, "git sta")).candidates).toEqual(["stash", "status"]);
    const c4 = await completions(ws.shell, "cat src/o");
    expect(c4.candidates).toEqual(["src/one.ts"]);
    expect(c4.start).toBe(4);
    expect((await completions(ws.shell, "cd s")).candidates).toEqual(["src/"]);
    expect((await completions(ws.shell, "ls ", 3, "/workspace/src")).candidates).toEqual(["deep/", "one.ts", "two.ts"]);
    await ws.run("git init -q && git add -A && git commit -qm i && git branch feature-x");
    expect((await completions(ws.shell, "git checkout feat")).candidates).toEqual(["feature-x"]);
    ws.write("with space.txt", "x");
    expect((await completions(ws.shell, "cat with")).candidates).toEqual(["with\\ space.txt"]);
  });
});

describe("CommandHistory", () => {
  it("is bounded, dedupes consecutive entries, navigates and round-trips through JSON", () => {
    const h = new CommandHistory(3);
    for (const c of ["ls", "ls", "pwd", "", "  ", "git status", "echo 1"]) h.add(c);
    expect(h.entries()).toEqual(["pwd", "git status", "echo 1"]);
    expect(h.previous("draft")).toBe("echo 1");
    expect(h.previous()).toBe("git status");
    expect(h.next()).toBe("echo 1");
    expect(h.next()).toBe("draft");
    expect(h.search("git")).toEqual(["git status"]);
    const copy = CommandHistory.fromJSON(JSON.stringify(h));
    expect(copy.entries()).toEqual(h.entries());
    expect(copy.max).toBe(3);
    expect(CommandHistory.fromJSON("not json").size).toBe(0);
  });
});
