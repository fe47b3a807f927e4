/** `git ls-files`: the index (and untracked or ignored files). */
import type { GitContext } from "../context";
import { unmerged } from "../merge-state";
import { collapseUntracked } from "../status-report";
import { cquote, parseArgs } from "../util";
import { writesOutputFile } from "./forms";

export const name = "ls-files";
export const effect = "git ls-files --output writes a file";

/** Reads; only `--output=<file>` would write. */
export function writes(args: readonly string[]): boolean {
  return writesOutputFile(args);
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-c", "--cached", "-m", "--modified", "-d", "--deleted", "-o", "--others", "-s", "--stage", "--exclude-standard", "-z", "--full-name", "--directory", "-i", "--ignored", "-t", "-u", "--unmerged"],
    value: ["-x", "--exclude"],
    alias: { "--cached": "-c", "--modified": "-m", "--deleted": "-d", "--others": "-o", "--stage": "-s", "--ignored": "-i", "--unmerged": "-u" },
    usage: "git ls-files [<options>] [<file>...]",
  });
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  const underCwd = (p: string) => ctx.work.cwdRel === "" || p.startsWith(ctx.work.cwdRel + "/");
  const match = specs.length > 0 ? ctx.work.pathspec(specs) : underCwd;
  const name = (p: string) => (a.has("--full-name") ? p : ctx.work.display(p));
  const show = (p: string) => (a.has("-z") ? name(p) : cquote(name(p)));
  const end = a.has("-z") ? "\0" : "\n";
  const cached = a.has("-c") || !(a.has("-m") || a.has("-d") || a.has("-o") || a.has("-i") || a.has("-u"));
  const index = await ctx.work.index();
  const conflicts = await unmerged(ctx);
  const lines: string[] = [];
  const tag = (t: string) => (a.has("-t") ? t + " " : "");
  // An unmerged path has one entry per stage it has (1 base, 2 ours, 3 theirs); -u lists only those.
  const stagesOf = (p: string) => {
    const st = conflicts.get(p);
    return st ? ([[1, st.base], [2, st.ours], [3, st.theirs]] as const).filter(([, e]) => e) : null;
  };
  if (cached || a.has("-s") || a.has("-u")) {
    const paths = [...new Set([...index.keys(), ...conflicts.keys()])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    for (const p of paths) {
      if (!match(p) || ctx.repo.isHidden(p)) continue;
      const stages = stagesOf(p);
      if (stages) {
        for (const [n, e] of stages) lines.push(a.has("-s") || a.has("-u") ? `${e!.mode.toString(8)} ${e!.oid} ${n}\t${show(p)}` : tag("M") + show(p));
        continue;
      }
      if (a.has("-u")) continue;
      const e = index.get(p)!;
      lines.push(a.has("-s") ? `${e.mode.toString(8)} ${e.oid} 0\t${show(p)}` : tag("H") + show(p));
    }
  }
  if (a.has("-d") || a.has("-m")) {
    for (const e of await ctx.work.status()) {
      if (e.index === "?" || !match(e.path)) continue;
      if (a.has("-d") && e.worktree === "D") lines.push(tag("R") + show(e.path));
      if (a.has("-m") && (e.worktree === "M" || e.worktree === "D")) lines.push(tag("C") + show(e.path));
    }
  }
  if (a.has("-o")) {
    let others = (await ctx.work.status()).filter((e) => e.index === "?").map((e) => e.path);
    if (a.has("--directory")) others = await collapseUntracked(ctx, others);
    for (const p of others) if (match(p.replace(/\/$/, ""))) lines.push(tag("?") + show(p));
  }
  if (lines.length > 0) ctx.io.out(lines.join(end) + end);
  return 0;
}
