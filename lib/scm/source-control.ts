/**
 * What the Source Control view does, as git command lines run by the same `git` the terminal
 * and the agent use (lib/shell/git): stage, unstage, discard, commit, fetch, pull, push, sync.
 * One implementation of git's semantics (pull merges a diverged upstream, conflicts land in the
 * index as git records them, credentials are asked for by the transport) instead of a second
 * one for the UI — the way VS Code's git extension drives the git CLI.
 *
 * Discarding is the one action git cannot take back, so it is preceded by a way back: a
 * checkpoint of the whole working tree (untracked files included), and `undo` restores the
 * discarded paths from it.
 */
import { HISTORY_FORMAT, parseHistory, type HistoryCommit } from "./history";
import { type FileDiff, type Hunk, parseFileDiff, patchOfHunk } from "./hunks";
import { parseStatusZ, type Change, type StatusSnapshot } from "./porcelain";

export type GitResult = { stdout: string; stderr: string; exitCode: number };
/** Run one git command line (argv without "git") at the workspace root, `stdin` as its input. */
export type GitRunner = (argv: string[], stdin?: string) => Promise<GitResult>;

/** Where discards are kept until undone (the checkpoint engine, in the app). */
export type DiscardSnapshots = {
  create(opts: { sessionId: string; run: number | string; label?: string }): Promise<{ ref: string }>;
  restore(ref: string, opts: { paths: string[] }): Promise<unknown>;
};

export class ScmError extends Error {
  constructor(
    message: string,
    readonly output = "",
  ) {
    super(message);
    this.name = "ScmError";
  }
}

/** The log line of one action: the command as typed, and what git printed. */
export type ScmOutput = { command: string; text: string; ok: boolean };

export type DiscardResult = { paths: string[]; undo: () => Promise<void> };

export type ScmStatus = StatusSnapshot & { merging: boolean };

export class SourceControl {
  private readonly listeners = new Set<(o: ScmOutput) => void>();

  constructor(
    private readonly git: GitRunner,
    private readonly snapshots?: DiscardSnapshots,
  ) {}

  /** Every command the view runs, with its output (the view's Output log). */
  onOutput(fn: (o: ScmOutput) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private async run(argv: string[], { quiet = false, stdin }: { quiet?: boolean; stdin?: string } = {}): Promise<string> {
    const r = await this.git(argv, stdin);
    const text = (r.stdout + r.stderr).replace(/\s+$/, "");
    if (!quiet || r.exitCode !== 0) for (const fn of this.listeners) fn({ command: `git ${argv.map(shellQuote).join(" ")}`, text, ok: r.exitCode === 0 });
    if (r.exitCode !== 0) throw new ScmError(failureLine(r) || `git ${argv[0]} failed (exit ${r.exitCode})`, text);
    return r.stdout;
  }

  async status(): Promise<ScmStatus> {
    const snap = parseStatusZ(await this.run(["status", "--porcelain", "-b", "-z", "-uall"], { quiet: true }));
    return { ...snap, merging: snap.noCommits ? false : await this.merging() };
  }

  /** A merge (or a pull that merged) stopped for conflicts and waits for its commit. */
  private async merging(): Promise<boolean> {
    return (await this.git(["rev-parse", "-q", "--verify", "MERGE_HEAD"])).exitCode === 0;
  }

  /** The latest commits of every branch, newest first (the view's History, laid out by history.ts). */
  async history(limit = 100): Promise<HistoryCommit[]> {
    const r = await this.git(["log", "--all", "-n", String(limit), `--format=${HISTORY_FORMAT}`]);
    if (r.exitCode !== 0) return []; // no commits yet
    return parseHistory(r.stdout);
  }

  /** One commit as `git show --stat` prints it. */
  async show(oid: string): Promise<string> {
    return this.run(["show", "--stat", "--format=commit %H%nAuthor: %an <%ae>%nDate:   %ad%n%n%B", oid], { quiet: true });
  }

  async stage(paths: string[]): Promise<void> {
    if (paths.length) await this.run(["add", "-A", "--", ...paths]);
  }

  /** `path`'s changes as hunks: unstaged (work tree against the index) or staged (index against HEAD). */
  async hunks(path: string, staged: boolean): Promise<FileDiff | null> {
    return parseFileDiff(await this.run(["diff", ...(staged ? ["--cached"] : []), "--", path], { quiet: true }));
  }

  /** Stage one hunk of `path`'s unstaged changes, as `hunks(path, false)` listed it (the rest stay unstaged). */
  async stageHunk(path: string, hunk: Hunk): Promise<void> {
    await this.run(["apply", "--cached", "-"], { stdin: await this.patchFor(path, hunk, false) });
  }

  /** Take one hunk of `path`'s staged changes, as `hunks(path, true)` listed it, back out of the index (the work tree keeps it). */
  async unstageHunk(path: string, hunk: Hunk): Promise<void> {
    await this.run(["apply", "--cached", "-R", "-"], { stdin: await this.patchFor(path, hunk, true) });
  }

  /** The hunk as the diff shows it now: found by its lines (staging another hunk moves its line numbers). */
  private async patchFor(path: string, hunk: Hunk, staged: boolean): Promise<string> {
    const file = await this.hunks(path, staged);
    const at = file ? file.hunks.findIndex((h) => h.lines.length === hunk.lines.length && h.lines.every((l, i) => l === hunk.lines[i])) : -1;
    if (!file || at === -1) throw new ScmError(`${path} changed since its changes were listed: look at them again before ${staged ? "unstaging" : "staging"} a part.`);
    return patchOfHunk(file, at);
  }

  async stageAll(): Promise<void> {
    await this.run(["add", "-A"]);
  }

  async unstage(paths: string[]): Promise<void> {
    if (!paths.length) return;
    const s = await this.status();
    // Before the first commit there is no HEAD to restore the index from: take the paths out of it.
    if (s.noCommits) await this.run(["rm", "--cached", "-r", "-q", "--", ...paths]);
    else await this.run(["restore", "--staged", "--", ...paths]);
  }

  /**
   * Throw away the working-tree changes of these paths (tracked: back to the index; untracked:
   * deleted), after a checkpoint that `undo` restores them from.
   */
  async discard(paths: string[]): Promise<DiscardResult> {
    if (!paths.length) return { paths, undo: async () => undefined };
    const s = await this.status();
    const untracked = new Set(s.untracked);
    const conflicted = paths.filter((p) => s.conflicts.some((c) => c.path === p));
    if (conflicted.length) throw new ScmError(`Resolve the conflict in ${conflicted[0]} first (or abort the merge): discarding would lose both sides.`);
    const undo = await this.wayBack(paths.length === 1 ? `Before discarding ${paths[0]}` : `Before discarding ${paths.length} files`, paths, "the discard");
    const fresh = paths.filter((p) => untracked.has(p));
    const tracked = paths.filter((p) => !untracked.has(p));
    if (tracked.length) await this.run(["restore", "--", ...tracked]);
    if (fresh.length) await this.run(["clean", "-f", "-q", "--", ...fresh]);
    return { paths, undo };
  }

  /**
   * Settle a conflict that has no markers to edit: one side deleted the file (DU, UD), both did
   * (DD), or only one side added it (AU, UA). `keep` stages the file as the working tree has it
   * (the surviving side's version, which the merge left there); see `deleteConflicted`.
   */
  async keepConflicted(path: string): Promise<void> {
    const c = await this.conflictOf(path);
    if (c === "DD") throw new ScmError(`Both sides deleted ${path}: there is nothing to keep.`);
    await this.run(["add", "--", path]);
  }

  /** Resolve a conflict by deleting the file (index and working tree), after a checkpoint that `undo` puts it back from. */
  async deleteConflicted(path: string): Promise<DiscardResult> {
    await this.conflictOf(path);
    const undo = await this.wayBack(`Before deleting ${path} to resolve its conflict`, [path], "the delete");
    await this.run(["rm", "-q", "--", path]);
    return { paths: [path], undo };
  }

  private async conflictOf(path: string): Promise<string> {
    const c = (await this.status()).conflicts.find((x) => x.path === path);
    if (!c) throw new ScmError(`${path} is not in conflict.`);
    return c.code;
  }

  /** A checkpoint of the working tree before a destructive step, and how to put `paths` back from it. */
  private async wayBack(label: string, paths: string[], what: string): Promise<() => Promise<void>> {
    const snapshots = this.snapshots;
    const ref = snapshots ? (await snapshots.create({ sessionId: "source-control", run: Date.now(), label })).ref : undefined;
    return async () => {
      if (!snapshots || !ref) throw new ScmError(`Nothing to undo: no checkpoint was taken before ${what}.`);
      await snapshots.restore(ref, { paths });
    };
  }

  /**
   * Commit what is staged. `all`: stage every change first (the view offers it when nothing is
   * staged); `amend`: replace the last commit (an empty message keeps its message).
   */
  async commit(message: string, { amend = false, all = false }: { amend?: boolean; all?: boolean } = {}): Promise<string> {
    const msg = message.trim();
    // Concluding a merge needs no message: git has prepared one (MERGE_MSG), as `git commit --no-edit` takes it.
    if (!msg && !amend && !(await this.merging())) throw new ScmError("Type a commit message first.");
    if (all) await this.stageAll();
    const argv = ["commit", ...(amend ? ["--amend"] : []), ...(msg ? ["-m", msg] : ["--no-edit"])];
    return this.run(argv);
  }

  async fetch(): Promise<void> {
    await this.run(["fetch", "--prune"]);
  }

  async pull(): Promise<void> {
    await this.run(["pull"]);
  }

  /** Push the branch; one without an upstream is published to the only remote (`-u`). */
  async push(): Promise<void> {
    const s = await this.status();
    if (!s.branch) throw new ScmError("HEAD is detached: switch to a branch to push.");
    if (s.upstream && !s.gone) {
      await this.run(["push"]);
      return;
    }
    const remotes = (await this.run(["remote"], { quiet: true })).split("\n").filter(Boolean);
    if (remotes.length === 0) throw new ScmError("This repository has no remote: add one with `git remote add origin <url>` in the terminal.");
    const remote = remotes.includes("origin") ? "origin" : remotes.length === 1 ? remotes[0]! : undefined;
    if (!remote) throw new ScmError(`Several remotes (${remotes.join(", ")}): publish with \`git push -u <remote> ${s.branch}\` in the terminal.`);
    await this.run(["push", "-u", remote, s.branch]);
  }

  /** Pull, then push what is ahead (VS Code's Sync). */
  async sync(): Promise<void> {
    const s = await this.status();
    if (s.upstream && !s.gone) await this.pull();
    await this.push();
  }
}

export function changeLabel(c: Change): string {
  return c.from ? `${c.from} → ${c.path}` : c.path;
}

/** The line that says why a command failed: git's fatal/error/CONFLICT line wherever it was printed. */
function failureLine(r: GitResult): string {
  const lines = (r.stderr + "\n" + r.stdout).split("\n").map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => /^(fatal|error|CONFLICT)\b/.test(l)) ?? lines[0] ?? "";
}

function shellQuote(a: string): string {
  return /^[A-Za-z0-9_./:=@+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}
