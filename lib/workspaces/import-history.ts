/**
 * Importing a folder or archive that is a git repository keeps it one: its `.git` (history,
 * branches, tags, remotes and their tracking) becomes the workspace's repository instead of a
 * fresh one with a single "Import" commit, and the files its .gitignore files ignore (the
 * node_modules of the world) stay out unless the user asks for them.
 *
 * What is not carried over, and why:
 * - `.git/hooks/`: scripts that never run here; a stranger's repository brings no code to run.
 * - lock files (`*.lock`): left by a git that was running or crashed; they would block writes.
 * - credentials in remote URLs (`https://user:token@host/…`): a token must not sit in a file the
 *   agent and plugins can read; the remote keeps its URL without them and the sign-in dialog
 *   asks when the server wants them.
 * - an index this git cannot read (index v3/v4, split index): rebuilt from HEAD, so staged
 *   changes show as unstaged ones; the files themselves are imported as they were.
 */
import { GitIndexManager } from "isomorphic-git/managers";
import { FileSystem } from "isomorphic-git/models";
import git from "isomorphic-git";
import type { IsoFs } from "../fs/types";
import { IgnoreRules } from "../git/ignore";
import { updateIndex, type IndexUpdate } from "../git/merge-index";
import type { ImportEntry } from "./import-entries";

export type GitImport = { entries: ImportEntry[]; notes: string[] };

const decoder = new TextDecoder();
const text = (d: Uint8Array | string) => (typeof d === "string" ? d : decoder.decode(d));

/**
 * The root `.git/` entries worth importing as a repository, or undefined with a note when they
 * do not make one (no HEAD, no objects). `gitEntries` have paths starting with ".git/".
 */
export function planGitImport(gitEntries: ImportEntry[]): { git?: GitImport; notes: string[] } {
  const notes: string[] = [];
  const byPath = new Map(gitEntries.map((e) => [e.path, e]));
  const head = byPath.get(".git/HEAD");
  const hasObjects = gitEntries.some((e) => e.path.startsWith(".git/objects/"));
  if (!head || !hasObjects) {
    notes.push("Its .git folder is incomplete (no HEAD or no objects): imported without its history, as a new repository.");
    return { notes };
  }
  const kept: ImportEntry[] = [];
  let hooks = 0;
  let locks = 0;
  for (const e of gitEntries) {
    if (e.path.startsWith(".git/hooks/")) {
      hooks++;
      continue;
    }
    if (e.path.endsWith(".lock")) {
      locks++;
      continue;
    }
    if (e.path === ".git/config") {
      const { config, stripped } = withoutUrlCredentials(text(e.data));
      if (stripped.length) notes.push(`Removed the credentials from the URL of remote${stripped.length === 1 ? "" : "s"} ${stripped.map((r) => `'${r}'`).join(", ")}: the sign-in dialog asks when the server wants them.`);
      kept.push({ ...e, data: config });
      continue;
    }
    kept.push(e);
  }
  if (hooks) notes.push(`Left out ${hooks} git hook${hooks === 1 ? "" : "s"} (.git/hooks): nothing from an imported repository runs here.`);
  if (locks) notes.push(`Left out ${locks} stale lock file${locks === 1 ? "" : "s"} (.git/*.lock).`);
  return { git: { entries: kept, notes: [] }, notes };
}

/** `url = scheme://user:secret@host/…` lines of a git config with the user info taken out. */
export function withoutUrlCredentials(config: string): { config: string; stripped: string[] } {
  const stripped: string[] = [];
  let section = "";
  const out = config.split("\n").map((line) => {
    const sec = /^\s*\[\s*remote\s+"([^"]*)"\s*\]/.exec(line);
    if (sec) section = sec[1]!;
    else if (/^\s*\[/.test(line)) section = "";
    const m = /^(\s*(?:push)?url\s*=\s*)([a-z][a-z0-9+.-]*:\/\/)([^/@\s]+)@(.*)$/i.exec(line);
    if (!m) return line;
    stripped.push(section || "(unnamed)");
    return `${m[1]}${m[2]}${m[4]}`;
  });
  return { config: out.join("\n"), stripped: [...new Set(stripped)] };
}

/** Write the `.git` entries as they are (raw: the workspace's fs refuses `.git` writes on purpose). */
export async function writeGitDir(fs: IsoFs, dir: string, entries: ImportEntry[]): Promise<void> {
  const made = new Set<string>();
  const mkdirp = async (abs: string) => {
    if (made.has(abs) || abs === "" || abs === "/") return;
    const parent = abs.slice(0, abs.lastIndexOf("/"));
    await mkdirp(parent);
    try {
      await fs.promises.mkdir(abs);
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") throw e;
    }
    made.add(abs);
  };
  const root = dir.endsWith("/") ? dir.slice(0, -1) : dir;
  // Folders and archives carry no empty directories, and git takes a .git without refs/ for no repository.
  for (const d of ["refs/heads", "refs/tags", "objects/pack", "objects/info"]) await mkdirp(`${root}/.git/${d}`);
  for (const e of entries) {
    const abs = `${root}/${e.path}`;
    await mkdirp(abs.slice(0, abs.lastIndexOf("/")));
    await fs.promises.writeFile(abs, typeof e.data === "string" ? e.data : e.data);
  }
}

/**
 * Check the imported repository is one this git can use (HEAD resolves to a commit, or names an
 * unborn branch) and that its index can be read; rebuild the index from HEAD when it cannot.
 * Returns notes for the user; throws when the repository is unusable.
 */
export async function settleImportedRepo(fs: IsoFs, dir: string): Promise<string[]> {
  const notes: string[] = [];
  const gitdir = `${dir.endsWith("/") ? dir.slice(0, -1) : dir}/.git`;
  let head: string | undefined;
  try {
    head = await git.resolveRef({ fs, dir, ref: "HEAD" });
    await git.readCommit({ fs, dir, oid: head });
  } catch (e) {
    const branch = await git.currentBranch({ fs, dir, fullname: false }).catch(() => undefined);
    const unborn = branch && !(await git.listBranches({ fs, dir }).catch(() => [] as string[])).includes(branch);
    if (!unborn) throw new Error(`The imported .git cannot be read (${(e as Error).message}).`);
    head = undefined;
  }
  let readable = true;
  try {
    await GitIndexManager.acquire({ fs: new FileSystem(fs), gitdir, cache: {} }, async () => undefined);
  } catch {
    readable = false;
  }
  if (!readable) {
    await fs.promises.unlink(`${gitdir}/index`).catch(() => undefined);
    if (head) {
      const updates: IndexUpdate[] = [];
      await git.walk({
        fs,
        dir,
        trees: [git.TREE({ ref: head })],
        map: async (path, [entry]) => {
          if (!entry || path === ".") return true;
          const type = await entry.type();
          if (type === "blob" || type === "commit") updates.push({ path, kind: "set", entry: { oid: await entry.oid(), mode: await entry.mode() } });
          return true;
        },
      });
      await updateIndex({ fs, gitdir }, updates);
    }
    notes.push("Its index (what was staged) could not be read by this git and was rebuilt from HEAD: staged changes show as changes.");
  }
  return notes;
}

/** Which entries the repository's .gitignore files and .git/info/exclude ignore (and a test for directories, for the summary). */
export async function ignoredEntries(entries: ImportEntry[], gitEntries: ImportEntry[]): Promise<{ ignored: Set<string>; isIgnoredDir: (dir: string) => boolean }> {
  const files = new Map<string, Uint8Array | string>();
  for (const e of entries) if (e.path === ".gitignore" || e.path.endsWith("/.gitignore")) files.set("/r/" + e.path, e.data);
  const exclude = gitEntries.find((e) => e.path === ".git/info/exclude");
  if (exclude) files.set("/r/.git/info/exclude", exclude.data);
  const ignored = new Set<string>();
  if (files.size === 0) return { ignored, isIgnoredDir: () => false };
  const missing = () => Object.assign(new Error("ENOENT"), { code: "ENOENT" });
  const memFs = {
    promises: {
      async readFile(p: string) {
        const d = files.get(p);
        if (d === undefined) throw missing();
        return typeof d === "string" ? new TextEncoder().encode(d) : d;
      },
      async lstat() {
        throw missing();
      },
      async stat() {
        throw missing();
      },
    },
  } as unknown as IsoFs;
  const rules = new IgnoreRules({ fs: memFs, dir: "/r" });
  for (const e of entries) {
    await rules.prepare(e.path);
    if (rules.test(e.path, false)) ignored.add(e.path);
  }
  return { ignored, isIgnoredDir: (d) => rules.test(d, true) };
}

/** "node_modules/ (1,204 files), dist/ (31 files), debug.log": the top-most ignored paths. */
export function summariseIgnored(paths: Iterable<string>, isIgnoredDir: (dir: string) => boolean): string {
  const groups = new Map<string, number>();
  for (const p of paths) {
    const parts = p.split("/");
    let key = p;
    for (let i = 1; i < parts.length; i++) {
      const d = parts.slice(0, i).join("/");
      if (isIgnoredDir(d)) {
        key = d + "/";
        break;
      }
    }
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const list = [...groups].sort((a, b) => b[1] - a[1]);
  const shown = list.slice(0, 4).map(([k, n]) => (k.endsWith("/") ? `${k} (${n.toLocaleString("en-US")} file${n === 1 ? "" : "s"})` : k));
  return shown.join(", ") + (list.length > 4 ? `, and ${list.length - 4} more` : "");
}
