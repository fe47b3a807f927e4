/**
 * .gitignore matching with git's semantics, memoised for walking many paths.
 *
 * isomorphic-git's `git.isIgnored` re-reads every .gitignore on the way to each path (one
 * IndexedDB read per level per path) and cannot tell a directory from a file, so "build/"
 * patterns and "a parent directory is excluded" are judged from the file's point of view.
 * This module reads each ignore file once and asks callers whether the path is a directory,
 * which is what git itself does.
 *
 * Precedence, as in gitignore(5): a deeper .gitignore beats a shallower one, which beats
 * .git/info/exclude; within one file the last matching line wins; nothing below an excluded
 * directory can be re-included.
 */
import { compareStrings, gitdirOf, joinPath, repoPath, type GitRepo } from "./types";

export type IgnoreRule = {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
  /** Pattern without a slash: matched against the last path segment only. */
  basenameOnly: boolean;
};

type RuleSet = { base: string; rules: IgnoreRule[] };

const decoder = new TextDecoder();

/** Parse the text of one ignore file. Exported for tests. */
export function parseIgnoreFile(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (let line of text.replace(/^\uFEFF/, "").split(/\r?\n/)) {
    if (line === "" || line.startsWith("#")) continue;
    // Trailing spaces are dropped unless escaped with a backslash.
    line = line.replace(/(?<!\\)[ ]+$/, "");
    if (line === "") continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith("/")) {
      dirOnly = true;
      line = line.replace(/\/+$/, "");
    }
    if (line === "") continue;
    // A slash at the start or in the middle anchors the pattern to the ignore file's directory.
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    const source = globToRegexSource(line);
    if (source === null) continue; // invalid pattern (e.g. trailing backslash): git ignores it
    rules.push({ regex: new RegExp("^" + source + "$"), negate, dirOnly, basenameOnly: !anchored });
  }
  return rules;
}

/**
 * Translate a wildmatch pattern (with WM_PATHNAME, as git uses for ignore files) to a regex:
 * `*` and `?` stop at "/", `[...]` is a class, a leading `**\/`, an inner `/**\/` and a
 * trailing `/**` cross directories, any other `**` is a plain `*`.
 */
function globToRegexSource(pat: string): string | null {
  let re = "";
  let i = 0;
  const n = pat.length;
  while (i < n) {
    const c = pat[i]!;
    if (c === "*") {
      let j = i;
      while (j < n && pat[j] === "*") j++;
      const starts = i === 0 || pat[i - 1] === "/";
      const ends = j === n || pat[j] === "/";
      if (j - i >= 2 && starts && ends) {
        if (j === n) {
          re += ".*";
          i = j;
        } else {
          re += "(?:.*/)?";
          i = j + 1; // the slash is part of the "zero or more directories"
        }
      } else {
        re += "[^/]*";
        i = j;
      }
      continue;
    }
    if (c === "?") {
      re += "[^/]";
      i++;
      continue;
    }
    if (c === "[") {
      const cls = parseClass(pat, i);
      if (cls) {
        re += cls.source;
        i = cls.end;
        continue;
      }
      re += "\\[";
      i++;
      continue;
    }
    if (c === "\\") {
      if (i + 1 >= n) return null;
      re += escapeRegex(pat[i + 1]!);
      i += 2;
      continue;
    }
    re += escapeRegex(c);
    i++;
  }
  return re;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: "a-zA-Z0-9",
  alpha: "a-zA-Z",
  blank: " \\t",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "\\x21-\\x7e",
  lower: "a-z",
  print: "\\x20-\\x7e",
  punct: "!-\\/:-@\\[-`{-~",
  space: " \\t\\n\\r\\f\\v",
  upper: "A-Z",
  xdigit: "0-9A-Fa-f",
};

/** Parse a bracket expression starting at `start` ("["); null when it is not terminated. */
function parseClass(pat: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  let negate = false;
  if (pat[i] === "!" || pat[i] === "^") {
    negate = true;
    i++;
  }
  let body = "";
  let first = true;
  while (i < pat.length) {
    const c = pat[i]!;
    if (c === "]" && !first) {
      // A class never matches "/" under WM_PATHNAME.
      return { source: negate ? `[^/${body}]` : `(?!/)[${body}]`, end: i + 1 };
    }
    first = false;
    if (c === "[" && pat[i + 1] === ":") {
      const close = pat.indexOf(":]", i + 2);
      const name = close === -1 ? undefined : pat.slice(i + 2, close);
      if (name !== undefined && POSIX_CLASSES[name]) {
        body += POSIX_CLASSES[name];
        i = close + 2;
        continue;
      }
    }
    if (c === "\\" && i + 1 < pat.length) {
      body += escapeClassChar(pat[i + 1]!);
      i += 2;
      continue;
    }
    if (c === "-" && body !== "" && pat[i + 1] !== "]" && i + 1 < pat.length) {
      body += "-";
      i++;
      continue;
    }
    body += escapeClassChar(c);
    i++;
  }
  return null;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? "\\" + c : c;
}

function escapeClassChar(c: string): string {
  return /[\]\\^\-[]/.test(c) ? "\\" + c : c;
}

function matchesRule(rule: IgnoreRule, relToBase: string, isDir: boolean): boolean {
  if (rule.dirOnly && !isDir) return false;
  const subject = rule.basenameOnly ? relToBase.slice(relToBase.lastIndexOf("/") + 1) : relToBase;
  return rule.regex.test(subject);
}

const DONE: Promise<void> = Promise.resolve();
const noop = () => undefined;

/**
 * The ignore rules of one repository, loaded lazily per directory. `prepare(path)` loads what
 * `test(path)` needs (the exclude file and the .gitignore of every ancestor directory);
 * `test` is synchronous so it can run inside tight walks.
 */
export class IgnoreRules {
  private readonly repo: GitRepo;
  private exclude: Promise<IgnoreRule[]> | null = null;
  private excludeRules: IgnoreRule[] = [];
  private readonly loading = new Map<string, Promise<void>>();
  /** Directories whose .gitignore is loaded (or known absent): `prepare` need not wait for them. */
  private readonly loaded = new Set<string>();
  private excludeLoaded = false;
  /** .gitignore rules per directory ("" is the root); absent = no file or not loaded. */
  private readonly perDir = new Map<string, IgnoreRule[]>();
  private readonly dirVerdicts = new Map<string, boolean>();
  /** Rule sets per directory for testChild (cleared with dirVerdicts). */
  private readonly dirSets = new Map<string, RuleSet[]>();

  constructor(repo: GitRepo) {
    this.repo = repo;
  }

  /** Load the ignore files that can affect `rel` (not `rel`'s own .gitignore, which only
   * affects what is inside it). */
  prepare(rel: string): Promise<void> {
    // A walk prepares every directory below ones it already prepared: usually only the last
    // directory is new, so what is loaded already costs no promise (thousands per walk).
    const loads: Promise<unknown>[] = [];
    if (!this.excludeLoaded) loads.push(this.loadExclude());
    const parts = rel.split("/");
    let dir = "";
    if (!this.loaded.has("")) loads.push(this.loadDir(""));
    for (let i = 0; i < parts.length - 1; i++) {
      dir = dir === "" ? parts[i]! : dir + "/" + parts[i]!;
      if (!this.loaded.has(dir)) loads.push(this.loadDir(dir));
    }
    return loads.length === 0 ? DONE : loads.length === 1 ? (loads[0] as Promise<void>) : Promise.all(loads).then(noop);
  }

  /**
   * The caller just listed directory `dir` and saw no .gitignore in it: take it as loaded with
   * no rules, with no read that fails (a walk over thousands of directories, most without one,
   * otherwise makes a rejected promise per directory).
   */
  noteAbsent(dir: string): void {
    if (this.loading.has(dir)) return;
    this.loading.set(dir, DONE);
    this.loaded.add(dir);
  }

  /** Is `rel` ignored? Call `prepare(rel)` (or load its ancestors otherwise) first. */
  test(rel: string, isDir: boolean): boolean {
    if (rel === "" || rel === ".") return false;
    const parts = rel.split("/");
    if (parts.some((p) => p === ".git")) return true;
    // An excluded ancestor excludes everything below it, whatever later patterns say.
    let dir = "";
    for (let i = 0; i < parts.length - 1; i++) {
      dir = dir === "" ? parts[i]! : dir + "/" + parts[i]!;
      let verdict = this.dirVerdicts.get(dir);
      if (verdict === undefined) {
        verdict = this.matchSelf(dir, true);
        this.dirVerdicts.set(dir, verdict);
      }
      if (verdict) return true;
    }
    return this.matchSelf(rel, isDir);
  }

  /**
   * Is `name` inside directory `dir` ignored, where `dir` is known not to be excluded (a walk
   * that only lists directories it did not ignore)? Same verdict as `test`, without
   * re-deciding every ancestor per entry: the rule sets for `dir` are gathered once.
   */
  testChild(dir: string, name: string, isDir: boolean): boolean {
    let sets = this.dirSets.get(dir);
    if (!sets) {
      sets = this.setsFor(dir === "" ? name : dir + "/" + name);
      this.dirSets.set(dir, sets);
    }
    return verdictIn(sets, dir === "" ? name : dir + "/" + name, isDir);
  }

  /** The rule sets that apply to `rel`, outermost first. */
  private setsFor(rel: string): RuleSet[] {
    const sets: RuleSet[] = [{ base: "", rules: this.excludeRules }];
    const root = this.perDir.get("");
    if (root) sets.push({ base: "", rules: root });
    const parts = rel.split("/");
    let dir = "";
    for (let i = 0; i < parts.length - 1; i++) {
      dir = dir === "" ? parts[i]! : dir + "/" + parts[i]!;
      const rules = this.perDir.get(dir);
      if (rules) sets.push({ base: dir, rules });
    }
    return sets;
  }

  /** Decide for `rel` itself, ignoring its ancestors' verdicts. */
  private matchSelf(rel: string, isDir: boolean): boolean {
    return verdictIn(this.setsFor(rel), rel, isDir);
  }

  private loadExclude(): Promise<IgnoreRule[]> {
    this.exclude ??= readText(this.repo, joinPath(gitdirOf(this.repo), "info/exclude")).then((text) => {
      this.excludeRules = text === null ? [] : parseIgnoreFile(text);
      this.dirSets.clear();
      this.excludeLoaded = true;
      return this.excludeRules;
    });
    return this.exclude;
  }

  private loadDir(dir: string): Promise<void> {
    let p = this.loading.get(dir);
    if (!p) {
      p = readText(this.repo, joinPath(joinPath(this.repo.dir, dir), ".gitignore")).then((text) => {
        this.loaded.add(dir);
        if (text === null) return;
        this.perDir.set(dir, parseIgnoreFile(text));
        this.dirVerdicts.clear(); // new rules can change verdicts computed without them
        this.dirSets.clear();
      });
      this.loading.set(dir, p);
    }
    return p;
  }
}

async function readText(repo: GitRepo, abs: string): Promise<string | null> {
  try {
    const data: unknown = await repo.fs.promises.readFile(abs);
    if (data === undefined || data === null) return null;
    return typeof data === "string" ? data : decoder.decode(data as Uint8Array);
  } catch {
    return null; // missing (or a directory named .gitignore): no rules
  }
}

async function lstatOrNull(repo: GitRepo, abs: string) {
  try {
    return await repo.fs.promises.lstat(abs);
  } catch {
    return null;
  }
}

/**
 * A synchronous matcher for the whole working tree. It walks the tree once (skipping .git and
 * ignored directories, whose contents cannot be re-included) to load every .gitignore.
 * Patterns only: a tracked file that matches a pattern is still reported as ignored here.
 */
export async function createIgnoreMatcher(repo: GitRepo): Promise<(rel: string, isDir: boolean) => boolean> {
  const rules = new IgnoreRules(repo);
  const walk = async (dir: string): Promise<void> => {
    await rules.prepare(dir === "" ? "x" : dir + "/x"); // loads `dir`'s own .gitignore too
    let names: string[];
    try {
      names = await repo.fs.promises.readdir(joinPath(repo.dir, dir));
    } catch {
      return;
    }
    await Promise.all(
      names.sort(compareStrings).map(async (name) => {
        if (name === ".git") return;
        const rel = dir === "" ? name : dir + "/" + name;
        const st = await lstatOrNull(repo, joinPath(repo.dir, rel));
        if (st?.isDirectory() && !rules.test(rel, true)) await walk(rel);
      }),
    );
  };
  await walk("");
  return (rel, isDir) => rules.test(repoPath(rel), isDir);
}

/**
 * Is `path` matched by the ignore rules? (Like `git check-ignore --no-index`: patterns only,
 * tracked or not.) Whether it is a directory is read from the working tree.
 */
export async function isIgnored(repo: GitRepo, path: string): Promise<boolean> {
  const rel = repoPath(path);
  if (rel === "") return false;
  const rules = new IgnoreRules(repo);
  await rules.prepare(rel);
  const st = await lstatOrNull(repo, joinPath(repo.dir, rel));
  return rules.test(rel, st?.isDirectory() ?? false);
}

/** The last matching rule of the innermost set that has one decides; none matching: not ignored. */
function verdictIn(sets: readonly RuleSet[], rel: string, isDir: boolean): boolean {
  for (let s = sets.length - 1; s >= 0; s--) {
    const { base, rules } = sets[s]!;
    const sub = base === "" ? rel : rel.slice(base.length + 1);
    for (let r = rules.length - 1; r >= 0; r--) {
      if (matchesRule(rules[r]!, sub, isDir)) return !rules[r]!.negate;
    }
  }
  return false;
}
