/**
 * Mutating git subcommands: each step runs through our shell on one copy of a repository and
 * through native git on another; afterwards the two must agree on HEAD, the index
 * (`ls-files -s`), `status --porcelain`, refs, stashes and the work tree files, and (unless
 * marked) on the output.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cloneDir, gitEnv, native, nativeSh, normalize, tempWorkspace, tick, type TempWorkspace } from "./helpers";

let ws: TempWorkspace;
let twin: string;

function worktreeDigest(dir: string): string {
  const h = createHash("sha256");
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      if (rel === "" && name === ".git") continue;
      const r = rel === "" ? name : rel + "/" + name;
      const st = fs.lstatSync(path.join(dir, r));
      if (st.isDirectory()) walk(r);
      else h.update(`${r}\0${(st.mode & 0o111) !== 0}\0`).update(fs.readFileSync(path.join(dir, r)));
    }
  };
  walk("");
  return h.digest("hex");
}

function state(dir: string) {
  return {
    head: native(dir, ["rev-parse", "-q", "--verify", "HEAD"]).stdout,
    branch: native(dir, ["symbolic-ref", "-q", "--short", "HEAD"]).stdout,
    index: native(dir, ["ls-files", "-s"]).stdout,
    status: native(dir, ["status", "--porcelain", "-uall"]).stdout,
    refs: native(dir, ["for-each-ref", "--format=%(refname) %(objectname)"]).stdout,
    stash: native(dir, ["stash", "list"]).stdout,
    files: worktreeDigest(dir),
  };
}

/** Run `cmd` on both; compare state always and output unless `outputs` is false. */
async function step(cmd: string, opts: { outputs?: boolean; cwd?: string } = {}) {
  const at = tick();
  const sub = opts.cwd ? "/" + opts.cwd : "";
  const n = nativeSh(twin + sub, `${cmd} 2>&1; echo "[rc=$?]"`, at);
  const r = await ws.shell.exec(`${cmd} 2>&1; echo "[rc=$?]"`, { env: gitEnv(at), cwd: opts.cwd });
  if (opts.outputs !== false) expect(r.stdout, cmd).toBe(normalize(n, twin));
  expect(state(ws.dir), cmd).toEqual(state(twin));
  return r.stdout;
}

function writeBoth(rel: string, data: string) {
  for (const d of [ws.dir, twin]) {
    fs.mkdirSync(path.dirname(path.join(d, rel)), { recursive: true });
    fs.writeFileSync(path.join(d, rel), data);
  }
}

function rmBoth(rel: string) {
  for (const d of [ws.dir, twin]) fs.rmSync(path.join(d, rel), { recursive: true });
}

beforeEach(async () => {
  ws = await tempWorkspace({
    "a.txt": "alpha\n",
    "b.txt": "bravo\n",
    "src/c.ts": "export const c = 1;\n",
    "src/d.ts": "export const d = 1;\n",
    ".gitignore": "*.log\n",
  });
  native(ws.dir, ["init", "-q", "-b", "main"]);
  nativeSh(ws.dir, "git add -A && git commit -q -m base", tick());
  twin = cloneDir(ws.dir);
});
afterEach(() => {
  ws.cleanup();
  fs.rmSync(twin, { recursive: true, force: true });
});

describe("git add / commit", () => {
  it("add paths, add ., add -A, commit -m, commit -am, --allow-empty, nothing to commit", async () => {
    writeBoth("a.txt", "alpha 2\n");
    writeBoth("new.txt", "new\n");
    writeBoth("src/e.ts", "e\n");
    writeBoth("debug.log", "ignored\n");
    await step("git add a.txt");
    await step("git commit -m 'edit a'");
    await step("git add .", { cwd: "src" });
    await step("git status");
    await step("git commit -m 'add e'");
    rmBoth("b.txt");
    writeBoth("src/c.ts", "export const c = 2;\n");
    await step("git add -A");
    await step("git commit -m 'many\n\nwith body'");
    writeBoth("a.txt", "alpha 3\n");
    await step("git commit -am 'commit -a'");
    await step("git commit -m 'nothing'");
    await step("git commit --allow-empty -m 'empty'");
    await step("git add debug.log");
    await step("git add -f debug.log");
    await step("git add missing.txt");
    await step("git log --oneline");
  });

  it("amend", async () => {
    writeBoth("a.txt", "amended\n");
    await step("git commit -am first");
    writeBoth("b.txt", "amended b\n");
    await step("git add b.txt && git commit --amend -m 'first, amended'");
  });
});

describe("git rm / mv / restore / reset", () => {
  it("rm, rm --cached, rm -r, refusals", async () => {
    await step("git rm a.txt");
    await step("git rm --cached b.txt");
    await step("git rm src");
    await step("git rm -r src");
    await step("git rm nope.txt");
    await step("git commit -qm removed");
    writeBoth("b.txt", "changed\n");
    await step("git add b.txt && git commit -qm readd");
    writeBoth("b.txt", "changed again\n");
    await step("git rm b.txt");
    await step("git rm -f b.txt");
  });

  it("mv a file, into a directory, a directory; status shows renames", async () => {
    await step("git mv a.txt a2.txt");
    await step("git status");
    await step("git status -s");
    await step("git mv b.txt src");
    await step("git mv src lib");
    await step("git mv missing.txt x");
    await step("git mv a2.txt lib/b.txt");
    await step("git commit -qm moved");
    await step("git log --stat -1");
  });

  it("restore, restore --staged, checkout -- path", async () => {
    writeBoth("a.txt", "dirty a\n");
    writeBoth("b.txt", "dirty b\n");
    await step("git add b.txt");
    await step("git restore a.txt");
    await step("git restore --staged b.txt");
    await step("git restore b.txt");
    writeBoth("src/c.ts", "dirty c\n");
    await step("git checkout -- src/c.ts");
    await step("git restore nope");
    writeBoth("a.txt", "x\n");
    await step("git add a.txt && git restore --staged --worktree a.txt");
  });

  it("reset --soft / --mixed / --hard, HEAD~N, paths", async () => {
    writeBoth("a.txt", "a1\n");
    await step("git commit -qam c1");
    writeBoth("a.txt", "a2\n");
    writeBoth("n.txt", "n\n");
    await step("git add -A && git commit -qm c2");
    await step("git reset --soft HEAD~1");
    await step("git status -s");
    await step("git reset");
    await step("git add -A && git commit -qm again");
    await step("git reset HEAD~1");
    writeBoth("b.txt", "dirty\n");
    await step("git add b.txt");
    await step("git reset -- b.txt");
    await step("git add -A");
    await step("git reset --hard HEAD~1");
    await step("git reset --hard");
  });
});

describe("git branch / switch / checkout", () => {
  it("branch create/list/delete, switch, switch -c, checkout -b, carrying local changes, refusing conflicts", async () => {
    await step("git branch feature");
    await step("git branch");
    await step("git branch feature");
    await step("git switch feature");
    writeBoth("a.txt", "on feature\n");
    writeBoth("f.txt", "feature file\n");
    await step("git add -A && git commit -qm 'feature work'");
    await step("git switch main");
    await step("git branch -d feature");
    await step("git checkout -b topic");
    writeBoth("b.txt", "local change\n");
    // b.txt is the same on both branches: carried along ("M\tb.txt" on stdout; native git's
    // merged 2>&1 order differs from ours only by stdio buffering).
    expect(await step("git switch feature", { outputs: false })).toBe("M\tb.txt\nSwitched to branch 'feature'\n[rc=0]\n");
    await step("git switch main", { outputs: false });
    writeBoth("a.txt", "conflicting local change\n");
    await step("git switch feature"); // a.txt differs between the branches: refused
    await step("git checkout -- a.txt b.txt");
    await step("git switch -c other feature");
    await step("git branch -v");
    await step("git branch -D topic");
    await step("git branch -d other");
    await step("git switch nonexistent");
    await step("git checkout main && git branch -m feature renamed && git branch");
  });

  it("detached HEAD checkout and back", async () => {
    writeBoth("a.txt", "second\n");
    await step("git commit -qam second");
    await step("git checkout HEAD~1", { outputs: false });
    await step("git status", { outputs: false });
    await step("git checkout main", { outputs: false });
  });

  it("checkout <rev> -- path updates the index and the file", async () => {
    writeBoth("a.txt", "v2\n");
    await step("git commit -qam v2");
    await step("git checkout HEAD~1 -- a.txt");
  });
});

describe("git stash", () => {
  it("stash push / list / pop with staged, unstaged and (-u) untracked changes", async () => {
    writeBoth("a.txt", "staged\n");
    await step("git add a.txt");
    writeBoth("b.txt", "unstaged\n");
    writeBoth("untracked.txt", "u\n");
    writeBoth("newdir/x.txt", "x\n");
    await step("git stash -u");
    expect(ws.exists("untracked.txt")).toBe(false);
    expect(ws.read("a.txt")).toBe("alpha\n");
    await step("git stash list");
    await step("git stash pop", { outputs: false });
    expect(ws.read("b.txt")).toBe("unstaged\n");
    expect(ws.read("untracked.txt")).toBe("u\n");
  });

  it("stash -m, apply, drop, show, clear", async () => {
    writeBoth("a.txt", "one\n");
    await step("git stash push -m 'first stash'");
    writeBoth("b.txt", "two\n");
    await step("git stash");
    await step("git stash list");
    await step("git stash show");
    await step("git stash show -p stash@{1}");
    await step("git stash apply stash@{1}", { outputs: false });
    await step("git stash drop stash@{1}", { outputs: false });
    await step("git stash list");
    await step("git checkout -- . && git stash pop", { outputs: false });
    await step("git stash list");
    await step("git stash pop");
    await step("git stash");
  });

  it("native git pops a stash -u written by our git", async () => {
    writeBoth("a.txt", "mod\n");
    writeBoth("dir/u1.txt", "u1\n");
    writeBoth("u2.txt", "u2\n");
    const r1 = await ws.run("git stash push --include-untracked");
    expect(r1.exitCode, r1.stderr).toBe(0);
    expect(ws.exists("dir/u1.txt")).toBe(false);
    expect((await ws.run("git status --porcelain")).stdout).toBe("");
    const pop = native(ws.dir, ["stash", "pop"]);
    expect(pop.code, pop.out).toBe(0);
    expect(ws.read("dir/u1.txt")).toBe("u1\n");
    expect(ws.read("a.txt")).toBe("mod\n");
    expect(native(ws.dir, ["status", "--porcelain"]).stdout).toBe(" M a.txt\n?? dir/\n?? u2.txt\n");
  });
});

describe("git tag / config / init", () => {
  it("tag create, annotate, list, delete", async () => {
    await step("git tag v1");
    await step("git tag -a v2 -m 'two'");
    await step("git tag");
    await step("git tag v1");
    await step("git tag -d v1");
    await step("git tag -d nope");
    await step("git show v2 --stat");
  });

  it("config get/set and the commit author", async () => {
    await step("git config user.name 'Config Name' && git config user.email cfg@example.com");
    await step("git config user.name");
    const r = await ws.shell.exec("git config user.name; git commit -q --allow-empty -m x && git log -1 --format='%an <%ae>'");
    expect(r.stdout).toBe("Config Name\nConfig Name <cfg@example.com>\n");
  });

  it("default author when nothing is configured; init and re-init", async () => {
    const fresh = await tempWorkspace({ "f.txt": "f\n" });
    try {
      const r = await fresh.shell.exec("git init -q && git add . && git commit -qm first && git log --format='%an <%ae>'");
      expect(r.stdout, r.stderr).toBe("Tabula User <user@tabula.local>\n");
      expect((await fresh.shell.exec("git init")).stdout).toBe("Reinitialized existing Git repository in /workspace/.git/\n");
    } finally {
      fresh.cleanup();
    }
  });
});

describe("journal", () => {
  it("records work tree changes made by git with origin 'git'", async () => {
    writeBoth("a.txt", "feature\n");
    await step("git switch -q -c feature && git commit -qam f && git switch -q main");
    const seq = ws.journal.seq;
    await ws.run("git switch -q feature");
    expect(ws.journal.since(seq)!.map((e) => `${e.kind}:${e.path}:${e.origin}`)).toEqual(["write:a.txt:git"]);
  });
});
