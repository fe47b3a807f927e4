/** `git config`: read and write the repository's configuration. */
import git from "isomorphic-git";
import type { GitContext } from "../context";
import { GitError, parseArgs } from "../util";
import { positionals } from "./forms";

export const name = "config";
export const effect = "git config changes the configuration";

const WRITE_OPTION =
  /^(--unset|--unset-all|--add|--replace-all|--rename-section|--remove-section|-e|--edit|--file|-f|--blob|set|unset|rename-section|remove-section|edit)(=|$)/;
const READ_OPTION = /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l)$/;

/**
 * `config k`, `--get`, `--list`, `get`/`list` read; `config k v`, `--unset`, `--add`, `set`…
 * write, and so (to be safe) does any form naming another config file (`-f`, `--blob`).
 */
export function writes(args: readonly string[]): boolean {
  if (args[0] === "get" || args[0] === "list") return false;
  if (args.some((a) => WRITE_OPTION.test(a))) return true;
  if (args.some((a) => READ_OPTION.test(a))) return false;
  return positionals(args).length > 1;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  const a = parseArgs(args, {
    bool: ["--global", "--local", "--system", "--get", "--get-all", "-l", "--list", "--unset", "--unset-all", "--add", "--bool", "--int", "--get-regexp", "--show-origin", "-z", "--replace-all"],
    value: ["-f", "--file", "--type", "--default"],
    alias: { "--list": "-l" },
    usage: "git config [<options>]",
  });
  const pos = a.positionals;
  if (a.has("-l")) {
    ctx.io.out(flattenConfig(await readConfigText(ctx)).map(([k, v]) => `${k}=${v}\n`).join(""));
    return 0;
  }
  if (a.has("--get-regexp")) {
    const re = new RegExp(pos[0] ?? ".", "i");
    const rows = flattenConfig(await readConfigText(ctx)).filter(([k]) => re.test(k));
    ctx.io.out(rows.map(([k, v]) => `${k} ${v}\n`).join(""));
    return rows.length > 0 ? 0 : 1;
  }
  if (pos.length === 0) throw new GitError(`usage: git config [<options>]\n`, 129);
  const key = pos[0]!;
  if (!/^[A-Za-z][\w-]*(\.[^\n]*)?\.[A-Za-z][\w-]*$/.test(key)) throw new GitError(`error: key does not contain a section: ${key}\n`, 2);
  if (a.has("--unset") || a.has("--unset-all")) {
    if ((await git.getConfig({ ...ctx.repo.iso, path: key })) === undefined) return 5;
    await git.setConfig({ ...ctx.repo.iso, path: key, value: undefined });
    return 0;
  }
  if (pos.length === 1 || a.has("--get") || a.has("--get-all")) {
    if (a.has("--get-all")) {
      const all = await git.getConfigAll({ ...ctx.repo.iso, path: key });
      if (all.length === 0) return 1;
      ctx.io.out(all.map((v) => `${v}\n`).join(""));
      return 0;
    }
    const v = await git.getConfig({ ...ctx.repo.iso, path: key });
    if (v === undefined || v === null) {
      if (a.get("--default") !== undefined) {
        ctx.io.out(a.get("--default") + "\n");
        return 0;
      }
      return 1;
    }
    ctx.io.out(`${v}\n`);
    return 0;
  }
  await git.setConfig({ ...ctx.repo.iso, path: key, value: pos.slice(1).join(" "), append: a.has("--add") });
  return 0;
}

async function readConfigText(ctx: GitContext): Promise<string> {
  try {
    return String(await ctx.repo.fs.promises.readFile(`${ctx.repo.gitdir}/config`, "utf8"));
  } catch {
    return "";
  }
}

function flattenConfig(text: string): [string, string][] {
  const out: [string, string][] = [];
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const sec = /^\[([^\s\]"]+)(?:\s+"(.*)")?\]$/.exec(line);
    if (sec) {
      section = sec[2] !== undefined ? `${sec[1]!.toLowerCase()}.${sec[2]}` : sec[1]!.toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][\w-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (kv) out.push([`${section}.${kv[1]!.toLowerCase()}`, (kv[2] ?? "true").replace(/^"(.*)"$/, "$1")]);
  }
  return out;
}
