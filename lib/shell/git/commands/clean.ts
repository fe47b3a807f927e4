/**
 * `git clean -n | -f [-d] [-x | -X] [-q] [--] [<pathspec>...]`: remove untracked files.
 * As in git: nothing without -n or -f (clean.requireForce); untracked directories only with
 * -d, and then whole unless an ignored file inside must stay (git recurses into them); ignored
 * files never unless -x (also them) or -X (only them); nested repositories are left alone.
 * Paths hidden from the shell are never seen, so never removed.
 */
import { ignoredPaths } from "../../../git/status";
import type { GitContext } from "../context";
import { compareStrings, cquote, fatal, parseArgs } from "../util";

export const name = "clean";
export const effect = "git clean deletes files";

/** `-n` / `--dry-run` only lists; every other form deletes (or refuses). */
export function writes(args: readonly string[]): boolean {
  return !args.some((a) => a === "-n" || a === "--dry-run" || (/^-[a-zA-Z]+$/.test(a) && a.includes("n")));
}

const parentOf = (p: string) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["-n", "--dry-run", "-f", "--force", "-d", "-x", "-X", "-q", "--quiet", "-i", "--interactive"],
    value: ["-e", "--exclude"],
    alias: { "--dry-run": "-n", "--force": "-f", "--quiet": "-q", "--interactive": "-i", "--exclude": "-e" },
    usage: "git clean [-d] [-f] [-i] [-n] [-q] [-e <pattern>] [-x | -X] [--] [<pathspec>...]",
  });
  if (a.has("-i")) throw fatal("interactive clean (-i) is not supported in this shell");
  if (a.all("-e").length > 0) throw fatal("clean -e is not supported in this shell");
  const dry = a.has("-n");
  if (!dry && !a.has("-f")) throw fatal("clean.requireForce defaults to true and neither -i, -n, nor -f given; refusing to clean");
  if (a.has("-x") && a.has("-X")) throw fatal("-x and -X cannot be used together");
  const withIgnored = a.has("-x");
  const onlyIgnored = a.has("-X");
  const specs = [...a.positionals, ...(a.afterDashDash ?? [])];
  // "If a <pathspec> is specified, -d is irrelevant; all untracked files matching the specified
  // paths will be removed" (git-clean(1)).
  const dirs = a.has("-d") || specs.length > 0;
  const match = ctx.work.pathspec(specs);

  const untracked = (await ctx.work.status()).filter((e) => e.index === "?").map((e) => e.path);
  const ignored = (await ignoredPaths(ctx.repo.asGitRepo)).filter((p) => !ctx.repo.isHidden(p.replace(/\/$/, "")));
  const trackedDirs = new Set<string>([""]);
  for (const p of (await ctx.work.index()).keys()) for (let d = parentOf(p); d !== "" && !trackedDirs.has(d); d = parentOf(d)) trackedDirs.add(d);
  const isNestedRepo = async (dir: string) => (await ctx.repo.fs.promises.lstat(ctx.work.abs(dir + "/.git")).catch(() => null)) !== null;

  const units: string[] = [];
  // An untracked directory that holds ignored files only is an ignored directory to git.
  const ignoredSet = new Set<string>();
  for (const p of ignored) {
    let shown = p;
    if (!p.endsWith("/")) {
      const chain: string[] = [];
      for (let d = parentOf(p); !trackedDirs.has(d); d = parentOf(d)) chain.unshift(d);
      const top = chain.find((d) => !untracked.some((u) => u.startsWith(d + "/")));
      if (top !== undefined) shown = top + "/";
    }
    ignoredSet.add(shown);
  }
  const ignoredFiles = [...ignoredSet].filter((p) => !p.endsWith("/"));
  const ignoredDirs = [...ignoredSet].filter((p) => p.endsWith("/"));
  /** The directory right under a tracked one that holds `p`, or null when p's parent is tracked. */
  const untrackedTop = (p: string): string | null => {
    let top: string | null = null;
    for (let d = parentOf(p); !trackedDirs.has(d); d = parentOf(d)) top = d;
    return top;
  };

  if (onlyIgnored) {
    // -X: ignored files wherever they are (git looks inside untracked directories for them).
    units.push(...ignoredFiles);
    if (dirs) units.push(...ignoredDirs);
  } else {
    const tops = new Set<string>();
    for (const p of untracked) {
      const top = untrackedTop(p);
      if (top === null) units.push(p);
      else tops.add(top);
    }
    for (const p of [...ignoredFiles, ...ignoredDirs]) {
      const top = untrackedTop(p.replace(/\/$/, ""));
      if (top !== null) tops.add(top);
      else if (withIgnored && (!p.endsWith("/") || dirs)) units.push(p);
    }
    if (dirs) {
      // An untracked directory goes whole, unless it holds an ignored file that must stay.
      const emit = async (dir: string): Promise<void> => {
        if (await isNestedRepo(dir)) return;
        const inside = (p: string) => p.startsWith(dir + "/");
        if (withIgnored || !ignored.some(inside)) {
          units.push(dir + "/");
          return;
        }
        const subdirs = new Set<string>();
        for (const p of untracked.filter(inside)) {
          const rest = p.slice(dir.length + 1);
          if (!rest.includes("/")) units.push(p);
          else subdirs.add(dir + "/" + rest.slice(0, rest.indexOf("/")));
        }
        for (const s of [...subdirs].sort(compareStrings)) await emit(s);
      };
      for (const top of [...tops].sort(compareStrings)) await emit(top);
    }
  }

  // A directory the pathspec does not name whole gives up the files inside it that it does name.
  const candidates = onlyIgnored ? ignoredFiles : withIgnored ? [...untracked, ...ignoredFiles] : untracked;
  const picked = new Set<string>();
  for (const u of new Set(units)) {
    const p = u.replace(/\/$/, "");
    if (match(p)) picked.add(u);
    else if (u.endsWith("/") && specs.length > 0) for (const f of candidates) if (f.startsWith(p + "/") && match(f)) picked.add(f);
  }
  const chosen = [...picked].sort(compareStrings);
  let out = "";
  for (const u of chosen) {
    out += `${dry ? "Would remove" : "Removing"} ${cquote(ctx.work.display(u.replace(/\/$/, "")))}${u.endsWith("/") ? "/" : ""}\n`;
    if (!dry) await ctx.work.wsfs.remove(u.replace(/\/$/, ""), { origin: "git" });
  }
  ctx.work.invalidate();
  if (!a.has("-q")) ctx.io.out(out);
  return 0;
}
