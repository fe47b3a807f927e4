/**
 * Our `git` against native git on the same repository: same command, same fixed identity and
 * dates, outputs compared after replacing the temp dir by /workspace.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneDir, gitEnv, native, nativeSh, normalize, tempWorkspace, tick, type TempWorkspace } from "./helpers";

let ws: TempWorkspace;
let at: number;

beforeAll(async () => {
  ws = await tempWorkspace({
    "a.txt": "line1\nline2\nline3\n",
    "src/main.ts": "function main() {\n  const a = 1;\n  const b = 2;\n  const c = 3;\n  const d = 4;\n  const e = 5;\n  return a + b;\n}\n",
    "src/util/strings.ts": "export const upper = (s: string) => s.toUpperCase();\n",
    "docs/readme.md": "# Title\n\nSome text\n",
    "bin.dat": new Uint8Array([0, 1, 2, 3, 255]),
  });
  const d = ws.dir;
  native(d, ["init", "-q", "-b", "main"]);
  nativeSh(d, "git add -A && git commit -q -m 'initial commit'", tick());
  ws.write("a.txt", "line1\nline2 changed\nline3\nline4\n");
  ws.write("src/main.ts", "function main() {\n  const a = 1;\n  const b = 2;\n  const c = 3;\n  const d = 4;\n  const e = 6;\n  return a + b;\n}\n");
  ws.write("bin.dat", new Uint8Array([0, 1, 2, 3, 4, 255]));
  nativeSh(d, "git commit -q -am 'second commit\n\nwith a body\n\nand a second paragraph'", tick());
  nativeSh(d, "git tag v1 && git tag -a v2 -m 'release two' && git branch feature && git branch -c feature zz-other", tick());
  ws.write("docs/guide.md", "guide\n");
  nativeSh(d, "git add docs/guide.md && git commit -q -m 'add guide'", tick());
  // Uncommitted state: staged new file, unstaged edit, deletion, untracked dir and file, a rename.
  ws.write("a.txt", "line1\nline2 changed again\nline3\nline4\n");
  ws.write("new.txt", "new file\n");
  ws.write("untracked/deep/x.txt", "u\n");
  ws.write("top-untracked.txt", "t\n");
  ws.write(".gitignore", "*.log\nbuild/\n");
  ws.write("debug.log", "ignored\n");
  ws.write("build/out.js", "ignored\n");
  nativeSh(d, "git add new.txt && git mv src/util/strings.ts src/util/text.ts && rm docs/readme.md");
  at = tick();
});
afterAll(() => ws.cleanup());

async function both(cmd: string, cwd = "") {
  const nat = nativeSh(ws.dir + (cwd ? "/" + cwd : ""), `${cmd} 2>&1; echo "[rc=$?]"`, at);
  const r = await ws.shell.exec(`${cmd} 2>&1; echo "[rc=$?]"`, { env: gitEnv(at), cwd: cwd || undefined });
  return { native: normalize(nat, ws.dir), ours: r.stdout };
}

const SAME = [
  "git status",
  "git status -s",
  "git status --short --branch",
  "git status --porcelain",
  "git status -uno",
  "git log",
  "git log --oneline",
  "git log --oneline -n 2",
  "git log -2 --oneline",
  "git log --oneline --decorate",
  "git log --stat",
  "git log --oneline --stat",
  "git log -p -1",
  "git log --format='%H %h %an <%ae> %s'",
  "git log -1 --date=iso",
  "git log -1 --date=iso8601-strict",
  "git log -1 --date=rfc",
  "git log -1 --date=short --pretty=fuller",
  "git log -1 --date=raw",
  "git log -1 --date=unix",
  "git log -1 --date=local",
  "git log -1 --date=iso-local",
  "git log --date=short --format='%h %ad %cd %ai %s'",
  "git log -1 --date='format:%Y/%m/%d %H:%M:%S %z %a %b %e %j %y %I %p %%'",
  "git log -1 --date='format-local:%F %T %A %B'",
  "git show -s --date=short v2",
  "git log -1 --date=nonsense",
  "git log --pretty=format:'%h %s'",
  "git log --pretty=format:'%h%n%b' -2",
  "git log --oneline --graph",
  "git log --graph -2",
  "git log --graph",
  "git log --reverse --oneline",
  "git log --author=Thor --oneline",
  "git log --oneline -- a.txt",
  "git log --oneline HEAD~2..HEAD",
  "git log --oneline --all",
  "git diff",
  "git diff --stat",
  "git diff --staged",
  "git diff --cached --stat",
  "git diff HEAD",
  "git diff HEAD~2 HEAD",
  "git diff HEAD~2..HEAD --stat",
  "git diff HEAD~1 -- a.txt",
  "git diff --name-only HEAD~2",
  "git diff --name-status HEAD~2",
  "git diff --numstat HEAD~2",
  "git show",
  "git show --stat",
  "git show --stat HEAD~1",
  "git show HEAD~1",
  "git show v2",
  "git show HEAD:a.txt",
  "git show --oneline -s",
  "git branch",
  "git branch -v",
  "git branch --show-current",
  "git rev-parse HEAD",
  "git rev-parse --abbrev-ref HEAD",
  "git rev-parse --short HEAD",
  "git rev-parse HEAD~1 v1 v2",
  "git rev-parse --show-toplevel",
  "git ls-files",
  "git ls-files -s",
  "git ls-files -o --exclude-standard",
  "git ls-files -m",
  "git tag",
  "git tag -l 'v*'",
  "git blame a.txt",
  "git blame src/main.ts",
  "git grep -n line",
  "git grep -i LINE",
  "git grep -l const",
  "git grep -c const",
  "git config user.name",
  "git cat-file -p HEAD",
  "git nonsense",
  "git log --bogus",
];

/**
 * Blame stamps uncommitted lines with the current time: the two runs may straddle a second.
 * Only a well-formed stamp is masked, so the format is still compared.
 */
function maskNow(text: string): string {
  return text.replace(/\(Not Committed Yet \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4} /g, "(Not Committed Yet <now> ");
}

describe("git output matches native git", () => {
  for (const cmd of SAME) {
    it(cmd, async () => {
      const { native: n, ours } = await both(cmd);
      expect(maskNow(ours)).toBe(maskNow(n));
    });
  }
  it("in a subdirectory: status, status -s, ls-files, grep, diff --stat", async () => {
    for (const cmd of ["git status", "git status -s", "git ls-files", "git grep -n const", "git diff --stat"]) {
      const { native: n, ours } = await both(cmd, "src");
      expect(ours, cmd).toBe(n);
    }
  });
});

describe("a history written by our git is the one native git writes", () => {
  it("same commit and tag ids for the same content, identity and dates; fsck clean", async () => {
    const ours = await tempWorkspace({ "a.txt": "one\n", "dir/b.txt": "two\n" });
    const theirs = cloneDir(ours.dir);
    try {
      const t1 = tick();
      for (const cmd of ["git init -q -b main", "git add -A && git commit -q -m 'first'"]) {
        const r = await ours.run(cmd, { env: gitEnv(t1) });
        expect(r.exitCode, r.stderr).toBe(0);
        nativeSh(theirs, cmd, t1);
      }
      const t2 = tick();
      ours.write("a.txt", "one\nmore\n");
      fs.writeFileSync(path.join(theirs, "a.txt"), "one\nmore\n");
      fs.rmSync(path.join(ours.dir, "dir/b.txt"));
      fs.rmSync(path.join(theirs, "dir/b.txt"));
      expect((await ours.run("git commit -qam 'second\n\nbody'", { env: gitEnv(t2) })).exitCode).toBe(0);
      nativeSh(theirs, "git commit -qam 'second\n\nbody'", t2);
      const t3 = tick();
      expect((await ours.run("git tag -a v1 -m 'version one'", { env: gitEnv(t3) })).exitCode).toBe(0);
      nativeSh(theirs, "git tag -a v1 -m 'version one'", t3);

      const log = (d: string) => native(d, ["log", "--format=%H %T %P"]).stdout;
      expect(log(ours.dir)).toBe(log(theirs));
      expect(native(ours.dir, ["rev-parse", "v1"]).stdout).toBe(native(theirs, ["rev-parse", "v1"]).stdout);
      const fsck = native(ours.dir, ["fsck", "--full", "--strict"]);
      expect(fsck.code, fsck.out).toBe(0);
      expect(native(ours.dir, ["status", "--porcelain"]).stdout).toBe("");
    } finally {
      ours.cleanup();
      fs.rmSync(theirs, { recursive: true, force: true });
    }
  });
});
