/**
 * `git cherry-pick` and `git revert` against native git (see ./git-merge-helpers.ts): clean
 * picks make the same commits, conflicts stop with CHERRY_PICK_HEAD / REVERT_HEAD, the same
 * markers, stages and status, and --continue / --skip / --abort / -n / the refusals agree.
 */
import { afterEach, describe, expect, it } from "vitest";
import { expectFsckClean, step, twins, writeBoth, type Twins } from "./git-merge-helpers";

let t: Twins | null = null;
afterEach(() => {
  t?.cleanup();
  t = null;
});

/** feat: "feat change" edits line 2 of f (conflicts with main's), "add h" adds a file, "edit g" edits g. */
const REPO = `printf '1\\n2\\n3\\n' > f && echo g > g && git add -A && git commit -qm base && git switch -qc feat && printf '1\\nfeat\\n3\\n' > f && git commit -qam 'feat change' && echo h > h && git add h && git commit -qm 'add h' && echo g2 > g && git commit -qam 'edit g' && git switch -q main && printf '1\\nmain\\n3\\n' > f && git commit -qam main`;

describe("git cherry-pick", () => {
  it("a clean pick makes native's commit (author kept, same tree, same message)", async () => {
    t = await twins(REPO);
    const out = await step(t, "git cherry-pick feat~1");
    expect(out).toContain("create mode 100644 h");
    await step(t, "git cherry-pick feat && git log --format='%H %an %s' -3");
    expectFsckClean(t.ws.dir);
  });

  it("a conflict stops with CHERRY_PICK_HEAD; --continue concludes with the picked author and message", async () => {
    t = await twins(REPO);
    const out = await step(t, "git cherry-pick feat~2");
    expect(out).toContain("[rc=1]");
    expect(t.ws.read("f")).toContain(">>>>>>> ");
    await step(t, "git status");
    await step(t, "git cherry-pick feat");
    await step(t, "git cherry-pick --continue");
    await step(t, "printf '1\\nboth\\n3\\n' > f && git add f && git status");
    await step(t, "GIT_EDITOR=true git cherry-pick --continue && git log --format='%an|%cn|%s' -1");
    expectFsckClean(t.ws.dir);
  });

  it("--abort and --skip go back to HEAD; -n stages without committing", async () => {
    t = await twins(REPO);
    await step(t, "git cherry-pick feat~2");
    await step(t, "git cherry-pick --abort");
    await step(t, "git cherry-pick --abort");
    await step(t, "git cherry-pick feat~2 ; git cherry-pick --skip");
    await step(t, "git cherry-pick -n feat~1 && git status");
  });

  it("refuses over staged changes, edits it would overwrite, and unknown commits", async () => {
    t = await twins(REPO);
    writeBoth(t, "g", "dirty\n");
    await step(t, "git cherry-pick feat");
    await step(t, "git checkout -q g && echo s > s && git add s && git cherry-pick feat");
    await step(t, "git cherry-pick nope");
  });
});

describe("git revert", () => {
  it("reverts with native's message and tree", async () => {
    t = await twins(REPO);
    await step(t, "git cherry-pick feat~1 >/dev/null && git revert --no-edit HEAD && git log -1 --format=%B");
    await step(t, "git merge -q feat");
    await step(t, "git revert --no-edit HEAD");
    expectFsckClean(t.ws.dir);
  });

  it("a conflicting revert stops with REVERT_HEAD; --abort restores", async () => {
    t = await twins(`${REPO} && git cherry-pick -X theirs feat~2 >/dev/null && printf '1\\nlater\\n3\\n' > f && git commit -qam later`);
    await step(t, "git revert --no-edit HEAD~1");
    await step(t, "git status");
    await step(t, "git revert --abort");
    expectFsckClean(t.ws.dir);
  });
});
