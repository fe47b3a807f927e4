/** git add, rm, mv, restore, reset. */
import git from "isomorphic-git";
import { IgnoreRules } from "../../git/ignore";
import type { GitContext } from "./context";
import { applyTree, moveHead, resetIndexTo, writeOrigHead } from "./tree";
import { fatal, GitError, hasGlob, parseArgs } from "./util";

async function exists(ctx: GitContext, rel: string): Promise<"file" | "dir" | null> {
  try {
    const st = await ctx.fs.promises.lstat(ctx.abs(rel));
    return st.isDirectory() ? "dir" : "file";
  } catch {
    return null;
  }
}

// ---- add --------------------------------------------------------------------------------------

export async function cmdAdd(ctx: GitContext, args: string[]): Promise<number> {
  ctx.assertWritable("add");
  const a = parseArgs(args, {
    bool: ["-A", "--all", "-u", "--update", "-f", "--force", "-n", "--dry-run", "-v", "--verbose", "--no-all", "-N", "--intent-to-add"],
    alias: { "--all": "-A", "--update": "-u", "--force": "-f", "--dry-run": "-n", "--verbose": "-v" },
    usage: "git add [<options>] [--] <pathspec>...",
  });
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  const all = a.has("-A");
  const update = a.has("-u");
  if (specs.length === 0 && !all && !update) {
    ctx.err("Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\nhint: Turn this message off by running\nhint: \"git config advice.addEmptyPathspec false\"\n");
    return 0;
  }
  const match = ctx.pathspec(specs);
  const entries = await ctx.status();
  const index = await ctx.index();
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
    for (const s of specs) if (ctx.pathspec([s])(e.path)) matchedSpec.add(s);
  }
  // Pathspecs that matched nothing changed: fine if they name tracked or existing paths;
  // an explicitly named ignored file needs -f.
  const ignoredNamed: string[] = [];
  for (const s of specs) {
    if (matchedSpec.has(s)) continue;
    const m = ctx.pathspec([s]);
    if ([...index.keys()].some((k) => m(k))) continue;
    if (hasGlob(s)) throw fatal(`pathspec '${s}' did not match any files`);
    const rel = ctx.repoPath(s);
    const kind = await exists(ctx, rel);
    if (kind === null) throw fatal(`pathspec '${s}' did not match any files`);
    if (kind === "file") {
      if (a.has("-f")) toAdd.push(rel);
      else ignoredNamed.push(s);
    } else if (a.has("-f")) {
      // A directory of ignored files: add them all.
      toAdd.push(...(await ctx.wsfs.listFiles(rel)));
    } else {
      const rules = new IgnoreRules(ctx.repo);
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
    for (const p of toAdd) ctx.out(`add '${ctx.display(p)}'\n`);
    for (const p of toRemove) ctx.out(`remove '${ctx.display(p)}'\n`);
    if (a.has("-n")) return 0;
  }
  if (toAdd.length > 0) await git.add({ ...ctx.a, filepath: toAdd, force: true });
  for (const p of toRemove) await git.remove({ ...ctx.a, filepath: p });
  ctx.invalidate();
  return 0;
}

// ---- rm ---------------------------------------------------------------------------------------

export async function cmdRm(ctx: GitContext, args: string[]): Promise<number> {
  ctx.assertWritable("rm");
  const a = parseArgs(args, {
    bool: ["-r", "--cached", "-f", "--force", "-q", "--quiet", "-n", "--dry-run", "--ignore-unmatch"],
    alias: { "--force": "-f", "--quiet": "-q", "--dry-run": "-n" },
    usage: "git rm [-f | --force] [-n] [-r] [--cached] [--ignore-unmatch] [--quiet] [--] <file>...",
  });
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (specs.length === 0) throw new GitError(`usage: git rm [-f | --force] [-n] [-r] [--cached] [--ignore-unmatch] [--quiet] [--] <file>...\n`, 129);
  const index = await ctx.index();
  const head = await ctx.headOid();
  const headTree = await ctx.treeOf(head);
  const selected: string[] = [];
  for (const s of specs) {
    const m = ctx.pathspec([s]);
    const hits = [...index.keys()].filter((k) => m(k));
    if (hits.length === 0) {
      if (a.has("--ignore-unmatch")) continue;
      throw fatal(`pathspec '${s}' did not match any files`);
    }
    const rel = hasGlob(s) ? null : ctx.repoPath(s);
    if (rel !== null && !index.has(rel) && !a.has("-r")) throw fatal(`not removing '${s}' recursively without -r`);
    for (const h of hits) if (!selected.includes(h)) selected.push(h);
  }
  selected.sort();
  if (!a.has("-f")) {
    const status = new Map((await ctx.status()).filter((e) => e.index !== "?").map((e) => [e.path, e]));
    const both: string[] = [];
    const stagedOnly: string[] = [];
    const local: string[] = [];
    for (const p of selected) {
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
    const listing = (l: string[]) => l.map((p) => `    ${ctx.display(p)}\n`).join("");
    let msg = "";
    if (both.length) msg += `error: the following file${both.length > 1 ? "s have" : " has"} staged content different from both the\nfile and the HEAD:\n${listing(both)}(use -f to force removal)\n`;
    if (stagedOnly.length) msg += `error: the following file${stagedOnly.length > 1 ? "s have" : " has"} changes staged in the index:\n${listing(stagedOnly)}(use --cached to keep the file, or -f to force removal)\n`;
    if (local.length) msg += `error: the following file${local.length > 1 ? "s have" : " has"} local modifications:\n${listing(local)}(use --cached to keep the file, or -f to force removal)\n`;
    if (msg) throw new GitError(msg, 1);
  }
  for (const p of selected) {
    if (!a.has("-q")) ctx.out(`rm '${p}'\n`);
    if (a.has("-n")) continue;
    await git.remove({ ...ctx.a, filepath: p });
    if (!a.has("--cached")) await ctx.removeWorktree(p);
  }
  ctx.invalidate();
  return 0;
}

// ---- mv ---------------------------------------------------------------------------------------

export async function cmdMv(ctx: GitContext, args: string[]): Promise<number> {
  ctx.assertWritable("mv");
  const a = parseArgs(args, {
    bool: ["-f", "--force", "-k", "-n", "--dry-run", "-v", "--verbose"],
    alias: { "--force": "-f", "--dry-run": "-n", "--verbose": "-v" },
    usage: "git mv [<options>] <source>... <destination>",
  });
  const all = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (all.length < 2) throw new GitError("usage: git mv [<options>] <source>... <destination>\n", 129);
  const dstArg = all[all.length - 1]!;
  const srcs = all.slice(0, -1);
  const dstRel = ctx.repoPath(dstArg);
  const dstKind = await exists(ctx, dstRel);
  const intoDir = srcs.length > 1 || dstKind === "dir";
  if (srcs.length > 1 && dstKind !== "dir") throw fatal(`destination '${dstArg}' is not a directory`);
  const index = await ctx.index();
  const moves: { from: string; to: string; files: string[] }[] = [];
  for (const s of srcs) {
    const from = ctx.repoPath(s);
    const base = from.slice(from.lastIndexOf("/") + 1);
    const to = intoDir ? (dstRel === "" ? base : `${dstRel}/${base}`) : dstRel;
    const where = `source=${s}, destination=${intoDir ? ctx.display(to) : dstArg}`;
    const kind = await exists(ctx, from);
    if (kind === null) {
      if (a.has("-k")) continue;
      throw fatal(`bad source, ${where}`);
    }
    const files = kind === "dir" ? [...index.keys()].filter((k) => k.startsWith(from + "/")) : index.has(from) ? [from] : [];
    if (files.length === 0) {
      if (a.has("-k")) continue;
      throw fatal(kind === "dir" ? `source directory is empty, ${where}` : `not under version control, ${where}`);
    }
    if (to === from || to.startsWith(from + "/")) throw fatal(`can not move directory into itself, ${where}`);
    const toKind = await exists(ctx, to);
    if (toKind !== null && (!a.has("-f") || toKind === "dir")) {
      if (a.has("-k")) continue;
      throw fatal(`destination exists, ${where}`);
    }
    moves.push({ from, to, files });
  }
  for (const m of moves) {
    if (a.has("-n") || a.has("-v")) ctx.out(`Renaming ${m.from} to ${m.to}\n`);
    if (a.has("-n")) continue;
    if (await exists(ctx, m.to)) await ctx.wsfs.remove(m.to, { origin: "git" });
    await ctx.wsfs.rename(m.from, m.to, { origin: "git" });
    for (const f of m.files) {
      await git.remove({ ...ctx.a, filepath: f });
      await git.add({ ...ctx.a, filepath: m.to + f.slice(m.from.length), force: true });
    }
  }
  ctx.invalidate();
  return 0;
}

// ---- restore ----------------------------------------------------------------------------------

export async function cmdRestore(ctx: GitContext, args: string[]): Promise<number> {
  ctx.assertWritable("restore");
  const a = parseArgs(args, {
    bool: ["-S", "--staged", "-W", "--worktree", "-q", "--quiet", "--ours", "--theirs", "--overlay", "--no-overlay"],
    value: ["-s", "--source"],
    alias: { "--staged": "-S", "--worktree": "-W", "--source": "-s", "--quiet": "-q" },
    usage: "git restore [<options>] [--source=<branch>] <file>...",
  });
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (specs.length === 0) throw fatal("you must specify path(s) to restore");
  const staged = a.has("-S");
  const worktree = a.has("-W") || !staged;
  const sourceSpec = a.get("-s");
  const source = sourceSpec !== undefined ? await ctx.resolveCommit(sourceSpec) : staged ? await ctx.headOid() : undefined;
  await restorePaths(ctx, specs, { staged, worktree, source });
  return 0;
}

/** Shared by restore and `checkout [--] <paths>`. `source` undefined = the index. */
export async function restorePaths(
  ctx: GitContext,
  specs: string[],
  opts: { staged: boolean; worktree: boolean; source: string | null | undefined },
): Promise<number> {
  const index = await ctx.index();
  const srcTree = opts.source === undefined ? index : await ctx.treeOf(opts.source);
  const known = new Set<string>([...index.keys(), ...srcTree.keys()]);
  const selected = new Set<string>();
  for (const s of specs) {
    const m = ctx.pathspec([s]);
    const hits = [...known].filter((k) => m(k));
    if (hits.length === 0) throw new GitError(`error: pathspec '${s}' did not match any file(s) known to git\n`, 1);
    hits.forEach((h) => selected.add(h));
  }
  if (opts.staged) await resetIndexTo(ctx, opts.source ?? null, (p) => selected.has(p));
  let count = 0;
  if (opts.worktree) {
    const target = opts.source === undefined ? await ctx.index() : srcTree;
    const work = await ctx.worktree();
    for (const p of [...selected].sort()) {
      const t = target.get(p);
      const w = work.get(p);
      if (t) {
        const onDisk = await exists(ctx, p);
        if (!w || w.oid !== t.oid || w.mode !== t.mode || onDisk !== "file") await ctx.writeWorktree(p, t);
        count++;
      } else if (opts.source !== undefined && index.has(p)) {
        await ctx.removeWorktree(p);
      }
    }
    ctx.invalidate();
  }
  return count;
}

// ---- reset ------------------------------------------------------------------------------------

export async function cmdReset(ctx: GitContext, args: string[]): Promise<number> {
  ctx.assertWritable("reset");
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
    } else if ((await ctx.tryResolveCommit(pos[0]!)) !== null) {
      rev = pos[0]!;
      paths = pos.slice(1);
    } else {
      paths = pos;
    }
  }
  const head = await ctx.headOid();
  const target = rev === null ? head : await ctx.resolveCommit(rev);

  if (paths.length > 0) {
    if (modes.length > 0 && modes[0] !== "--mixed") throw fatal(`Cannot do ${modes[0]!.slice(2)} reset with paths.`);
    const index = await ctx.index();
    const tree = await ctx.treeOf(target);
    const known = new Set([...index.keys(), ...tree.keys()]);
    for (const s of paths) {
      const m = ctx.pathspec([s]);
      if (![...known].some((k) => m(k)) && !(await exists(ctx, ctx.repoPath(s)))) {
        throw fatal(
          `ambiguous argument '${s}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`,
        );
      }
    }
    await resetIndexTo(ctx, target, ctx.pathspec(paths));
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
    ctx.invalidate();
    if (!a.has("-q")) ctx.out(`HEAD is now at ${target.slice(0, 7)} ${await ctx.commitSubject(target)}\n`);
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
  ctx.invalidate();
  const lines = (await ctx.status()).filter((e) => e.index !== "?" && e.worktree !== " ");
  if (lines.length === 0) return;
  ctx.out("Unstaged changes after reset:\n" + lines.map((e) => `${e.worktree}\t${e.path}\n`).join(""));
}
