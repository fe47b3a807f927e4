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

export async function revParseOne(ctx: GitContext, spec: string): Promise<string | null> {
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
