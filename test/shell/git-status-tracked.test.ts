/**
 * `git status` in the shell as the app runs it: over the workspace's stamped fs, where the
 * status tracker it shares with the workbench answers from the paths changed since its last
 * pass. After every random step — shell commands that write, move and delete, git commands
 * that move HEAD and the index, saves through the WorkspaceFs, a program's writes through the
 * fs — its porcelain output is native git's on the same directory.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ChangeJournal } from "../../lib/fs/journal";
import type { IsoFs } from "../../lib/fs/types";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { withWorktreeStamp } from "../../lib/fs/worktree-stamp";
import { statusTrackerFor } from "../../lib/git/status-tracker";
import { createShell } from "../../lib/shell";
import { testDefenseInDepth } from "../helpers/defense-in-depth";
import { prng } from "../checkpoints/sweep";
import { gitEnv, native, nativeEnv, tick } from "./helpers";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function stampedWorkspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-status-tracked-"));
  dirs.push(dir);
  const files: Record<string, string> = { ".gitignore": "*.log\n", "a.txt": "a\n", "src/b.ts": "b\n", "src/deep/c.ts": "c\n", "docs/d.md": "d\n" };
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  }
  native(dir, ["init", "-q", "-b", "main"]);
  native(dir, ["add", "-A"]);
  native(dir, ["commit", "-qm", "base"], tick());
  // As the app opens a workspace: every writer shares the stamped fs.
  const stamped = withWorktreeStamp(fs as unknown as IsoFs, dir);
  const wsfs = new WorkspaceFs({ fs: stamped, dir, journal: new ChangeJournal() });
  const shell = await createShell({ fs: stamped, dir, wsfs, defenseInDepth: testDefenseInDepth });
  return { dir, stamped, wsfs, shell };
}

describe("git status in the shell over the stamped fs (the shared status tracker)", () => {
  it("is native git's after every random step (3 histories)", async () => {
    for (let seed = 1; seed <= 3; seed++) {
      const { dir, stamped, wsfs, shell } = await stampedWorkspace();
      const rand = prng(seed);
      const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
      const files = () => (native(dir, ["ls-files", "-co", "--exclude-standard"]).stdout.split("\n").filter(Boolean) as string[]).filter((f) => !f.endsWith(".gitignore"));
      let walks = 0;
      for (let n = 0; n < 30; n++) {
        const at = tick();
        const some = files();
        const roll = rand();
        let step: string;
        if (roll < 0.2 && some.length) step = `echo edit${n} >> ${pick(some)}`;
        else if (roll < 0.3) {
          const d = pick(["src", `new/x${n}`, "src/deep", "docs"]);
          step = `mkdir -p ${d} && echo ${n} > ${d}/f${n}.txt`;
        }
        else if (roll < 0.4 && some.length) step = `rm ${pick(some)}`;
        else if (roll < 0.5 && some.length) step = `mkdir -p moved && mv ${pick(some)} moved/m${n}.txt`;
        else if (roll < 0.58) step = `echo junk > note${n}.log`;
        else if (roll < 0.66) step = `git add -A`;
        else if (roll < 0.72) step = `git commit -qm step${n}`;
        else if (roll < 0.76 && some.length) step = `git rm -q --cached ${pick(some)}`;
        else if (roll < 0.8) step = `git reset -q`;
        else if (roll < 0.84) step = `git checkout -q -b br${n}`;
        else if (roll < 0.92 && some.length) {
          // a save from the editor
          await wsfs.writeFile(pick(some), `saved ${n}\n`);
          step = "true";
        } else {
          // a program run in the tab writes through the fs
          await stamped.promises.writeFile(path.join(dir, `out${n}.txt`), `program ${n}\n`);
          step = "true";
        }
        await shell.exec(`${step} 2>/dev/null; true`, { env: gitEnv(at) });
        if ((await statusTrackerFor(stamped, dir).update()).full) walks++;
        const ours = await shell.exec("git status --porcelain -uall", { env: gitEnv(at) });
        // GIT_OPTIONAL_LOCKS=0: native git must not rewrite the index's stat cache under the test.
        const theirs = spawnSync("git", ["-c", "core.quotePath=false", "status", "--porcelain", "-uall"], { cwd: dir, env: { ...nativeEnv(dir, at), GIT_OPTIONAL_LOCKS: "0" }, encoding: "utf8" });
        expect(ours.stdout, `seed ${seed} step ${n}: ${step}`).toBe(theirs.stdout);
      }
      // Most answers came from the changed paths, not from walking the whole tree.
      expect(walks, `seed ${seed}`).toBeLessThan(30);
    }
  }, 120_000);
});
