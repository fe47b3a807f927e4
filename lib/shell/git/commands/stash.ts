/**
 * `git stash`: save, list, show, apply, pop, drop or clear stashed changes. Written natively
 * (isomorphic-git's stash has no --include-untracked): the stash commits have git's shape
 * (W with parents HEAD, I[, U]) and byte-identical content, and refs/stash with its reflog is
 * kept the way git keeps it, so native git reads our stashes and we read its.
 */
import git from "isomorphic-git";
import { type GitContext, type TreeMap, ZERO_OID } from "../context";
import { diffTrees, fileDiffs, formatStatLines, patchText } from "../diff";
import { assertResolved } from "../merge-state";
import { longStatus, statusData } from "../status-report";
import { applyTree, buildTree } from "../tree";
import { fatal, formatTz, GitError, parseArgs } from "../util";
export const name = "stash";
export const effect = "git stash changes files";

const READ_SUBCOMMANDS = new Set(["list", "show"]);

/** `stash list` and `stash show` read; every other form (a bare `stash` is `push`) writes. */
export function writes(args: readonly string[]): boolean {
  return !READ_SUBCOMMANDS.has(args[0] ?? "");
}

const USAGE =
  "git stash list [<log-options>]\n   or: git stash show [-u | --include-untracked | --only-untracked] [<diff-options>] [<stash>]\n   or: git stash drop [-q | --quiet] [<stash>]\n   or: git stash pop [--index] [-q | --quiet] [<stash>]\n   or: git stash apply [--index] [-q | --quiet] [<stash>]\n   or: git stash push [-u | --include-untracked] [-m | --message <message>] [--] [<pathspec>...]\n   or: git stash clear";

type Person = { name: string; email: string; timestamp: number; timezoneOffset: number };

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const sub = args[0] && !args[0].startsWith("-") ? args[0] : "push";
  const rest = args[0] && !args[0].startsWith("-") ? args.slice(1) : args;
  switch (sub) {
    case "push":
      return stashPush(ctx, rest);
    case "save":
      return stashPush(ctx, saveArgs(rest));
    case "list":
      return stashList(ctx);
    case "show":
      return stashShow(ctx, rest);
    case "apply":
      return stashApply(ctx, rest, false);
    case "pop":
      return stashApply(ctx, rest, true);
    case "drop":
      return stashDrop(ctx, rest);
    case "clear":
      await writeReflog(ctx, []);
      return 0;
    default:
      throw new GitError(`error: unknown subcommand: \`${sub}'\nusage: ${USAGE}\n`, 129);
  }
}

function saveArgs(rest: string[]): string[] {
  const flags = rest.filter((r) => r.startsWith("-"));
  const words = rest.filter((r) => !r.startsWith("-"));
  return words.length > 0 ? [...flags, "-m", words.join(" ")] : flags;
}

const sig = (p: Person) => `${p.name} <${p.email}> ${p.timestamp} ${formatTz(p.timezoneOffset)}`;

async function stashPush(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-u", "--include-untracked", "-k", "--keep-index", "--no-keep-index", "-q", "--quiet", "-a", "--all"],
    value: ["-m", "--message"],
    alias: { "--include-untracked": "-u", "--keep-index": "-k", "--quiet": "-q", "--message": "-m", "--all": "-a" },
    usage: USAGE,
  });
  if (a.positionals.length > 0 || (a.afterDashDash?.length ?? 0) > 0) throw fatal("stash push with pathspecs is not supported in this shell");
  await assertResolved(ctx, "");
  const head = await ctx.repo.headOid();
  if (head === null) throw fatal("You do not have the initial commit yet");
  const entries = await ctx.work.status();
  const tracked = entries.filter((e) => e.index !== "?" && (e.index !== " " || e.worktree !== " "));
  const includeUntracked = a.has("-u") || a.has("-a");
  const untracked = includeUntracked ? entries.filter((e) => e.index === "?").map((e) => e.path) : [];
  if (tracked.length === 0 && untracked.length === 0) {
    ctx.io.out("No local changes to save\n");
    return 0;
  }
  const branch = (await ctx.repo.branch()) ?? "(no branch)";
  const subject = `${head.slice(0, 7)} ${await ctx.repo.commitSubject(head)}`;
  const c = await ctx.repo.identity("committer");
  const au = await ctx.repo.identity("author");
  const committer: Person = { name: c.name, email: c.email, timestamp: c.timestamp, timezoneOffset: c.timezoneOffset };
  const author: Person = { name: au.name, email: au.email, timestamp: au.timestamp, timezoneOffset: au.timezoneOffset };

  // I: the index.
  const index = await ctx.work.index();
  const iTree = await buildTree(ctx, index);
  const iOid = await git.writeCommit({ ...ctx.repo.iso, commit: { tree: iTree, parent: [head], author, committer, message: `index on ${branch}: ${subject}` } });
  // W: the tracked work tree.
  const work = await ctx.work.tree();
  for (const [, e] of work) await ensureBlob(ctx, e.oid);
  const wTree = await buildTree(ctx, work);
  // U: untracked files (no parents).
  const parents = [head, iOid];
  if (untracked.length > 0) {
    const uMap: TreeMap = new Map();
    for (const p of untracked) {
      const bytes = await ctx.work.read(p);
      if (bytes === null) continue;
      const oid = await git.writeBlob({ ...ctx.repo.iso, blob: bytes });
      uMap.set(p, { oid, mode: (await ctx.work.modeOf(p)) ?? 0o100644 });
    }
    const uTree = await buildTree(ctx, uMap);
    parents.push(await git.writeCommit({ ...ctx.repo.iso, commit: { tree: uTree, parent: [], author, committer, message: `untracked files on ${branch}: ${subject}` } }));
  }
  const m = a.get("-m");
  const title = m !== undefined ? `On ${branch}: ${m}` : `WIP on ${branch}: ${subject}`;
  // git writes the stash commit's message without a final newline; isomorphic-git's
  // writeCommit would add one, so this object is serialised by hand.
  const raw = `tree ${wTree}\n${parents.map((p) => `parent ${p}\n`).join("")}author ${sig(author)}\ncommitter ${sig(committer)}\n\n${title}`;
  const wOid = await git.writeObject({ ...ctx.repo.iso, type: "commit", object: new TextEncoder().encode(raw), format: "content" });
  await pushStashRef(ctx, wOid, title, committer);

  // Back to HEAD (keeping the index with --keep-index), untracked stashed files removed.
  await applyTree(ctx, head);
  if (a.has("-k")) {
    for (const [p, e] of index) {
      await ctx.work.write(p, e);
      await git.add({ ...ctx.repo.iso, filepath: p, force: true });
    }
    ctx.work.invalidate();
  }
  for (const p of untracked) await ctx.work.remove(p);
  ctx.work.invalidate();
  if (!a.has("-q")) ctx.io.out(`Saved working directory and index state ${title}\n`);
  return 0;
}

async function ensureBlob(ctx: GitContext, oid: string): Promise<void> {
  const bytes = ctx.repo.blobBytes.get(oid);
  if (!bytes) return; // already in the object store (came from the index)
  await git.writeBlob({ ...ctx.repo.iso, blob: bytes });
}

async function readReflog(ctx: GitContext): Promise<string[]> {
  try {
    const text = String(await ctx.repo.fs.promises.readFile(`${ctx.repo.gitdir}/logs/refs/stash`, "utf8"));
    return text.split("\n").filter((l) => l.trim() !== "");
  } catch {
    return [];
  }
}

function ignoreMissing(err: unknown): void {
  const code = (err as { code?: string } | null)?.code;
  if (code !== "ENOENT" && code !== "NotFoundError") throw err;
}

async function writeReflog(ctx: GitContext, lines: string[]): Promise<void> {
  const path = `${ctx.repo.gitdir}/logs/refs/stash`;
  if (lines.length === 0) {
    // Already gone is fine; a refusal (a read-only fs) is not, or `stash clear` would claim success.
    await ctx.repo.fs.promises.unlink(path).catch(ignoreMissing);
    await git.deleteRef({ ...ctx.repo.iso, ref: "refs/stash" }).catch(ignoreMissing);
    return;
  }
  await mkdirp(ctx, `${ctx.repo.gitdir}/logs/refs`);
  await ctx.repo.fs.promises.writeFile(path, lines.join("\n") + "\n");
  const top = /^[0-9a-f]{40} ([0-9a-f]{40})/.exec(lines[lines.length - 1]!)![1]!;
  await git.writeRef({ ...ctx.repo.iso, ref: "refs/stash", value: top, force: true });
}

async function mkdirp(ctx: GitContext, abs: string): Promise<void> {
  let cur = "";
  for (const p of abs.split("/").filter(Boolean)) {
    cur += "/" + p;
    try {
      await ctx.repo.fs.promises.mkdir(cur);
    } catch {
      // exists
    }
  }
}

async function pushStashRef(ctx: GitContext, oid: string, message: string, who: Person): Promise<void> {
  const lines = await readReflog(ctx);
  const prev = lines.length > 0 ? (/^[0-9a-f]{40} ([0-9a-f]{40})/.exec(lines[lines.length - 1]!)?.[1] ?? ZERO_OID) : ZERO_OID;
  lines.push(`${prev} ${oid} ${sig(who)}\t${message}`);
  await writeReflog(ctx, lines);
}

function stashIndex(spec: string | undefined): number {
  if (spec === undefined) return 0;
  const m = /^(?:stash@\{(\d+)\}|(\d+))$/.exec(spec);
  if (!m) throw fatal(`'${spec}' is not a stash-like commit`);
  return Number(m[1] ?? m[2]);
}

async function stashList(ctx: GitContext): Promise<number> {
  (await ctx.repo.stashEntries()).forEach((e, i) => ctx.io.out(`stash@{${i}}: ${e.message}\n`));
  return 0;
}

async function getEntry(ctx: GitContext, spec: string | undefined): Promise<{ n: number; oid: string; message: string }> {
  const entries = await ctx.repo.stashEntries();
  if (entries.length === 0) throw new GitError("No stash entries found.\n", 1);
  const n = stashIndex(spec);
  const e = entries[n];
  if (!e) throw new GitError(`error: stash@{${n}} is not a valid reference\n`, 1);
  return { n, ...e };
}

async function stashShow(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-p", "--patch", "--stat", "-u", "--include-untracked", "--name-only", "--name-status"],
    alias: { "--patch": "-p", "--include-untracked": "-u" },
    usage: USAGE,
  });
  const e = await getEntry(ctx, a.positionals[0]);
  const { commit } = await git.readCommit({ ...ctx.repo.iso, oid: e.oid });
  const base = await ctx.repo.treeOf(commit.parent[0]!);
  const work = new Map(await ctx.repo.treeOf(e.oid));
  if (a.has("-u") && commit.parent[2]) for (const [p, v] of await ctx.repo.treeOf(commit.parent[2])) work.set(p, v);
  const changes = diffTrees(base, work);
  const diffs = await fileDiffs(ctx, changes);
  if (a.has("-p")) {
    if (a.has("--stat")) ctx.io.out(formatStatLines(diffs) + "\n");
    for (const d of diffs) ctx.io.out(patchText(ctx, d));
  } else if (a.has("--name-only")) ctx.io.out(changes.map((c) => c.path + "\n").join(""));
  else ctx.io.out(formatStatLines(diffs));
  return 0;
}

async function stashApply(ctx: GitContext, args: string[], pop: boolean): Promise<number> {
  const a = parseArgs(args, { bool: ["--index", "-q", "--quiet"], alias: { "--quiet": "-q" }, usage: USAGE });
  const e = await getEntry(ctx, a.positionals[0]);
  const { commit } = await git.readCommit({ ...ctx.repo.iso, oid: e.oid });
  const [baseOid, iOid, uOid] = commit.parent;
  if (!baseOid || !iOid) throw fatal(`'${e.oid}' is not a stash-like commit`);
  const base = await ctx.repo.treeOf(baseOid);
  const stashedWork = await ctx.repo.treeOf(e.oid);
  const stashedIndex = await ctx.repo.treeOf(iOid);
  const untracked = uOid ? await ctx.repo.treeOf(uOid) : new Map();
  const work = await ctx.work.tree();
  const index = await ctx.work.index();

  // Refuse before changing anything: local edits to files the stash changes, untracked files
  // in the way of stashed untracked files. (No three-way merge.)
  const changes = diffTrees(base, stashedWork, undefined, false);
  const same = (x?: { oid: string }, y?: { oid: string }) => (x?.oid ?? null) === (y?.oid ?? null);
  const conflicts: string[] = [];
  for (const c of changes) {
    const cur = work.get(c.path);
    const b = base.get(c.path);
    if (!same(cur, b) && !same(cur, stashedWork.get(c.path))) conflicts.push(c.path);
    else if (!same(index.get(c.path), b) && !same(index.get(c.path), stashedWork.get(c.path)) && !same(index.get(c.path), stashedIndex.get(c.path))) conflicts.push(c.path);
  }
  if (conflicts.length > 0) {
    throw new GitError(
      `error: Your local changes to the following files would be overwritten by merge:\n${conflicts.map((p) => `\t${ctx.work.display(p)}\n`).join("")}Please commit your changes or stash them before you merge.\nAborting\n`,
      1,
    );
  }
  const blocked: string[] = [];
  for (const p of untracked.keys()) if ((await ctx.work.read(p)) !== null) blocked.push(p);
  if (blocked.length > 0) {
    throw new GitError(`${blocked.map((p) => `${ctx.work.display(p)} already exists, no checkout\n`).join("")}error: could not restore untracked files from stash\n`, 1);
  }

  for (const c of changes) {
    if (c.new) await ctx.work.write(c.path, c.new);
    else await ctx.work.remove(c.path);
  }
  for (const [p, entry] of untracked) await ctx.work.write(p, entry);
  // Index: with --index restore it exactly; otherwise only newly added files stay added.
  if (a.has("--index")) {
    for (const c of diffTrees(base, stashedIndex, undefined, false)) {
      if (c.new) {
        const cur = await ctx.work.read(c.path);
        if (cur !== null && (await git.hashBlob({ object: cur })).oid === c.new.oid) await git.add({ ...ctx.repo.iso, filepath: c.path, force: true });
        else await stageBlob(ctx, c.path, c.new);
      } else await git.remove({ ...ctx.repo.iso, filepath: c.path });
    }
  } else {
    for (const [p] of stashedIndex) {
      if (!base.has(p) && stashedWork.has(p)) await git.add({ ...ctx.repo.iso, filepath: p, force: true });
    }
  }
  ctx.work.invalidate();
  if (!a.has("-q")) ctx.io.out(await longStatus(ctx, await statusData(ctx)));
  if (pop) await dropEntry(ctx, e.n, e.oid, a.positionals[0] !== undefined ? `stash@{${e.n}}` : "refs/stash@{0}", a.has("-q"));
  return 0;
}

/** Stage a blob that differs from the work tree: write it, stage it, put the work tree back. */
async function stageBlob(ctx: GitContext, path: string, entry: { oid: string; mode: number }): Promise<void> {
  const current = await ctx.work.read(path);
  await ctx.work.write(path, entry);
  await git.add({ ...ctx.repo.iso, filepath: path, force: true });
  if (current !== null) await ctx.work.wsfs.writeFile(path, current, { origin: "git" });
}

async function stashDrop(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, { bool: ["-q", "--quiet"], alias: { "--quiet": "-q" }, usage: USAGE });
  const e = await getEntry(ctx, a.positionals[0]);
  await dropEntry(ctx, e.n, e.oid, a.positionals[0] !== undefined ? `stash@{${e.n}}` : "refs/stash@{0}", a.has("-q"));
  return 0;
}

async function dropEntry(ctx: GitContext, n: number, oid: string, shown: string, quiet: boolean): Promise<void> {
  const lines = await readReflog(ctx);
  // Reflog lines are oldest first; stash@{n} is the n-th from the end.
  lines.splice(lines.length - 1 - n, 1);
  // Keep the "old" column consistent after removing an entry.
  for (let i = 0; i < lines.length; i++) {
    const prev = i === 0 ? ZERO_OID : lines[i - 1]!.slice(41, 81);
    lines[i] = prev + lines[i]!.slice(40);
  }
  await writeReflog(ctx, lines);
  if (!quiet) ctx.io.out(`Dropped ${shown} (${oid})\n`);
}
