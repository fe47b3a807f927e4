/**
 * One mixed working tree, built twice: with native git on node's fs, and with the lib/git
 * facade on lightning-fs. Each step is a small operation both builders implement.
 */
export type Step =
  | { op: "write"; path: string; content: string }
  | { op: "delete"; path: string }
  | { op: "add"; paths: string[] }
  | { op: "rmCached"; path: string } // git rm --cached: untrack, keep the file
  | { op: "rm"; path: string } // git rm: untrack and delete
  | { op: "commit"; message: string }
  | { op: "mkdir"; path: string };

const w = (path: string, content: string): Step => ({ op: "write", path, content });

export const SCENARIO: Step[] = [
  // Committed baseline.
  w("README.md", "# readme\n"),
  w("src/keep.ts", "export const keep = 1;\n"),
  w("src/mod.ts", "export const mod = 1;\n"),
  w("src/del.ts", "export const del = 1;\n"),
  w("src/staged-del.ts", "export const stagedDel = 1;\n"),
  w("src/untrack-me.ts", "export const untrackMe = 1;\n"),
  w("docs/guide.md", "guide v1\n"),
  w("docs/both.md", "both v1\n"),
  w("ünï cødé/文件.txt", "unicode v1\n"),
  w("deep/a/b/c/d.txt", "deep v1\n"),
  w("tracked.log", "tracked even though *.log is ignored\n"),
  { op: "add", paths: ["."] },
  { op: "commit", message: "baseline" },
  // Ignore rules arrive after tracked.log was committed.
  w(".gitignore", "*.log\nbuild/\n/root-only.txt\n!important.log\n# comment\n\\#hash.txt\nspaced.txt\\ \n"),
  w("src/.gitignore", "generated/\n*.gen.ts\n!keep.gen.ts\n"),
  w("deep/a/.gitignore", "**/c/*.tmp\n"),
  { op: "add", paths: [".gitignore", "src/.gitignore", "deep/a/.gitignore"] },
  { op: "commit", message: "ignore rules" },
  // Unstaged modification, staged modification, staged + unstaged.
  w("src/mod.ts", "export const mod = 2; // changed\n"),
  w("docs/guide.md", "guide v2 (staged)\n"),
  { op: "add", paths: ["docs/guide.md"] },
  w("docs/both.md", "both v2 staged\n"),
  { op: "add", paths: ["docs/both.md"] },
  w("docs/both.md", "both v3 staged then edited again\n"),
  w("ünï cødé/文件.txt", "unicode v2 edited\n"),
  // Deletions: unstaged, staged, untracked-but-kept.
  { op: "delete", path: "src/del.ts" },
  { op: "rm", path: "src/staged-del.ts" },
  { op: "rmCached", path: "src/untrack-me.ts" },
  // Modified tracked file matching an ignore pattern.
  w("tracked.log", "tracked and changed\n"),
  // Added: staged, staged then modified, staged then deleted.
  w("src/added.ts", "export const added = 1;\n"),
  { op: "add", paths: ["src/added.ts"] },
  w("src/added-mod.ts", "export const addedMod = 1;\n"),
  { op: "add", paths: ["src/added-mod.ts"] },
  w("src/added-mod.ts", "export const addedMod = 2; // edited after add\n"),
  w("src/added-gone.ts", "export const addedGone = 1;\n"),
  { op: "add", paths: ["src/added-gone.ts"] },
  { op: "delete", path: "src/added-gone.ts" },
  // Untracked, listed one by one.
  w("notes.txt", "untracked\n"),
  w("newdir/sub/deeper/file.md", "untracked deep\n"),
  w("newdir/other.txt", "untracked too\n"),
  w("ünï cødé/新しい.txt", "untracked unicode\n"),
  w("important.log", "re-included by !important.log\n"),
  w("sub/root-only.txt", "not ignored: the pattern is anchored to the root\n"),
  w("src/keep.gen.ts", "re-included in nested .gitignore\n"),
  w("deep/a/b/c/x.txt", "untracked, not .tmp\n"),
  w("spaced.txt", "not ignored: the pattern has an escaped trailing space\n"),
  // Ignored.
  w("debug.log", "ignored\n"),
  w("logs/deep/trace.log", "ignored in a subdir\n"),
  w("build/out.js", "ignored dir\n"),
  w("build/nested/more.js", "ignored dir\n"),
  w("build/important.log", "inside an ignored dir: cannot be re-included\n"),
  w("root-only.txt", "ignored at the root\n"),
  w("src/generated/x.ts", "ignored by nested rule\n"),
  w("src/a.gen.ts", "ignored by nested rule\n"),
  w("deep/a/b/c/y.tmp", "ignored by **/c/*.tmp\n"),
  w("#hash.txt", "ignored via escaped #\n"),
  w("secret.env", "ignored via info/exclude\n"),
  // Empty untracked directory: git does not show it.
  { op: "mkdir", path: "empty/dir" },
];

export const INFO_EXCLUDE = "secret.env\n";
