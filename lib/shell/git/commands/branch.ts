/** `git branch`: list, create, delete, rename or copy branches. */
import git from "isomorphic-git";
import { branchOid, createBranchRef, validBranchName } from "../branch-ops";
import type { GitContext } from "../context";
import { setHead } from "../tree";
import { fatal, parseArgs, pathspecToRegExp } from "../util";
import { positionals } from "./forms";

export const name = "branch";
export const effect = "git branch changes branches";

/** Options that only shape a listing. */
const LIST_OPTION =
  /^(-a|-r|-v|-vv|-l|--list|--all|--remotes|--verbose|--show-current|--no-color|--color(=.*)?|--contains|--no-contains|--merged|--no-merged|--points-at|--sort(=.*)?|--format(=.*)?|--column(=.*)?|--no-column|--abbrev(=.*)?|--no-abbrev|-i|--ignore-case|-q|--quiet|-avv|-av|-rv|-vva|-va)$|^--(sort|format|contains|merged|no-merged|no-contains|points-at)=/;
/** Options after which names are patterns or commits, not branches to create. */
const LISTING = new Set(["-l", "--list", "--contains", "--merged", "--no-merged", "--points-at", "--no-contains"]);

/** `branch` and `branch --list 'feat*'` list; `branch x`, `-d`, `-m`, `-c`, `-f`… write. */
export function writes(args: readonly string[]): boolean {
  if (!args.every((a) => !a.startsWith("-") || LIST_OPTION.test(a))) return true;
  return positionals(args).length > 0 && !args.some((a) => LISTING.has(a));
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: [
      "-a", "--all", "-r", "--remotes", "-d", "--delete", "-D", "-m", "--move", "-M", "-v", "--verbose", "-f", "--force",
      "--show-current", "-l", "--list", "-q", "--quiet", "-c", "--copy", "--no-color", "--merged", "--no-merged",
    ],
    alias: { "--all": "-a", "--remotes": "-r", "--delete": "-d", "--move": "-m", "--verbose": "-v", "--force": "-f", "--list": "-l", "--quiet": "-q", "--copy": "-c" },
    optional: ["--format", "--sort"],
    usage:
      "git branch [<options>] [-r | -a] [--merged] [--no-merged]\n   or: git branch [<options>] [-l] [<pattern>...]\n   or: git branch [<options>] [-f] <branch-name> [<start-point>]\n   or: git branch [<options>] [-r] (-d | -D) <branch-name>...\n   or: git branch [<options>] (-m | -M) [<old-branch>] <new-branch>",
  });
  const pos = [...a.positionals, ...(a.afterDashDash ?? [])];
  const current = await ctx.repo.branch();
  if (a.has("--show-current")) {
    if (current) ctx.io.out(current + "\n");
    return 0;
  }
  if (a.has("-d") || a.has("-D")) {
    if (pos.length === 0) throw fatal("branch name required");
    let rc = 0;
    const force = a.has("-D") || a.has("-f");
    const head = await ctx.repo.headOid();
    for (const name of pos) {
      const oid = await branchOid(ctx, name);
      if (!oid) {
        ctx.io.err(`error: branch '${name}' not found.\n`);
        rc = 1;
        continue;
      }
      if (name === current) {
        ctx.io.err(`error: Cannot delete branch '${name}' checked out at '${ctx.work.toplevel}'\n`);
        rc = 1;
        continue;
      }
      if (!force && head && oid !== head) {
        const merged = await git.isDescendent({ ...ctx.repo.iso, oid: head, ancestor: oid, depth: -1 }).catch(() => false);
        if (!merged) {
          ctx.io.err(`error: The branch '${name}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D ${name}'.\n`);
          rc = 1;
          continue;
        }
      }
      await git.deleteBranch({ ...ctx.repo.iso, ref: name });
      ctx.io.out(`Deleted branch ${name} (was ${oid.slice(0, 7)}).\n`);
    }
    return rc;
  }
  if (a.has("-m") || a.has("-M") || a.has("-c")) {
    if (pos.length === 0 || pos.length > 2) throw fatal("branch name required");
    const [from, to] = pos.length === 2 ? [pos[0]!, pos[1]!] : [current ?? "", pos[0]!];
    if (!from) throw fatal("cannot rename the current branch while not on any");
    const oid = await branchOid(ctx, from);
    if (!oid) {
      if (from === current && (await ctx.repo.headOid()) === null) {
        await setHead(ctx, { branch: to });
        return 0;
      }
      throw fatal(`no branch named '${from}'`);
    }
    if (!validBranchName(to)) throw fatal(`'${to}' is not a valid branch name`);
    if ((await branchOid(ctx, to)) && !a.has("-M")) throw fatal(`a branch named '${to}' already exists`);
    await git.writeRef({ ...ctx.repo.iso, ref: `refs/heads/${to}`, value: oid, force: true });
    if (a.has("-c")) return 0;
    if (from !== to) await git.deleteRef({ ...ctx.repo.iso, ref: `refs/heads/${from}` });
    if (from === current) await setHead(ctx, { branch: to });
    return 0;
  }
  const listing = a.has("-l") || a.has("-a") || a.has("-r") || a.has("-v") || a.has("--merged") || a.has("--no-merged") || pos.length === 0;
  if (!listing) {
    if (pos.length > 2) throw fatal("too many arguments");
    await createBranchRef(ctx, pos[0]!, pos[1], a.has("-f"));
    return 0;
  }
  if (a.has("-r")) return 0; // no remote-tracking branches in the browser
  const names = (await git.listBranches({ ...ctx.repo.iso })).sort();
  if (current && !names.includes(current) && (await ctx.repo.headOid()) !== null) names.push(current);
  const patterns = pos.map((p) => pathspecToRegExp(p));
  const head = await ctx.repo.headOid();
  let rows: { name: string; current: boolean; oid: string | null }[] = [];
  if (!current && head) rows.push({ name: `(HEAD detached at ${head.slice(0, 7)})`, current: true, oid: head });
  for (const n of names.sort()) {
    if (patterns.length > 0 && !patterns.some((re) => re.test(n))) continue;
    rows.push({ name: n, current: n === current, oid: await branchOid(ctx, n) });
  }
  if (a.has("--merged") || a.has("--no-merged")) {
    const filtered: typeof rows = [];
    for (const r of rows) {
      if (!r.oid || !head) continue;
      const merged = r.oid === head || (await git.isDescendent({ ...ctx.repo.iso, oid: head, ancestor: r.oid, depth: -1 }).catch(() => false));
      if (merged === a.has("--merged")) filtered.push(r);
    }
    rows = filtered;
  }
  if (a.has("-v")) {
    const width = Math.max(...rows.map((r) => r.name.length), 0);
    for (const r of rows) {
      const subject = r.oid ? await ctx.repo.commitSubject(r.oid) : "";
      ctx.io.out(`${r.current ? "*" : " "} ${r.name.padEnd(width)} ${r.oid ? ctx.repo.abbrev(r.oid) : ""} ${subject}\n`);
    }
    return 0;
  }
  for (const r of rows) ctx.io.out(`${r.current ? "*" : " "} ${r.name}\n`);
  return 0;
}
