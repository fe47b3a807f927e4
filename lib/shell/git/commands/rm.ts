/** `git rm`: remove files from the index and the work tree. */
import git from "isomorphic-git";
import type { GitContext } from "../context";
import { unmerged } from "../merge-state";
import { fatal, GitError, hasGlob, parseArgs } from "../util";

export const name = "rm";
export const effect = "git rm deletes files";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-r", "--cached", "-f", "--force", "-q", "--quiet", "-n", "--dry-run", "--ignore-unmatch"],
    alias: { "--force": "-f", "--quiet": "-q", "--dry-run": "-n" },
    usage: "git rm [-f | --force] [-n] [-r] [--cached] [--ignore-unmatch] [--quiet] [--] <file>...",
  });
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (specs.length === 0) throw new GitError(`usage: git rm [-f | --force] [-n] [-r] [--cached] [--ignore-unmatch] [--quiet] [--] <file>...\n`, 129);
  const index = await ctx.work.index();
  const head = await ctx.repo.headOid();
  const headTree = await ctx.repo.treeOf(head);
  const selected: string[] = [];
  for (const s of specs) {
    const m = ctx.work.pathspec([s]);
    const hits = [...index.keys()].filter((k) => m(k));
    if (hits.length === 0) {
      if (a.has("--ignore-unmatch")) continue;
      throw fatal(`pathspec '${s}' did not match any files`);
    }
    const rel = hasGlob(s) ? null : ctx.work.repoPath(s);
    if (rel !== null && !index.has(rel) && !a.has("-r")) throw fatal(`not removing '${s}' recursively without -r`);
    for (const h of hits) if (!selected.includes(h)) selected.push(h);
  }
  selected.sort();
  if (!a.has("-f")) {
    const status = new Map((await ctx.work.status()).filter((e) => e.index !== "?").map((e) => [e.path, e]));
    const both: string[] = [];
    const stagedOnly: string[] = [];
    const local: string[] = [];
    // Removing a conflicted path is how a conflict is resolved as a deletion: git does not object.
    const conflicted = await unmerged(ctx);
    for (const p of selected) {
      if (conflicted.has(p)) continue;
      const e = status.get(p);
      const stagedDiff = (headTree.get(p)?.oid ?? null) !== (index.get(p)?.oid ?? null);
      const workDiff = e !== undefined && e.worktree === "M";
      if (a.has("--cached")) {
        if (stagedDiff && workDiff && headTree.has(p)) both.push(p);
        continue;
      }
      if (stagedDiff && workDiff) both.push(p);
      else if (stagedDiff) stagedOnly.push(p);
      else if (workDiff) local.push(p);
    }
    const listing = (l: string[]) => l.map((p) => `    ${ctx.work.display(p)}\n`).join("");
    let msg = "";
    if (both.length) msg += `error: the following file${both.length > 1 ? "s have" : " has"} staged content different from both the\nfile and the HEAD:\n${listing(both)}(use -f to force removal)\n`;
    if (stagedOnly.length) msg += `error: the following file${stagedOnly.length > 1 ? "s have" : " has"} changes staged in the index:\n${listing(stagedOnly)}(use --cached to keep the file, or -f to force removal)\n`;
    if (local.length) msg += `error: the following file${local.length > 1 ? "s have" : " has"} local modifications:\n${listing(local)}(use --cached to keep the file, or -f to force removal)\n`;
    if (msg) throw new GitError(msg, 1);
  }
  for (const p of selected) {
    if (!a.has("-q")) ctx.io.out(`rm '${p}'\n`);
    if (a.has("-n")) continue;
    await git.remove({ ...ctx.repo.iso, filepath: p });
    if (!a.has("--cached")) await ctx.work.remove(p);
  }
  ctx.work.invalidate();
  return 0;
}
