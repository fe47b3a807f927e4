/** `git init`: create (or reinitialise) the repository at the workspace root. */
import git from "isomorphic-git";
import type { GitContext } from "../context";
import { fatal, parseArgs } from "../util";

export const name = "init";
export const effect = "git init writes a repository";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-q", "--quiet", "--bare"],
    value: ["-b", "--initial-branch", "--template", "--separate-git-dir"],
    alias: { "--quiet": "-q", "--initial-branch": "-b" },
    usage: "git init [-q | --quiet] [--bare] [--template=<template-directory>] [--shared[=<permissions>]] [<directory>]",
  });
  if (a.has("--bare")) throw fatal("bare repositories are not supported in this shell");
  const target = a.positionals[0];
  if ((target !== undefined && ctx.work.repoPath(target) !== "") || (target === undefined && ctx.work.cwdRel !== "")) {
    throw fatal(`only the workspace root can be a repository here (try: cd ${ctx.work.toplevel} && git init)`);
  }
  const existed = await ctx.repo.isRepo();
  await git.init({ ...ctx.repo.iso, defaultBranch: a.get("-b") ?? "main" });
  if (!a.has("-q")) ctx.io.out(`${existed ? "Reinitialized existing" : "Initialized empty"} Git repository in ${ctx.work.shellPath(".git")}/\n`);
  return 0;
}
