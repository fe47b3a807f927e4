/**
 * Status data (staged renames paired, untracked directories collapsed) and its long and short
 * renderings: shared by status, commit and stash.
 */
import { indexPaths } from "../../git/index-scan";
import { trackingSentence, type Tracking } from "../../git/remote-ahead-behind";
import type { StatusEntry } from "../../git/status";
import type { UnmergedStages } from "../../git/merge-index";
import type { GitContext } from "./context";
import { operationInProgress, unmerged as unmergedPaths, type Operation } from "./merge-state";
import { readState as readRebase, type RebaseState } from "./rebase-state";
import { cquote } from "./util";

type Line = { x: string; y: string; path: string; from?: string };

export type StatusData = {
  branch: string | null;
  head: string | null;
  staged: Line[];
  unstaged: Line[];
  untracked: string[];
  /** -uno: untracked files were not looked at. */
  untrackedHidden: boolean;
  /** Conflicted paths with their porcelain code ("UU", "DU"…), sorted. */
  unmerged: { code: string; path: string }[];
  /** The merge, cherry-pick or revert in progress. */
  operation: { op: Operation; oid: string } | null;
  /** The rebase in progress. */
  rebase: RebaseState | null;
  /** The branch's upstream and how far apart they are (filled in by `git status` only). */
  tracking?: Tracking | null;
};

/** Status entries with staged exact renames paired and untracked directories collapsed. */
export async function statusData(ctx: GitContext, opts: { untracked: "no" | "normal" | "all" } = { untracked: "normal" }): Promise<StatusData> {
  const entries = await ctx.work.status();
  const head = await ctx.repo.headOid();
  const branch = await ctx.repo.branch();
  const staged: Line[] = [];
  const unstaged: Line[] = [];
  const untrackedFiles: string[] = [];
  const byPath = new Map<string, Line>();
  const conflicts = await unmergedPaths(ctx);
  for (const e of entries) {
    if (conflicts.has(e.path)) continue;
    if (e.index === "?") {
      untrackedFiles.push(e.path);
      continue;
    }
    byPath.set(e.path, { x: e.index, y: e.worktree, path: e.path });
  }
  await pairRenames(ctx, entries, byPath, head);
  for (const line of byPath.values()) {
    if (line.x !== " ") staged.push(line);
    if (line.y !== " ") unstaged.push(line);
  }
  let untracked: string[] = [];
  if (opts.untracked === "all") untracked = untrackedFiles;
  else if (opts.untracked === "normal") untracked = await collapseUntracked(ctx, untrackedFiles);
  const sortLines = (l: Line[]) => l.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const unmerged = [...conflicts].filter(([p]) => !ctx.repo.isHidden(p)).map(([path, st]) => ({ path, code: unmergedCode(st) }));
  return {
    branch,
    head,
    staged: sortLines(staged),
    unstaged: sortLines(unstaged),
    untracked,
    untrackedHidden: opts.untracked === "no",
    unmerged,
    operation: await operationInProgress(ctx),
    rebase: await readRebase(ctx),
  };
}

/** Porcelain XY of an unmerged path, from which of base, ours and theirs it has. */
function unmergedCode(st: UnmergedStages): string {
  const key = `${st.base ? 1 : 0}${st.ours ? 1 : 0}${st.theirs ? 1 : 0}`;
  return ({ "111": "UU", "011": "AA", "101": "DU", "110": "UD", "100": "DD", "010": "AU", "001": "UA" } as Record<string, string>)[key]!;
}

const UNMERGED_LABELS: Record<string, string> = {
  UU: "both modified:",
  AA: "both added:",
  DU: "deleted by us:",
  UD: "deleted by them:",
  DD: "both deleted:",
  AU: "added by us:",
  UA: "added by them:",
};

/**
 * Whether the index is compared as for a plain commit (git's whence == FROM_COMMIT): not while
 * a merge or a cherry-pick is in progress (revert does not count), and then git leaves the
 * "git restore --staged" hints out.
 */
function fromCommit(data: StatusData): boolean {
  return data.operation === null || data.operation.op === "revert";
}

/** A todo line as git's status shows it: the commit abbreviated. */
const shortPick = (line: string) => line.replace(/^pick ([0-9a-f]{40})/, (_, oid: string) => `pick ${oid.slice(0, 7)}`);

/** What git's status says of a rebase in progress, after its "interactive rebase in progress" line. */
function rebaseLines(data: StatusData, r: RebaseState): string {
  const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
  let out = "";
  if (r.done.length > 0) {
    out += `${plural(r.done.length, "Last command done", "Last commands done")} (${r.done.length} ${plural(r.done.length, "command", "commands")} done):\n`;
    for (const l of r.done.slice(-2)) out += `   ${shortPick(l)}\n`;
    if (r.done.length > 2) out += "  (see more in file .git/rebase-merge/done)\n";
  }
  if (r.todo.length > 0) {
    out += `${plural(r.todo.length, "Next command to do", "Next commands to do")} (${r.todo.length} remaining ${plural(r.todo.length, "command", "commands")}):\n`;
    for (const l of r.todo.slice(0, 2)) out += `   ${shortPick(l)}\n`;
    out += '  (use "git rebase --edit-todo" to view and edit)\n';
  } else out += "No commands remaining.\n";
  const where = r.headName.startsWith("refs/heads/") ? ` branch '${r.headName.slice(11)}' on '${r.onto.slice(0, 7)}'` : "";
  out += `You are currently rebasing${where}.\n`;
  if (data.unmerged.length === 0) return out + '  (all conflicts fixed: run "git rebase --continue")\n\n';
  out += '  (fix conflicts and then run "git rebase --continue")\n';
  return out + '  (use "git rebase --skip" to skip this patch)\n  (use "git rebase --abort" to check out the original branch)\n\n';
}

/** The lines git puts under the branch while an operation is in progress. */
function operationLines(data: StatusData): string {
  const op = data.operation;
  if (!op) return "";
  const short = op.oid.slice(0, 7);
  if (op.op === "merge") {
    return data.unmerged.length > 0
      ? 'You have unmerged paths.\n  (fix conflicts and run "git commit")\n  (use "git merge --abort" to abort the merge)\n\n'
      : 'All conflicts fixed but you are still merging.\n  (use "git commit" to conclude merge)\n\n';
  }
  const verb = op.op === "cherry-pick" ? "cherry-picking" : "reverting";
  const cmd = op.op;
  return data.unmerged.length > 0
    ? `You are currently ${verb} commit ${short}.\n  (fix conflicts and run "git ${cmd} --continue")\n  (use "git ${cmd} --skip" to skip this patch)\n  (use "git ${cmd} --abort" to cancel the ${cmd} operation)\n\n`
    : `You are currently ${verb} commit ${short}.\n  (all conflicts fixed: run "git ${cmd} --continue")\n  (use "git ${cmd} --skip" to skip this patch)\n  (use "git ${cmd} --abort" to cancel the ${cmd} operation)\n\n`;
}

async function pairRenames(ctx: GitContext, entries: StatusEntry[], byPath: Map<string, Line>, head: string | null): Promise<void> {
  const deleted = entries.filter((e) => e.index === "D");
  const added = entries.filter((e) => e.index === "A");
  if (deleted.length === 0 || added.length === 0 || head === null) return;
  const [tree, index] = await Promise.all([ctx.repo.treeOf(head), ctx.work.index()]);
  const bySrcOid = new Map<string, string[]>();
  for (const d of deleted) {
    const oid = tree.get(d.path)?.oid;
    if (!oid) continue;
    bySrcOid.set(oid, [...(bySrcOid.get(oid) ?? []), d.path]);
  }
  for (const a of added) {
    const oid = index.get(a.path)?.oid;
    const srcs = oid ? bySrcOid.get(oid) : undefined;
    if (!srcs || srcs.length === 0) continue;
    const src = srcs.shift()!;
    const srcLine = byPath.get(src);
    const dstLine = byPath.get(a.path);
    if (!srcLine || !dstLine || srcLine.y !== " ") continue;
    byPath.delete(src);
    dstLine.x = "R";
    dstLine.from = src;
  }
}

/** `-unormal`: an untracked directory with no tracked file inside is shown once, as "dir/". */
export async function collapseUntracked(ctx: GitContext, files: string[]): Promise<string[]> {
  if (files.length === 0) return [];
  // Only the index's paths are needed: read them alone, where a walk of the index
  // (WorkTree.index, with ids and modes) takes most of a second at 10,000 files.
  const paths = (await indexPaths(ctx.repo.fs, ctx.repo.gitdir)) ?? [...(await ctx.work.index()).keys()];
  const tracked = paths.filter((p) => !ctx.repo.isHidden(p));
  const trackedDirs = new Set<string>();
  for (const p of tracked) {
    let i = p.indexOf("/");
    while (i !== -1) {
      trackedDirs.add(p.slice(0, i));
      i = p.indexOf("/", i + 1);
    }
  }
  const out = new Set<string>();
  for (const f of files) {
    const parts = f.split("/");
    let shown = f;
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (!trackedDirs.has(dir)) {
        shown = dir + "/";
        break;
      }
    }
    out.add(shown);
  }
  return [...out].sort();
}

const LABELS: Record<string, string> = { M: "modified:", A: "new file:", D: "deleted:", R: "renamed:", T: "typechange:" };

/** git pads every label to the longest one ("typechange:") plus a space. */
const LABEL_WIDTH = 12;
/** …and unmerged ones to "deleted by them:" plus a space. */
const UNMERGED_WIDTH = 17;

function label(code: string): string {
  const l = LABELS[code] ?? "unknown:";
  return l + " ".repeat(LABEL_WIDTH - l.length);
}

export async function longStatus(ctx: GitContext, data: StatusData, opts: { forCommit?: boolean } = {}): Promise<string> {
  let out = "";
  if (data.rebase) out += `interactive rebase in progress; onto ${data.rebase.onto.slice(0, 7)}\n${rebaseLines(data, data.rebase)}`;
  else if (data.branch) out += `On branch ${data.branch}\n`;
  else out += `HEAD detached at ${ctx.repo.abbrev(data.head ?? "")}\n`;
  if (data.tracking) out += `${trackingSentence(data.tracking)}\n\n`;
  const initial = data.head === null;
  if (initial) out += "\nNo commits yet\n\n";
  out += operationLines(data);
  const show = (p: string) => cquote(ctx.work.display(p));
  if (data.staged.length > 0) {
    out += "Changes to be committed:\n";
    if (!opts.forCommit && fromCommit(data)) out += initial ? '  (use "git rm --cached <file>..." to unstage)\n' : '  (use "git restore --staged <file>..." to unstage)\n';
    for (const l of data.staged) out += `\t${label(l.x)}${l.from !== undefined ? `${show(l.from)} -> ${show(l.path)}` : show(l.path)}\n`;
    out += "\n";
  }
  if (data.unmerged.length > 0) {
    out += "Unmerged paths:\n";
    if (!opts.forCommit) {
      if (fromCommit(data)) out += '  (use "git restore --staged <file>..." to unstage)\n';
      const rm = data.unmerged.some((u) => u.code.includes("D") || u.code === "AU" || u.code === "UA");
      out += rm ? '  (use "git add/rm <file>..." as appropriate to mark resolution)\n' : '  (use "git add <file>..." to mark resolution)\n';
    }
    for (const u of data.unmerged) {
      const l = UNMERGED_LABELS[u.code]!;
      out += `\t${l}${" ".repeat(UNMERGED_WIDTH - l.length)}${show(u.path)}\n`;
    }
    out += "\n";
  }
  if (data.unstaged.length > 0) {
    out += "Changes not staged for commit:\n";
    if (!opts.forCommit) {
      const hasDel = data.unstaged.some((l) => l.y === "D");
      out += hasDel ? '  (use "git add/rm <file>..." to update what will be committed)\n' : '  (use "git add <file>..." to update what will be committed)\n';
      out += '  (use "git restore <file>..." to discard changes in working directory)\n';
    }
    for (const l of data.unstaged) out += `\t${label(l.y)}${show(l.path)}\n`;
    out += "\n";
  }
  if (data.untracked.length > 0) {
    out += "Untracked files:\n";
    if (!opts.forCommit) out += '  (use "git add <file>..." to include in what will be committed)\n';
    for (const p of data.untracked) out += `\t${show(p)}\n`;
    out += "\n";
  } else if (data.untrackedHidden && data.staged.length > 0) {
    out += "Untracked files not listed (use -u option to show untracked files)\n";
  }
  if (data.staged.length === 0) {
    if (data.unstaged.length > 0 || data.unmerged.length > 0) out += 'no changes added to commit (use "git add" and/or "git commit -a")\n';
    else if (data.untracked.length > 0) out += 'nothing added to commit but untracked files present (use "git add" to track)\n';
    else if (initial) out += 'nothing to commit (create/copy files and use "git add" to track)\n';
    else if (data.untrackedHidden) out += "nothing to commit (use -u to show untracked files)\n";
    else out += "nothing to commit, working tree clean\n";
  }
  return out;
}

/** `-b`'s ` [ahead 1, behind 2]` / ` [gone]`. */
function trackingBrackets(t: Tracking): string {
  if (t.gone) return " [gone]";
  const parts = [t.ahead ? `ahead ${t.ahead}` : "", t.behind ? `behind ${t.behind}` : ""].filter(Boolean);
  return parts.length ? ` [${parts.join(", ")}]` : "";
}

/** `git status -s` / `--porcelain`; with `nul` (-z) entries end in NUL, paths are not quoted and a
 * rename is `XY new\0old\0`, as git prints it for scripts. */
export function shortStatus(ctx: GitContext, data: StatusData, opts: { porcelain: boolean; branch: boolean; nul?: boolean }): string {
  const end = opts.nul ? "\0" : "\n";
  let out = "";
  if (opts.branch) {
    if (data.branch && data.head === null) out += `## No commits yet on ${data.branch}${end}`;
    else if (data.branch) out += `## ${data.branch}${data.tracking ? `...${data.tracking.upstream}${trackingBrackets(data.tracking)}` : ""}${end}`;
    else out += `## HEAD (no branch)${end}`;
  }
  const show = (p: string) => (opts.nul ? p : cquote(opts.porcelain ? p : ctx.work.display(p), true));
  const lines = new Map<string, Line>();
  for (const l of [...data.staged, ...data.unstaged]) lines.set(l.path, l);
  for (const u of data.unmerged) lines.set(u.path, { x: u.code[0]!, y: u.code[1]!, path: u.path });
  const sorted = [...lines.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const l of sorted) {
    if (l.from === undefined) out += `${l.x}${l.y} ${show(l.path)}${end}`;
    else if (opts.nul) out += `${l.x}${l.y} ${l.path}\0${l.from}\0`;
    else out += `${l.x}${l.y} ${show(l.from)} -> ${show(l.path)}\n`;
  }
  for (const p of data.untracked) out += `?? ${show(p)}${end}`;
  return out;
}
