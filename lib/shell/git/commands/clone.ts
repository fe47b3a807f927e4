/** `git clone [--depth <n>] [-b <branch>] <url> [<directory>]`: into a new directory of the workspace. */
import { fastClone } from "../../../git/fast-clone";
import type { GitContext } from "../context";
import { transportOf } from "../transfer-report";
import { fatal, GitError, parseArgs } from "../util";

export const name = "clone";
export const effect = "git clone writes a repository";

export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-q", "--quiet", "--single-branch", "--no-single-branch", "--no-tags"],
    value: ["--depth", "-b", "--branch", "-o", "--origin"],
    alias: { "--quiet": "-q", "--branch": "-b", "--origin": "-o" },
    usage: "git clone [<options>] [--] <repo> [<dir>]",
  });
  const [url, dirArg, ...rest] = [...a.positionals, ...(a.afterDashDash ?? [])];
  if (!url || rest.length > 0) throw new GitError("usage: git clone [<options>] [--] <repo> [<dir>]\n", 129);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw fatal(`repository '${url}' does not exist (only http:// and https:// URLs can be cloned here)`);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") throw fatal(`only http:// and https:// repositories can be cloned here (got ${target.protocol})`);
  if (target.username || target.password) throw fatal("credentials in the URL are not supported: the server will ask for them");
  const depthText = a.get("--depth");
  if (depthText !== undefined && !/^[1-9]\d*$/.test(depthText)) throw fatal(`depth ${depthText} is not a positive number`);
  const name = dirArg ?? decodeURIComponent(target.pathname.split("/").filter(Boolean).pop() ?? "repository").replace(/\.git$/, "");
  const rel = ctx.work.repoPath(name);
  const abs = rel === "" ? ctx.repo.dir : ctx.repo.dir === "/" ? "/" + rel : `${ctx.repo.dir}/${rel}`;
  const existing = await ctx.repo.fs.promises.readdir(abs).catch(() => null);
  if (existing && existing.length > 0) throw fatal(`destination path '${name}' already exists and is not an empty directory.`);
  const transport = transportOf(ctx, "clone");
  if (!a.has("-q")) ctx.io.err(`Cloning into '${name}'...\n`);
  const cloned = await fastClone({
    fs: ctx.repo.fs,
    dir: abs,
    http: transport.http,
    ...(transport.auth ? { auth: transport.auth } : {}),
    url: target.toString(),
    ref: a.get("-b"),
    remote: a.get("-o") ?? "origin",
    singleBranch: a.has("--single-branch") || depthText !== undefined,
    noTags: a.has("--no-tags"),
    ...(depthText ? { depth: Number(depthText) } : {}),
  });
  if (cloned.empty && !a.has("-q")) ctx.io.err("warning: You appear to have cloned an empty repository.\n");
  // The clone wrote through the raw fs: tell the editors and the file tree what appeared.
  for (const f of cloned.files) ctx.work.journal.record({ kind: "write", path: rel === "" ? f : `${rel}/${f}`, origin: "git" });
  ctx.work.invalidate();
  // This shell's git works on the workspace's own repository (its root): say so rather than let
  // the next `git status` in there answer for the outer one.
  if (rel !== "" && !a.has("-q"))
    ctx.io.err(`note: git commands here work on the workspace's own repository; to work in '${name}', clone it from the start page as a workspace of its own (or clone into an empty workspace with 'git clone <url> .').\n`);
  return 0;
}
