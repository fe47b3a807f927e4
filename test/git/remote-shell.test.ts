import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startGitHttpServer } from "../../e2e/helpers/git-http-server";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { createShell } from "../../lib/shell";
import { testDefenseInDepth } from "../helpers/defense-in-depth";
import { native, nativeAsync, nativeClone, proxiedClient, tempDir } from "./remote-helpers";

/** The terminal's remote commands against native `git http-backend`, through the app's proxy. */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ENV = { GIT_AUTHOR_NAME: "Term", GIT_AUTHOR_EMAIL: "term@example.com", GIT_COMMITTER_NAME: "Term", GIT_COMMITTER_EMAIL: "term@example.com" };

async function setup(opts: { readOnly?: boolean; network?: boolean } = {}) {
  const server = await startGitHttpServer({ "a.txt": "one\n", "src/b.txt": "bee\n" }, { receivePack: true });
  cleanups.push(server.close);
  const dir = tempDir("tabula-term-");
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const journal = new ChangeJournal();
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal });
  const make = (readOnly: boolean) =>
    createShell({ fs: fs as unknown as IsoFs, dir, wsfs, readOnly, defenseInDepth: testDefenseInDepth, ...(opts.network === false ? {} : { gitTransport: () => ({ http: proxiedClient() }) }) });
  const shell = await make(opts.readOnly ?? false);
  const run = (cmd: string) => shell.exec(cmd, { env: ENV });
  return { server, dir, journal, shell, run, make };
}

async function nativePush(url: string, file: string, content: string): Promise<string> {
  const other = await nativeClone(url);
  cleanups.push(() => fs.rmSync(other, { recursive: true, force: true }));
  fs.writeFileSync(path.join(other, file), content);
  native(other, "commit", "-qam", `native: ${file}`);
  await nativeAsync(other, "push", "-q", "origin", "HEAD");
  return native(other, "rev-parse", "HEAD").trim();
}

describe("git clone, push, pull, fetch and remote in the terminal", () => {
  it("round-trips with native git: clone --depth 1, commit, push, native push, pull", async () => {
    const s = await setup();
    const clone = await s.run(`git clone --depth 1 ${s.server.url} .`);
    expect(clone.stderr).toBe("Cloning into '.'...\n");
    expect(clone.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(s.dir, "src/b.txt"), "utf8")).toBe("bee\n");
    expect(fs.existsSync(path.join(s.dir, ".git/shallow"))).toBe(true);
    expect(s.journal.since(0)!.map((e) => e.path).sort()).toEqual(["a.txt", "src/b.txt"]);
    expect((await s.run("git status")).stdout).toBe("On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean\n");

    fs.writeFileSync(path.join(s.dir, "a.txt"), "one\ntwo\n");
    expect((await s.run("git commit -qam 'second line'")).exitCode).toBe(0);
    expect((await s.run("git status -sb")).stdout).toBe("## main...origin/main [ahead 1]\n");
    expect((await s.run("git status")).stdout).toContain("Your branch is ahead of 'origin/main' by 1 commit.\n  (use \"git push\" to publish your local commits)\n");
    const ours = native(s.dir, "rev-parse", "HEAD").trim();
    const push = await s.run("git push");
    expect(push.exitCode).toBe(0);
    expect(push.stderr).toMatch(new RegExp(`^To ${s.server.url.replace(/[.]/g, "\\.")}\\n   [0-9a-f]{7}\\.\\.${ours.slice(0, 7)}  main -> main\\n$`));
    expect(native(s.server.bare, "log", "-1", "--format=%H %s", "main").trim()).toBe(`${ours} second line`);
    native(s.server.bare, "fsck", "--strict", "--no-dangling");
    expect((await s.run("git push")).stderr).toBe("Everything up-to-date\n");

    const theirs = await nativePush(s.server.url, "src/b.txt", "bee\nmore\n");
    const fetch = await s.run("git fetch");
    expect(fetch.stderr).toBe(`From ${s.server.url}\n   ${ours.slice(0, 7)}..${theirs.slice(0, 7)}  main       -> origin/main\n`);
    expect((await s.run("git status -sb")).stdout).toBe("## main...origin/main [behind 1]\n");
    const pull = await s.run("git pull");
    expect(pull.exitCode).toBe(0);
    expect(pull.stdout).toBe(`Updating ${ours.slice(0, 7)}..${theirs.slice(0, 7)}\nFast-forward\n src/b.txt | 1 +\n 1 file changed, 1 insertion(+)\n`);
    expect(fs.readFileSync(path.join(s.dir, "src/b.txt"), "utf8")).toBe("bee\nmore\n");
    expect(native(s.dir, "rev-parse", "HEAD").trim()).toBe(theirs);
    expect(native(s.dir, "status", "--porcelain")).toBe("");
    expect((await s.run("git pull")).stdout).toBe("Already up to date.\n");
  });

  it("a shallow clone's history stops at its boundary, as native git reads the same repository", async () => {
    const s = await setup();
    const work = tempDir("tabula-native-");
    cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));
    native(work, "clone", "-q", s.server.bare, "."); // a file path: no HTTP, so no deadlock with the in-process server
    for (let i = 0; i < 4; i++) {
      fs.writeFileSync(path.join(work, "a.txt"), `v${i}\n`);
      native(work, "commit", "-qam", `commit ${i}`);
    }
    native(work, "push", "-q", "origin", "main");
    expect((await s.run(`git clone --depth 2 ${s.server.url} .`)).exitCode).toBe(0);
    const log = await s.run("git log --oneline");
    expect(log.exitCode).toBe(0);
    expect(log.stdout).toBe(native(s.dir, "log", "--oneline"));
    expect(log.stdout.trim().split("\n")).toHaveLength(2);
    expect((await s.run("git log --format=%s | head -1")).stdout).toBe("commit 3\n");

    expect((await s.run("git fetch --deepen 1")).exitCode).toBe(0);
    expect((await s.run("git log --oneline")).stdout).toBe(native(s.dir, "log", "--oneline"));
    expect((await s.run("git log --oneline | wc -l")).stdout.trim()).toBe("3");
    expect((await s.run("git fetch --unshallow")).exitCode).toBe(0);
    expect(fs.existsSync(path.join(s.dir, ".git/shallow"))).toBe(false);
    expect((await s.run("git log --oneline")).stdout).toBe(native(s.dir, "log", "--oneline"));
    expect((await s.run("git log --oneline | wc -l")).stdout.trim()).toBe("5");
    native(s.dir, "fsck", "--strict", "--no-dangling");
    expect((await s.run("git fetch --unshallow")).stderr).toBe("fatal: --unshallow on a complete repository does not make sense\n");
  });

  it("rejects a push behind the remote as git does; pull merges the diverged upstream", async () => {
    const s = await setup();
    await s.run(`git clone ${s.server.url} .`);
    await nativePush(s.server.url, "src/b.txt", "theirs\n");
    fs.writeFileSync(path.join(s.dir, "a.txt"), "ours\n");
    await s.run("git commit -qam ours");
    const push = await s.run("git push");
    expect(push.exitCode).toBe(1);
    expect(push.stderr).toContain(` ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to '${s.server.url}'\nhint: Updates were rejected because the remote contains work that you do not\n`);
    const ff = await s.run("git pull --ff-only");
    expect(ff.exitCode).toBe(128);
    expect(ff.stderr).toContain("fatal: Not possible to fast-forward, aborting.\n");
    expect((await s.run("git status -sb")).stdout).toBe("## main...origin/main [ahead 1, behind 1]\n");
    // Diverged: pull merges the upstream, as git does with pull.rebase=false.
    const pull = await s.run("git pull");
    expect(pull.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(s.dir, "a.txt"), "utf8")).toBe("ours\n");
    expect(fs.readFileSync(path.join(s.dir, "src/b.txt"), "utf8")).toBe("theirs\n");
    expect(native(s.dir, "log", "-1", "--format=%P").trim().split(" ")).toHaveLength(2);
    expect(native(s.dir, "log", "-1", "--format=%s")).toBe(`Merge branch 'main' of ${s.server.url}\n`);
    expect((await s.run("git status -sb")).stdout).toBe("## main...origin/main [ahead 2]\n");
    native(s.dir, "fsck", "--strict", "--no-dangling");
    expect((await s.run("git push")).exitCode).toBe(0);
  });

  it("pull --rebase replays local commits onto the upstream", async () => {
    const s = await setup();
    await s.run(`git clone ${s.server.url} .`);
    await nativePush(s.server.url, "src/b.txt", "theirs\n");
    fs.writeFileSync(path.join(s.dir, "a.txt"), "ours\n");
    await s.run("git commit -qam ours");
    const pull = await s.run("git pull --rebase");
    expect(pull.exitCode, pull.stderr).toBe(0);
    expect(native(s.dir, "log", "-2", "--format=%s")).toBe("ours\n" + native(s.dir, "log", "-1", "--format=%s", "origin/main"));
    expect(native(s.dir, "rev-parse", "HEAD~1")).toBe(native(s.dir, "rev-parse", "origin/main"));
    expect((await s.run("git status -sb")).stdout).toBe("## main...origin/main [ahead 1]\n");
    native(s.dir, "fsck", "--strict", "--no-dangling");
  });

  it("git remote lists and edits remotes as native git reads them; push -u a new branch", async () => {
    const s = await setup();
    await s.run(`git clone ${s.server.url} .`);
    expect((await s.run("git remote -v")).stdout).toBe(`origin\t${s.server.url} (fetch)\norigin\t${s.server.url} (push)\n`);
    expect((await s.run("git remote add mirror https://example.com/m.git")).exitCode).toBe(0);
    expect((await s.run("git remote add mirror https://x")).stderr).toBe("error: remote mirror already exists.\n");
    expect((await s.run("git remote rename mirror backup")).exitCode).toBe(0);
    expect((await s.run("git remote get-url backup")).stdout).toBe("https://example.com/m.git\n");
    expect(native(s.dir, "remote")).toBe("backup\norigin\n");
    expect((await s.run("git remote remove backup")).exitCode).toBe(0);
    expect((await s.run("git remote")).stdout).toBe("origin\n");

    await s.run("git switch -q -c topic");
    fs.writeFileSync(path.join(s.dir, "t.txt"), "t\n");
    await s.run("git add t.txt && git commit -qm topic");
    const bare = await s.run("git push");
    expect(bare.exitCode).toBe(128);
    expect(bare.stderr).toContain("fatal: The current branch topic has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin topic\n");
    const push = await s.run("git push -u origin topic");
    expect(push.stderr).toBe(`To ${s.server.url}\n * [new branch]      topic -> topic\n`);
    expect(push.stdout).toBe("branch 'topic' set up to track 'origin/topic'.\n");
    expect(native(s.dir, "rev-parse", "--abbrev-ref", "topic@{upstream}").trim()).toBe("origin/topic");
    expect((await s.run("git push origin --delete topic")).stderr).toBe(`To ${s.server.url}\n - [deleted]         topic\n`);
    expect(native(s.server.bare, "branch", "--list", "topic")).toBe("");
  });

  it("Plan mode refuses every remote-changing form before it runs; a shell without network says so", async () => {
    const s = await setup();
    await s.run(`git clone ${s.server.url} .`);
    const planShell = await s.make(true);
    for (const cmd of ["git push", "git pull", "git fetch", "git remote add x https://x", `git clone ${s.server.url} y`]) {
      const r = await planShell.exec(cmd, { env: ENV });
      expect(r.exitCode, cmd).not.toBe(0);
      expect(r.stderr, cmd).toMatch(/read-only \(Plan mode\)/);
    }
    expect((await planShell.exec("git remote -v", { env: ENV })).exitCode).toBe(0);
    const before = s.server.log.length;
    const offline = await setup({ network: false });
    await offline.run("git init -q");
    await offline.run(`git remote add origin ${s.server.url}`);
    const r = await offline.run("git fetch");
    expect(r.exitCode).toBe(128);
    expect(r.stderr).toBe("fatal: git fetch cannot reach a server from this shell (no network access here)\n");
    expect(s.server.log.length).toBe(before);
  });
});
