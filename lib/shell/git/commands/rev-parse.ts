/** `git rev-parse`: revisions to object names, and the repository's paths. */
import git from "isomorphic-git";
import type { GitContext } from "../context";
import { fatal } from "../util";
import { writesOutputFile } from "./forms";

export const name = "rev-parse";
export const effect = "git rev-parse --output writes a file";

/** Reads; only `--output=<file>` would write. */
export function writes(args: readonly string[]): boolean {
  return writesOutputFile(args);
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
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
    else if (arg === "--show-toplevel") ctx.io.out(ctx.work.toplevel + "\n");
    else if (arg === "--show-prefix") ctx.io.out(ctx.work.cwdRel === "" ? "\n" : ctx.work.cwdRel + "/\n");
    else if (arg === "--show-cdup") ctx.io.out(ctx.work.cwdRel === "" ? "\n" : ctx.work.cwdRel.split("/").map(() => "..").join("/") + "/\n");
    else if (arg === "--git-dir") ctx.io.out(ctx.work.cwdRel === "" ? ".git\n" : ctx.work.shellPath(".git") + "\n");
    else if (arg === "--absolute-git-dir") ctx.io.out(ctx.work.shellPath(".git") + "\n");
    else if (arg === "--git-common-dir") ctx.io.out(".git\n");
    else if (arg === "--is-inside-work-tree") ctx.io.out("true\n");
    else if (arg === "--is-inside-git-dir" || arg === "--is-bare-repository" || arg === "--is-shallow-repository") ctx.io.out("false\n");
    else if (arg === "--symbolic-full-name") abbrevRef = false;
    else if (arg === "--") continue;
    else if (arg.startsWith("-")) {
      if (verify) throw fatal("Needed a single revision");
      ctx.io.out(arg + "\n");
    } else {
      if (abbrevRef) {
        const m = /^(.*?)((?:[~^]\d*)*)$/.exec(arg)!;
        if ((m[1] === "HEAD" || m[1] === "@") && m[2] === "") {
          const b = await ctx.repo.branch();
          if (b === null && (await ctx.repo.headOid()) === null) throw fatal(`ambiguous argument 'HEAD': unknown revision or path not in the working tree.`);
          ctx.io.out((b ?? "HEAD") + "\n");
          continue;
        }
        if (await ctx.repo.branchExists(arg)) {
          ctx.io.out(arg + "\n");
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
      ctx.io.out((short !== null ? oid.slice(0, short) : oid) + "\n");
    }
  }
  return 0;
}

export async function revParseOne(ctx: GitContext, spec: string): Promise<string | null> {
  const peel = /^(.*)\^\{(tree|commit|object|)\}$/.exec(spec);
  if (peel) {
    const c = await ctx.repo.tryResolveCommit(peel[1]!);
    if (c === null) return null;
    if (peel[2] === "tree") return (await git.readCommit({ ...ctx.repo.iso, oid: c })).commit.tree;
    return c;
  }
  const colon = spec.indexOf(":");
  if (colon > 0) {
    const c = await ctx.repo.tryResolveCommit(spec.slice(0, colon));
    if (c === null) return null;
    const path = spec.slice(colon + 1);
    if (path === "") return (await git.readCommit({ ...ctx.repo.iso, oid: c })).commit.tree;
    return (await ctx.repo.treeOf(c)).get(path)?.oid ?? null;
  }
  // Tags resolve to the tag object itself (not peeled), like git.
  if (!/[~^]/.test(spec)) {
    try {
      const ref = await git.expandRef({ ...ctx.repo.iso, ref: spec });
      if (ref.startsWith("refs/tags/")) return await git.resolveRef({ ...ctx.repo.iso, ref });
    } catch {
      // not a ref
    }
  }
  return ctx.repo.tryResolveCommit(spec);
}
