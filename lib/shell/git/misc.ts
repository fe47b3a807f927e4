/** git rev-parse, ls-files, blame, grep, tag, init, config, cat-file. */
import { diffArrays } from "diff";
import git from "isomorphic-git";
import type { GitContext } from "./context";
import { collapseUntracked } from "./status";
import { breToJs, cquote, decodeText, fatal, formatIsoDate, GitError, pathspecToRegExp, isBinary, parseArgs } from "./util";

// ---- rev-parse --------------------------------------------------------------------------------

export async function cmdRevParse(ctx: GitContext, args: string[]): Promise<number> {
  let abbrevRef = false;
  let short: number | null = null;
  let verify = false;
  let quiet = false;
  for (const arg of args) {
    if (arg === "--abbrev-ref" || arg === "--abbrev-ref=strict" || arg === "--abbrev-ref=loose") abbrevRef = true;
    else if (arg === "--short") short = 7;
    else if (arg.startsWith("--short=")) short = Math.max(4, Math.min(40, Number(arg.slice(8)) || 7));
    else if (arg === "--verify") verify = true;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg === "--show-toplevel") ctx.out(ctx.toplevel + "\n");
    else if (arg === "--show-prefix") ctx.out(ctx.cwdRel === "" ? "\n" : ctx.cwdRel + "/\n");
    else if (arg === "--show-cdup") ctx.out(ctx.cwdRel === "" ? "\n" : ctx.cwdRel.split("/").map(() => "..").join("/") + "/\n");
    else if (arg === "--git-dir") ctx.out(ctx.cwdRel === "" ? ".git\n" : ctx.shellPath(".git") + "\n");
    else if (arg === "--absolute-git-dir") ctx.out(ctx.shellPath(".git") + "\n");
    else if (arg === "--git-common-dir") ctx.out(".git\n");
    else if (arg === "--is-inside-work-tree") ctx.out("true\n");
    else if (arg === "--is-inside-git-dir" || arg === "--is-bare-repository" || arg === "--is-shallow-repository") ctx.out("false\n");
    else if (arg === "--symbolic-full-name") abbrevRef = false;
    else if (arg === "--") continue;
    else if (arg.startsWith("-")) {
      if (verify) throw fatal("Needed a single revision");
      ctx.out(arg + "\n");
    } else {
      if (abbrevRef) {
        const m = /^(.*?)((?:[~^]\d*)*)$/.exec(arg)!;
        if ((m[1] === "HEAD" || m[1] === "@") && m[2] === "") {
          const b = await ctx.branch();
          if (b === null && (await ctx.headOid()) === null) throw fatal(`ambiguous argument 'HEAD': unknown revision or path not in the working tree.`);
          ctx.out((b ?? "HEAD") + "\n");
          continue;
        }
        if (await ctx.branchExists(arg)) {
          ctx.out(arg + "\n");
          continue;
        }
      }
      const oid = await revParseOne(ctx, arg);
      if (oid === null) {
        if (verify) {
          if (quiet) return 1;
          throw fatal("Needed a single revision");
        }
        throw fatal(`ambiguous argument '${arg}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`);
      }
      ctx.out((short !== null ? oid.slice(0, short) : oid) + "\n");
    }
  }
  return 0;
}

async function revParseOne(ctx: GitContext, spec: string): Promise<string | null> {
  const peel = /^(.*)\^\{(tree|commit|object|)\}$/.exec(spec);
  if (peel) {
    const c = await ctx.tryResolveCommit(peel[1]!);
    if (c === null) return null;
    if (peel[2] === "tree") return (await git.readCommit({ ...ctx.a, oid: c })).commit.tree;
    return c;
  }
  const colon = spec.indexOf(":");
  if (colon > 0) {
    const c = await ctx.tryResolveCommit(spec.slice(0, colon));
    if (c === null) return null;
    const path = spec.slice(colon + 1);
    if (path === "") return (await git.readCommit({ ...ctx.a, oid: c })).commit.tree;
    return (await ctx.treeOf(c)).get(path)?.oid ?? null;
  }
  // Tags resolve to the tag object itself (not peeled), like git.
  if (!/[~^]/.test(spec)) {
    try {
      const ref = await git.expandRef({ ...ctx.a, ref: spec });
      if (ref.startsWith("refs/tags/")) return await git.resolveRef({ ...ctx.a, ref });
    } catch {
      // not a ref
    }
  }
  return ctx.tryResolveCommit(spec);
}

// ---- ls-files ---------------------------------------------------------------------------------

export async function cmdLsFiles(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-c", "--cached", "-m", "--modified", "-d", "--deleted", "-o", "--others", "-s", "--stage", "--exclude-standard", "-z", "--full-name", "--directory", "-i", "--ignored", "-t"],
    value: ["-x", "--exclude"],
    alias: { "--cached": "-c", "--modified": "-m", "--deleted": "-d", "--others": "-o", "--stage": "-s", "--ignored": "-i" },
    usage: "git ls-files [<options>] [<file>...]",
  });
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  const underCwd = (p: string) => ctx.cwdRel === "" || p.startsWith(ctx.cwdRel + "/");
  const match = specs.length > 0 ? ctx.pathspec(specs) : underCwd;
  const name = (p: string) => (a.has("--full-name") ? p : ctx.display(p));
  const show = (p: string) => (a.has("-z") ? name(p) : cquote(name(p)));
  const end = a.has("-z") ? "\0" : "\n";
  const cached = a.has("-c") || !(a.has("-m") || a.has("-d") || a.has("-o") || a.has("-i"));
  const index = await ctx.index();
  const lines: string[] = [];
  const tag = (t: string) => (a.has("-t") ? t + " " : "");
  if (cached || a.has("-s")) {
    for (const [p, e] of index) {
      if (!match(p)) continue;
      lines.push(a.has("-s") ? `${e.mode.toString(8)} ${e.oid} 0\t${show(p)}` : tag("H") + show(p));
    }
  }
  if (a.has("-d") || a.has("-m")) {
    for (const e of await ctx.status()) {
      if (e.index === "?" || !match(e.path)) continue;
      if (a.has("-d") && e.worktree === "D") lines.push(tag("R") + show(e.path));
      if (a.has("-m") && (e.worktree === "M" || e.worktree === "D")) lines.push(tag("C") + show(e.path));
    }
  }
  if (a.has("-o")) {
    let others = (await ctx.status()).filter((e) => e.index === "?").map((e) => e.path);
    if (a.has("--directory")) others = await collapseUntracked(ctx, others);
    for (const p of others) if (match(p.replace(/\/$/, ""))) lines.push(tag("?") + show(p));
  }
  if (lines.length > 0) ctx.out(lines.join(end) + end);
  return 0;
}

// ---- blame ------------------------------------------------------------------------------------

function splitLines(text: string): string[] {
  if (text === "") return [];
  const l = text.split("\n");
  if (l[l.length - 1] === "") l.pop();
  return l;
}

/** For each line of `a`, the index of the same line in `b` (LCS), or -1. */
function mapLines(a: string[], b: string[]): number[] {
  const out = new Array<number>(a.length).fill(-1);
  let ia = 0;
  let ib = 0;
  for (const p of diffArrays(b, a)) {
    const n = p.count ?? p.value.length;
    if (p.added) ia += n;
    else if (p.removed) ib += n;
    else {
      for (let k = 0; k < n; k++) out[ia + k] = ib + k;
      ia += n;
      ib += n;
    }
  }
  return out;
}

function parseRange(spec: string, total: number): [number, number] {
  const m = /^(\d+)?(?:,(\+?)(\d+))?$/.exec(spec);
  if (!m) throw fatal(`invalid -L argument '${spec}'`);
  const start = Math.max(1, Number(m[1] ?? 1));
  let end = total;
  if (m[3] !== undefined) end = m[2] ? start + Number(m[3]) - 1 : Number(m[3]);
  return [start, Math.min(total, end)];
}

export async function cmdBlame(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-s", "-e", "--show-email", "-l", "-t", "-f", "--show-name", "-n", "--show-number", "-p", "--porcelain", "-c", "--root"],
    value: ["-L"],
    alias: { "--show-email": "-e", "--show-name": "-f", "--show-number": "-n", "--porcelain": "-p" },
    usage: "git blame [<options>] [<rev-opts>] [<rev>] [--] <file>",
  });
  const pos = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (pos.length === 0) throw new GitError("usage: git blame [<options>] [<rev-opts>] [<rev>] [--] <file>\n", 129);
  const rev = pos.length >= 2 ? pos[0]! : null;
  const file = pos.length >= 2 ? pos[1]! : pos[0]!;
  const rel = ctx.repoPath(file);
  const start = rev === null ? await ctx.headOid() : await ctx.resolveCommit(rev);
  if (start === null) throw fatal(`no such path '${file}' in HEAD`);

  // The version being blamed: the work tree (uncommitted lines blamed on nobody) or <rev>'s.
  let text: string;
  if (rev === null) {
    const bytes = await ctx.readWorktree(rel);
    if (bytes === null) throw fatal(`no such path '${file}' in HEAD`);
    if (!(await ctx.treeOf(start)).has(rel) && !(await ctx.index()).has(rel)) throw fatal(`no such path '${file}' in HEAD`);
    text = decodeText(bytes);
  } else {
    const e = (await ctx.treeOf(start)).get(rel);
    if (!e) throw fatal(`no such path ${rel} in ${rev}`);
    text = decodeText(await ctx.readBlob(e.oid));
  }
  const lines = splitLines(text);
  const blame: ({ oid: string; origLine: number } | null)[] = lines.map(() => null);

  // Map the blamed lines onto the starting commit's version, then walk first parents handing
  // unchanged lines down; a line stops at the commit whose parent lacks it.
  let current: { oid: string; lines: string[]; idx: number[] } | null;
  {
    const headEntry = (await ctx.treeOf(start)).get(rel);
    const headLines = headEntry ? splitLines(decodeText(await ctx.readBlob(headEntry.oid))) : [];
    const map = mapLines(lines, headLines);
    const idx: number[] = [];
    map.forEach((m, i) => {
      if (m !== -1) idx[m] = i;
    });
    current = { oid: start, lines: headLines, idx };
  }
  while (current) {
    const cur: { oid: string; lines: string[]; idx: number[] } = current;
    const { commit } = await git.readCommit({ ...ctx.a, oid: cur.oid });
    const parent = commit.parent[0];
    let parentLines: string[] = [];
    let parentHas = false;
    if (parent) {
      const pe = (await ctx.treeOf(parent)).get(rel);
      if (pe) {
        parentHas = true;
        parentLines = splitLines(decodeText(await ctx.readBlob(pe.oid)));
      }
    }
    const map = parentHas ? mapLines(cur.lines, parentLines) : cur.lines.map(() => -1);
    const nextIdx: number[] = [];
    let pending = false;
    cur.lines.forEach((_, j) => {
      const out = cur.idx[j];
      if (out === undefined) return;
      const m = map[j];
      if (m === undefined || m === -1 || !parent) blame[out] = { oid: cur.oid, origLine: j };
      else {
        nextIdx[m] = out;
        pending = true;
      }
    });
    current = pending && parent ? { oid: parent, lines: parentLines, idx: nextIdx } : null;
  }

  // Format like git's default output.
  const commits = new Map<string, { author: string; email: string; ts: number; tz: number; boundary: boolean }>();
  for (const b of blame) {
    if (!b || commits.has(b.oid)) continue;
    const { commit } = await git.readCommit({ ...ctx.a, oid: b.oid });
    commits.set(b.oid, { author: commit.author.name, email: commit.author.email, ts: commit.author.timestamp, tz: commit.author.timezoneOffset, boundary: commit.parent.length === 0 });
  }
  const now = Math.floor(Date.now() / 1000);
  const who = (b: (typeof blame)[number]) => (b ? commits.get(b.oid)! : { author: "Not Committed Yet", email: "not.committed.yet", ts: now, tz: 0, boundary: false });
  const authorText = (b: (typeof blame)[number]) => (a.has("-e") ? `<${who(b).email}>` : who(b).author);
  const authorWidth = Math.max(...blame.map((b) => authorText(b).length), 0);
  const numWidth = String(lines.length).length;
  const range = a.get("-L") ? parseRange(a.get("-L")!, lines.length) : [1, lines.length];
  if (a.has("-p")) {
    for (let i = range[0]! - 1; i < range[1]!; i++) {
      const b = blame[i];
      const w = who(b);
      ctx.out(
        `${b ? b.oid : "0".repeat(40)} ${(b?.origLine ?? i) + 1} ${i + 1}\nauthor ${w.author}\nauthor-mail <${w.email}>\nauthor-time ${w.ts}\nauthor-tz ${formatIsoDate(w.ts, w.tz).slice(-5)}\nfilename ${rel}\n\t${lines[i]}\n`,
      );
    }
    return 0;
  }
  for (let i = range[0]! - 1; i < range[1]!; i++) {
    const b = blame[i];
    const w = who(b);
    const id = b ? (w.boundary && !a.has("--root") ? "^" + b.oid.slice(0, 7) : b.oid.slice(0, 8)) : "00000000";
    const idText = a.has("-l") ? (b ? (w.boundary ? "^" : "") + b.oid : "0".repeat(40)) : id;
    const date = a.has("-t") ? `${w.ts} ${formatIsoDate(w.ts, w.tz).slice(-5)}` : formatIsoDate(w.ts, w.tz);
    const fname = a.has("-f") ? ` ${rel}` : "";
    const orig = a.has("-n") ? ` ${String((b?.origLine ?? i) + 1)}` : "";
    if (a.has("-s")) ctx.out(`${idText}${fname}${orig} ${String(i + 1).padStart(numWidth)}) ${lines[i]}\n`);
    else ctx.out(`${idText}${fname}${orig} (${authorText(b).padEnd(authorWidth)} ${date} ${String(i + 1).padStart(numWidth)}) ${lines[i]}\n`);
  }
  return 0;
}

// ---- grep -------------------------------------------------------------------------------------

export async function cmdGrep(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: [
      "-n", "--line-number", "-i", "--ignore-case", "-l", "--files-with-matches", "-L", "--files-without-match", "-c", "--count",
      "-w", "--word-regexp", "-v", "--invert-match", "-E", "--extended-regexp", "-F", "--fixed-strings", "-G", "--basic-regexp",
      "-P", "--perl-regexp", "-h", "-H", "-q", "--quiet", "--cached", "-I", "--untracked", "--no-index", "--full-name", "-o",
      "--only-matching", "--column",
    ],
    value: ["-e", "-A", "-B", "-C", "--max-depth"],
    alias: {
      "--line-number": "-n", "--ignore-case": "-i", "--files-with-matches": "-l", "--files-without-match": "-L", "--count": "-c",
      "--word-regexp": "-w", "--invert-match": "-v", "--extended-regexp": "-E", "--fixed-strings": "-F", "--basic-regexp": "-G",
      "--perl-regexp": "-P", "--quiet": "-q", "--only-matching": "-o",
    },
    usage: "git grep [<options>] [-e] <pattern> [<rev>...] [[--] <path>...]",
  });
  const pos = [...a.positionals];
  const patterns = a.all("-e");
  if (patterns.length === 0) {
    if (pos.length === 0) throw fatal("no pattern given");
    patterns.push(pos.shift()!);
  }
  let revOid: string | null = null;
  let revName = "";
  const onDisk = async (p: string) =>
    ctx.fs.promises.lstat(ctx.abs(ctx.repoPath(p))).then(
      () => true,
      () => false,
    );
  if (pos.length > 0 && (await ctx.tryResolveCommit(pos[0]!)) && (a.afterDashDash !== null || !(await onDisk(pos[0]!)))) {
    revName = pos.shift()!;
    revOid = await ctx.resolveCommit(revName);
  }
  const paths = [...pos, ...(a.afterDashDash ?? [])];
  const flags = a.has("-i") ? "i" : "";
  const sources = patterns.map((p) => {
    let src = a.has("-F") ? p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : a.has("-E") || a.has("-P") ? p : breToJs(p);
    if (a.has("-w")) src = `(?<![A-Za-z0-9_])(?:${src})(?![A-Za-z0-9_])`;
    return src;
  });
  let re: RegExp;
  try {
    re = new RegExp(sources.map((s) => `(?:${s})`).join("|"), flags);
  } catch (err) {
    throw fatal(`command line, '${patterns[0]}': ${(err as Error).message}`);
  }
  const underCwd = (p: string) => ctx.cwdRel === "" || p.startsWith(ctx.cwdRel + "/");
  const match = paths.length > 0 ? ctx.pathspec(paths) : underCwd;
  const files: { path: string; load: () => Promise<Uint8Array | null> }[] = [];
  if (revOid) {
    for (const [p, e] of await ctx.treeOf(revOid)) if (match(p)) files.push({ path: p, load: () => ctx.readBlob(e.oid) });
  } else if (a.has("--cached")) {
    for (const [p, e] of await ctx.index()) if (match(p)) files.push({ path: p, load: () => ctx.readBlob(e.oid) });
  } else {
    for (const p of (await ctx.index()).keys()) if (match(p)) files.push({ path: p, load: () => ctx.readWorktree(p) });
    if (a.has("--untracked")) {
      for (const e of await ctx.status()) if (e.index === "?" && match(e.path)) files.push({ path: e.path, load: () => ctx.readWorktree(e.path) });
    }
  }
  files.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  let found = false;
  const invert = a.has("-v");
  const ctxA = Number(a.get("-A") ?? a.get("-C") ?? 0);
  const ctxB = Number(a.get("-B") ?? a.get("-C") ?? 0);
  const revLabel = revOid ? `${revName}:` : "";
  for (const f of files) {
    const bytes = await f.load();
    if (bytes === null) continue;
    const name = revLabel + (a.has("--full-name") ? f.path : ctx.display(f.path));
    const shownName = a.has("-h") ? "" : name;
    if (isBinary(bytes)) {
      if (a.has("-I")) continue;
      if (re.test(decodeText(bytes)) !== invert) {
        found = true;
        if (a.has("-q")) return 0;
        if (a.has("-l")) ctx.out(cquote(name) + "\n");
        else if (!a.has("-L") && !a.has("-c")) ctx.out(`Binary file ${cquote(name)} matches\n`);
      }
      continue;
    }
    const lines = splitLines(decodeText(bytes));
    const hits: number[] = [];
    lines.forEach((l, i) => {
      if (re.test(l) !== invert) hits.push(i);
    });
    if (a.has("-L")) {
      if (hits.length === 0) {
        found = true;
        ctx.out(cquote(name) + "\n");
      }
      continue;
    }
    if (hits.length === 0) continue;
    found = true;
    if (a.has("-q")) return 0;
    if (a.has("-l")) {
      ctx.out(cquote(name) + "\n");
      continue;
    }
    if (a.has("-c")) {
      ctx.out(`${shownName ? cquote(shownName) + ":" : ""}${hits.length}\n`);
      continue;
    }
    const show = new Set<number>();
    for (const h of hits) for (let k = Math.max(0, h - ctxB); k <= Math.min(lines.length - 1, h + ctxA); k++) show.add(k);
    const hitSet = new Set(hits);
    let last = -2;
    for (const k of [...show].sort((x, y) => x - y)) {
      if ((ctxA || ctxB) && last !== -2 && k !== last + 1) ctx.out("--\n");
      last = k;
      const sep = hitSet.has(k) ? ":" : "-";
      const head = shownName ? cquote(shownName) + sep : "";
      const num = a.has("-n") ? `${k + 1}${sep}` : "";
      if (a.has("-o") && hitSet.has(k) && !invert) {
        for (const m of lines[k]!.matchAll(new RegExp(re.source, flags + "g"))) ctx.out(`${head}${num}${m[0]}\n`);
      } else ctx.out(`${head}${num}${lines[k]}\n`);
    }
  }
  return found ? 0 : 1;
}

// ---- tag --------------------------------------------------------------------------------------

export async function cmdTag(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-a", "--annotate", "-d", "--delete", "-f", "--force", "-l", "--list", "-s"],
    value: ["-m", "--message", "-F", "--file"],
    optional: ["-n", "--sort"],
    alias: { "--annotate": "-a", "--delete": "-d", "--force": "-f", "--list": "-l", "--message": "-m", "--file": "-F" },
    usage: "git tag [-a | -s | -u <key-id>] [-f] [-m <msg> | -F <file>] <tagname> [<head>]\n   or: git tag -d <tagname>...\n   or: git tag -l [-n[<num>]] [<pattern>...]",
  });
  const pos = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (a.has("-d")) {
    ctx.assertWritable("tag -d");
    let rc = 0;
    for (const name of pos) {
      let oid: string;
      try {
        oid = await git.resolveRef({ ...ctx.a, ref: `refs/tags/${name}` });
      } catch {
        ctx.err(`error: tag '${name}' not found.\n`);
        rc = 1;
        continue;
      }
      await git.deleteTag({ ...ctx.a, ref: name });
      ctx.out(`Deleted tag '${name}' (was ${oid.slice(0, 7)})\n`);
    }
    return rc;
  }
  if (a.has("-l") || a.has("-n") || pos.length === 0) {
    const patterns = pos.map((p) => pathspecToRegExp(p));
    const tags = (await git.listTags({ ...ctx.a })).filter((t) => patterns.length === 0 || patterns.some((re) => re.test(t))).sort();
    const n = a.get("-n");
    for (const t of tags) {
      if (n === undefined) {
        ctx.out(t + "\n");
        continue;
      }
      const oid = await git.resolveRef({ ...ctx.a, ref: `refs/tags/${t}` });
      const obj = await git.readObject({ ...ctx.a, oid, format: "parsed" });
      const msg = obj.type === "tag" || obj.type === "commit" ? (obj.object as { message: string }).message : "";
      const lines = msg.split("\n").filter((l, i, all) => i < Math.max(1, Number(n) || 1) && !(i === all.length - 1 && l === ""));
      ctx.out(`${t.padEnd(15)} ${lines.join("\n    ")}\n`);
    }
    return 0;
  }
  ctx.assertWritable("tag");
  const name = pos[0]!;
  const target = pos[1] ?? "HEAD";
  if (!/^[^\s~^:?*[\\]+$/.test(name) || name.startsWith("-")) throw fatal(`'${name}' is not a valid tag name.`);
  const oid = await ctx.resolveCommit(target);
  const exists = await git.resolveRef({ ...ctx.a, ref: `refs/tags/${name}` }).then(
    () => true,
    () => false,
  );
  if (exists && !a.has("-f")) throw fatal(`tag '${name}' already exists`);
  const message =
    a.all("-m").length > 0 ? a.all("-m").join("\n\n") : a.get("-F") !== undefined ? decodeText((await ctx.readWorktree(ctx.repoPath(a.get("-F")!))) ?? new Uint8Array()) : null;
  if (a.has("-a") || message !== null) {
    if (message === null) throw new GitError("error: no tag message given: use -m <msg> (this shell has no editor)\n", 1);
    const tagger = await ctx.identity("committer");
    // isomorphic-git adds the final newline itself.
    const text = message.replace(/\s+$/, "");
    if (exists) await git.deleteTag({ ...ctx.a, ref: name });
    await git.annotatedTag({ ...ctx.a, ref: name, object: oid, message: text, tagger, force: a.has("-f") });
  } else {
    await git.tag({ ...ctx.a, ref: name, object: oid, force: a.has("-f") });
  }
  return 0;
}

// ---- init -------------------------------------------------------------------------------------

export async function cmdInit(ctx: GitContext, args: string[]): Promise<number> {
  ctx.assertWritable("init");
  const a = parseArgs(args, {
    bool: ["-q", "--quiet", "--bare"],
    value: ["-b", "--initial-branch", "--template", "--separate-git-dir"],
    alias: { "--quiet": "-q", "--initial-branch": "-b" },
    usage: "git init [-q | --quiet] [--bare] [--template=<template-directory>] [--shared[=<permissions>]] [<directory>]",
  });
  if (a.has("--bare")) throw fatal("bare repositories are not supported in this shell");
  const target = a.positionals[0];
  if ((target !== undefined && ctx.repoPath(target) !== "") || (target === undefined && ctx.cwdRel !== "")) {
    throw fatal(`only the workspace root can be a repository here (try: cd ${ctx.toplevel} && git init)`);
  }
  const existed = await ctx.isRepo();
  await git.init({ ...ctx.a, defaultBranch: a.get("-b") ?? "main" });
  if (!a.has("-q")) ctx.out(`${existed ? "Reinitialized existing" : "Initialized empty"} Git repository in ${ctx.shellPath(".git")}/\n`);
  return 0;
}

// ---- config -----------------------------------------------------------------------------------

export async function cmdConfig(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["--global", "--local", "--system", "--get", "--get-all", "-l", "--list", "--unset", "--unset-all", "--add", "--bool", "--int", "--get-regexp", "--show-origin", "-z", "--replace-all"],
    value: ["-f", "--file", "--type", "--default"],
    alias: { "--list": "-l" },
    usage: "git config [<options>]",
  });
  const pos = a.positionals;
  if (a.has("-l")) {
    ctx.out(flattenConfig(await readConfigText(ctx)).map(([k, v]) => `${k}=${v}\n`).join(""));
    return 0;
  }
  if (a.has("--get-regexp")) {
    const re = new RegExp(pos[0] ?? ".", "i");
    const rows = flattenConfig(await readConfigText(ctx)).filter(([k]) => re.test(k));
    ctx.out(rows.map(([k, v]) => `${k} ${v}\n`).join(""));
    return rows.length > 0 ? 0 : 1;
  }
  if (pos.length === 0) throw new GitError(`usage: git config [<options>]\n`, 129);
  const key = pos[0]!;
  if (!/^[A-Za-z][\w-]*(\.[^\n]*)?\.[A-Za-z][\w-]*$/.test(key)) throw new GitError(`error: key does not contain a section: ${key}\n`, 2);
  if (a.has("--unset") || a.has("--unset-all")) {
    ctx.assertWritable("config --unset");
    if ((await git.getConfig({ ...ctx.a, path: key })) === undefined) return 5;
    await git.setConfig({ ...ctx.a, path: key, value: undefined });
    return 0;
  }
  if (pos.length === 1 || a.has("--get") || a.has("--get-all")) {
    if (a.has("--get-all")) {
      const all = await git.getConfigAll({ ...ctx.a, path: key });
      if (all.length === 0) return 1;
      ctx.out(all.map((v) => `${v}\n`).join(""));
      return 0;
    }
    const v = await git.getConfig({ ...ctx.a, path: key });
    if (v === undefined || v === null) {
      if (a.get("--default") !== undefined) {
        ctx.out(a.get("--default") + "\n");
        return 0;
      }
      return 1;
    }
    ctx.out(`${v}\n`);
    return 0;
  }
  ctx.assertWritable("config");
  await git.setConfig({ ...ctx.a, path: key, value: pos.slice(1).join(" "), append: a.has("--add") });
  return 0;
}

async function readConfigText(ctx: GitContext): Promise<string> {
  try {
    return String(await ctx.fs.promises.readFile(`${ctx.gitdir}/config`, "utf8"));
  } catch {
    return "";
  }
}

function flattenConfig(text: string): [string, string][] {
  const out: [string, string][] = [];
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const sec = /^\[([^\s\]"]+)(?:\s+"(.*)")?\]$/.exec(line);
    if (sec) {
      section = sec[2] !== undefined ? `${sec[1]!.toLowerCase()}.${sec[2]}` : sec[1]!.toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][\w-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (kv) out.push([`${section}.${kv[1]!.toLowerCase()}`, (kv[2] ?? "true").replace(/^"(.*)"$/, "$1")]);
  }
  return out;
}

// ---- cat-file ---------------------------------------------------------------------------------

export async function cmdCatFile(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, { bool: ["-p", "-t", "-s", "-e"], usage: "git cat-file (-t | -s | -e | -p | <type>) <object>" });
  const spec = a.positionals[a.positionals.length - 1];
  if (!spec) throw new GitError("usage: git cat-file (-t | -s | -e | -p | <type>) <object>\n", 129);
  // An object name first: revParseOne peels to a commit and so refuses blob and tree names.
  const oid = (/^[0-9a-f]{4,40}$/.test(spec) ? await ctx.expandOid(spec) : null) ?? (await revParseOne(ctx, spec)) ?? (await ctx.expandOid(spec));
  if (!oid) {
    if (a.has("-e")) return 1;
    throw fatal(`Not a valid object name ${spec}`);
  }
  const obj = await git.readObject({ ...ctx.a, oid, format: "content" });
  const bytes = obj.object as Uint8Array;
  // A blob stored at a path hidden from this shell is as absent as the path.
  if (obj.type === "blob" && ctx.hidden && (await ctx.hiddenBlobOids()).has(oid)) {
    if (a.has("-e")) return 1;
    throw fatal(`Not a valid object name ${spec} (it holds the contents of a path hidden from this shell)`);
  }
  if (a.has("-e")) return 0;
  if (a.has("-t")) ctx.out(obj.type + "\n");
  else if (a.has("-s")) ctx.out(bytes.length + "\n");
  else if (obj.type === "tree") {
    const { tree } = await git.readTree({ ...ctx.a, oid });
    for (const e of tree) if (!ctx.hidden?.ruleFor(e.path)) ctx.out(`${e.mode.padStart(6, "0")} ${e.type} ${e.oid}\t${e.path}\n`);
  } else ctx.outBytes(bytes);
  return 0;
}
