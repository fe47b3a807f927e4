/**
 * `git apply`: apply a unified diff (what `git diff` prints) to the work tree, the index
 * (`--cached`) or both (`--index`); `--check` only tries, `-R` applies it in reverse. All or
 * nothing, as git does: every file's hunks are tried before anything is written. The Source
 * Control view stages and unstages single hunks with it (`git apply --cached [-R]` on stdin),
 * as `git add -p` does underneath.
 *
 * Hunks are matched and applied by jsdiff (`diff`), exactly (no fuzz, like git's default);
 * binary patches and mode-only changes are refused with git's words.
 */
import git from "isomorphic-git";
import { applyPatch, parsePatch, reversePatch, type StructuredPatch } from "diff";
import type { GitContext } from "../context";
import { updateIndex } from "../../../git/merge-index";
import { fatal, GitError, parseArgs } from "../util";

export const name = "apply";
export const effect = "git apply changes files";

/** `--check` (and `--stat`-like reports, which this shell does not print) only read. */
export function writes(args: readonly string[]): boolean {
  return !args.includes("--check");
}

const USAGE = "git apply [<options>] [<patch>...]";
const decoder = new TextDecoder();
const encoder = new TextEncoder();

type FilePatch = { patch: StructuredPatch; oldPath: string | null; newPath: string | null; newMode?: number };
type Planned = { path: string; remove: boolean; text: string; mode: number; from: string | null };

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["--cached", "--index", "--check", "-R", "--reverse", "-v", "--verbose", "-q", "--quiet"],
    alias: { "--reverse": "-R", "--verbose": "-v", "--quiet": "-q" },
    usage: USAGE,
  });
  const cached = a.has("--cached");
  const inIndex = cached || a.has("--index");
  const inWorktree = !cached;
  const inputs = [...a.positionals, ...(a.afterDashDash ?? [])];
  let text = "";
  if (inputs.length === 0 || inputs.includes("-")) text += ctx.io.stdin;
  for (const f of inputs) {
    if (f === "-") continue;
    const bytes = await ctx.work.read(ctx.work.repoPath(f));
    if (!bytes) throw fatal(`can't open patch '${f}': No such file or directory`);
    text += decoder.decode(bytes);
  }
  const files = parseFiles(text, a.has("-R"));
  if (files.length === 0) throw new GitError("error: No valid patches in input (allow with \"--allow-empty\")\n", 128);

  const index = await ctx.work.index();
  const planned: Planned[] = [];
  for (const f of files) {
    const path = f.oldPath ?? f.newPath!;
    const inIdx = index.get(path);
    let source: string | null;
    if (inIndex) {
      source = inIdx ? decoder.decode(await ctx.repo.readBlob(inIdx.oid)) : null;
      if (a.has("--index") && inIdx) {
        const work = await ctx.work.read(path);
        if (work === null || decoder.decode(work) !== source) throw new GitError(`error: ${path}: does not match index\n`, 1);
      }
    } else {
      const work = await ctx.work.read(path);
      source = work === null ? null : decoder.decode(work);
    }
    if (f.oldPath === null) {
      if (source !== null) throw new GitError(`error: ${f.newPath}: already exists in ${inIndex ? "index" : "working directory"}\n`, 1);
      source = "";
    } else if (source === null) throw new GitError(`error: ${path}: ${inIndex ? "does not exist in index" : "No such file or directory"}\n`, 1);
    const result = applyPatch(source, f.patch, { fuzzFactor: 0 });
    if (result === false) {
      const line = f.patch.hunks[0]?.oldStart ?? 1;
      throw new GitError(`error: patch failed: ${path}:${line}\nerror: ${path}: patch does not apply\n`, 1);
    }
    if (f.newPath === null && result !== "") throw new GitError(`error: removal patch leaves file contents\nerror: ${path}: patch does not apply\n`, 1);
    const mode = f.newMode ?? inIdx?.mode ?? (await ctx.work.modeOf(path, 0o100644)) ?? 0o100644;
    planned.push({ path: f.newPath ?? path, remove: f.newPath === null, text: result, mode, from: f.oldPath !== null && f.newPath !== null && f.oldPath !== f.newPath ? f.oldPath : null });
  }
  if (a.has("--check")) return 0;

  // Every file applied in memory: now write, the index first (as merge and restore do).
  if (inIndex) {
    const updates = [];
    for (const p of planned) {
      if (p.from) updates.push({ path: p.from, kind: "remove" as const });
      if (p.remove) updates.push({ path: p.path, kind: "remove" as const });
      else updates.push({ path: p.path, kind: "set" as const, entry: { oid: await git.writeBlob({ ...ctx.repo.iso, blob: encoder.encode(p.text) }), mode: p.mode } });
    }
    await updateIndex({ fs: ctx.repo.fs, gitdir: ctx.repo.gitdir }, updates);
  }
  if (inWorktree) {
    for (const p of planned) {
      if (p.from) await ctx.work.remove(p.from);
      if (p.remove) await ctx.work.remove(p.path);
      else await ctx.work.write(p.path, { oid: await git.writeBlob({ ...ctx.repo.iso, blob: encoder.encode(p.text) }), mode: p.mode });
    }
  }
  ctx.work.invalidate();
  if (a.has("-v")) for (const p of planned) ctx.io.err(`Applied patch ${p.path} cleanly.\n`);
  return 0;
}

/** One entry per file of a (git or plain) unified diff, `a/` and `b/` taken off the names. */
function parseFiles(text: string, reverse: boolean): FilePatch[] {
  const sections = text.split(/^(?=diff --git )/m).filter((s) => s.trim() !== "");
  const out: FilePatch[] = [];
  for (const section of sections) {
    if (/^GIT binary patch$|^Binary files .* differ$/m.test(section)) {
      const name = /^diff --git a\/(.*) b\//m.exec(section)?.[1] ?? "file";
      throw new GitError(`error: cannot apply binary patch to '${name}' without full index line\nerror: ${name}: patch does not apply\n`, 1);
    }
    for (let patch of parsePatch(section)) {
      if (patch.hunks.length === 0) {
        if (/^(old|new) mode /m.test(section) || /^rename from /m.test(section)) throw fatal("mode changes and pure renames are not supported by this shell's git apply");
        continue;
      }
      const newMode = /^new file mode (\d+)$/m.exec(section)?.[1];
      if (reverse) patch = reversePatch(patch) as StructuredPatch;
      out.push({ patch, oldPath: strip(patch.oldFileName), newPath: strip(patch.newFileName), newMode: newMode && !reverse ? parseInt(newMode, 8) : undefined });
    }
  }
  return out;
}

function strip(name: string | undefined): string | null {
  if (name === undefined || name === "/dev/null") return null;
  return name.replace(/^[ab]\//, "").replace(/\t.*$/, "");
}
