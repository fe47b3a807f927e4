/** `git tag`: list, create (lightweight or annotated) or delete tags. */
import git from "isomorphic-git";
import type { GitContext } from "../context";
import { decodeText, fatal, GitError, parseArgs, pathspecToRegExp } from "../util";
import { positionals } from "./forms";

export const name = "tag";
export const effect = "git tag changes tags";

const WRITE_OPTION = /^-[adsfmuF]|^--(annotate|delete|sign|force|message|file|edit|local-user)/;
const LISTING = new Set(["-l", "--list", "--contains", "--merged", "--points-at", "--no-contains", "--no-merged"]);

/** `tag` and `tag -l 'v*'` list; `tag x`, `-a`, `-d`, `-f`… write. */
export function writes(args: readonly string[]): boolean {
  if (args.some((a) => WRITE_OPTION.test(a))) return true;
  const listing = args.some((a) => LISTING.has(a) || /^-n\d*$/.test(a));
  return positionals(args).length > 0 && !listing;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-a", "--annotate", "-d", "--delete", "-f", "--force", "-l", "--list", "-s"],
    value: ["-m", "--message", "-F", "--file"],
    optional: ["-n", "--sort"],
    alias: { "--annotate": "-a", "--delete": "-d", "--force": "-f", "--list": "-l", "--message": "-m", "--file": "-F" },
    usage: "git tag [-a | -s | -u <key-id>] [-f] [-m <msg> | -F <file>] <tagname> [<head>]\n   or: git tag -d <tagname>...\n   or: git tag -l [-n[<num>]] [<pattern>...]",
  });
  const pos = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (a.has("-d")) {
    let rc = 0;
    for (const name of pos) {
      let oid: string;
      try {
        oid = await git.resolveRef({ ...ctx.repo.iso, ref: `refs/tags/${name}` });
      } catch {
        ctx.io.err(`error: tag '${name}' not found.\n`);
        rc = 1;
        continue;
      }
      await git.deleteTag({ ...ctx.repo.iso, ref: name });
      ctx.io.out(`Deleted tag '${name}' (was ${oid.slice(0, 7)})\n`);
    }
    return rc;
  }
  if (a.has("-l") || a.has("-n") || pos.length === 0) {
    const patterns = pos.map((p) => pathspecToRegExp(p));
    const tags = (await git.listTags({ ...ctx.repo.iso })).filter((t) => patterns.length === 0 || patterns.some((re) => re.test(t))).sort();
    const n = a.get("-n");
    for (const t of tags) {
      if (n === undefined) {
        ctx.io.out(t + "\n");
        continue;
      }
      const oid = await git.resolveRef({ ...ctx.repo.iso, ref: `refs/tags/${t}` });
      const obj = await git.readObject({ ...ctx.repo.iso, oid, format: "parsed" });
      const msg = obj.type === "tag" || obj.type === "commit" ? (obj.object as { message: string }).message : "";
      const lines = msg.split("\n").filter((l, i, all) => i < Math.max(1, Number(n) || 1) && !(i === all.length - 1 && l === ""));
      ctx.io.out(`${t.padEnd(15)} ${lines.join("\n    ")}\n`);
    }
    return 0;
  }
  const name = pos[0]!;
  const target = pos[1] ?? "HEAD";
  if (!/^[^\s~^:?*[\\]+$/.test(name) || name.startsWith("-")) throw fatal(`'${name}' is not a valid tag name.`);
  const oid = await ctx.repo.resolveCommit(target);
  const exists = await git.resolveRef({ ...ctx.repo.iso, ref: `refs/tags/${name}` }).then(
    () => true,
    () => false,
  );
  if (exists && !a.has("-f")) throw fatal(`tag '${name}' already exists`);
  const message =
    a.all("-m").length > 0 ? a.all("-m").join("\n\n") : a.get("-F") !== undefined ? decodeText((await ctx.work.read(ctx.work.repoPath(a.get("-F")!))) ?? new Uint8Array()) : null;
  if (a.has("-a") || message !== null) {
    if (message === null) throw new GitError("error: no tag message given: use -m <msg> (this shell has no editor)\n", 1);
    const tagger = await ctx.repo.identity("committer");
    // isomorphic-git adds the final newline itself.
    const text = message.replace(/\s+$/, "");
    if (exists) await git.deleteTag({ ...ctx.repo.iso, ref: name });
    await git.annotatedTag({ ...ctx.repo.iso, ref: name, object: oid, message: text, tagger, force: a.has("-f") });
  } else {
    await git.tag({ ...ctx.repo.iso, ref: name, object: oid, force: a.has("-f") });
  }
  return 0;
}
