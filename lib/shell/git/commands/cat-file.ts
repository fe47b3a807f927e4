/** `git cat-file`: an object's type, size or contents. */
import git from "isomorphic-git";
import type { GitContext } from "../context";
import { hiddenBlobOids } from "../hidden-blobs";
import { fatal, GitError, parseArgs } from "../util";
import { writesOutputFile } from "./forms";
import { revParseOne } from "./rev-parse";

export const name = "cat-file";
export const effect = "git cat-file --output writes a file";

/** Reads; only `--output=<file>` would write. */
export function writes(args: readonly string[]): boolean {
  return writesOutputFile(args);
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, { bool: ["-p", "-t", "-s", "-e"], usage: "git cat-file (-t | -s | -e | -p | <type>) <object>" });
  const spec = a.positionals[a.positionals.length - 1];
  if (!spec) throw new GitError("usage: git cat-file (-t | -s | -e | -p | <type>) <object>\n", 129);
  // An object name first: revParseOne peels to a commit and so refuses blob and tree names.
  const oid = (/^[0-9a-f]{4,40}$/.test(spec) ? await ctx.repo.expandOid(spec) : null) ?? (await revParseOne(ctx, spec)) ?? (await ctx.repo.expandOid(spec));
  if (!oid) {
    if (a.has("-e")) return 1;
    throw fatal(`Not a valid object name ${spec}`);
  }
  const obj = await git.readObject({ ...ctx.repo.iso, oid, format: "content" });
  const bytes = obj.object as Uint8Array;
  // A blob stored at a path hidden from this shell is as absent as the path.
  if (obj.type === "blob" && ctx.repo.hidden && (await hiddenBlobOids(ctx.repo)).has(oid)) {
    if (a.has("-e")) return 1;
    throw fatal(`Not a valid object name ${spec} (it holds the contents of a path hidden from this shell)`);
  }
  if (a.has("-e")) return 0;
  if (a.has("-t")) ctx.io.out(obj.type + "\n");
  else if (a.has("-s")) ctx.io.out(bytes.length + "\n");
  else if (obj.type === "tree") {
    const { tree } = await git.readTree({ ...ctx.repo.iso, oid });
    for (const e of tree) if (!ctx.repo.hidden?.ruleFor(e.path)) ctx.io.out(`${e.mode.padStart(6, "0")} ${e.type} ${e.oid}\t${e.path}\n`);
  } else ctx.io.outBytes(bytes);
  return 0;
}
