/**
 * Tab completion for the terminal: command names in command position, git subcommands and
 * branch names after `git`, and paths elsewhere.
 */
import git, { type FsClient } from "isomorphic-git";
import { GIT_SUBCOMMANDS } from "./git";
import { resolveShellPath } from "./paths";
import type { Shell } from "./shell";

export type Completion = {
  /** Replacements for line.slice(start, end), sorted; directories end with "/". */
  candidates: string[];
  start: number;
  end: number;
  /** Longest common prefix of the candidates (what a single Tab can insert). */
  common: string;
};

const SEPARATORS = new Set([";", "|", "&", "(", ")", "<", ">", "`"]);
const BRANCH_SUBCOMMANDS = new Set(["checkout", "switch", "merge", "rebase", "branch", "log", "diff", "show", "reset", "rev-parse", "cherry-pick", "tag"]);

type Scan = { wordStart: number; word: string; tokensBefore: string[]; quoted: boolean };

/** Split the line up to the cursor into the current simple command's tokens. */
function scan(line: string, cursor: number): Scan {
  const text = line.slice(0, cursor);
  let tokens: string[] = [];
  let cur = "";
  let curStart = 0;
  let inWord = false;
  let quote: '"' | "'" | null = null;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) cur += text[++i];
      else cur += c;
      continue;
    }
    if (c === "'" || c === '"') {
      if (!inWord) {
        inWord = true;
        curStart = i;
      }
      quote = c;
      quoted = true;
      continue;
    }
    if (c === "\\" && i + 1 < text.length) {
      if (!inWord) {
        inWord = true;
        curStart = i;
      }
      cur += text[++i];
      continue;
    }
    if (c === " " || c === "\t" || c === "\n") {
      if (inWord) tokens.push(cur);
      cur = "";
      inWord = false;
      quoted = false;
      continue;
    }
    if (SEPARATORS.has(c)) {
      if (inWord) tokens.push(cur);
      cur = "";
      inWord = false;
      quoted = false;
      // `>`/`<` start a redirection target, not a new command.
      if (c !== ">" && c !== "<") tokens = [];
      else tokens.push(c);
      continue;
    }
    if (!inWord) {
      inWord = true;
      curStart = i;
    }
    cur += c;
  }
  return { wordStart: inWord ? curStart : cursor, word: cur, tokensBefore: tokens, quoted };
}

function escapeWord(s: string): string {
  return s.replace(/([\s'"\\$`!&|;()<>*?[\]{}#~])/g, "\\$1");
}

function commonPrefix(list: string[]): string {
  if (list.length === 0) return "";
  let p = list[0]!;
  for (const s of list) while (!s.startsWith(p)) p = p.slice(0, -1);
  return p;
}

async function branchNames(shell: Shell): Promise<string[]> {
  try {
    const fs = shell.wsfs.fs as unknown as FsClient;
    return await git.listBranches({ fs, dir: shell.wsfs.dir });
  } catch {
    return [];
  }
}

async function pathCandidates(shell: Shell, word: string, cwd: string, dirsOnly: boolean): Promise<string[]> {
  const slash = word.lastIndexOf("/");
  const dirPart = slash === -1 ? "" : word.slice(0, slash + 1);
  const prefix = slash === -1 ? word : word.slice(slash + 1);
  let base = dirPart === "" ? cwd : dirPart;
  if (base.startsWith("~")) base = shell.mountPoint + base.slice(1);
  const dirAbs = resolveShellPath(cwd, base);
  const entries = await shell.listDir(dirAbs);
  if (!entries) return [];
  return entries
    .filter((e) => e.name.startsWith(prefix) && (prefix.startsWith(".") || !e.name.startsWith(".")))
    .filter((e) => !dirsOnly || e.isDirectory)
    .map((e) => dirPart + e.name + (e.isDirectory ? "/" : ""));
}

/**
 * Candidates for the word before `cursor` in `line`, run in directory `cwd` (a shell path).
 * Replace line.slice(start, end) with a candidate (or with `common` on a partial Tab).
 */
export async function completions(shell: Shell, line: string, cursor: number = line.length, cwd: string = shell.mountPoint): Promise<Completion> {
  const pos = Math.max(0, Math.min(cursor, line.length));
  const { wordStart, word, tokensBefore, quoted } = scan(line, pos);
  const finish = (raw: string[], escape = !quoted): Completion => {
    const uniq = [...new Set(raw)].sort();
    const candidates = escape ? uniq.map(escapeWord) : uniq;
    return { candidates, start: wordStart, end: pos, common: commonPrefix(candidates) };
  };
  const afterRedirect = tokensBefore.length > 0 && (tokensBefore[tokensBefore.length - 1] === ">" || tokensBefore[tokensBefore.length - 1] === "<");
  const args = tokensBefore.filter((t) => t !== ">" && t !== "<");

  // Command position.
  if (args.length === 0 && !afterRedirect && !word.includes("/") && !word.startsWith(".") && !word.startsWith("~")) {
    return finish(shell.commandNames().filter((n) => n.startsWith(word)));
  }

  const cmd = args[0];
  if (cmd === "git" && !afterRedirect) {
    const rest = args.slice(1).filter((t) => !t.startsWith("-"));
    if (rest.length === 0 && !word.startsWith("-")) return finish(GIT_SUBCOMMANDS.filter((s) => s.startsWith(word)));
    const sub = rest[0];
    if (sub && BRANCH_SUBCOMMANDS.has(sub) && !word.startsWith("-") && !args.includes("--")) {
      const branches = (await branchNames(shell)).filter((b) => b.startsWith(word));
      const paths = sub === "switch" || sub === "branch" || sub === "merge" || sub === "rebase" ? [] : await pathCandidates(shell, word, cwd, false);
      return finish([...branches, ...paths]);
    }
  }
  if (cmd === "cd" || cmd === "pushd" || cmd === "rmdir") return finish(await pathCandidates(shell, word, cwd, true));
  return finish(await pathCandidates(shell, word, cwd, false));
}
