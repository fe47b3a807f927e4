/**
 * git under the Plan-mode guard: the subcommands that only read, the ones that write (with
 * the reason the model is shown), and the read forms of subcommands that can also write
 * (branch, tag, config, stash…). Global options that run programs (`-c core.pager=…`,
 * `--exec-path`) are refused.
 */
import { flag, type Cmd, type CommandFinding } from "./command-types";


/** git subcommands that only read (some forms of branch/tag/config/stash… are checked below). */
const GIT_READ = new Set([
  "status", "diff", "log", "show", "blame", "annotate", "ls-files", "ls-tree", "rev-parse", "grep", "shortlog",
  "describe", "cat-file", "rev-list", "name-rev", "merge-base", "for-each-ref", "show-ref", "count-objects", "version",
  "help", "check-ignore", "check-attr", "whatchanged", "var", "show-branch", "cherry", "range-diff", "diff-tree",
  "diff-files", "diff-index", "verify-commit", "verify-tag", "ls-remote",
]);

const GIT_MUTATING_REASON: Record<string, string> = {
  add: "git add changes the index",
  commit: "git commit records a commit",
  apply: "git apply changes files",
  am: "git am applies patches",
  checkout: "git checkout changes files",
  switch: "git switch changes files",
  restore: "git restore changes files",
  reset: "git reset changes the index and files",
  clean: "git clean deletes files",
  rm: "git rm deletes files",
  mv: "git mv moves files",
  merge: "git merge changes files",
  rebase: "git rebase rewrites history",
  "cherry-pick": "git cherry-pick changes files",
  revert: "git revert changes files",
  pull: "git pull changes files",
  push: "git push changes a remote",
  fetch: "git fetch changes the repository",
  clone: "git clone writes a repository",
  init: "git init writes a repository",
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
  submodule: "git submodule changes the repository",
  worktree: "git worktree changes worktrees",
  notes: "git notes changes notes",
  replace: "git replace changes refs",
  lfs: "git lfs changes files",
  archive: "git archive writes archives",
  bundle: "git bundle writes files",
  "symbolic-ref": "git symbolic-ref changes refs",
  reflog: "git reflog changes the reflog",
  stash: "git stash changes files",
  remote: "git remote changes the configuration",
  config: "git config changes the configuration",
  branch: "git branch changes branches",
  tag: "git tag changes tags",
};

const GIT_DANGEROUS_CONFIG =
  /(^alias\.|pager|editor|program|command|cmd|hook|textconv|external|^filter\.|driver|helper|askpass|fsmonitor|ssh|proxy|exec|^include|^sequence\.|^gpg\.|^credential|^uploadpack|^receive\.|^url\.|^remote\.|^core\.worktree|^core\.gitproxy|^diff\..*\.|^merge\..*\.)/i;

export function gitRule(cmd: Cmd): CommandFinding | undefined {
  const args = cmd.args;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.dynamic) return flag(cmd, "git with an argument computed at run time");
    const t = a.text;
    if (!t.startsWith("-")) break;
    if (t === "-C" || t === "--git-dir" || t === "--work-tree" || t === "--namespace") {
      if (args[i + 1]?.dynamic) return flag(cmd, "git with an argument computed at run time");
      i++;
      continue;
    }
    if (/^--(git-dir|work-tree|namespace)=/.test(t)) continue;
    if (t === "-c" || t.startsWith("-c")) {
      const kv = t === "-c" ? args[++i] : { text: t.slice(2), dynamic: false };
      if (!kv || kv.dynamic) return flag(cmd, "git -c with a value computed at run time");
      const key = kv.text.split("=")[0]!;
      if (GIT_DANGEROUS_CONFIG.test(key)) return flag(cmd, `git -c ${key} can run commands`);
      continue;
    }
    if (/^--(no-pager|paginate|bare|no-replace-objects|literal-pathspecs|glob-pathspecs|noglob-pathspecs|icase-pathspecs|no-optional-locks|version|help|html-path|man-path|info-path|exec-path|no-advice|no-lazy-fetch)$/.test(t) || /^-[Pph]$/.test(t)) continue;
    if (t.startsWith("--config-env") || t.startsWith("--exec-path=")) return flag(cmd, `git ${t.split("=")[0]} can run commands`);
    return flag(cmd, `git ${t} is not a known option`);
  }
  const sub = args[i]?.text;
  if (sub === undefined) return undefined;
  const rest = args.slice(i + 1);
  const texts = rest.map((a) => a.text);
  const positional = rest.filter((a) => a.dynamic || !a.text.startsWith("-"));
  const mutating = () => flag(cmd, GIT_MUTATING_REASON[sub] ?? `git ${sub} changes the repository`);
  // `git <cmd> --help` is `git help <cmd>` (git.c rewrites it before the command runs), and a
  // lone `-h` prints the usage and exits: neither runs the command.
  if (texts[0] === "--help" || (texts.length === 1 && texts[0] === "-h")) return undefined;

  if (GIT_READ.has(sub)) {
    if (texts.some((t) => /^--(output|ext-diff|open-files-in-pager)(=|$)/.test(t) || t === "-O" || /^-O./.test(t) && sub === "grep")) {
      return flag(cmd, `git ${sub} with this option writes a file or runs a program`);
    }
    if (texts.some((t) => /^--(textconv|upload-pack|exec)(=|$)/.test(t) && t.includes("="))) return flag(cmd, `git ${sub} with this option runs a program`);
    return undefined;
  }
  switch (sub) {
    case "branch": {
      const listOnly = /^(-a|-r|-v|-vv|-l|--list|--all|--remotes|--verbose|--show-current|--no-color|--color(=.*)?|--contains|--no-contains|--merged|--no-merged|--points-at|--sort(=.*)?|--format(=.*)?|--column(=.*)?|--no-column|--abbrev(=.*)?|--no-abbrev|-i|--ignore-case|-q|--quiet|-avv|-av|-rv|-vva|-va)$/;
      const opts = rest.filter((a) => !a.dynamic && a.text.startsWith("-"));
      if (!opts.every((a) => listOnly.test(a.text) || /^--(sort|format|contains|merged|no-merged|no-contains|points-at)=/.test(a.text))) return mutating();
      const listing = texts.some((t) => t === "-l" || t === "--list" || t === "--contains" || t === "--merged" || t === "--no-merged" || t === "--points-at" || t === "--no-contains");
      if (positional.length > 0 && !listing) return mutating();
      return undefined;
    }
    case "tag": {
      const listing = texts.some((t) => t === "-l" || t === "--list" || /^-n\d*$/.test(t) || t === "--contains" || t === "--merged" || t === "--points-at" || t === "--no-contains" || t === "--no-merged");
      const writes = texts.some((t) => /^-[adsfmuF]|^--(annotate|delete|sign|force|message|file|edit|local-user)/.test(t));
      if (writes) return mutating();
      if (positional.length > 0 && !listing) return mutating();
      return undefined;
    }
    case "remote": {
      if (rest.length === 0 || texts.every((t) => t === "-v" || t === "--verbose")) return undefined;
      if (texts[0] === "get-url") return undefined;
      if (texts[0] === "show") return undefined;
      return mutating();
    }
    case "config": {
      if (texts[0] === "get" || texts[0] === "list") return undefined;
      const writeOps = /^(--unset|--unset-all|--add|--replace-all|--rename-section|--remove-section|-e|--edit|--file|-f|--blob|set|unset|rename-section|remove-section|edit)(=|$)/;
      if (texts.some((t) => writeOps.test(t))) return mutating();
      const hasRead = texts.some((t) => /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l)$/.test(t));
      if (hasRead || positional.length <= 1) return undefined;
      return mutating();
    }
    case "stash":
      if (texts[0] === "list" || texts[0] === "show") return undefined;
      return mutating();
    case "reflog":
      if (texts.length === 0 || texts[0] === "show" || texts[0]!.startsWith("-")) {
        if (texts[0] === "expire" || texts[0] === "delete") return mutating();
        return undefined;
      }
      return mutating();
    case "worktree":
      return texts[0] === "list" ? undefined : mutating();
    case "notes":
      return texts[0] === "list" || texts[0] === "show" ? undefined : mutating();
    case "submodule":
      return texts.length === 0 || texts[0] === "status" || texts[0] === "summary" ? undefined : mutating();
    case "symbolic-ref":
      return positional.length <= 1 && !texts.some((t) => t === "-d" || t === "--delete" || t === "-m") ? undefined : mutating();
    default:
      return mutating();
  }
}
