/**
 * git subcommands no command file here runs, described as git runs them so the Plan-mode guard
 * judges a command line the same whether or not this shell has the command yet (the shell
 * answers them with "not a git command" or "not available"; `help` and `version` are answered
 * by the dispatcher itself). A new command file replaces its entry here.
 */
import { positionals, writesOutputFile } from "./forms";
import type { GitCommand } from "./types";

/** What the guard needs of a git subcommand: everything but `run`. */
export type GitForm = Pick<GitCommand, "name" | "effect" | "writes">;

/** Subcommands that only read (only `--output=<file>` would write). */
const READERS = [
  "annotate", "ls-tree", "shortlog", "describe", "rev-list", "name-rev", "merge-base", "for-each-ref", "show-ref",
  "count-objects", "version", "help", "check-ignore", "check-attr", "whatchanged", "var", "show-branch", "cherry",
  "range-diff", "diff-tree", "diff-files", "diff-index", "verify-commit", "verify-tag", "ls-remote",
];

/** Subcommands every form of which writes, with what it changes. */
const WRITERS: Record<string, string> = {
  am: "git am applies patches",
  gc: "git gc rewrites the repository",
  prune: "git prune deletes objects",
  "format-patch": "git format-patch writes files",
  bisect: "git bisect changes files",
  "update-index": "git update-index changes the index",
  "update-ref": "git update-ref changes refs",
  "hash-object": "git hash-object can write objects",
  "read-tree": "git read-tree changes the index",
  "write-tree": "git write-tree writes objects",
  "commit-tree": "git commit-tree writes objects",
  "filter-branch": "git filter-branch rewrites history",
  "sparse-checkout": "git sparse-checkout changes files",
  replace: "git replace changes refs",
  lfs: "git lfs changes files",
  archive: "git archive writes archives",
  bundle: "git bundle writes files",
};

/** Subcommands with reading and writing forms. */
const MIXED: GitForm[] = [
  {
    name: "reflog",
    effect: "git reflog changes the reflog",
    // `reflog`, `reflog show …` and `reflog <options>` list; `expire`, `delete` and the rest write.
    writes: (a) => !(a.length === 0 || a[0] === "show" || a[0]!.startsWith("-")),
  },
  { name: "worktree", effect: "git worktree changes worktrees", writes: (a) => a[0] !== "list" },
  { name: "notes", effect: "git notes changes notes", writes: (a) => a[0] !== "list" && a[0] !== "show" },
  {
    name: "submodule",
    effect: "git submodule changes the repository",
    writes: (a) => !(a.length === 0 || a[0] === "status" || a[0] === "summary"),
  },
  {
    name: "symbolic-ref",
    effect: "git symbolic-ref changes refs",
    writes: (a) => positionals(a).length > 1 || a.some((t) => t === "-d" || t === "--delete" || t === "-m"),
  },
];

export const UNLISTED_FORMS: readonly GitForm[] = [
  ...READERS.map((name) => ({ name, effect: `git ${name} --output writes a file`, writes: writesOutputFile })),
  ...Object.entries(WRITERS).map(([name, effect]) => ({ name, effect, writes: () => true })),
  ...MIXED,
];
