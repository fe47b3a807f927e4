/** `git log`: commit history, with formats, diffs and path limits. */
import git from "isomorphic-git";
import type { GitContext } from "../context";
import { type Commit, commitChanges, decorations, DIFF_FLAGS, diffMode, LOG_USAGE, parseFormat, person, renderCommit, splitRevsAndPaths, walkCommits } from "../log-format";
import { parseDateMode } from "../date-format";
import { fatal, parseArgs } from "../util";
import { writesOutputFile } from "./forms";

export const name = "log";
export const effect = "git log --output writes a file";

/** Reads; only `--output=<file>` would write. */
export function writes(args: readonly string[]): boolean {
  return writesOutputFile(args);
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: [
      "--oneline", "--all", "--reverse", "--graph", "--no-decorate", "--abbrev-commit", "--no-abbrev-commit", "--first-parent",
      "--no-merges", "--merges", "--follow", "--no-color", "--color", "--date-order", "--topo-order", ...DIFF_FLAGS,
    ],
    value: ["-n", "--max-count", "--author", "--grep", "--since", "--until", "--after", "--before", "--skip"],
    optional: ["--decorate", "--pretty", "--format", "--date"],
    alias: { "--max-count": "-n", "--format": "--pretty", "--after": "--since", "--before": "--until" },
    numeric: true,
    revisionStyle: true,
    usage: LOG_USAGE,
  });
  return runLog(ctx, a);
}

async function runLog(ctx: GitContext, a: ReturnType<typeof parseArgs>): Promise<number> {
  const { revs, paths } = await splitRevsAndPaths(ctx, a.positionals, a.afterDashDash);
  const include: string[] = [];
  const exclude: string[] = [];
  if (a.has("--all")) {
    for (const b of await git.listBranches({ ...ctx.repo.iso })) include.push(await git.resolveRef({ ...ctx.repo.iso, ref: `refs/heads/${b}` }));
    for (const t of await git.listTags({ ...ctx.repo.iso })) {
      const oid = await git.resolveRef({ ...ctx.repo.iso, ref: `refs/tags/${t}` });
      const c = await ctx.repo.peelToCommit(oid, t).catch(() => null);
      if (c) include.push(c);
    }
    const head = await ctx.repo.headOid();
    if (head) include.push(head);
  }
  for (const r of revs) {
    const range = /^(.*?)(\.\.\.?)(.*)$/.exec(r);
    if (r.startsWith("^")) exclude.push(await ctx.repo.resolveCommit(r.slice(1)));
    else if (range) {
      const left = await ctx.repo.resolveCommit(range[1] || "HEAD");
      const right = await ctx.repo.resolveCommit(range[3] || "HEAD");
      if (range[2] === "...") {
        include.push(left, right);
        const bases = await git.findMergeBase({ ...ctx.repo.iso, oids: [left, right] });
        exclude.push(...(bases as string[]));
      } else {
        include.push(right);
        exclude.push(left);
      }
    } else include.push(await ctx.repo.resolveCommit(r));
  }
  if (include.length === 0 && !a.has("--all")) {
    const head = await ctx.repo.headOid();
    if (head === null) {
      const b = await ctx.repo.branch();
      throw fatal(`your current branch '${b ?? "HEAD"}' does not have any commits yet`);
    }
    include.push(head);
  }
  const oneline = a.has("--oneline");
  const fmt = { ...parseFormat(a.get("--pretty") ?? "", oneline), date: parseDateMode(a.get("--date")) };
  const decoOpt = a.get("--decorate");
  const wantDeco = (!a.has("--no-decorate") && decoOpt !== undefined && decoOpt !== "no") || /%d|%D/.test(fmt.kind === "format" ? fmt.template : "");
  const deco = wantDeco ? await decorations(ctx) : null;
  const abbrevCommit = (oneline || a.has("--abbrev-commit")) && !a.has("--no-abbrev-commit");
  const mode = diffMode(a, false);
  const filter = paths.length > 0 ? ctx.work.pathspec(paths) : undefined;
  const nOpt = a.get("-n");
  const max = nOpt !== undefined ? Number(nOpt) : Infinity;
  if (nOpt !== undefined && !Number.isFinite(max)) throw fatal(`'${nOpt}': not an integer`);
  let skip = Number(a.get("--skip") ?? 0);
  const author = a.get("--author");
  const grep = a.get("--grep");
  const since = a.get("--since") ? dateArg(a.get("--since")!) : null;
  const until = a.get("--until") ? dateArg(a.get("--until")!) : null;

  const selected: Commit[] = [];
  const walker = await walkCommits(ctx, include, exclude);
  for await (const c of walker) {
    if (selected.length >= max && !a.has("--reverse")) break;
    if (a.has("--no-merges") && c.commit.parent.length > 1) continue;
    if (a.has("--merges") && c.commit.parent.length < 2) continue;
    if (author && !new RegExp(author, "i").test(person(c.commit.author))) continue;
    if (grep && !new RegExp(grep).test(c.commit.message)) continue;
    if (since !== null && c.commit.committer.timestamp < since) continue;
    if (until !== null && c.commit.committer.timestamp > until) continue;
    if (filter) {
      if (c.commit.parent.length > 1) continue;
      const changes = await commitChanges(ctx, c, filter);
      if (changes.length === 0) continue;
    }
    if (skip > 0) {
      skip--;
      continue;
    }
    selected.push(c);
  }
  let list = selected;
  if (a.has("--reverse")) list = selected.slice(0, max).reverse();
  // medium/full/…: a blank line between entries; "format:" separates entries with a newline
  // (no final one); oneline and tformat terminate every entry.
  const separated = fmt.kind !== "oneline" && !(fmt.kind === "format" && fmt.terminator);
  const graph = a.has("--graph");
  let first = true;
  for (let i = 0; i < list.length; i++) {
    if (!first && separated) ctx.io.out(graph && fmt.kind !== "format" ? "| \n" : "\n");
    first = false;
    let text = await renderCommit(ctx, list[i]!, fmt, deco, mode, abbrevCommit, filter);
    if (graph) text = graphPrefix(text, list[i]!.commit.parent.length === 0);
    ctx.io.out(text);
  }
  return 0;
}

/** --graph for a linear history: "* " on the commit's first line, "| " on the others
 * ("  " below a root commit). */
function graphPrefix(text: string, root: boolean): string {
  const lines = text.split("\n");
  const end = text.endsWith("\n") ? lines.pop() : undefined;
  return lines.map((l, i) => (i === 0 ? "* " : root ? "  " : "| ") + l).join("\n") + (end !== undefined ? "\n" : "");
}

function dateArg(s: string): number {
  const rel = /^(\d+)\.?\s*(second|minute|hour|day|week|month|year)s?\.?(\s+ago)?$/.exec(s.trim());
  if (rel) {
    const mult: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800, month: 2592000, year: 31536000 };
    return Math.floor(Date.now() / 1000) - Number(rel[1]) * mult[rel[2]!]!;
  }
  const t = Date.parse(s);
  if (Number.isNaN(t)) throw fatal(`invalid date '${s}'`);
  return Math.floor(t / 1000);
}
