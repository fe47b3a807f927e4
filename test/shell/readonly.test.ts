/**
 * Plan mode: a read-only shell must not change a byte of the workspace (.git included),
 * whatever the command line does, while read commands keep working.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IsoFs } from "../../lib/fs";
import { createShell, type Shell } from "../../lib/shell";
import { cloneDir, gitEnv, hashTree, native, nativeSh, tempWorkspace, tick, type TempWorkspace } from "./helpers";
import { testDefenseInDepth } from "../helpers/defense-in-depth";

let ws: TempWorkspace;
let ro: Shell;
let baseline: string;

beforeAll(async () => {
  ws = await tempWorkspace(
    {
      "a.txt": "hello\nworld\n",
      "b.txt": "bravo\n",
      "d/x.txt": "x\n",
      "d/y.txt": "y\n",
      "src/main.ts": "// TODO: main\nexport const main = 1;\n",
      "script.sh": "rm -rf d\necho pwned > a.txt\n",
      "data.json": '{"a": 1}\n',
      "list.txt": "a.txt\nb.txt\n",
    },
    { readOnly: true },
  );
  native(ws.dir, ["init", "-q", "-b", "main"]);
  nativeSh(ws.dir, "git add -A && git commit -q -m base && git tag v0", tick());
  ws.write("a.txt", "hello\nworld\nuncommitted\n");
  ws.write("untracked.txt", "u\n");
  ro = ws.shell;
  baseline = hashTree(ws.dir);
});
afterAll(() => ws.cleanup());

// prettier-ignore
const WRITES = [
  // redirections
  "echo x > a.txt", "echo x >> a.txt", "echo x > new.txt", "echo x >| a.txt", "echo x 2> err.txt", "ls nope 2>> err.txt",
  "echo x &> both.txt", "echo x &>> both.txt", "echo x 1> f1.txt", "echo x 3> f3.txt", "echo x > d/x.txt", "echo x >&2 2> f.txt",
  "exec > out.txt; echo hi", "exec 3> out3.txt; echo hi >&3", "{ echo a; echo b; } > brace.txt", "(echo sub) > sub.txt",
  "cat > heredoc.txt <<EOF\nhello\nEOF", "cat <<EOF > heredoc2.txt\nx\nEOF", "echo x > .git/HEAD", "echo x >> .git/config",
  "printf 'x' > a.txt", "cat a.txt > b.txt", "sort a.txt > sorted.txt", ": > a.txt", "> a.txt", "echo x | cat > piped.txt",
  "echo x > $(echo a.txt)", "f=a.txt; echo x > $f", "echo x > \"a.txt\"", "for i in 1 2; do echo $i > loop$i.txt; done",
  "while read l; do echo $l > w.txt; done < a.txt", "if true; then echo x > if.txt; fi", "case x in x) echo x > case.txt;; esac",
  // tee / editors / filters with output files
  "echo x | tee t.txt", "echo x | tee -a a.txt", "echo x | tee /workspace/t2.txt > /dev/null", "sed -i 's/hello/HI/' a.txt",
  "sed -i.bak 's/hello/HI/' a.txt", "sed -n 'w out.txt' a.txt", "sed 's/x/y/w sedw.txt' a.txt", "awk '{print > \"awk.txt\"}' a.txt",
  "awk '{print >> \"a.txt\"}' b.txt", "sort -o a.txt a.txt", "sort -o sorted.txt b.txt", "uniq a.txt uniq.txt", "split -l 1 a.txt part_",
  "tar cf t.tar a.txt", "gzip a.txt", "gzip -k b.txt", "yq -i '.a = 2' data.json", "jq . data.json > j.json",
  // find / xargs
  "find . -name '*.txt' -delete", "find d -delete", "find . -name x.txt -exec rm {} \\;", "find . -name '*.txt' -exec rm {} +",
  "find . -type f -exec sh -c 'echo x > {}' \\;", "ls | xargs rm", "cat list.txt | xargs rm -f", "echo d | xargs rm -rf", "echo a.txt | xargs -I {} cp {} {}.copy",
  // file commands
  "rm a.txt", "rm -f a.txt", "rm -r d", "rm -rf d", "rm -rf .", "rm -rf /workspace", "rm -rf *", "rm -rf .git", "rm .git/HEAD",
  "rmdir d", "mv a.txt moved.txt", "mv -f a.txt b.txt", "mv d e", "cp a.txt copy.txt", "cp -r d e", "cp a.txt .git/x", "touch a.txt",
  "touch brand-new.txt", "touch -c a.txt", "mkdir newdir", "mkdir -p x/y/z", "ln -s a.txt link", "ln a.txt hard", "ln -sf b.txt a.txt",
  "chmod 777 a.txt", "chmod -R 700 d", "chmod +x script.sh",
  // indirection
  "eval 'rm -rf d'", "eval \"echo x > a.txt\"", "bash -c 'rm -rf d'", "sh -c 'echo x > a.txt'", "bash -c \"bash -c 'touch deep.txt'\"",
  "echo 'rm -rf d' | bash", "echo 'echo x > a.txt' | sh", "bash script.sh", "source script.sh", ". ./script.sh",
  "(rm -rf d)", "( cd d && rm x.txt )", "{ rm a.txt; }", "f() { rm -rf d; }; f", "g() { echo x > a.txt; }; g",
  "shopt -s expand_aliases; alias zap='rm -rf'; zap d", "\"r\"\"m\" -rf d", "\\rm -rf d", "'rm' a.txt", "r=rm; $r -rf d",
  "$(echo rm) -rf d", "`echo rm` -rf d", "echo $(rm -rf d)", "x=`rm a.txt`", "cat <(rm -rf d)", "echo x > >(cat)",
  "x=$(( $(rm -rf d; echo 1) + 1 ))", "command rm -rf d", "builtin eval 'rm a.txt'", "env rm -rf d", "timeout 5 rm -rf d", "time rm -rf d",
  "nice rm a.txt", "nohup rm a.txt", "exec rm a.txt", "true && rm -rf d || rm -rf d",
  // git
  "git add -A", "git add a.txt", "git commit -am x", "git commit --allow-empty -m x", "git checkout -- a.txt", "git checkout -b new",
  "git switch -c other", "git restore a.txt", "git restore --staged a.txt", "git reset --hard", "git reset HEAD~0", "git stash",
  "git stash -u", "git stash pop", "git tag v9", "git tag -a v9 -m x", "git tag -d v0", "git branch newbranch", "git branch -D main",
  "git branch -m main renamed", "git config user.name Evil", "git config --unset user.name", "git rm a.txt", "git rm --cached a.txt",
  "git mv a.txt z.txt", "git init", "git -C d init", "git gc", "git clean -fd", "git merge x", "git apply p.patch",
];

const READS: [string, RegExp][] = [
  ["ls", /a\.txt/],
  ["ls -la", /\.git/],
  ["cat a.txt", /uncommitted/],
  ["grep -rn TODO .", /main\.ts:1:/],
  ["grep -rn 'TOD[O]' .", /main\.ts:1:/],
  ["find . -name '*.ts'", /src\/main\.ts/],
  ["head -1 a.txt", /^hello\n$/],
  ["tail -n 1 a.txt", /uncommitted/],
  ["wc -l a.txt", /3 a\.txt/],
  ["cat .git/HEAD", /ref: refs\/heads\/main/],
  ["sort b.txt a.txt | uniq", /bravo/],
  ["echo hi > /tmp/scratch && cat /tmp/scratch", /^hi\n$/],
  ["jq .a data.json", /1/],
  ["git status", /modified:\s+a\.txt/],
  ["git status -s", / M a\.txt/],
  ["git log --oneline", /base/],
  ["git diff", /\+uncommitted/],
  ["git diff --stat", /a\.txt \| 1 \+/],
  ["git show --stat", /base/],
  ["git branch", /\* main/],
  ["git tag", /v0/],
  ["git rev-parse HEAD", /^[0-9a-f]{40}\n$/],
  ["git ls-files", /src\/main\.ts/],
  ["git blame a.txt", /A U Thor/],
  ["git grep -n TODO", /src\/main\.ts:1:/],
  ["git stash list", /^$/],
  ["git config user.name || echo unset", /unset/],
];

describe("read-only (Plan mode) shell", () => {
  it(`blocks ${WRITES.length} write attempts: the workspace stays byte-identical`, async () => {
    expect(WRITES.length).toBeGreaterThanOrEqual(100);
    const leaks: string[] = [];
    for (const cmd of WRITES) {
      await ro.exec(cmd, { env: gitEnv(), timeoutMs: 10_000 });
      const now = hashTree(ws.dir);
      if (now !== baseline) leaks.push(cmd);
      baseline = now; // keep the remaining checks meaningful even after a leak
    }
    expect(leaks).toEqual([]);
  });

  it("the corpus is not vacuous: on a writable copy, at least 100 of those commands do change it", async () => {
    let changed = 0;
    for (const cmd of WRITES) {
      const copy = cloneDir(ws.dir);
      try {
        const before = hashTree(copy);
        const rw = await createShell({ fs: fs as unknown as IsoFs, dir: copy, defenseInDepth: testDefenseInDepth });
        await rw.exec(cmd, { env: gitEnv(), timeoutMs: 10_000 });
        if (hashTree(copy) !== before) changed++;
      } finally {
        fs.rmSync(copy, { recursive: true, force: true });
      }
    }
    expect(changed).toBeGreaterThanOrEqual(100);
  }, 240_000); // 154 fresh shells on 154 copies: about 20 s alone, minutes on a loaded machine

  it("keeps read commands working", async () => {
    const before = hashTree(ws.dir);
    for (const [cmd, expected] of READS) {
      const r = await ro.exec(cmd, { env: gitEnv() });
      expect(r.stdout, `${cmd}\n${r.stderr}`).toMatch(expected);
    }
    expect(hashTree(ws.dir)).toBe(before);
  });

  it("reports refused writes: rm -rf fails, redirects fail, git refuses with Plan mode", async () => {
    const rm = await ro.exec("rm -rf d");
    expect(rm.exitCode).not.toBe(0);
    expect(rm.stderr).toMatch(/rm: cannot remove 'd': Read-only file system/);
    expect((await ro.exec("rm -f a.txt")).exitCode).not.toBe(0);
    expect((await ro.exec("bash -c 'rm -rf d'")).exitCode).not.toBe(0);
    const redirect = await ro.exec("echo x > a.txt");
    expect(redirect.exitCode).toBe(1);
    expect(redirect.stderr).toBe("bash: a.txt: Read-only file system\n");
    expect((await ro.exec("sed -n 'w out.txt' a.txt")).exitCode).not.toBe(0);
    const git = await ro.exec("git commit -am x");
    expect(git.exitCode).toBe(128);
    expect(git.stderr).toMatch(/^fatal: .*read-only \(Plan mode\)/);
    expect(ro.isReadOnly).toBe(true);
  });

  it("readOnlyView() of a writable shell shares caches and refuses writes", async () => {
    const rw = await createShell({ fs: fs as unknown as IsoFs, dir: ws.dir, defenseInDepth: testDefenseInDepth });
    const twin = rw.readOnlyView();
    expect(twin.isReadOnly).toBe(true);
    expect(rw.isReadOnly).toBe(false);
    expect(twin.readOnlyView()).toBe(twin);
    expect(twin.journal).toBe(rw.journal);
    expect(twin.wsfs.readCache).toBe(rw.wsfs.readCache);
    const before = hashTree(ws.dir);
    expect((await twin.exec("echo x > a.txt")).exitCode).toBe(1);
    expect((await twin.exec("git add -A")).exitCode).toBe(128);
    expect((await twin.exec("cat a.txt")).stdout).toMatch(/uncommitted/);
    // Scratch memory is shared between the twins.
    await rw.exec("echo shared > /tmp/shared.txt");
    expect((await twin.exec("cat /tmp/shared.txt")).stdout).toBe("shared\n");
    expect(hashTree(ws.dir)).toBe(before);
  });
});
