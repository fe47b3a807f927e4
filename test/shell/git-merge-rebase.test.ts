/**
 * `git rebase <upstream>` against native git (see ./git-merge-helpers.ts): the replayed
 * commits are byte-identical to native's (same authors, messages, trees and fixed dates), a
 * conflict stops both at the same commit with the same markers and stages, and --continue,
 * --skip and --abort end in the same place. Native git prints progress with carriage returns,
 * so outputs are compared where they are plain (refusals, up to date) and states always.
 */
import { afterEach, describe, expect, it } from "vitest";
import { expectFsckClean, step, twins, writeBoth, type Twins } from "./git-merge-helpers";

let t: Twins | null = null;
afterEach(() => {
  t?.cleanup();
  t = null;
});

/** feat: two commits, the first conflicting with main's change of f; main also adds m. */
const REPO = `printf '1\\n2\\n3\\n' > f && echo g > g && git add -A && git commit -qm base && git switch -qc feat && printf '1\\nfeat\\n3\\n' > f && git commit -qam 'feat change' && echo h > h && git add h && git commit -qm 'add h' && git switch -q main && printf '1\\nmain\\n3\\n' > f && echo m > m && git add -A && git commit -qm main && git switch -q feat`;
/** feat: two commits that do not touch what main changed. */
const CLEAN = `printf '1\\n2\\n3\\n' > f && echo g > g && git add -A && git commit -qm base && git switch -qc feat && echo g2 > g && git commit -qam 'edit g' && echo h > h && git add h && git commit -qm 'add h' && git switch -q main && printf '1\\nmain\\n3\\n' > f && git commit -qam main && git switch -q feat`;

describe("git rebase", () => {
  it("replays the branch onto upstream with native's commits", async () => {
    t = await twins(CLEAN);
    await step(t, "git rebase main", { outputs: false });
    await step(t, "git log --format='%H %P %an %s' && git rebase main");
    expectFsckClean(t.ws.dir);
  });

  it("drops a commit whose change upstream already has", async () => {
    t = await twins(`${CLEAN} && git switch -q main && echo h > h && git add h && git commit -qm 'add h on main' && git switch -q feat`);
    await step(t, "git rebase main", { outputs: false });
    await step(t, "git log --format='%s' -3");
  });

  it("stops on a conflict; --continue after resolving finishes like native", async () => {
    t = await twins(REPO);
    const out = await step(t, "git rebase main", { outputs: false });
    expect(out).toContain("CONFLICT (content): Merge conflict in f");
    expect(t.ws.read("f")).toContain("<<<<<<< HEAD\nmain\n=======\nfeat\n>>>>>>> ");
    await step(t, "git ls-files -u && git status");
    await step(t, "git add f && git status");
    await step(t, "printf '1\\nboth\\n3\\n' > f && git add f && git status && GIT_EDITOR=true git rebase --continue", { outputs: false });
    await step(t, "git log --format='%H %an %s' -4");
    expectFsckClean(t.ws.dir);
  });

  it("--skip drops the stopped commit; --abort goes back to the branch as it was", async () => {
    t = await twins(REPO);
    await step(t, "git rebase main", { outputs: false });
    await step(t, "git rebase --skip", { outputs: false });
    await step(t, "git log --format='%s' -3");
    await step(t, "git reset -q --hard ORIG_HEAD && git rebase main", { outputs: false });
    await step(t, "git rebase --abort", { outputs: false });
    await step(t, "git rebase --abort");
  });

  it("refuses with local changes", async () => {
    t = await twins(CLEAN);
    writeBoth(t, "g", "dirty\n");
    await step(t, "git rebase main");
    await step(t, "git add g && git rebase main");
  });
});
