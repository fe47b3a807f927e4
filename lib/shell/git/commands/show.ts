/** `git show`: a commit (header and patch), or a blob as `<rev>:<path>`. */
import git, { type CommitObject } from "isomorphic-git";
import type { GitContext } from "../context";
import { decorations, DIFF_FLAGS, diffMode, parseFormat, person, renderCommit } from "../log-format";
import { formatDate, parseDateMode } from "../date-format";
import { fatal, parseArgs } from "../util";
import { writesOutputFile } from "./forms";

export const name = "show";
export const effect = "git show --output writes a file";

/** Reads; only `--output=<file>` would write. */
export function writes(args: readonly string[]): boolean {
  return writesOutputFile(args);
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["--oneline", "--no-decorate", "--abbrev-commit", "--no-abbrev-commit", "--no-color", "--color", ...DIFF_FLAGS],
    value: [],
    optional: ["--decorate", "--pretty", "--format", "--date"],
    alias: { "--format": "--pretty" },
    revisionStyle: true,
    usage: "git show [<options>] <object>...",
  });
  const objects = a.positionals.length > 0 ? a.positionals : ["HEAD"];
  if (a.positionals.length === 0 && (await ctx.repo.headOid()) === null) {
    throw fatal(`your current branch '${(await ctx.repo.branch()) ?? "HEAD"}' does not have any commits yet`);
  }
  let first = true;
  for (const spec of objects) {
    const colon = spec.indexOf(":");
    if (colon !== -1) {
      // rev:path (":path" is the index version)
      const rev = spec.slice(0, colon);
      const rawPath = spec.slice(colon + 1);
      const rel = rawPath.startsWith("./") || rawPath.startsWith("../") ? ctx.work.repoPath(rawPath) : rawPath.replace(/^\/+/, "");
      const tree = rev === "" ? await ctx.work.index() : await ctx.repo.treeOf(await ctx.repo.resolveCommit(rev));
      const entry = tree.get(rel);
      if (!entry) {
        const isDir = rel === "" || [...tree.keys()].some((k) => k.startsWith(rel + "/"));
        if (isDir) {
          const names = new Set<string>();
          for (const k of tree.keys()) {
            if (rel === "" || k.startsWith(rel + "/")) {
              const rest = rel === "" ? k : k.slice(rel.length + 1);
              names.add(rest.includes("/") ? rest.slice(0, rest.indexOf("/") + 1) : rest);
            }
          }
          ctx.io.out(`tree ${spec}\n\n${[...names].sort().join("\n")}\n`);
          continue;
        }
        throw fatal(rev === "" ? `path '${rel}' does not exist (neither on disk nor in the index)` : `path '${rel}' does not exist in '${rev}'`);
      }
      ctx.io.outBytes(await ctx.repo.readBlob(entry.oid));
      continue;
    }
    // Annotated tag: the tag header first, then the commit.
    const ref = await git.expandRef({ ...ctx.repo.iso, ref: spec }).catch(() => null);
    if (ref && ref.startsWith("refs/tags/")) {
      const tagOid = await git.resolveRef({ ...ctx.repo.iso, ref });
      const obj = await git.readObject({ ...ctx.repo.iso, oid: tagOid, format: "parsed" });
      if (obj.type === "tag") {
        const t = obj.object as { tag: string; tagger: CommitObject["author"]; message: string };
        if (!first) ctx.io.out("\n");
        ctx.io.out(`tag ${t.tag}\nTagger: ${person(t.tagger)}\nDate:   ${formatDate(parseDateMode(a.get("--date")), t.tagger.timestamp, t.tagger.timezoneOffset)}\n\n${t.message.replace(/\n*$/, "\n")}\n`);
        first = true;
      }
    }
    const oid = await ctx.repo.resolveCommit(spec);
    const c = await git.readCommit({ ...ctx.repo.iso, oid });
    const oneline = a.has("--oneline");
    const fmt = { ...parseFormat(a.get("--pretty") ?? "", oneline), date: parseDateMode(a.get("--date")) };
    const decoOpt = a.get("--decorate");
    const deco = decoOpt !== undefined && decoOpt !== "no" ? await decorations(ctx) : null;
    const abbrevCommit = (oneline || a.has("--abbrev-commit")) && !a.has("--no-abbrev-commit");
    if (!first && fmt.kind !== "oneline" && fmt.kind !== "format") ctx.io.out("\n");
    first = false;
    ctx.io.out(await renderCommit(ctx, c, fmt, deco, diffMode(a, true), abbrevCommit));
  }
  return 0;
}
