/**
 * Which git forms write is each command's own `writes(args)` (lib/shell/git/commands/<name>.ts):
 * a table of forms over every command, then the two Plan-mode layers held to it — the command
 * guard flags exactly the forms that write (with the command's reason), and the read-only shell
 * refuses exactly those before they run, runs the rest, and never changes a byte.
 */
import fs from "node:fs";
import * as nodeJustBash from "just-bash";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IsoFs } from "../../lib/fs";
import { createCommandGuard, type CommandGuard, type JustBashModuleLike } from "../../lib/modes/command-guard";
import { formWrites, gitCommand, gitForm, GIT_SUBCOMMANDS } from "../../lib/shell/git/commands";
import { UNLISTED_FORMS as UNLISTED } from "../../lib/shell/git/commands/unlisted";
import { GitContext } from "../../lib/shell/git/context";
import { gitEnv, hashTree, native, nativeSh, tempWorkspace, tick, type TempWorkspace } from "./helpers";

/** [form after `git <name>`, writes?, exit code of the read-only shell for a reading form (default 0)]. */
type Form = [args: string, writes: boolean, exit?: number];

// prettier-ignore
const COMMAND_FORMS: Record<string, Form[]> = {
  status: [["", false], ["-s", false], ["--porcelain -b", false]],
  log: [["--oneline", false], ["-n 1 --stat", false], ["--output=log.txt", true]],
  show: [["--stat", false], ["HEAD:a.txt", false], ["--output=show.txt", true]],
  diff: [["", false], ["--cached --stat", false], ["HEAD --name-only", false], ["--output=diff.txt", true], ["--output diff.txt", true]],
  "rev-parse": [["HEAD", false], ["--show-toplevel", false], ["--abbrev-ref HEAD", false]],
  "ls-files": [["", false], ["--others", false]],
  blame: [["a.txt", false]],
  grep: [["-n hello", false]],
  "cat-file": [["-p HEAD", false], ["-t HEAD", false]],
  add: [["a.txt", true], ["-A", true], ["--dry-run a.txt", true]],
  rm: [["a.txt", true], ["--cached a.txt", true]],
  apply: [["p.patch", true], ["--cached p.patch", true], ["--check p.patch", false]],
  mv: [["a.txt z.txt", true]],
  restore: [["a.txt", true], ["--staged a.txt", true]],
  reset: [["", true], ["--hard", true], ["HEAD~0", true], ["--soft HEAD", true]],
  commit: [["-am x", true], ["--allow-empty -m x", true]],
  switch: [["feat-x", true], ["-c other", true], ["--detach HEAD", true]],
  checkout: [["feat-x", true], ["-- a.txt", true], ["-b new", true]],
  stash: [
    ["", true], ["list", false], ["show", false], ["show -p", false], ["push -m x", true], ["-u", true], ["save x", true],
    ["apply", true], ["pop", true], ["drop", true], ["clear", true],
  ],
  tag: [
    ["", false], ["-l", false], ["--list v0", false], ["-n", false], ["-n1 -l v0", false], ["v9", true], ["v9 HEAD", true],
    ["-a v9 -m x", true], ["-m x v9", true], ["-d v0", true], ["--delete v0", true], ["-f v0", true],
  ],
  branch: [
    ["", false], ["-a", false], ["-v", false], ["-vv", false], ["--list feat-x", false], ["-l feat-x", false],
    ["--show-current", false], ["--merged", false], ["--merged HEAD", false], ["--no-merged", false],
    ["newbranch", true], ["newbranch HEAD", true], ["-d feat-x", true], ["-D feat-x", true], ["--delete feat-x", true],
    ["-m feat-x renamed", true], ["-M feat-x renamed", true], ["-c feat-x copy", true], ["-f feat-x HEAD", true],
    ["--set-upstream-to=main", true], ["-u main", true],
  ],
  config: [
    ["user.name", false], ["--get user.name", false], ["--get-all user.name", false], ["--list", false], ["-l", false],
    ["--get-regexp user", false], ["core.nope", false, 1], ["user.name Evil", true], ["--unset user.name", true],
    ["--unset-all user.name", true], ["--add x.y z", true], ["--replace-all x.y z", true], ["set user.name Evil", true],
    ["-f other.cfg --get user.name", true], ["--file=other.cfg user.name", true],
  ],
  init: [["", true], ["-q", true], ["-b trunk", true]],
  remote: [["", false], ["-v", false], ["--verbose", false], ["get-url origin", false], ["show origin", false], ["add origin x", true], ["remove origin", true], ["rename a b", true], ["set-url origin x", true]],
  push: [["", true], ["-u origin main", true], ["--tags", true], ["--delete origin feat-x", true]],
  fetch: [["", true], ["--all", true]],
  pull: [["", true], ["--ff-only", true]],
  clone: [["http://h/r.git", true], ["--depth 1 http://h/r.git .", true]],
  merge: [["feat-x", true], ["--ff-only feat-x", true], ["--squash feat-x", true], ["--abort", true], ["--continue", true]],
  "cherry-pick": [["feat-x", true], ["-n feat-x", true], ["--continue", true], ["--abort", true], ["--skip", true]],
  revert: [["HEAD", true], ["--no-edit HEAD", true], ["--abort", true]],
  rebase: [["main", true], ["--continue", true], ["--abort", true], ["--skip", true]],
  clean: [["-n", false], ["--dry-run -d", false], ["-nd", false], ["-dn", false], ["-f", true], ["-fd", true], ["-f -x", true], ["", true]],
};

/** Subcommands the shell does not run: only the guard is asked (the shell answers "not a git command"). */
// prettier-ignore
const UNLISTED_FORMS: Record<string, Form[]> = {
  reflog: [["", false], ["show", false], ["-n 3", false], ["expire --all", true], ["delete HEAD@{0}", true]],
  "symbolic-ref": [["HEAD", false], ["HEAD refs/heads/x", true], ["-d HEAD", true]],
  worktree: [["list", false], ["add wt", true]],
  notes: [["list", false], ["show", false], ["add -m x", true]],
  submodule: [["", false], ["status", false], ["update --init", true]],
  "ls-tree": [["HEAD", false], ["--output=t.txt HEAD", true]],
  shortlog: [["-sn", false]],
};

const argv = (form: string) => form.split(" ").filter((a) => a !== "");

describe("writes(args), command by command", () => {
  it("covers every command the shell runs", () => {
    expect(Object.keys(COMMAND_FORMS).sort()).toEqual([...GIT_SUBCOMMANDS]);
    for (const name of GIT_SUBCOMMANDS) expect(gitCommand(name)!.effect, name).toMatch(new RegExp(`^git ${name} `));
  });

  it("describes a subcommand once: a command file replaces its unlisted entry", () => {
    expect(UNLISTED.map((f) => f.name).filter((n) => gitCommand(n) !== undefined)).toEqual([]);
    expect(new Set(UNLISTED.map((f) => f.name)).size).toBe(UNLISTED.length);
  });

  for (const [name, forms] of Object.entries({ ...COMMAND_FORMS, ...UNLISTED_FORMS })) {
    it(`git ${name}`, () => {
      const form = gitForm(name)!;
      expect(form, name).toBeDefined();
      const got = forms.map(([args]) => [args, formWrites(form, argv(args))]);
      expect(got).toEqual(forms.map(([args, writes]) => [args, writes]));
    });
  }

  it("help forms never write, for every command", () => {
    for (const name of GIT_SUBCOMMANDS) {
      const command = gitCommand(name)!;
      expect(formWrites(command, ["--help"]), name).toBe(false);
      expect(formWrites(command, ["-h"]), name).toBe(false);
    }
  });
});

describe("the Plan guard and the read-only shell agree with writes()", () => {
  let guard: CommandGuard;
  let ws: TempWorkspace;
  let baseline: string;

  beforeAll(async () => {
    guard = createCommandGuard(nodeJustBash as unknown as JustBashModuleLike);
    ws = await tempWorkspace({ "a.txt": "hello\nworld\n", "b.txt": "bravo\n", "d/x.txt": "x\n" }, { readOnly: true });
    native(ws.dir, ["init", "-q", "-b", "main"]);
    nativeSh(ws.dir, "git config user.name Tester && git remote add origin https://example.invalid/x.git && git add -A && git commit -q -m base && git tag v0 && git branch feat-x", tick());
    ws.write("a.txt", "hello\nworld\nstashed\n");
    nativeSh(ws.dir, "git stash -q", tick());
    ws.write("a.txt", "hello\nworld\nuncommitted\n");
    // a patch that applies (git apply --check reads it and the file)
    ws.write("p.patch", "diff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-bravo\n+bravo two\n");
    baseline = hashTree(ws.dir);
  });
  afterAll(() => ws?.cleanup());

  it("the guard flags a form exactly when it writes, with the command's reason", () => {
    const wrong: string[] = [];
    for (const [name, forms] of Object.entries({ ...COMMAND_FORMS, ...UNLISTED_FORMS })) {
      for (const [args, writes] of forms) {
        const line = `git ${name} ${args}`.trim();
        const finding = guard(line);
        if (writes ? finding?.reason !== gitForm(name)!.effect : finding !== undefined) wrong.push(`${line}: ${finding?.reason ?? "allowed"}`);
      }
      for (const help of ["--help", "-h"]) if (guard(`git ${name} ${help}`) !== undefined) wrong.push(`git ${name} ${help}`);
    }
    expect(wrong).toEqual([]);
  });

  it("the read-only shell refuses exactly the writing forms, runs the reading ones, and changes nothing", async () => {
    const wrong: string[] = [];
    for (const [name, forms] of Object.entries(COMMAND_FORMS)) {
      for (const [args, writes, exit = 0] of forms) {
        const line = `git ${name} ${args}`.trim();
        const r = await ws.run(line);
        const refused = /^fatal: '.*' would modify the repository: the workspace is read-only \(Plan mode\)\n$/.test(r.stderr);
        if (writes && !(refused && r.exitCode === 128)) wrong.push(`${line}: not refused (${r.exitCode}) ${r.stderr}`);
        if (!writes && (/read-only/.test(r.stderr) || r.exitCode !== exit)) wrong.push(`${line}: did not run (${r.exitCode}) ${r.stderr}`);
        if (hashTree(ws.dir) !== baseline) wrong.push(`${line}: changed the workspace`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it("under the gate, the read-only fs still stops every writing form's run from changing a byte", async () => {
    const opts = { fs: fs as unknown as IsoFs, wsfs: ws.wsfs.readOnlyView(), mountPoint: "/workspace", readOnly: true };
    const byFs: string[] = [];
    for (const [name, forms] of Object.entries(COMMAND_FORMS)) {
      for (const [args, writes] of forms) {
        if (!writes) continue;
        const line = `git ${name} ${args}`.trim();
        const ctx = new GitContext(opts, "", new Map(Object.entries(gitEnv())));
        // Straight to run(): the writes() gate in the dispatcher is bypassed on purpose.
        const outcome = await gitCommand(name)!
          .run(ctx, argv(args))
          .then(
            (code) => (code === 0 ? "ran" : ctx.io.stderr),
            (err: { code?: string; message?: string }) => `${err.code} ${err.message}`,
          );
        if (/EROFS|read-only/.test(outcome)) byFs.push(line);
        expect(hashTree(ws.dir), line).toBe(baseline);
      }
    }
    // The rest stop before writing for reasons of their own (an option this shell lacks, nothing
    // to change: `init` of an existing repository); none changed a byte.
    expect(byFs.length).toBeGreaterThanOrEqual(40);
  }, 120_000);

  it("a computed argument is judged both ways", () => {
    expect(guard("git branch $B")?.reason).toBe("git branch changes branches");
    expect(guard("git tag -l $P")).toBeUndefined();
    expect(guard("git log $REV")).toBeUndefined();
    expect(guard("git stash $SUB")?.reason).toBe("git stash changes files");
  });
});
