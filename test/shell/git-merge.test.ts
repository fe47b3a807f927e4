/**
 * `git merge` against native git (see ./git-merge-helpers.ts): fast-forward, --ff-only,
 * --no-ff, clean three-way merges, conflicts (markers, stages, status), concluding by commit,
 * --abort, --squash, -m, and the refusals when local changes are in the way.
 */
import { afterEach, describe, expect, it } from "vitest";
import { expectFsckClean, step, twins, writeBoth, type Twins } from "./git-merge-helpers";

let t: Twins | null = null;
afterEach(() => {
  t?.cleanup();
  t = null;
});

const BASE = `printf '1\\n2\\n3\\n4\\n5\\n6\\n7\\n8\\n9\\n' > f && echo x > g && echo keep > k && mkdir -p d && echo deep > d/a && git add -A && git commit -qm base`;
/** feat changes line 2 of f and g; main changes line 8 of f and adds a file: a clean merge. */
const DIVERGED_CLEAN = `${BASE} && git switch -qc feat && sed -i 's/^2$/two/' f && echo y > g && echo new > d/b && git commit -qam feat1 && git add -A && git commit -qm feat2 --allow-empty && git switch -q main && sed -i 's/^8$/eight/' f && echo m > m && git add -A && git commit -qm main1`;
/** Both sides change line 5 of f; feat deletes k, main modifies it; g changes only on feat. */
const DIVERGED_CONFLICT = `${BASE} && git switch -qc feat && sed -i 's/^5$/five-feat/' f && git rm -q k && echo y > g && git commit -qam feat && git switch -q main && sed -i 's/^5$/five-main/' f && echo kept > k && git commit -qam main`;

describe("git merge, fast-forward", () => {
  it("fast-forwards, and --ff-only / --no-ff behave as native", async () => {
    t = await twins(`${BASE} && git switch -qc feat && echo y > g && echo b > d/b && git add -A && git commit -qm feat && git switch -q main`);
    await step(t, "git merge feat");
    await step(t, "git merge feat");
    await step(t, "git reset -q --hard HEAD~1 && git merge --ff-only feat");
    await step(t, "git reset -q --hard HEAD~1 && git merge --no-ff feat");
    expectFsckClean(t.ws.dir);
  });

  it("refuses --ff-only on diverged branches without touching anything", async () => {
    t = await twins(DIVERGED_CLEAN);
    await step(t, "git merge --ff-only feat");
  });

  it("carries a local change the fast-forward does not touch, and refuses one it would overwrite", async () => {
    t = await twins(`${BASE} && git switch -qc feat && echo y > g && git commit -qam feat && git switch -q main`);
    writeBoth(t, "g", "local\n");
    await step(t, "git merge feat", { outputs: false });
    await step(t, "git checkout -q g && echo local > k && git merge feat");
  });
});

describe("git merge onto an unborn branch", () => {
  it("checks the commit out on it", async () => {
    t = await twins(`${BASE} && git switch -q --orphan fresh`);
    await step(t, "git merge main");
    await step(t, "git log --oneline && git status -s");
  });
});

describe("git merge, three-way", () => {
  it("a clean merge makes the same merge commit as native git", async () => {
    t = await twins(DIVERGED_CLEAN);
    const out = await step(t, "git merge feat");
    expect(out).toContain("Merge made by the 'ort' strategy.");
    await step(t, "git log --format='%H %P %s' -3 && git cat-file -p HEAD");
    expectFsckClean(t.ws.dir);
  });

  it("-m, a non-main branch (' into …') and merging a commit by its id", async () => {
    t = await twins(DIVERGED_CLEAN);
    await step(t, "git merge -m 'custom message' feat");
    await step(t, "git reset -q --hard HEAD~1 && git switch -qc side && git merge feat");
    await step(t, "git reset -q --hard HEAD~1 && git merge $(git rev-parse feat~1)");
    expectFsckClean(t.ws.dir);
  });

  it("conflicts: markers in the file, stages in the index, status, MERGE_HEAD and MERGE_MSG; commit concludes with two parents", async () => {
    t = await twins(DIVERGED_CONFLICT);
    const out = await step(t, "git merge feat");
    expect(out).toContain("CONFLICT (content): Merge conflict in f");
    expect(out).toContain("[rc=1]");
    expect(t.ws.read("f")).toContain("<<<<<<< HEAD\nfive-main\n=======\nfive-feat\n>>>>>>> feat\n");
    await step(t, "git status");
    await step(t, "git status -s && git ls-files -u");
    await step(t, "git commit -m x");
    await step(t, "git merge feat");
    await step(t, "git add f && git status");
    await step(t, "git rm -q k && git status");
    await step(t, "git commit -q --no-edit && git log --format='%P %s' -1");
    expectFsckClean(t.ws.dir);
  });

  it("--abort restores the state before the merge and keeps unrelated local edits", async () => {
    t = await twins(`${DIVERGED_CONFLICT} && echo other > o && git add o && git commit -qm other`);
    writeBoth(t, "o", "edited\n");
    await step(t, "git merge feat");
    await step(t, "git merge --abort");
    await step(t, "git merge --abort");
  });

  it("--no-commit stops before committing; --continue concludes", async () => {
    t = await twins(DIVERGED_CLEAN);
    await step(t, "git merge --no-commit feat");
    await step(t, "git status");
    // Native git would open an editor; GIT_EDITOR=true takes the prepared message as this shell does.
    await step(t, "GIT_EDITOR=true git merge --continue", { outputs: false });
    expectFsckClean(t.ws.dir);
  });

  it("--squash stages the result without MERGE_HEAD; commit uses SQUASH_MSG", async () => {
    t = await twins(DIVERGED_CLEAN);
    await step(t, "git merge --squash feat");
    await step(t, "GIT_EDITOR=true git commit -q && git log --format='%P' -1 && git log -1 --format=%B");
    expectFsckClean(t.ws.dir);
  });

  it("--squash with conflicts", async () => {
    t = await twins(DIVERGED_CONFLICT);
    await step(t, "git merge --squash feat");
  });

  it("refuses when local changes would be overwritten, staged changes, or an untracked file in the way", async () => {
    t = await twins(`${DIVERGED_CLEAN} && git switch -q feat && echo n > n && git add n && git commit -qm n && git switch -q main`);
    writeBoth(t, "g", "dirty\n");
    await step(t, "git merge feat");
    await step(t, "git checkout -q g && echo s > s && git add s && git merge feat");
    await step(t, "git rm -q --cached s && rm s && echo u > n && git merge feat");
    await step(t, "rm n && echo dirty > k && git merge feat && git status -s");
    expectFsckClean(t.ws.dir);
  });

  it("add/add conflicts and files that only one side added", async () => {
    t = await twins(`${BASE} && git switch -qc feat && printf 'a\\nb\\n' > both && echo t > theirs-only && git add -A && git commit -qm feat && git switch -q main && printf 'a\\nc\\n' > both && echo o > ours-only && git add -A && git commit -qm main`);
    await step(t, "git merge feat");
    await step(t, "git status");
    expectFsckClean(t.ws.dir);
  });

  it("refuses a merge while a conflict is unresolved", async () => {
    t = await twins(DIVERGED_CONFLICT);
    await step(t, "git merge feat");
    await step(t, "git merge feat");
    await step(t, "git commit -am resolve");
  });

  it("errors: nothing to merge, unknown commit, unrelated histories", async () => {
    t = await twins(`${BASE} && git switch -q --orphan other && echo z > z && git add z && git commit -qm other && git switch -q main`);
    await step(t, "git merge nope");
    await step(t, "git merge other");
  });

  it("binary files that both sides changed conflict, keeping ours in the work tree", async () => {
    t = await twins(`printf 'a\\0b' > bin && echo x > f && git add -A && git commit -qm base && git switch -qc feat && printf 'a\\0feat' > bin && git commit -qam feat && git switch -q main && printf 'a\\0main' > bin && git commit -qam main`);
    const out = await step(t, "git merge feat");
    expect(out).toContain("CONFLICT (content): Merge conflict in bin");
    await step(t, "git status -s");
  });

  it("a mode change on one side and a content change on the other both land", async () => {
    t = await twins(`${BASE} && git switch -qc feat && chmod +x g && git commit -qam 'exec g' && git switch -q main && echo x2 > g && git commit -qam 'edit g' && sed -i 's/^1$/one/' f && git commit -qam 'edit f'`);
    await step(t, "git merge feat");
    expectFsckClean(t.ws.dir);
  });

  it("deletions: both sides delete, one deletes a whole directory, empty directories go", async () => {
    t = await twins(`${BASE} && mkdir -p e/f && echo 1 > e/f/x && git add -A && git commit -qm more && git switch -qc feat && git rm -rq e d/a && git commit -qm 'rm e d/a' && git switch -q main && git rm -q d/a && echo m > m && git add m && git commit -qm 'rm d/a'`);
    await step(t, "git merge feat && ls");
    expect(t.ws.exists("e")).toBe(false);
    expectFsckClean(t.ws.dir);
  });

  it("follows a file one side renamed while the other changed it", async () => {
    t = await twins(`printf '1\\n2\\n3\\n4\\n5\\n' > a && echo x > x && git add -A && git commit -qm base && git switch -qc feat && git mv a b && git commit -qm mv && git switch -q main && printf '1\\n2\\n3\\n4\\nfive\\n' > a && git commit -qam edit`);
    await step(t, "git merge feat");
    await step(t, "git reset -q --hard HEAD~1 && git switch -q feat && git merge main");
    expectFsckClean(t.ws.dir);
  });

  it("switch, checkout and stash refuse while a conflict is unresolved", async () => {
    t = await twins(`${DIVERGED_CONFLICT} && git branch other`);
    await step(t, "git merge feat");
    await step(t, "git switch other");
    await step(t, "git checkout other");
    await step(t, "git stash");
    await step(t, "git merge --abort && git switch -q other && git status -s");
  });

  it("follows a file one side renamed and changed while the other changed it too", async () => {
    t = await twins(`seq 1 20 > a && echo x > x && git add -A && git commit -qm base && git switch -qc feat && git mv a b && sed -i 's/^2$/two/' b && git commit -qam mv && git switch -q main && sed -i 's/^19$/nineteen/' a && git commit -qam edit`);
    // git's stat line shows the rename with its similarity ("a => b", 93%), which this shell's diff does not detect.
    const out = await step(t, "git merge feat", { outputs: false });
    expect(out).toContain("Auto-merging b");
    await step(t, "git reset -q --hard HEAD~1 && git switch -q feat && git merge main");
    expectFsckClean(t.ws.dir);
  });
});

