/** `git remote [-v]`, `add`, `remove`, `rename`, `set-url [--push]`, `get-url [--push]`, `show`. */
import { addRemote, listRemotes, remoteUrl, removeRemote, renameRemote, setRemoteUrl } from "../../../git/remote-config";
import { fetchRemote } from "../../../git/remote-transfer";
import type { GitContext } from "../context";
import { fetchReport, transportOf } from "../transfer-report";
import { GitError } from "../util";

export const name = "remote";
export const effect = "git remote changes the configuration";

/** Listing (`remote`, `-v`), `get-url` and `show` read; everything else changes the configuration. */
export function writes(args: readonly string[]): boolean {
  return !(args.length === 0 || args.every((t) => t === "-v" || t === "--verbose") || args[0] === "get-url" || args[0] === "show");
}

const USAGE = `usage: git remote [-v | --verbose]
   or: git remote add [-f] <name> <url>
   or: git remote rename <old> <new>
   or: git remote remove <name>
   or: git remote set-url [--push] <name> <newurl>
   or: git remote get-url [--push] <name>
   or: git remote show <name>
`;

function usage(): never {
  throw new GitError(USAGE, 129);
}

/** lib/git's coded errors as git words them. */
async function gitErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const e = error as { code?: string; message: string };
    if (e.code === "NOT_FOUND" || e.code === "EXISTS" || e.code === "INVALID_NAME") throw new GitError(`error: ${e.message}\n`, e.code === "NOT_FOUND" ? 2 : 3);
    throw error;
  }
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const repo = ctx.repo.asGitRepo;
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "-v" || sub === "--verbose") {
    for (const r of await listRemotes(repo)) {
      if (sub === undefined) ctx.io.out(`${r.name}\n`);
      else ctx.io.out(`${r.name}\t${r.url} (fetch)\n${r.name}\t${r.pushUrl ?? r.url} (push)\n`);
    }
    return 0;
  }
  const push = rest.includes("--push");
  const pos = rest.filter((t) => t !== "--push" && t !== "-f" && t !== "--fetch");
  switch (sub) {
    case "add": {
      if (pos.length !== 2) usage();
      await gitErrors(() => addRemote(repo, pos[0]!, pos[1]!));
      if (rest.includes("-f") || rest.includes("--fetch")) {
        const result = await fetchRemote({ ...repo, journal: ctx.work.journal }, transportOf(ctx, "remote add -f"), { remote: pos[0]! });
        ctx.io.err(fetchReport(result.url, result.updates));
      }
      return 0;
    }
    case "remove":
    case "rm":
      if (pos.length !== 1) usage();
      await gitErrors(() => removeRemote(repo, pos[0]!));
      return 0;
    case "rename":
      if (pos.length !== 2) usage();
      await gitErrors(() => renameRemote(repo, pos[0]!, pos[1]!));
      return 0;
    case "set-url":
      if (pos.length !== 2) usage();
      await gitErrors(() => setRemoteUrl(repo, pos[0]!, pos[1]!, { push }));
      return 0;
    case "get-url": {
      if (pos.length !== 1) usage();
      const url = await remoteUrl(repo, pos[0]!, { push });
      if (!url) throw new GitError(`error: No such remote '${pos[0]}'\n`, 2);
      ctx.io.out(url + "\n");
      return 0;
    }
    case "show": {
      if (pos.length !== 1) usage();
      const url = await remoteUrl(repo, pos[0]!);
      if (!url) throw new GitError(`error: No such remote '${pos[0]}'\n`, 2);
      ctx.io.out(`* remote ${pos[0]}\n  Fetch URL: ${url}\n  Push  URL: ${(await remoteUrl(repo, pos[0]!, { push: true })) ?? url}\n`);
      return 0;
    }
    default:
      throw new GitError(`error: unknown subcommand: \`${sub}'\n${USAGE}`, 129);
  }
}
