/**
 * The shell over lightning-fs on (fake) IndexedDB, the storage the browser uses. Always with
 * just-bash's defense-in-depth off (the Node default): under Node the box blocks setImmediate,
 * which fake-indexeddb needs, while just-bash's browser bundle never patches anything.
 */
import "fake-indexeddb/auto";
(globalThis as { navigator?: object }).navigator ??= {};

import { openNamedLightningFs } from "../../lib/fs/lightning";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { createShell, type Shell } from "../../lib/shell";
import { gitEnv } from "./helpers";

let fs: IsoFs;
let wsfs: WorkspaceFs;
let shell: Shell;

beforeAll(async () => {
  fs = openNamedLightningFs(`tabula-shell-test-${Date.now()}-${Math.random().toString(36).slice(2)}`, { wipe: true });
  wsfs = new WorkspaceFs({ fs, dir: "/", journal: new ChangeJournal() });
  await wsfs.writeFile("README.md", "# hello\n");
  await wsfs.writeFile("src/a.ts", "// TODO: a\nexport const a = 1;\n");
  await wsfs.writeFile("src/b.ts", "export const b = 2;\n");
  shell = await createShell({ fs, dir: "/", wsfs });
});
afterAll(async () => {
  await fs.promises.flush?.();
});

describe("shell on lightning-fs", () => {
  it("runs file commands, pipes and redirections", async () => {
    const r = await shell.exec("ls; cat src/*.ts | grep -c export; grep -rn TODO .");
    expect(r.stdout).toBe("README.md\nsrc\n2\nsrc/a.ts:1:// TODO: a\n");
    const w = await shell.exec("echo one > out.txt && echo two >> out.txt && cat out.txt && mkdir -p x/y && mv out.txt x/y/ && ls x/y");
    expect(w.stdout).toBe("one\ntwo\nout.txt\n");
    expect(new TextDecoder().decode(await wsfs.readFile("x/y/out.txt"))).toBe("one\ntwo\n");
    const events = wsfs.journal.since(0)!.filter((e) => e.origin === "shell");
    expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(["write", "mkdir", "rename"]));
  });

  it("finds and greps", async () => {
    expect((await shell.exec("find . -name '*.ts' | sort")).stdout).toBe("./src/a.ts\n./src/b.ts\n");
    expect((await shell.exec("cd src && wc -l a.ts")).stdout).toBe("2 a.ts\n");
  });

  it("runs git end to end", async () => {
    const env = gitEnv();
    const r = await shell.exec("git init -q && git add -A && git commit -q -m first && git log --oneline && git status", { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{7} first\nOn branch main\nnothing to commit, working tree clean\n$/);
    await shell.exec("echo changed >> README.md && rm src/b.ts && echo new > new.txt");
    const s = await shell.exec("git status -s && git diff --stat", { env });
    expect(s.stdout).toBe(" M README.md\n D src/b.ts\n?? new.txt\n README.md | 1 +\n src/b.ts  | 1 -\n 2 files changed, 1 insertion(+), 1 deletion(-)\n");
    const c = await shell.exec("git add -A && git commit -m second && git switch -c feature && git log --oneline | wc -l", { env });
    expect(c.exitCode, c.stderr).toBe(0);
    expect(c.stdout).toMatch(
      /^\[main [0-9a-f]{7}\] second\n Author: A U Thor <author@example.com>\n 3 files changed, 2 insertions\(\+\), 1 deletion\(-\)\n create mode 100644 new.txt\n delete mode 100644 src\/b.ts\n2\n$/,
    );
    const st = await shell.exec("echo wip > wip.txt && git stash -u && ls && git stash pop -q && cat wip.txt", { env });
    expect(st.exitCode, st.stderr).toBe(0);
    expect(st.stdout).toMatch(/Saved working directory and index state WIP on feature/);
    expect(st.stdout).not.toMatch(/^wip\.txt$/m);
    expect(st.stdout.endsWith("x\nwip\n")).toBe(true);
  });

  it("a read-only twin cannot write, even through git", async () => {
    const ro = shell.readOnlyView();
    const snapshot = "ls -R; cat .git/HEAD; git rev-parse HEAD";
    const before = (await shell.exec(snapshot)).stdout;
    expect((await ro.exec("rm -rf src")).exitCode).not.toBe(0);
    expect((await ro.exec("echo x > README.md")).exitCode).toBe(1);
    expect((await ro.exec("git commit --allow-empty -m x", { env: gitEnv() })).exitCode).toBe(128);
    expect((await ro.exec("git status -s")).exitCode).toBe(0);
    expect((await shell.exec(snapshot)).stdout).toBe(before);
  });

  it("cancels sleep promptly", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const t0 = Date.now();
    const r = await shell.exec("sleep 30", { signal: ac.signal });
    expect(r.exitCode).toBe(130);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
