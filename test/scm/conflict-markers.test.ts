import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { conflictBlocks, parseConflicts, resolveAll, resolveConflict } from "../../lib/scm/conflict-markers";
import { tempDir } from "../git/remote-helpers";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** `git merge-file -p` of three texts; extra flags pick a side (--ours/--theirs/--union) or the diff3 form. */
function mergeFile(ours: string, base: string, theirs: string, ...flags: string[]): string {
  const dir = tempDir("tabula-merge-file-");
  dirs.push(dir);
  for (const [n, t] of [["ours", ours], ["base", base], ["theirs", theirs]] as const) fs.writeFileSync(path.join(dir, n), t);
  try {
    return execFileSync("git", ["merge-file", "-p", ...flags, "-L", "HEAD", "-L", "base", "-L", "feature", "ours", "base", "theirs"], { cwd: dir, encoding: "utf8" });
  } catch (e) {
    return (e as { stdout: string }).stdout; // exit code = number of conflicts
  }
}

function seeded(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
}

/** Random three versions of a file: lines changed on one side, both sides, or added. */
function versions(seed: number, eol = "\n") {
  const rnd = seeded(seed);
  const base = Array.from({ length: 12 + Math.floor(rnd() * 20) }, (_, i) => `line ${i}`);
  const ours = [...base];
  const theirs = [...base];
  for (let i = 0; i < base.length; i++) {
    const r = rnd();
    if (r < 0.12) ours[i] = `ours ${i}`;
    else if (r < 0.24) theirs[i] = `theirs ${i}`;
    else if (r < 0.36) {
      ours[i] = `ours ${i}`;
      theirs[i] = `theirs ${i}`;
    }
  }
  if (rnd() < 0.5) ours.push("ours tail");
  if (rnd() < 0.5) theirs.push("theirs tail");
  const join = (l: string[]) => l.join(eol) + eol;
  return { ours: join(ours), base: join(base), theirs: join(theirs) };
}

describe("conflict markers (git merge-file as the oracle)", () => {
  it("accepting current, incoming or both everywhere gives git merge-file --ours, --theirs and --union", () => {
    let conflicts = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const v = versions(seed, seed % 5 === 0 ? "\r\n" : "\n");
      for (const style of [[], ["--diff3"], ["--zdiff3"]]) {
        const marked = mergeFile(v.ours, v.base, v.theirs, ...style);
        conflicts += conflictBlocks(marked).length;
        // The style goes along: diff3 output makes git merge less eagerly, so its hunks differ.
        expect(resolveAll(marked, "current"), `seed ${seed} ${style}`).toBe(mergeFile(v.ours, v.base, v.theirs, "--ours", ...style));
        expect(resolveAll(marked, "incoming"), `seed ${seed} ${style}`).toBe(mergeFile(v.ours, v.base, v.theirs, "--theirs", ...style));
        expect(resolveAll(marked, "both"), `seed ${seed} ${style}`).toBe(mergeFile(v.ours, v.base, v.theirs, "--union", ...style));
      }
    }
    expect(conflicts).toBeGreaterThan(100); // the sweep did meet conflicts
  });

  it("resolving one conflict leaves the others exactly as git wrote them", () => {
    let seed = 1;
    const withBlocks = (n: number) => {
      const v = versions(n);
      return mergeFile(v.ours, v.base, v.theirs, "--diff3");
    };
    while (conflictBlocks(withBlocks(seed)).length < 3) seed++;
    const marked = withBlocks(seed);
    const blocks = conflictBlocks(marked);
    expect(blocks.length).toBeGreaterThan(1);
    expect(blocks[0]).toMatchObject({ currentLabel: "HEAD", incomingLabel: "feature" });
    expect(blocks[0]!.base).toBeDefined();
    const once = resolveConflict(marked, 1, "incoming");
    const left = conflictBlocks(once);
    expect(left).toHaveLength(blocks.length - 1);
    expect(left[0]!.raw).toBe(blocks[0]!.raw);
    // Resolving the rest one by one, always the first left, as "current": git merge-file --ours.
    let t = once;
    while (conflictBlocks(t).length) t = resolveConflict(t, 0, "current");
    let n = 0;
    const expected = parseConflicts(marked)
      .map((p) => ("raw" in p ? (n++ === 1 ? p.incoming : p.current) : p.text))
      .join("");
    expect(t).toBe(expected);
    expect(() => resolveConflict(marked, blocks.length, "both")).toThrow(`There is no conflict number ${blocks.length + 1}`);
  });

  it("leaves text that only looks like a marker alone", () => {
    const t = "a\n<<<<<<< not closed\nb\n=======\nc\n";
    expect(conflictBlocks(t)).toEqual([]);
    expect(resolveAll(t, "current")).toBe(t);
    const doc = "## Heading\n=======\n>>>>>>> quote\n";
    expect(resolveAll(doc, "incoming")).toBe(doc);
  });
});
