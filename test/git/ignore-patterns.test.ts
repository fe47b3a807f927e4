import nodeFs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IsoFs } from "../../lib/fs/types";
import { createIgnoreMatcher, parseIgnoreFile } from "../../lib/git/ignore";
import { nativeCheckIgnore, nativeGit } from "./helpers";

/** Patterns exercising wildmatch corners; each path below is checked against git itself. */
const ROOT_IGNORE = [
  "*.o",
  "/anchored.txt",
  "doc/*.txt",
  "**/logs",
  "a/**/z.md",
  "out/**",
  "[abc]x.c",
  "[!d-f]y.c",
  "[[:digit:]]num.c",
  "q?.h",
  "\\!bang.txt",
  "\\#sharp.txt",
  "trail\\ ",
  "trail2   ",
  "dironly/",
  "*.swp",
  "!keep.swp",
  "mid/dle/",
  "x**y.c",
  "nested/**/deep/",
  "",
  "# a comment",
].join("\n");

const NESTED_IGNORE = ["!*.o", "local-only", "/anchored-here.txt"].join("\n");

const PATHS = [
  "a.o", "sub/b.o", "keepdir/c.o", "keepdir/sub/d.o",
  "anchored.txt", "sub/anchored.txt",
  "doc/a.txt", "doc/sub/b.txt", "x/doc/c.txt",
  "logs", "logs/x", "sub/logs/y", "logsx",
  "a/z.md", "a/b/z.md", "a/b/c/z.md", "b/a/z.md",
  "out", "out/x", "out/y/z",
  "ax.c", "dx.c", "ay.c", "ey.c", "1num.c", "xnum.c",
  "q1.h", "q12.h", "q/.h",
  "!bang.txt", "#sharp.txt", "trail ", "trail", "trail2",
  "dironly", "dironly/f", "sub/dironly", "sub/dironly/f",
  "f.swp", "keep.swp", "mid/dle", "mid/dle/f", "x/mid/dle/f",
  "xy.c", "xay.c", "xa/by.c",
  "nested/deep/f", "nested/a/b/deep/f", "nested/deep",
  "keepdir/local-only", "local-only", "keepdir/anchored-here.txt", "keepdir/x/anchored-here.txt",
];

// Names that are directories in the test tree (everything else is a file).
const DIRS = new Set(["logs", "sub/logs", "out", "out/y", "dironly", "sub/dironly", "mid/dle", "x/mid/dle", "nested/deep", "nested/a/b/deep"]);

describe("ignore patterns agree with git check-ignore", () => {
  let dir: string;
  beforeAll(() => {
    dir = nodeFs.mkdtempSync(path.join(os.tmpdir(), "tabula-ign-"));
    nativeGit(dir, "init", "-q");
    nodeFs.writeFileSync(path.join(dir, ".gitignore"), ROOT_IGNORE);
    nodeFs.mkdirSync(path.join(dir, "keepdir"), { recursive: true });
    nodeFs.writeFileSync(path.join(dir, "keepdir/.gitignore"), NESTED_IGNORE);
    for (const p of PATHS) {
      const abs = path.join(dir, p);
      if (DIRS.has(p)) nodeFs.mkdirSync(abs, { recursive: true });
      else if (!PATHS.some((q) => q.startsWith(p + "/"))) {
        nodeFs.mkdirSync(path.dirname(abs), { recursive: true });
        nodeFs.writeFileSync(abs, "x");
      } else nodeFs.mkdirSync(abs, { recursive: true });
    }
  });
  afterAll(() => nodeFs.rmSync(dir, { recursive: true, force: true }));

  it("for every path", async () => {
    const matcher = await createIgnoreMatcher({ fs: nodeFs as unknown as IsoFs, dir });
    const ignored = nativeCheckIgnore(dir, PATHS);
    const mismatches = PATHS.filter((p) => {
      const isDir = nodeFs.statSync(path.join(dir, p)).isDirectory();
      return matcher(p, isDir) !== ignored.has(p);
    }).map((p) => `${p}: git says ${ignored.has(p) ? "ignored" : "not ignored"}`);
    expect(mismatches).toEqual([]);
    expect(ignored.size).toBeGreaterThan(20); // the table really exercises both outcomes
  });

  it("parses comments, blanks, negation and escapes", () => {
    const rules = parseIgnoreFile("# c\n\n!neg\n\\!lit\n\\#hash\ndir/\n/anch\nsp\\ \n");
    expect(rules.map((r) => [r.negate, r.dirOnly, r.basenameOnly])).toEqual([
      [true, false, true],
      [false, false, true],
      [false, false, true],
      [false, true, true],
      [false, false, false],
      [false, false, true],
    ]);
  });
});
