/** git branch, switch, checkout. */
import git from "isomorphic-git";
import type { GitContext } from "./context";
import { diffTrees } from "./diff";
import { restorePaths } from "./stage";
import { setHead, switchTree } from "./tree";
import { fatal, GitError, pathspecToRegExp, parseArgs } from "./util";

const VALID_REF = /^(?!\/|.*(?:\/\.|\.\.|@\{|\/\/|\.lock$|\.$|\/$))[^\x00-\x20~^:?*[\\\x7f]+$/;

export function validBranchName(name: string): boolean {
  return name !== "" && name !== "HEAD" && !name.startsWith("-") && !name.startsWith(".") && VALID_REF.test(name);
}

async function branchOid(ctx: GitContext, name: string): Promise<string | null> {
  try {
    return await git.resolveRef({ ...ctx.a, ref: `refs/heads/${name}` });
  } catch {
    return null;
  }
}

async function createBranchRef(ctx: GitContext, name: string, start: string | undefined, force: boolean): Promise<string> {
  if (!validBranchName(name)) throw fatal(`'${name}' is not a valid branch name`);
  const oid = start === undefined ? await ctx.headOid() : await ctx.resolveCommit(start);
  if (oid === null) throw fatal(`not a valid object name: '${(await ctx.branch()) ?? "HEAD"}'`);
  const existing = await branchOid(ctx, name);
  if (existing && !force) throw fatal(`a branch named '${name}' already exists`);
  if (existing && force && (await ctx.branch()) === name) throw fatal(`cannot force update the branch '${name}' used by worktree at '${ctx.toplevel}'`);
  await git.writeRef({ ...ctx.a, ref: `refs/heads/${name}`, value: oid, force: true });
  return oid;
}

export async function cmdBranch(ctx: GitContext, args: string[]): Promise<number> {
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
  const current = await ctx.branch();
  if (a.has("--show-current")) {
    if (current) ctx.out(current + "\n");
    return 0;
  }
  if (a.has("-d") || a.has("-D")) {
    ctx.assertWritable("branch -d");
    if (pos.length === 0) throw fatal("branch name required");
    let rc = 0;
    const force = a.has("-D") || a.has("-f");
    const head = await ctx.headOid();
    for (const name of pos) {
      const oid = await branchOid(ctx, name);
      if (!oid) {
        ctx.err(`error: branch '${name}' not found.\n`);
        rc = 1;
        continue;
      }
      if (name === current) {
        ctx.err(`error: Cannot delete branch '${name}' checked out at '${ctx.toplevel}'\n`);
        rc = 1;
        continue;
      }
      if (!force && head && oid !== head) {
        const merged = await git.isDescendent({ ...ctx.a, oid: head, ancestor: oid, depth: -1 }).catch(() => false);
        if (!merged) {
          ctx.err(`error: The branch '${name}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D ${name}'.\n`);
          rc = 1;
          continue;
        }
      }
      await git.deleteBranch({ ...ctx.a, ref: name });
      ctx.out(`Deleted branch ${name} (was ${oid.slice(0, 7)}).\n`);
    }
    return rc;
  }
  if (a.has("-m") || a.has("-M") || a.has("-c")) {
    ctx.assertWritable("branch -m");
    if (pos.length === 0 || pos.length > 2) throw fatal("branch name required");
    const [from, to] = pos.length === 2 ? [pos[0]!, pos[1]!] : [current ?? "", pos[0]!];
    if (!from) throw fatal("cannot rename the current branch while not on any");
    const oid = await branchOid(ctx, from);
    if (!oid) {
      if (from === current && (await ctx.headOid()) === null) {
        await setHead(ctx, { branch: to });
        return 0;
      }
      throw fatal(`no branch named '${from}'`);
    }
    if (!validBranchName(to)) throw fatal(`'${to}' is not a valid branch name`);
    if ((await branchOid(ctx, to)) && !a.has("-M")) throw fatal(`a branch named '${to}' already exists`);
    await git.writeRef({ ...ctx.a, ref: `refs/heads/${to}`, value: oid, force: true });
    if (a.has("-c")) return 0;
    if (from !== to) await git.deleteRef({ ...ctx.a, ref: `refs/heads/${from}` });
    if (from === current) await setHead(ctx, { branch: to });
    return 0;
  }
  const listing = a.has("-l") || a.has("-a") || a.has("-r") || a.has("-v") || a.has("--merged") || a.has("--no-merged") || pos.length === 0;
  if (!listing) {
    ctx.assertWritable("branch");
    if (pos.length > 2) throw fatal("too many arguments");
    await createBranchRef(ctx, pos[0]!, pos[1], a.has("-f"));
    return 0;
  }
  if (a.has("-r")) return 0; // no remote-tracking branches in the browser
  const names = (await git.listBranches({ ...ctx.a })).sort();
  if (current && !names.includes(current) && (await ctx.headOid()) !== null) names.push(current);
  const patterns = pos.map((p) => pathspecToRegExp(p));
  const head = await ctx.headOid();
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
      const merged = r.oid === head || (await git.isDescendent({ ...ctx.a, oid: head, ancestor: r.oid, depth: -1 }).catch(() => false));
      if (merged === a.has("--merged")) filtered.push(r);
    }
    rows = filtered;
  }
  if (a.has("-v")) {
    const width = Math.max(...rows.map((r) => r.name.length), 0);
    for (const r of rows) {
      const subject = r.oid ? await ctx.commitSubject(r.oid) : "";
      ctx.out(`${r.current ? "*" : " "} ${r.name.padEnd(width)} ${r.oid ? r.oid.slice(0, 7) : ""} ${subject}\n`);
    }
    return 0;
  }
  for (const r of rows) ctx.out(`${r.current ? "*" : " "} ${r.name}\n`);
  return 0;
}

async function carriedChanges(ctx: GitContext): Promise<string> {
  ctx.invalidate();
  return (await ctx.status())
    .filter((e) => e.index !== "?" && (e.index !== " " || e.worktree !== " "))
    .map((e) => `${e.worktree !== " " ? e.worktree : e.index}\t${ctx.display(e.path)}\n`)
    .join("");
}

async function doSwitch(
  ctx: GitContext,
  target: { branch: string } | { detach: string },
  opts: { force: boolean; verb: string; created?: boolean; quiet?: boolean },
): Promise<void> {
  const current = await ctx.branch();
  const head = await ctx.headOid();
  const say = (s: string) => {
    if (!opts.quiet) ctx.err(s);
  };
  if ("branch" in target) {
    const oid = await branchOid(ctx, target.branch);
    if (current === target.branch && !opts.created) {
      say(`Already on '${target.branch}'\n`);
      return;
    }
    if (oid === null) {
      // New branch on an unborn HEAD.
      await setHead(ctx, { branch: target.branch });
      say(`Switched to a new branch '${target.branch}'\n`);
      return;
    }
    if (oid !== head) await switchTree(ctx, oid, { force: opts.force, verb: opts.verb });
    await setHead(ctx, { branch: target.branch });
    if (!opts.quiet) ctx.out(await carriedChanges(ctx));
    say(opts.created ? `Switched to a new branch '${target.branch}'\n` : `Switched to branch '${target.branch}'\n`);
    return;
  }
  const oid = target.detach;
  if (oid !== head) await switchTree(ctx, oid, { force: opts.force, verb: opts.verb });
  await setHead(ctx, { oid });
  if (opts.quiet) return;
  ctx.out(await carriedChanges(ctx));
  if (current) {
    ctx.err(
      `Note: switching to '${oid.slice(0, 7)}'.\n\nYou are in 'detached HEAD' state. You can look around, make experimental\nchanges and commit them, and you can discard any commits you make in this\nstate without impacting any branches by switching back to a branch.\n\nIf you want to create a new branch to retain commits you create, you may\ndo so (now or later) by using -c with the switch command. Example:\n\n  git switch -c <new-branch-name>\n\nOr undo this operation with:\n\n  git switch -\n\nTurn off this advice by setting config variable advice.detachedHead to false\n\n`,
    );
  } else if (head) {
    ctx.err(`Previous HEAD position was ${head.slice(0, 7)} ${await ctx.commitSubject(head)}\n`);
  }
  ctx.err(`HEAD is now at ${oid.slice(0, 7)} ${await ctx.commitSubject(oid)}\n`);
}

/** Refuse before creating a branch when switching to its start point would lose local edits. */
async function checkSwitchable(ctx: GitContext, oid: string): Promise<void> {
  const head = await ctx.headOid();
  const between = new Set(diffTrees(await ctx.treeOf(head), await ctx.treeOf(oid), undefined, false).map((c) => c.path));
  const dirty = (await ctx.status()).filter((e) => e.index !== "?" && (e.index !== " " || e.worktree !== " ") && between.has(e.path));
  if (dirty.length > 0) {
    throw new GitError(
      `error: Your local changes to the following files would be overwritten by checkout:\n${dirty.map((e) => `\t${ctx.display(e.path)}\n`).join("")}Please commit your changes or stash them before you switch branches.\nAborting\n`,
      1,
    );
  }
}

export async function cmdSwitch(ctx: GitContext, args: string[]): Promise<number> {
  ctx.assertWritable("switch");
  const a = parseArgs(args, {
    bool: ["-d", "--detach", "-f", "--force", "--discard-changes", "-q", "--quiet", "--no-track", "-t", "--track", "--guess", "--no-guess"],
    value: ["-c", "--create", "-C", "--force-create", "--orphan"],
    alias: { "--detach": "-d", "--force": "-f", "--discard-changes": "-f", "--quiet": "-q", "--create": "-c", "--force-create": "-C", "--track": "-t" },
    usage: "git switch [<options>] [<branch>]",
  });
  const pos = [...a.positionals, ...(a.afterDashDash ?? [])];
  const force = a.has("-f");
  const quiet = a.has("-q");
  const create = a.get("-c") ?? a.get("-C");
  if (a.get("--orphan") !== undefined) throw fatal("--orphan is not supported in this shell");
  if (create !== undefined) {
    const current = await ctx.branch();
    if (a.get("-C") !== undefined && current === create) throw fatal(`cannot force update the branch '${create}' used by worktree at '${ctx.toplevel}'`);
    const start = pos[0];
    if ((await ctx.headOid()) === null && start === undefined) {
      await setHead(ctx, { branch: create });
      if (!quiet) ctx.err(`Switched to a new branch '${create}'\n`);
      return 0;
    }
    const startOid = start === undefined ? await ctx.headOid() : await ctx.resolveCommit(start);
    if (startOid !== (await ctx.headOid()) && !force) await checkSwitchable(ctx, startOid!);
    await createBranchRef(ctx, create, start, a.get("-C") !== undefined);
    await doSwitch(ctx, { branch: create }, { force, verb: "checkout", created: true, quiet });
    return 0;
  }
  if (pos.length === 0) throw fatal("missing branch or commit argument");
  const name = pos[0]!;
  if (name === "-") throw fatal("switching to the previous branch ('-') is not supported in this shell");
  if (a.has("-d")) {
    await doSwitch(ctx, { detach: await ctx.resolveCommit(name) }, { force, verb: "checkout", quiet });
    return 0;
  }
  if (!(await branchOid(ctx, name))) {
    const oid = await ctx.tryResolveCommit(name);
    if (oid) throw new GitError(`fatal: a branch is expected, got commit '${name}'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.\n`, 128);
    throw fatal(`invalid reference: ${name}`);
  }
  await doSwitch(ctx, { branch: name }, { force, verb: "checkout", quiet });
  return 0;
}

export async function cmdCheckout(ctx: GitContext, args: string[]): Promise<number> {
  ctx.assertWritable("checkout");
  const a = parseArgs(args, {
    bool: ["-f", "--force", "-q", "--quiet", "--detach", "--no-track", "-t", "--track", "--ours", "--theirs", "-m", "--merge"],
    value: ["-b", "-B", "--orphan"],
    alias: { "--force": "-f", "--quiet": "-q", "--track": "-t" },
    usage: "git checkout [<options>] <branch>\n   or: git checkout [<options>] [<branch>] -- <file>...",
  });
  const pos = a.positionals;
  const force = a.has("-f");
  const quiet = a.has("-q");
  const newBranch = a.get("-b") ?? a.get("-B");
  if (a.get("--orphan") !== undefined) throw fatal("--orphan is not supported in this shell");

  if (a.afterDashDash !== null) {
    if (newBranch !== undefined) throw fatal("Cannot update paths and switch to branch at the same time.");
    const paths = a.afterDashDash;
    if (pos.length > 1) throw fatal("only one reference expected");
    if (paths.length === 0) {
      if (pos.length === 0) throw fatal("you must specify path(s) to restore");
      return cmdCheckout(ctx, pos);
    }
    // git prints "Updated N paths" only for the form without "--".
    return checkoutPaths(ctx, pos[0], paths, true);
  }
  if (newBranch !== undefined) {
    const start = pos[0];
    if ((await ctx.headOid()) === null && start === undefined) {
      await setHead(ctx, { branch: newBranch });
      if (!quiet) ctx.err(`Switched to a new branch '${newBranch}'\n`);
      return 0;
    }
    const startOid = start === undefined ? await ctx.headOid() : await ctx.resolveCommit(start);
    if (startOid !== (await ctx.headOid()) && !force) await checkSwitchable(ctx, startOid!);
    await createBranchRef(ctx, newBranch, start, a.get("-B") !== undefined);
    await doSwitch(ctx, { branch: newBranch }, { force, verb: "checkout", created: true, quiet });
    return 0;
  }
  if (pos.length === 0) {
    // "git checkout" alone: report local changes, like git.
    ctx.out(await carriedChanges(ctx));
    return 0;
  }
  const name = pos[0]!;
  if (name === "-") throw fatal("checking out the previous branch ('-') is not supported in this shell");
  if (pos.length === 1 && (await branchOid(ctx, name))) {
    await doSwitch(ctx, { branch: name }, { force, verb: "checkout", quiet });
    return 0;
  }
  const oid = pos.length === 1 ? await ctx.tryResolveCommit(name) : null;
  if (oid) {
    await doSwitch(ctx, { detach: oid }, { force, verb: "checkout", quiet });
    return 0;
  }
  // Not a revision: paths (from the index, or from a leading revision).
  const rev = (await ctx.tryResolveCommit(name)) ? name : undefined;
  const paths = rev ? pos.slice(1) : pos;
  try {
    return await checkoutPaths(ctx, rev, paths, quiet);
  } catch (err) {
    if (err instanceof GitError && /did not match/.test(err.message) && pos.length === 1) {
      throw new GitError(`error: pathspec '${name}' did not match any file(s) known to git\n`, 1);
    }
    throw err;
  }
}

async function checkoutPaths(ctx: GitContext, rev: string | undefined, paths: string[], quiet: boolean): Promise<number> {
  if (rev === undefined) {
    const n = await restorePaths(ctx, paths, { staged: false, worktree: true, source: undefined });
    if (!quiet) ctx.err(`Updated ${n} path${n === 1 ? "" : "s"} from the index\n`);
    return 0;
  }
  const oid = await ctx.resolveCommit(rev);
  // git checkout <rev> -- <paths> updates the index too, and never deletes.
  const tree = await ctx.treeOf(oid);
  for (const s of paths) {
    const m = ctx.pathspec([s]);
    if (![...tree.keys()].some((k) => m(k))) throw new GitError(`error: pathspec '${s}' did not match any file(s) known to git\n`, 1);
  }
  const match = ctx.pathspec(paths);
  let n = 0;
  for (const [p, e] of tree) {
    if (!match(p)) continue;
    await ctx.writeWorktree(p, e);
    await git.resetIndex({ ...ctx.a, filepath: p, ref: oid });
    n++;
  }
  ctx.invalidate();
  if (!quiet) ctx.err(`Updated ${n} path${n === 1 ? "" : "s"} from ${oid.slice(0, 7)}\n`);
  return 0;
}
