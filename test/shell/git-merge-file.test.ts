/**
 * The line merge (lib/git/merge-file.ts) against `git merge-file -p` on the same three
 * texts: the same merged text, markers included, and the same number of conflicts. Besides
 * hand-picked cases, seeded random edits of a base file (changes, insertions, deletions,
 * near and far apart on the two sides).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mergeText } from "../../lib/git/merge-file";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-merge-file-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function native(base: string, ours: string, theirs: string): { text: string; conflicts: number } {
  fs.writeFileSync(path.join(dir, "o"), ours);
  fs.writeFileSync(path.join(dir, "b"), base);
  fs.writeFileSync(path.join(dir, "t"), theirs);
  const r = spawnSync("git", ["merge-file", "-p", "-L", "HEAD", "-L", "base", "-L", "feat", "o", "b", "t"], { cwd: dir, encoding: "utf8" });
  return { text: r.stdout, conflicts: r.status ?? -1 };
}

function check(base: string, ours: string, theirs: string) {
  const mine = mergeText(base, ours, theirs, { ours: "HEAD", theirs: "feat" }, { alnum: true });
  const theirsNative = native(base, ours, theirs);
  expect({ text: mine.text, conflicts: mine.conflicts }).toEqual(theirsNative);
  return mine;
}

const lines = (...l: (string | number)[]) => l.map((x) => `${x}\n`).join("");

describe("mergeText agrees with git merge-file", () => {
  it("takes one side's change, both sides' far-apart changes, identical changes", () => {
    const base = lines(1, 2, 3, 4, 5, 6, 7, 8, 9);
    expect(check(base, lines(1, "two", 3, 4, 5, 6, 7, 8, 9), base).clean).toBe(true);
    expect(check(base, lines(1, "two", 3, 4, 5, 6, 7, 8, 9), lines(1, 2, 3, 4, 5, 6, 7, "eight", 9)).clean).toBe(true);
    expect(check(base, lines(1, "x", 3, 4, 5, 6, 7, 8, 9), lines(1, "x", 3, 4, 5, 6, 7, 8, 9)).clean).toBe(true);
  });

  it("conflicts on the same line, on adjacent lines, and on insertions at one place", () => {
    const base = lines(1, 2, 3, 4, 5);
    expect(check(base, lines(1, "a", 3, 4, 5), lines(1, "b", 3, 4, 5)).conflicts).toBe(1);
    expect(check(base, lines(1, "a", 3, 4, 5), lines(1, 2, "b", 4, 5)).clean).toBe(false);
    expect(check(base, lines(1, 2, "a", 3, 4, 5), lines(1, 2, "b", 3, 4, 5)).conflicts).toBe(1);
    check(base, lines(1, "a", "same", 3, 4, 5), lines(1, "b", "same", 3, 4, 5));
    // Split where the sides agree, and kept apart by more than three common lines.
    const long = lines(1, 2, 3, 4, 5, 6, 7, 8);
    expect(check(long, lines("a", 2, 3, 4, 5, 6, 7, "b"), lines("c", 2, 3, 4, 5, 6, 7, "d")).conflicts).toBe(2);
    expect(check(long, lines("a", 2, 3, 4, 5, 6, 7, "b"), lines("c", 2, 3, 4, 5, 6, 7, 8)).conflicts).toBe(1);
    expect(check(lines(1, "}", "}", "}", "}", 2), lines("a", "}", "}", "}", "}", "b"), lines("c", "}", "}", "}", "}", "d")).conflicts).toBe(1);
  });

  it("deletion against change, missing final newline, empty base (add/add)", () => {
    check(lines(1, 2, 3), lines(1, 3), lines(1, "two", 3));
    check("1\n2\n3", "1\n2\nthree", "1\n2\nTHREE");
    check("", lines("a", "b"), lines("a", "c"));
  });

  it("seeded random edits", () => {
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const edit = (src: string[]) => {
      const out = [...src];
      const edits = 1 + rand(3);
      for (let e = 0; e < edits; e++) {
        const at = rand(out.length + 1);
        const kind = rand(3);
        if (kind === 0 && at < out.length) out[at] = `changed-${rand(1000)}`;
        else if (kind === 1) out.splice(at, 0, `inserted-${rand(1000)}`);
        else if (at < out.length) out.splice(at, 1);
      }
      return out;
    };
    let conflicted = 0;
    for (let i = 0; i < 150; i++) {
      const base = Array.from({ length: 8 + rand(12) }, (_, k) => `line ${k}`);
      const r = check(lines(...base), lines(...edit(base)), lines(...edit(base)));
      if (!r.clean) conflicted++;
    }
    // The cases exercise both outcomes.
    expect(conflicted).toBeGreaterThan(15);
    expect(conflicted).toBeLessThan(135);
  });
});
