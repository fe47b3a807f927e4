/**
 * Walking and rendering commits (headers, --format, --graph, per-commit diffs): shared by log
 * and show.
 */
import git, { type CommitObject } from "isomorphic-git";
import { EMPTY_TREE, type GitContext } from "./context";
import { type Change, diffTrees, fileDiffs, formatNameOnly, formatNameStatus, formatNumstat, formatShortStat, formatStatLines, patchText } from "./diff";
import { DEFAULT_DATE, type DateMode, formatDate } from "./date-format";
import { fatal, formatIsoDate, formatRelative, formatTz, parseArgs } from "./util";

export type Commit = { oid: string; commit: CommitObject };

/** `date`: --date's mode, for the Date lines and %ad / %cd (the other %a?/%c? keep their own). */
type Format = ({ kind: "medium" | "short" | "full" | "fuller" | "oneline" | "raw" } | { kind: "format"; template: string; terminator: boolean }) & { date?: DateMode };

type DiffMode = { patch: boolean; stat: boolean; shortstat: boolean; numstat: boolean; nameOnly: boolean; nameStatus: boolean };

export const LOG_USAGE = "git log [<options>] [<revision-range>] [[--] <path>...]";

export function parseFormat(value: string, oneline: boolean): Format {
  if (oneline) return { kind: "oneline" };
  const v = value;
  if (v === "" || v === "medium") return { kind: "medium" };
  if (v === "oneline" || v === "short" || v === "full" || v === "fuller" || v === "raw") return { kind: v };
  if (v.startsWith("format:")) return { kind: "format", template: v.slice(7), terminator: false };
  if (v.startsWith("tformat:")) return { kind: "format", template: v.slice(8), terminator: true };
  if (v.includes("%")) return { kind: "format", template: v, terminator: true };
  throw fatal(`invalid --pretty format: ${v}`);
}

/** Commits reachable from `include` but not from `exclude`, newest (committer date) first. */
export async function walkCommits(ctx: GitContext, include: string[], exclude: string[]): Promise<AsyncGenerator<Commit>> {
  const shallow = await shallowCommits(ctx);
  // A shallow clone's boundary commits have their parents cut off, as git treats them.
  const parents = (c: Commit["commit"], oid: string) => (shallow.has(oid) ? [] : c.parent);
  const hidden = new Set<string>();
  if (exclude.length > 0) {
    const stack = [...exclude];
    while (stack.length > 0) {
      const oid = stack.pop()!;
      if (hidden.has(oid)) continue;
      hidden.add(oid);
      const { commit } = await ctx.repo.readCommit(oid);
      stack.push(...parents(commit, oid));
    }
  }
  async function* gen(): AsyncGenerator<Commit> {
    const seen = new Set<string>();
    const queue: Commit[] = [];
    const insert = (c: Commit) => {
      // git's commit_list_insert_by_date: after every commit with a date >= this one.
      let i = 0;
      while (i < queue.length && queue[i]!.commit.committer.timestamp >= c.commit.committer.timestamp) i++;
      queue.splice(i, 0, c);
    };
    for (const oid of include) {
      if (seen.has(oid) || hidden.has(oid)) continue;
      seen.add(oid);
      insert(await ctx.repo.readCommit(oid));
    }
    while (queue.length > 0) {
      const c = queue.shift()!;
      yield c;
      for (const p of parents(c.commit, c.oid)) {
        if (seen.has(p) || hidden.has(p)) continue;
        seen.add(p);
        insert(await ctx.repo.readCommit(p));
      }
    }
  }
  return gen();
}

/** The commits `.git/shallow` lists (a clone made with --depth): where history stops. */
export async function shallowCommits(ctx: GitContext): Promise<Set<string>> {
  try {
    const text = (await ctx.repo.fs.promises.readFile(`${ctx.repo.gitdir}/shallow`, { encoding: "utf8" })) as string;
    return new Set(text.split("\n").map((l) => l.trim()).filter((l) => /^[0-9a-f]{40}$/.test(l)));
  } catch {
    return new Set();
  }
}

/** Decorations for --decorate / %d: reverse refname order, the current branch first. */
export async function decorations(ctx: GitContext): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const head = await ctx.repo.headOid();
  const branch = await ctx.repo.branch();
  const branches = await git.listBranches({ ...ctx.repo.iso }).catch(() => [] as string[]);
  const tags = await git.listTags({ ...ctx.repo.iso }).catch(() => [] as string[]);
  const refs = [...branches.map((b) => `refs/heads/${b}`), ...tags.map((t) => `refs/tags/${t}`)].sort().reverse();
  for (const ref of refs) {
    let oid = await git.resolveRef({ ...ctx.repo.iso, ref }).catch(() => null);
    if (!oid) continue;
    const isTag = ref.startsWith("refs/tags/");
    if (isTag) oid = await ctx.repo.peelToCommit(oid, ref).catch(() => null);
    if (!oid) continue;
    const name = isTag ? `tag: ${ref.slice(10)}` : ref.slice(11);
    const list = out.get(oid) ?? [];
    if (!isTag && name === branch) list.unshift(`HEAD -> ${name}`);
    else list.push(name);
    out.set(oid, list);
  }
  if (head && !branch) out.set(head, ["HEAD", ...(out.get(head) ?? [])]);
  return out;
}

function indentMessage(message: string): string {
  const trimmed = message.replace(/\n+$/, "");
  return (
    trimmed
      .split("\n")
      .map((l) => "    " + l)
      .join("\n") + "\n"
  );
}

function subjectOf(message: string): string {
  // git joins the first paragraph's lines with spaces for %s / oneline.
  const para = message.replace(/^\n+/, "").split(/\n\s*\n/)[0] ?? "";
  return para
    .split("\n")
    .map((l) => l.trim())
    .join(" ")
    .trim();
}

function bodyOf(message: string): string {
  const m = message.replace(/^\n+/, "");
  const i = m.search(/\n\s*\n/);
  if (i === -1) return "";
  return m.slice(i).replace(/^\n\s*\n/, "").replace(/\n*$/, "\n").replace(/^\n$/, "");
}

export function person(p: { name: string; email: string }): string {
  return `${p.name} <${p.email}>`;
}

async function header(ctx: GitContext, c: Commit, fmt: Format, deco: Map<string, string[]> | null, abbrevCommit: boolean): Promise<string> {
  const { oid, commit } = c;
  const d = deco?.get(oid);
  const decoText = d && d.length > 0 ? ` (${d.join(", ")})` : "";
  const idText = abbrevCommit ? ctx.repo.abbrev(oid) : oid;
  switch (fmt.kind) {
    case "oneline":
      return `${abbrevCommit ? ctx.repo.abbrev(oid) : oid}${decoText} ${subjectOf(commit.message)}\n`;
    case "format":
      return expandFormat(fmt.template, c, deco, ctx.repo.abbrevLen, fmt.date) + (fmt.terminator ? "\n" : "");
    default: {
      let out = `commit ${idText}${decoText}\n`;
      if (commit.parent.length > 1) out += `Merge: ${commit.parent.map((p) => ctx.repo.abbrev(p)).join(" ")}\n`;
      if (fmt.kind === "raw") {
        out = `commit ${oid}${decoText}\ntree ${commit.tree}\n${commit.parent.map((p) => `parent ${p}\n`).join("")}`;
        out += `author ${person(commit.author)} ${commit.author.timestamp} ${formatTz(commit.author.timezoneOffset)}\n`;
        out += `committer ${person(commit.committer)} ${commit.committer.timestamp} ${formatTz(commit.committer.timezoneOffset)}\n\n`;
        return out + indentMessage(commit.message);
      }
      out += `Author: ${person(commit.author)}\n`;
      const dateMode = fmt.date ?? DEFAULT_DATE;
      if (fmt.kind === "medium") out += `Date:   ${formatDate(dateMode, commit.author.timestamp, commit.author.timezoneOffset)}\n`;
      if (fmt.kind === "fuller") {
        out = out.replace(/Author: /, "Author:     ");
        out += `AuthorDate: ${formatDate(dateMode, commit.author.timestamp, commit.author.timezoneOffset)}\n`;
        out += `Commit:     ${person(commit.committer)}\n`;
        out += `CommitDate: ${formatDate(dateMode, commit.committer.timestamp, commit.committer.timezoneOffset)}\n`;
      }
      if (fmt.kind === "full") out += `Commit: ${person(commit.committer)}\n`;
      out += "\n";
      if (fmt.kind === "short") return out + "    " + subjectOf(commit.message) + "\n";
      return out + indentMessage(commit.message);
    }
  }
}

function expandFormat(template: string, c: Commit, deco: Map<string, string[]> | null, abbrev = 7, dateMode: DateMode = DEFAULT_DATE): string {
  const { oid, commit } = c;
  const now = Date.now() / 1000;
  const date = (p: CommitObject["author"], k: string) => {
    switch (k) {
      case "d":
        return formatDate(dateMode, p.timestamp, p.timezoneOffset, now);
      case "i":
        return formatIsoDate(p.timestamp, p.timezoneOffset);
      case "I":
        return new Date((p.timestamp - p.timezoneOffset * 60) * 1000)
          .toISOString()
          .replace(/\.000Z$/, formatTz(p.timezoneOffset).replace(/(\d\d)(\d\d)$/, "$1:$2"));
      case "t":
        return String(p.timestamp);
      case "r":
        return formatRelative(p.timestamp, now);
      case "s":
        return formatIsoDate(p.timestamp, p.timezoneOffset).slice(0, 10);
      default:
        return null;
    }
  };
  return template.replace(/%(?:([HhTtPpsbBnd%]|D)|([ac])([nedirtIs])|x([0-9a-fA-F]{2}))/g, (m, simple, who, what, hex) => {
    if (hex) return String.fromCharCode(parseInt(hex, 16));
    if (who) {
      const p = who === "a" ? commit.author : commit.committer;
      if (what === "n") return p.name;
      if (what === "e") return p.email;
      return date(p, what) ?? m;
    }
    switch (simple) {
      case "H":
        return oid;
      case "h":
        return oid.slice(0, abbrev);
      case "T":
        return commit.tree;
      case "t":
        return commit.tree.slice(0, abbrev);
      case "P":
        return commit.parent.join(" ");
      case "p":
        return commit.parent.map((x) => x.slice(0, abbrev)).join(" ");
      case "s":
        return subjectOf(commit.message);
      case "b":
        return bodyOf(commit.message);
      case "B":
        return commit.message.replace(/\n*$/, "\n");
      case "n":
        return "\n";
      case "%":
        return "%";
      case "d": {
        const d = deco?.get(oid);
        return d && d.length ? ` (${d.join(", ")})` : "";
      }
      case "D":
        return (deco?.get(oid) ?? []).join(", ");
      default:
        return m;
    }
  });
}

export async function commitChanges(ctx: GitContext, c: Commit, filter?: (p: string) => boolean): Promise<Change[]> {
  if (c.commit.parent.length > 1) return []; // merges: no diff by default, as git log -p
  // A parent cut off by a shallow clone: the commit is a root there, as git shows it.
  const parentTree = c.commit.parent.length === 0 ? EMPTY_TREE : ((await ctx.repo.readCommit(c.commit.parent[0]!).catch(() => null))?.commit.tree ?? EMPTY_TREE);
  const [before, after] = await ctx.repo.changedEntries(parentTree, c.commit.tree);
  return diffTrees(before, after, filter);
}

async function diffOutput(ctx: GitContext, changes: Change[], mode: DiffMode): Promise<string> {
  if (changes.length === 0) return "";
  const diffs = mode.stat || mode.shortstat || mode.numstat || mode.patch ? await fileDiffs(ctx, changes) : [];
  let out = "";
  if (mode.numstat) out += formatNumstat(diffs);
  if (mode.stat) out += formatStatLines(diffs);
  else if (mode.shortstat) out += formatShortStat(diffs);
  if (mode.nameOnly) out += formatNameOnly(changes);
  if (mode.nameStatus) out += formatNameStatus(changes);
  if (mode.patch) {
    if (mode.stat || mode.numstat || mode.shortstat) out += "\n";
    for (const d of diffs) out += patchText(ctx, d);
  }
  return out;
}

function hasDiff(m: DiffMode): boolean {
  return m.patch || m.stat || m.shortstat || m.numstat || m.nameOnly || m.nameStatus;
}

export async function renderCommit(
  ctx: GitContext,
  c: Commit,
  fmt: Format,
  deco: Map<string, string[]> | null,
  mode: DiffMode,
  abbrevCommit: boolean,
  filter?: (p: string) => boolean,
): Promise<string> {
  let out = await header(ctx, c, fmt, deco, abbrevCommit);
  if (!hasDiff(mode)) return out;
  const changes = await commitChanges(ctx, c, filter);
  const body = await diffOutput(ctx, changes, mode);
  if (body === "") return out;
  // git puts a blank line (or "---" when both a stat and a patch follow) between a verbose
  // header and the diff.
  const verbose = fmt.kind !== "oneline" && !(fmt.kind === "format" && fmt.template === "");
  if (verbose) out += mode.patch && mode.stat ? "---\n" : "\n";
  return out + body;
}

export const DIFF_FLAGS = ["-p", "-u", "--patch", "--stat", "--shortstat", "--numstat", "--name-only", "--name-status", "-s", "--no-patch"];

export function diffMode(a: ReturnType<typeof parseArgs>, defaultPatch: boolean): DiffMode {
  const noPatch = a.has("-s") || a.has("--no-patch");
  const stat = a.has("--stat");
  const others = stat || a.has("--shortstat") || a.has("--numstat") || a.has("--name-only") || a.has("--name-status");
  return {
    patch: !noPatch && (a.has("-p") || a.has("-u") || a.has("--patch") || (defaultPatch && !others)),
    stat: !noPatch && stat,
    shortstat: !noPatch && a.has("--shortstat"),
    numstat: !noPatch && a.has("--numstat"),
    nameOnly: !noPatch && a.has("--name-only"),
    nameStatus: !noPatch && a.has("--name-status"),
  };
}

/** Split positionals into revisions and paths, the way git does without "--". */
export async function splitRevsAndPaths(ctx: GitContext, positionals: string[], afterDashDash: string[] | null): Promise<{ revs: string[]; paths: string[] }> {
  const revs: string[] = [];
  const paths: string[] = [...(afterDashDash ?? [])];
  for (let i = 0; i < positionals.length; i++) {
    const p = positionals[i]!;
    const asRange = /^(.*?)(\.\.\.?)(.*)$/.exec(p);
    const isRev = async (s: string) => (await ctx.repo.tryResolveCommit(s === "" ? "HEAD" : s)) !== null;
    if ((p.startsWith("^") && (await isRev(p.slice(1)))) || (asRange && (await isRev(asRange[1]!)) && (await isRev(asRange[3]!))) || (await isRev(p))) {
      revs.push(p);
      continue;
    }
    if (afterDashDash !== null) throw fatal(`bad revision '${p}'`);
    // Not a revision: the rest must be paths that exist.
    for (const rest of positionals.slice(i)) {
      const rel = ctx.work.repoPath(rest);
      const inIndex = [...(await ctx.work.index()).keys()].some((k) => k === rel || k.startsWith(rel + "/"));
      const onDisk = await ctx.repo.fs.promises.lstat(ctx.work.abs(rel)).then(
        () => true,
        () => false,
      );
      if (!inIndex && !onDisk) {
        throw fatal(
          `ambiguous argument '${rest}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`,
        );
      }
      paths.push(rest);
    }
    break;
  }
  return { revs, paths };
}
