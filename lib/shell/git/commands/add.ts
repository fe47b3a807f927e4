/** `git add`: stage work-tree changes in the index. */
import git from "isomorphic-git";
import { IgnoreRules } from "../../../git/ignore";
import type { GitContext } from "../context";
import { pathKind } from "../tree";
import { fatal, GitError, hasGlob, parseArgs } from "../util";

export const name = "add";
export const effect = "git add changes the index";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-A", "--all", "-u", "--update", "-f", "--force", "-n", "--dry-run", "-v", "--verbose", "--no-all", "-N", "--intent-to-add"],
    alias: { "--all": "-A", "--update": "-u", "--force": "-f", "--dry-run": "-n", "--verbose": "-v" },
    usage: "git add [<options>] [--] <pathspec>...",
  });
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  const all = a.has("-A");
  const update = a.has("-u");
  if (specs.length === 0 && !all && !update) {
    ctx.io.err("Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\nhint: Turn this message off by running\nhint: \"git config advice.addEmptyPathspec false\"\n");
    return 0;
  }
  const match = ctx.work.pathspec(specs);
  const entries = await ctx.work.status();
  const index = await ctx.work.index();
  const toAdd: string[] = [];
  const toRemove: string[] = [];
  const matchedSpec = new Set<string>();
  for (const e of entries) {
    if (!match(e.path)) continue;
    if (e.index === "?") {
      if (update) continue;
      toAdd.push(e.path);
    } else if (e.worktree === "D") {
      toRemove.push(e.path);
    } else if (e.worktree === "M") {
      toAdd.push(e.path);
    } else continue;
    for (const s of specs) if (ctx.work.pathspec([s])(e.path)) matchedSpec.add(s);
  }
  // Pathspecs that matched nothing changed: fine if they name tracked or existing paths;
  // an explicitly named ignored file needs -f.
  const ignoredNamed: string[] = [];
  for (const s of specs) {
    if (matchedSpec.has(s)) continue;
    const m = ctx.work.pathspec([s]);
    if ([...index.keys()].some((k) => m(k))) continue;
    if (hasGlob(s)) throw fatal(`pathspec '${s}' did not match any files`);
    const rel = ctx.work.repoPath(s);
    const kind = await pathKind(ctx, rel);
    if (kind === null) throw fatal(`pathspec '${s}' did not match any files`);
    if (kind === "file") {
      if (a.has("-f")) toAdd.push(rel);
      else ignoredNamed.push(s);
    } else if (a.has("-f")) {
      // A directory of ignored files: add them all.
      toAdd.push(...(await ctx.work.wsfs.listFiles(rel)));
    } else {
      const rules = new IgnoreRules(ctx.repo.asGitRepo);
      await rules.prepare(rel);
      if (rules.test(rel, true)) ignoredNamed.push(s);
    }
  }
  if (ignoredNamed.length > 0) {
    throw new GitError(
      `The following paths are ignored by one of your .gitignore files:\n${ignoredNamed.join("\n")}\nhint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: "git config advice.addIgnoredFile false"\n`,
      1,
    );
  }
  if (a.has("-n") || a.has("-v")) {
    for (const p of toAdd) ctx.io.out(`add '${ctx.work.display(p)}'\n`);
    for (const p of toRemove) ctx.io.out(`remove '${ctx.work.display(p)}'\n`);
    if (a.has("-n")) return 0;
  }
  if (toAdd.length > 0) await git.add({ ...ctx.repo.iso, filepath: toAdd, force: true });
  for (const p of toRemove) await git.remove({ ...ctx.repo.iso, filepath: p });
  ctx.work.invalidate();
  return 0;
}
