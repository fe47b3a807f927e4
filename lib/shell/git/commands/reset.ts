/** `git reset`: move HEAD and reset the index (and with --hard the work tree). */
import type { GitContext } from "../context";
import { applyTree, moveHead, pathKind, resetIndexTo, writeOrigHead } from "../tree";
import { fatal, parseArgs } from "../util";

export const name = "reset";
export const effect = "git reset changes the index and files";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["--soft", "--mixed", "--hard", "--keep", "--merge", "-q", "--quiet", "-N"],
    alias: { "--quiet": "-q" },
    usage: "git reset [--mixed | --soft | --hard | --merge | --keep] [-q] [<commit>]\n   or: git reset [-q] [<tree-ish>] [--] <pathspec>...",
  });
  const modes = ["--soft", "--mixed", "--hard", "--keep", "--merge"].filter((m) => a.has(m));
  if (modes.length > 1) throw fatal("options are mutually exclusive");
  let rev: string | null = null;
  let paths: string[] = [...(a.afterDashDash ?? [])];
  const pos = a.positionals;
  if (pos.length > 0) {
    if (a.afterDashDash !== null) {
      rev = pos[0]!;
      if (pos.length > 1) paths = [...pos.slice(1), ...paths];
    } else if ((await ctx.repo.tryResolveCommit(pos[0]!)) !== null) {
      rev = pos[0]!;
      paths = pos.slice(1);
    } else {
      paths = pos;
    }
  }
  const head = await ctx.repo.headOid();
  const target = rev === null ? head : await ctx.repo.resolveCommit(rev);

  if (paths.length > 0) {
    if (modes.length > 0 && modes[0] !== "--mixed") throw fatal(`Cannot do ${modes[0]!.slice(2)} reset with paths.`);
    const index = await ctx.work.index();
    const tree = await ctx.repo.treeOf(target);
    const known = new Set([...index.keys(), ...tree.keys()]);
    for (const s of paths) {
      const m = ctx.work.pathspec([s]);
      if (![...known].some((k) => m(k)) && !(await pathKind(ctx, ctx.work.repoPath(s)))) {
        throw fatal(
          `ambiguous argument '${s}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`,
        );
      }
    }
    await resetIndexTo(ctx, target, ctx.work.pathspec(paths));
    if (!a.has("-q")) await printUnstaged(ctx);
    return 0;
  }

  const mode = modes[0] ?? "--mixed";
  if (mode === "--keep" || mode === "--merge") throw fatal(`${mode} is not supported in this shell (use --hard or --mixed)`);
  if (target === null) {
    // Unborn branch: only "unstage everything" makes sense.
    if (mode === "--soft") throw fatal("Failed to resolve 'HEAD' as a valid ref.");
    await resetIndexTo(ctx, null);
    if (mode === "--hard") await applyTree(ctx, null);
    return 0;
  }
  await writeOrigHead(ctx, head);
  if (mode === "--hard") {
    // Work tree and index first (against the old index), then move the branch.
    await applyTree(ctx, target);
    await moveHead(ctx, target);
    ctx.work.invalidate();
    if (!a.has("-q")) ctx.io.out(`HEAD is now at ${ctx.repo.abbrev(target)} ${await ctx.repo.commitSubject(target)}\n`);
    return 0;
  }
  await moveHead(ctx, target);
  if (mode === "--mixed") {
    await resetIndexTo(ctx, target);
    if (!a.has("-q")) await printUnstaged(ctx);
  }
  return 0;
}

async function printUnstaged(ctx: GitContext): Promise<void> {
  ctx.work.invalidate();
  const lines = (await ctx.work.status()).filter((e) => e.index !== "?" && e.worktree !== " ");
  if (lines.length === 0) return;
  ctx.io.out("Unstaged changes after reset:\n" + lines.map((e) => `${e.worktree}\t${e.path}\n`).join(""));
}
