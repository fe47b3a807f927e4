/**
 * A conflicted merge over lightning-fs on (fake) IndexedDB, the browser's storage: the index
 * stages are written and read back through it, `git status` shows them, and `git add` +
 * `git commit` conclude the merge with two parents. (See ./lightning.test.ts for why
 * defense-in-depth is off here.)
 */
import "fake-indexeddb/auto";
(globalThis as { navigator?: object }).navigator ??= {};

import { openNamedLightningFs } from "../../lib/fs/lightning";
import { afterAll, describe, expect, it } from "vitest";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { createShell } from "../../lib/shell";
import { gitEnv } from "./helpers";

const fs = openNamedLightningFs(`tabula-merge-test-${Date.now()}-${Math.random().toString(36).slice(2)}`, { wipe: true });
afterAll(async () => {
  await fs.promises.flush?.();
});

describe("git merge on lightning-fs", () => {
  it("stops on a conflict with stages, then concludes by commit", async () => {
    const wsfs = new WorkspaceFs({ fs, dir: "/", journal: new ChangeJournal() });
    await wsfs.writeFile("f.txt", "1\n2\n3\n");
    const shell = await createShell({ fs, dir: "/", wsfs });
    const env = gitEnv();
    const setup = await shell.exec(
      "git init -q && git add -A && git commit -qm base && git switch -qc feat && echo '1\n2 feat\n3' > f.txt && git commit -qam feat && git switch -q main && echo '1\n2 main\n3' > f.txt && git commit -qam main",
      { env },
    );
    expect(setup.exitCode, setup.stderr).toBe(0);
    const m = await shell.exec("git merge feat; git ls-files -u | cut -c49-; git status -s", { env });
    expect(m.stdout).toBe("Auto-merging f.txt\nCONFLICT (content): Merge conflict in f.txt\nAutomatic merge failed; fix conflicts and then commit the result.\n1\tf.txt\n2\tf.txt\n3\tf.txt\nUU f.txt\n");
    expect(new TextDecoder().decode(await wsfs.readFile("f.txt"))).toBe("1\n<<<<<<< HEAD\n2 main\n=======\n2 feat\n>>>>>>> feat\n3\n");
    const c = await shell.exec("echo '1\n2 both\n3' > f.txt && git add f.txt && git commit -q --no-edit && git log --format=%p -1 | wc -w && git status -s", { env });
    expect(c.exitCode, c.stderr).toBe(0);
    expect(c.stdout).toBe("2\n");
  });
});
