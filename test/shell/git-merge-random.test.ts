/**
 * Seeded random merges against native git (see ./git-merge-helpers.ts): a base of files in a
 * few directories, then on each side random line edits, deletions, additions (sometimes the
 * same new path on both sides) and mode changes; `git merge` must leave the same commit or the
 * same conflicts (index stages, markers in the files, status), and say the same; so must
 * `git cherry-pick` of one side onto the other and `git rebase` (whose output native git
 * writes with progress carriage returns, so only its result is compared).
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { expectFsckClean, step, twins, type Twins } from "./git-merge-helpers";

let t: Twins | null = null;
afterEach(() => {
  t?.cleanup();
  t = null;
});

function rng(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

const FILES = ["a.txt", "b.txt", "src/c.txt", "src/d.txt", "src/deep/e.txt", "docs/f.txt"];

/** A bash script building base, feat and main branches from one seed. */
function scenario(seed: number, opts: { moves?: boolean } = {}): string {
  const r = rng(seed);
  const body = (tag: string) => Array.from({ length: 6 + r(6) }, (_, i) => `${tag} line ${i}`);
  const write = (path: string, lines: string[]) => `mkdir -p "$(dirname ${path})" && printf '${lines.map((l) => l + "\\n").join("")}' > ${path}`;
  const base = new Map(FILES.map((f) => [f, body(f)]));
  const steps = [...[...base].map(([f, l]) => write(f, l)), "git add -A", "git commit -qm base"];
  const side = (name: string, create: boolean) => {
    steps.push(create ? `git switch -qc ${name}` : `git switch -q ${name}`);
    const files = new Map([...base].map(([f, l]) => [f, [...l]]));
    for (const f of FILES) {
      const roll = r(10);
      const lines = files.get(f)!;
      if (roll < 4) {
        lines[r(lines.length)] = `${name} edit ${r(100)}`;
        if (r(2)) lines.splice(r(lines.length + 1), 0, `${name} insert ${r(100)}`);
        steps.push(write(f, lines));
      } else if (roll === 4) steps.push(`git rm -q ${f}`);
      else if (roll === 6 && opts.moves && name === "feat") {
        // Renamed on one side (sometimes changed too) while the other may change it.
        steps.push(`git mv ${f} ${f.replace(".txt", "-moved.txt")}`);
        if (r(2)) steps.push(`printf '${name} added\\n' >> ${f.replace(".txt", "-moved.txt")}`);
      }
      else if (roll === 5) steps.push(`chmod +x ${f}`);
    }
    steps.push(write(`${name}-only.txt`, [name]));
    if (r(3) === 0) steps.push(write("both-new.txt", [`${name} version`, "shared"]));
    steps.push("git add -A", `git commit -qm ${name}`);
  };
  side("feat", true);
  side("main", false);
  return steps.join(" && ");
}

describe("random merges agree with native git", () => {
  const outcomes: string[] = [];
  // The seeds must exercise clean merges and conflicts both.
  afterAll(() => {
    expect(outcomes).toContain("[rc=0]");
    expect(outcomes).toContain("[rc=1]");
  });
  for (let seed = 1; seed <= 16; seed++) {
    it(`seed ${seed}`, async () => {
      t = await twins(scenario(seed));
      const out = await step(t, "git merge feat");
      outcomes.push(out.match(/\[rc=\d+\]/)![0]);
      await step(t, "git status");
      expectFsckClean(t.ws.dir);
    });
  }
});

describe("random cherry-picks and rebases agree with native git", () => {
  for (let seed = 31; seed <= 38; seed++) {
    it(`seed ${seed}`, async () => {
      t = await twins(scenario(seed));
      await step(t, "git cherry-pick feat");
      await step(t, "git status");
      await step(t, "git cherry-pick --abort; git reset -q --hard main && git switch -q feat && git rebase main", { outputs: false });
      await step(t, "git status");
      expectFsckClean(t.ws.dir);
    });
  }
});

describe("random merges with renames agree with native git", () => {
  for (let seed = 43; seed <= 54; seed++) {
    it(`seed ${seed}`, async () => {
      t = await twins(scenario(seed, { moves: true }));
      // git's merge summary shows renames with their similarity, which this shell's diff does not detect.
      await step(t, "git merge feat", { outputs: false });
      await step(t, "git status");
      expectFsckClean(t.ws.dir);
    });
  }
});

