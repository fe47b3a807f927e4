/**
 * Remotes and upstream tracking as git keeps them in `.git/config` (`[remote "origin"]` url/fetch,
 * `[branch "main"]` remote/merge) and under `refs/remotes/<remote>/`: `git remote` add, remove,
 * rename, set-url, -v, and the upstream of a branch. Native git's semantics: removing or renaming a
 * remote takes its remote-tracking branches and the branches that track it along.
 */
import git from "isomorphic-git";
import { codedError } from "../fs/types";
import { assertWritableRepo, gitArgs, gitdirOf, joinPath, type GitRepo } from "./types";

export type RemoteInfo = { name: string; url: string; pushUrl?: string };

/** `git remote -v`'s data, by name. */
export async function listRemotes(repo: GitRepo): Promise<RemoteInfo[]> {
  const remotes = await git.listRemotes(gitArgs(repo));
  const out: RemoteInfo[] = [];
  for (const { remote, url } of remotes) {
    const pushUrl = await configValue(repo, `remote.${remote}.pushurl`);
    out.push({ name: remote, url, ...(pushUrl ? { pushUrl } : {}) });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export async function remoteUrl(repo: GitRepo, name: string, { push = false } = {}): Promise<string | undefined> {
  return (push ? await configValue(repo, `remote.${name}.pushurl`) : undefined) ?? (await configValue(repo, `remote.${name}.url`));
}

/** Git's rule for remote names, roughly `git check-ref-format refs/remotes/<name>`. */
export function isValidRemoteName(name: string): boolean {
  return (
    name.length > 0 &&
    !name.startsWith("-") &&
    !name.startsWith(".") &&
    !name.endsWith(".") &&
    !name.endsWith(".lock") &&
    !name.includes("..") &&
    !name.includes("/") &&
    !/[\x00-\x20\x7f~^:?*[\\]/.test(name) &&
    !name.includes("@{")
  );
}

/** `git remote add <name> <url>`: errors "EXISTS", "INVALID_NAME". */
export async function addRemote(repo: GitRepo, name: string, url: string): Promise<void> {
  assertWritableRepo(repo, "add a remote");
  if (!isValidRemoteName(name)) throw codedError("INVALID_NAME", `'${name}' is not a valid remote name`);
  if (await remoteUrl(repo, name)) throw codedError("EXISTS", `remote ${name} already exists.`);
  await git.addRemote({ ...gitArgs(repo), remote: name, url });
}

async function requireRemote(repo: GitRepo, name: string): Promise<void> {
  if (!(await remoteUrl(repo, name))) throw codedError("NOT_FOUND", `No such remote: '${name}'`);
}

/** `git remote set-url [--push] <name> <url>`. */
export async function setRemoteUrl(repo: GitRepo, name: string, url: string, { push = false } = {}): Promise<void> {
  assertWritableRepo(repo, "change a remote");
  await requireRemote(repo, name);
  await git.setConfig({ ...gitArgs(repo), path: `remote.${name}.${push ? "pushurl" : "url"}`, value: url });
}

/** Full names of the remote-tracking refs of `name` (`refs/remotes/origin/main`, `…/HEAD`). */
export async function remoteTrackingRefs(repo: GitRepo, name: string): Promise<string[]> {
  const branches = await git.listBranches({ ...gitArgs(repo), remote: name }).catch(() => [] as string[]);
  return branches.map((b) => `refs/remotes/${name}/${b}`);
}

/** `git remote remove <name>`: the remote, its remote-tracking branches, and the upstream of branches tracking it. */
export async function removeRemote(repo: GitRepo, name: string): Promise<void> {
  assertWritableRepo(repo, "remove a remote");
  await requireRemote(repo, name);
  for (const ref of await remoteTrackingRefs(repo, name)) await git.deleteRef({ ...gitArgs(repo), ref });
  for (const branch of await git.listBranches(gitArgs(repo))) {
    if ((await configValue(repo, `branch.${branch}.remote`)) === name) {
      await git.setConfig({ ...gitArgs(repo), path: `branch.${branch}.remote`, value: undefined });
      await git.setConfig({ ...gitArgs(repo), path: `branch.${branch}.merge`, value: undefined });
    }
  }
  await git.deleteRemote({ ...gitArgs(repo), remote: name });
}

/**
 * `git remote rename <old> <new>`: the config section keeps every key (the header is renamed in place),
 * the default fetch refspec follows, remote-tracking refs move, and branches tracking it follow.
 */
export async function renameRemote(repo: GitRepo, from: string, to: string): Promise<void> {
  assertWritableRepo(repo, "rename a remote");
  await requireRemote(repo, from);
  if (!isValidRemoteName(to)) throw codedError("INVALID_NAME", `'${to}' is not a valid remote name`);
  if (await remoteUrl(repo, to)) throw codedError("EXISTS", `remote ${to} already exists.`);
  const configPath = joinPath(gitdirOf(repo), "config");
  const text = (await repo.fs.promises.readFile(configPath, { encoding: "utf8" })) as string;
  const header = new RegExp(`^(\\s*)\\[remote "${escapeRegExp(from)}"\\]`, "gm");
  await repo.fs.promises.writeFile(configPath, text.replace(header, `$1[remote "${to}"]`), { encoding: "utf8" });

  const refspecs = await git.getConfigAll({ ...gitArgs(repo), path: `remote.${to}.fetch` });
  if (refspecs.length > 0) {
    await git.setConfig({ ...gitArgs(repo), path: `remote.${to}.fetch`, value: undefined });
    for (const spec of refspecs)
      await git.setConfig({ ...gitArgs(repo), path: `remote.${to}.fetch`, value: String(spec).split(`refs/remotes/${from}/`).join(`refs/remotes/${to}/`), append: true });
  }
  for (const ref of await remoteTrackingRefs(repo, from)) {
    const moved = ref.replace(`refs/remotes/${from}/`, `refs/remotes/${to}/`);
    const target = await git.resolveRef({ ...gitArgs(repo), ref, depth: 1 });
    if (target.startsWith("refs/")) await git.writeRef({ ...gitArgs(repo), ref: moved, value: target.replace(`refs/remotes/${from}/`, `refs/remotes/${to}/`), symbolic: true, force: true });
    else await git.writeRef({ ...gitArgs(repo), ref: moved, value: target, force: true });
    await git.deleteRef({ ...gitArgs(repo), ref });
  }
  for (const branch of await git.listBranches(gitArgs(repo))) {
    if ((await configValue(repo, `branch.${branch}.remote`)) === from) await git.setConfig({ ...gitArgs(repo), path: `branch.${branch}.remote`, value: to });
  }
}

export type Upstream = {
  remote: string;
  /** The branch's name on the remote: `refs/heads/main`. */
  merge: string;
  /** The local copy of it: `refs/remotes/origin/main`. */
  trackingRef: string;
  /** As git shows it: `origin/main`. */
  short: string;
};

/** The upstream `branch` tracks (`branch.<name>.remote` / `.merge`), or null. */
export async function getUpstream(repo: GitRepo, branch: string): Promise<Upstream | null> {
  const remote = await configValue(repo, `branch.${branch}.remote`);
  const merge = await configValue(repo, `branch.${branch}.merge`);
  if (!remote || !merge || remote === ".") return null;
  const name = merge.replace(/^refs\/heads\//, "");
  return { remote, merge, trackingRef: `refs/remotes/${remote}/${name}`, short: `${remote}/${name}` };
}

/** `git branch --set-upstream-to` / `push -u`: `branch` tracks `remoteBranch` on `remote`. */
export async function setUpstream(repo: GitRepo, branch: string, remote: string, remoteBranch: string): Promise<void> {
  assertWritableRepo(repo, "set an upstream");
  await git.setConfig({ ...gitArgs(repo), path: `branch.${branch}.remote`, value: remote });
  await git.setConfig({ ...gitArgs(repo), path: `branch.${branch}.merge`, value: `refs/heads/${remoteBranch.replace(/^refs\/heads\//, "")}` });
}

async function configValue(repo: GitRepo, path: string): Promise<string | undefined> {
  const v = await git.getConfig({ ...gitArgs(repo), path }).catch(() => undefined);
  return v === undefined || v === null ? undefined : String(v);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
