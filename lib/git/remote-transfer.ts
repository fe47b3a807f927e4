/**
 * fetch, push and pull over isomorphic-git's smart-HTTP client (which the caller routes: through the
 * app's proxy in the browser, straight to a test server in Node), with native git's semantics where
 * isomorphic-git has none of its own: `--force-with-lease` (checked against the ref the server
 * advertises in the same exchange), `--tags`, `--delete`, `-u`, and a pull that fast-forwards the
 * working tree without touching a file the user changed. Results are data (which refs moved from
 * what to what), so the terminal can print them as git does and a view can show them.
 */
import git, { type HttpClient, type ProgressCallback } from "isomorphic-git";
import { codedError } from "../fs/types";
import type { AuthCallbacks } from "./credentials";
import { aheadBehind } from "./remote-ahead-behind";
import { getUpstream, remoteUrl, remoteTrackingRefs, setUpstream } from "./remote-config";
import { statusAll } from "./status";
import { changedPaths } from "./tree-changes";
import { assertWritableRepo, gitArgs, hasCode, type GitRepo } from "./types";

export const ZERO_OID = "0000000000000000000000000000000000000000";

/** How requests reach the server, and who answers when it wants credentials. */
export type Transport = {
  http: HttpClient;
  auth?: AuthCallbacks;
  onProgress?: ProgressCallback;
  /** The server's own messages ("remote: …"). */
  onMessage?: (line: string) => void;
  signal?: AbortSignal;
};

export type RefUpdateKind = "new" | "fast-forward" | "forced" | "deleted" | "up-to-date";
export type RefUpdate = { ref: string; from: string | null; to: string | null; kind: RefUpdateKind };

function transportArgs(t: Transport) {
  return {
    http: t.http,
    onProgress: t.onProgress,
    onMessage: t.onMessage,
    ...(t.auth ?? {}),
  };
}

async function resolveOrNull(repo: GitRepo, ref: string): Promise<string | null> {
  try {
    return await git.resolveRef({ ...gitArgs(repo), ref });
  } catch {
    return null;
  }
}

async function snapshot(repo: GitRepo, refs: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const ref of refs) {
    if (ref.endsWith("/HEAD")) continue;
    const oid = await resolveOrNull(repo, ref);
    if (oid) out.set(ref, oid);
  }
  return out;
}

async function classify(repo: GitRepo, from: string | null, to: string | null): Promise<RefUpdateKind> {
  if (from === to) return "up-to-date";
  if (from === null) return "new";
  if (to === null) return "deleted";
  const ff = await git.isDescendent({ ...gitArgs(repo), oid: to, ancestor: from, depth: -1 }).catch(() => false);
  return ff ? "fast-forward" : "forced";
}

async function tagRefs(repo: GitRepo): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const tag of await git.listTags(gitArgs(repo))) {
    const oid = await resolveOrNull(repo, `refs/tags/${tag}`);
    if (oid) out.set(`refs/tags/${tag}`, oid);
  }
  return out;
}

export type FetchOptions = {
  remote?: string;
  ref?: string;
  tags?: boolean;
  prune?: boolean;
  /** History to fetch from the tips (a shallow fetch). */
  depth?: number;
  /** `--deepen N`: N more commits past the current shallow boundary. */
  deepen?: number;
  /** `--unshallow`: the whole history, ending the shallow clone. */
  unshallow?: boolean;
};

/** git's "infinite" depth, what `--unshallow` asks the server for. */
const INFINITE_DEPTH = 0x7fffffff;
export type FetchResult = { remote: string; url: string; updates: RefUpdate[] };

/** `git fetch [<remote>] [--tags] [--prune]`: every branch of the remote, or only `ref`. */
export async function fetchRemote(repo: GitRepo, transport: Transport, opts: FetchOptions = {}): Promise<FetchResult> {
  assertWritableRepo(repo, "fetch");
  const remote = opts.remote ?? "origin";
  const url = await remoteUrl(repo, remote);
  if (!url) throw codedError("NOT_FOUND", `'${remote}' does not appear to be a git repository`);
  const beforeRefs = await snapshot(repo, await remoteTrackingRefs(repo, remote));
  const beforeTags = opts.tags ? await tagRefs(repo) : new Map<string, string>();
  await git.fetch({
    ...gitArgs(repo),
    ...transportArgs(transport),
    remote,
    url,
    ...(opts.ref ? { ref: opts.ref, singleBranch: true } : { singleBranch: false }),
    tags: opts.tags ?? false,
    prune: opts.prune ?? false,
    ...(opts.unshallow ? { depth: INFINITE_DEPTH } : opts.deepen ? { depth: opts.deepen, relative: true } : opts.depth ? { depth: opts.depth } : {}),
  });
  const afterRefs = await snapshot(repo, await remoteTrackingRefs(repo, remote));
  const updates: RefUpdate[] = [];
  for (const ref of [...new Set([...beforeRefs.keys(), ...afterRefs.keys()])].sort()) {
    const from = beforeRefs.get(ref) ?? null;
    const to = afterRefs.get(ref) ?? null;
    const kind = await classify(repo, from, to);
    if (kind !== "up-to-date") updates.push({ ref, from, to, kind });
  }
  if (opts.tags) {
    for (const [ref, to] of await tagRefs(repo)) if (beforeTags.get(ref) !== to) updates.push({ ref, from: beforeTags.get(ref) ?? null, to, kind: beforeTags.has(ref) ? "forced" : "new" });
  }
  return { remote, url, updates };
}

export type PushOptions = {
  remote?: string;
  /** The local branch (default: the current one). */
  branch?: string;
  /** Its name on the remote (default: its upstream's, else the same name). */
  remoteBranch?: string;
  force?: boolean;
  /** Overwrite the remote branch only if it is still where our remote-tracking ref says. */
  forceWithLease?: boolean;
  delete?: boolean;
  /** `-u`: the branch then tracks what it was pushed to. */
  setUpstream?: boolean;
  /** `--tags`: every local tag the remote lacks, instead of a branch. */
  tags?: boolean;
};
export type PushUpdate = { local: string | null; remoteRef: string; from: string | null; to: string | null; kind: RefUpdateKind };
export type PushResult = { remote: string; url: string; updates: PushUpdate[]; upstreamSet?: { branch: string; upstream: string } };

/** Why a push was refused, in native git's words: `[rejected] … (fetch first)` and its hint. */
export type PushRejection = "fetch-first" | "non-fast-forward" | "stale-info" | "tag-exists" | "server";

function rejected(reason: PushRejection, remoteRef: string, message: string, cause?: unknown) {
  return Object.assign(codedError("REJECTED", message, cause), { reason, remoteRef });
}

export async function pushToRemote(repo: GitRepo, transport: Transport, opts: PushOptions = {}): Promise<PushResult> {
  assertWritableRepo(repo, "push");
  const current = (await git.currentBranch({ ...gitArgs(repo), fullname: false }).catch(() => undefined)) ?? undefined;
  const branch = opts.branch ?? current;
  const upstream = branch ? await getUpstream(repo, branch) : null;
  const remote = opts.remote ?? upstream?.remote ?? "origin";
  const url = await remoteUrl(repo, remote, { push: true });
  if (!url) throw codedError("NOT_FOUND", `'${remote}' does not appear to be a git repository`);
  if (opts.tags) return pushTags(repo, transport, remote, url);
  if (!branch) throw codedError("DETACHED", "You are not currently on a branch.");
  const remoteBranch = (opts.remoteBranch ?? (upstream && upstream.remote === remote ? upstream.merge : branch)).replace(/^refs\/heads\//, "");
  const remoteRef = `refs/heads/${remoteBranch}`;
  const trackingRef = `refs/remotes/${remote}/${remoteBranch}`;
  const lease = opts.forceWithLease ? ((await resolveOrNull(repo, trackingRef)) ?? ZERO_OID) : null;
  const to = opts.delete ? null : await resolveOrNull(repo, `refs/heads/${branch}`);
  if (!opts.delete && !to) throw codedError("NOT_FOUND", `src refspec ${branch} does not match any`);

  let advertised: string | null = null;
  try {
    await git.push({
      ...gitArgs(repo),
      ...transportArgs(transport),
      remote,
      url,
      // A deletion needs no local branch: isomorphic-git takes a full object id as given.
      ref: opts.delete ? ZERO_OID : `refs/heads/${branch}`,
      remoteRef,
      force: !!(opts.force || opts.forceWithLease),
      delete: !!opts.delete,
      onPrePush: ({ remoteRef: theirs }) => {
        advertised = theirs.oid === ZERO_OID ? null : theirs.oid;
        return lease === null || theirs.oid === lease;
      },
    });
  } catch (error) {
    if (hasCode(error, "UserCanceledError") && lease !== null && advertised !== (lease === ZERO_OID ? null : lease))
      throw rejected("stale-info", remoteRef, `[rejected] ${branch} -> ${remoteBranch} (stale info): the remote branch moved since the last fetch.`, error);
    if (hasCode(error, "PushRejectedError")) {
      const reason = (error as { data?: { reason?: string } }).data?.reason;
      if (reason === "tag-exists") throw rejected("tag-exists", remoteRef, `[rejected] ${remoteBranch} (already exists)`, error);
      const known = advertised !== null && (await git.readCommit({ ...gitArgs(repo), oid: advertised }).then(() => true, () => false));
      throw rejected(
        known ? "non-fast-forward" : "fetch-first",
        remoteRef,
        `[rejected] ${branch} -> ${remoteBranch} (${known ? "non-fast-forward" : "fetch first"})`,
        error,
      );
    }
    if (hasCode(error, "GitPushError")) throw rejected("server", remoteRef, `[remote rejected] ${remoteBranch}: ${(error as Error).message.trim()}`, error);
    throw error;
  }
  const from = advertised as string | null;
  const kind: RefUpdateKind = opts.delete ? (from === null ? "up-to-date" : "deleted") : await classify(repo, from, to);
  const result: PushResult = { remote, url, updates: [{ local: opts.delete ? null : branch, remoteRef, from, to, kind }] };
  if (opts.setUpstream && !opts.delete) {
    await setUpstream(repo, branch, remote, remoteBranch);
    result.upstreamSet = { branch, upstream: `${remote}/${remoteBranch}` };
  }
  return result;
}

async function pushTags(repo: GitRepo, transport: Transport, remote: string, url: string): Promise<PushResult> {
  const theirs = new Map<string, string>();
  for (const r of await git.listServerRefs({ http: transport.http, ...(transport.auth ?? {}), url, forPush: true, protocolVersion: 1, prefix: "refs/tags/" }))
    theirs.set(r.ref, r.oid);
  const updates: PushUpdate[] = [];
  for (const [ref, oid] of await tagRefs(repo)) {
    // An annotated tag resolves to its tag object; the server advertises that same object.
    const local = await git.resolveRef({ ...gitArgs(repo), ref, depth: 2 }).catch(() => oid);
    if (theirs.get(ref) === local) continue;
    if (theirs.has(ref)) throw rejected("tag-exists", ref, `[rejected] ${ref.slice("refs/tags/".length)} -> ${ref.slice("refs/tags/".length)} (already exists)`);
    await git.push({ ...gitArgs(repo), ...transportArgs(transport), remote, url, ref, remoteRef: ref });
    updates.push({ local: ref, remoteRef: ref, from: null, to: local, kind: "new" });
  }
  return { remote, url, updates };
}

export type PullOptions = FetchOptions & { branch?: string; ffOnly?: boolean };
export type PullResult = {
  fetch: FetchResult;
  outcome: "up-to-date" | "fast-forward";
  from: string | null;
  to: string | null;
  /** Paths the fast-forward rewrote in the working tree. */
  changed: { path: string; deleted: boolean }[];
  upstream: string;
};

/**
 * `git pull [--ff-only]`: fetch the branch's upstream, then bring the branch up to it. A fast-forward
 * rewrites only the files that differ between the two commits, and refuses (nothing changed) when one
 * of them has local changes or an untracked file is in the way, as git does. Diverged histories would
 * need a merge, which is not built yet: that is said plainly and nothing is changed.
 */
export async function pullFromRemote(repo: GitRepo, transport: Transport, opts: PullOptions = {}): Promise<PullResult> {
  assertWritableRepo(repo, "pull");
  const branch = opts.branch ?? (await git.currentBranch({ ...gitArgs(repo), fullname: false }).catch(() => undefined));
  if (!branch) throw codedError("DETACHED", "You are not currently on a branch.");
  const upstream = await getUpstream(repo, branch);
  const remote = opts.remote ?? upstream?.remote;
  if (!remote || !upstream) throw codedError("NO_UPSTREAM", `There is no tracking information for the current branch.\nSet it with: git branch --set-upstream-to=origin/${branch} ${branch}`);
  const fetched = await fetchRemote(repo, transport, { ...opts, remote });
  const from = await resolveOrNull(repo, `refs/heads/${branch}`);
  const to = await resolveOrNull(repo, upstream.trackingRef);
  if (!to) throw codedError("NOT_FOUND", `Your configuration specifies to merge with the ref '${upstream.merge.replace(/^refs\/heads\//, "")}' from the remote, but no such ref was fetched.`);
  const base = { fetch: fetched, from, to, upstream: upstream.short };
  if (from === to || (from && (await git.isDescendent({ ...gitArgs(repo), oid: from, ancestor: to, depth: -1 })))) return { ...base, outcome: "up-to-date", changed: [] };
  if (from && !(await git.isDescendent({ ...gitArgs(repo), oid: to, ancestor: from, depth: -1 }))) {
    if (opts.ffOnly) throw codedError("NOT_FAST_FORWARD", "Not possible to fast-forward, aborting.");
    const { ahead, behind } = await aheadBehind(repo, from, to);
    throw codedError(
      "NEEDS_MERGE",
      `Your branch and '${upstream.short}' have diverged, and have ${ahead} and ${behind} different commits each. ` +
        `Pulling them together would need a merge, which is not possible here yet; nothing was changed.`,
    );
  }
  const changed = await fastForward(repo, branch, from, to);
  return { ...base, outcome: "fast-forward", changed };
}

async function fastForward(repo: GitRepo, branch: string, from: string | null, to: string) {
  const changed = await changedPaths(repo, from, to);
  const touched = new Set(changed.map((c) => c.path));
  const status = await statusAll(repo);
  const dirty = status.filter((e) => e.index !== "?" && touched.has(e.path)).map((e) => e.path);
  if (dirty.length > 0)
    throw codedError("DIRTY", `Your local changes to the following files would be overwritten by merge:\n\t${dirty.join("\n\t")}\nPlease commit your changes or stash them before you merge.`);
  const inTheWay = status.filter((e) => e.index === "?" && touched.has(e.path)).map((e) => e.path);
  if (inTheWay.length > 0)
    throw codedError("CONFLICT", `The following untracked working tree files would be overwritten by merge:\n\t${inTheWay.join("\n\t")}\nPlease move or remove them before you merge.`);
  await git.writeRef({ ...gitArgs(repo), ref: `refs/heads/${branch}`, value: to, force: true });
  if (changed.length > 0) {
    try {
      await git.checkout({ ...gitArgs(repo), ref: branch, filepaths: changed.map((c) => c.path), force: true });
    } catch (error) {
      if (from) await git.writeRef({ ...gitArgs(repo), ref: `refs/heads/${branch}`, value: from, force: true });
      throw error;
    }
  }
  for (const c of changed) repo.journal?.record({ kind: c.deleted ? "delete" : "write", path: c.path, origin: "git" });
  return changed.map(({ path, deleted }) => ({ path, deleted }));
}
