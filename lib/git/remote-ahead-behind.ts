/**
 * How many commits a branch has that its upstream lacks, and the other way round — the figures of
 * "Your branch is ahead of 'origin/main' by 2 commits." isomorphic-git has no such call. The walk is
 * git's: newest commit first from both tips, each commit painted with the side(s) that reach it, and it
 * stops once every commit still queued is reached from both and older than any commit reached from one
 * side only (so nothing left can reach it and change a count).
 * A commit missing from a shallow history ends its line, as at git's shallow boundary.
 */
import git from "isomorphic-git";
import { getUpstream } from "./remote-config";
import { gitArgs, type GitRepo } from "./types";

export type AheadBehind = { ahead: number; behind: number };

const LOCAL = 1;
const UPSTREAM = 2;
const BOTH = LOCAL | UPSTREAM;

export async function aheadBehind(repo: GitRepo, local: string, upstream: string): Promise<AheadBehind> {
  if (local === upstream) return { ahead: 0, behind: 0 };
  const args = gitArgs(repo);
  const info = new Map<string, { time: number; parents: string[] } | null>();
  const read = async (oid: string) => {
    if (!info.has(oid)) {
      try {
        const { commit } = await git.readCommit({ ...args, oid });
        info.set(oid, { time: commit.committer.timestamp, parents: commit.parent });
      } catch {
        info.set(oid, null); // beyond a shallow boundary
      }
    }
    return info.get(oid)!;
  };
  const paint = new Map<string, number>();
  // Kept sorted oldest first, so the newest is popped from the end.
  const queue: { oid: string; time: number }[] = [];
  const push = async (oid: string, side: number) => {
    const before = paint.get(oid) ?? 0;
    if ((before | side) === before) return;
    const c = await read(oid);
    if (!c) return;
    paint.set(oid, before | side);
    let i = queue.length;
    while (i > 0 && queue[i - 1]!.time > c.time) i--;
    queue.splice(i, 0, { oid, time: c.time });
  };
  await push(local, LOCAL);
  await push(upstream, UPSTREAM);
  // Done when every queued commit is reached from both sides and is older than every commit reached
  // from one side only (commits made in the same second have no order by date).
  const done = () => {
    if (queue.some((q) => paint.get(q.oid) !== BOTH)) return false;
    let oldestSingle = Infinity;
    for (const [oid, side] of paint) if (side !== BOTH) oldestSingle = Math.min(oldestSingle, info.get(oid)!.time);
    return queue[queue.length - 1]!.time < oldestSingle;
  };
  while (queue.length > 0 && !done()) {
    const { oid } = queue.pop()!;
    const side = paint.get(oid)!;
    for (const parent of (await read(oid))?.parents ?? []) await push(parent, side);
  }
  let ahead = 0;
  let behind = 0;
  for (const side of paint.values()) {
    if (side === LOCAL) ahead++;
    else if (side === UPSTREAM) behind++;
  }
  return { ahead, behind };
}

export type Tracking = { upstream: string; ahead: number; behind: number; gone: boolean };

/**
 * What `git status` says about a branch and its upstream: null when it tracks nothing; `gone` when the
 * remote-tracking ref does not exist (never fetched, or pruned).
 */
export async function branchTracking(repo: GitRepo, branch: string): Promise<Tracking | null> {
  const upstream = await getUpstream(repo, branch);
  if (!upstream) return null;
  const args = gitArgs(repo);
  const theirs = await git.resolveRef({ ...args, ref: upstream.trackingRef }).catch(() => null);
  if (!theirs) return { upstream: upstream.short, ahead: 0, behind: 0, gone: true };
  const ours = await git.resolveRef({ ...args, ref: `refs/heads/${branch}` }).catch(() => null);
  if (!ours) return { upstream: upstream.short, ahead: 0, behind: 0, gone: false };
  return { upstream: upstream.short, ...(await aheadBehind(repo, ours, theirs)), gone: false };
}

/** git's sentence for it: "Your branch is up to date with 'origin/main'." and the ahead/behind/diverged forms. */
export function trackingSentence(t: Tracking): string {
  const u = `'${t.upstream}'`;
  const commits = (n: number) => `${n} commit${n === 1 ? "" : "s"}`;
  if (t.gone) return `Your branch is based on ${u}, but the upstream is gone.\n  (use "git branch --unset-upstream" to fixup)`;
  if (t.ahead === 0 && t.behind === 0) return `Your branch is up to date with ${u}.`;
  if (t.behind === 0) return `Your branch is ahead of ${u} by ${commits(t.ahead)}.\n  (use "git push" to publish your local commits)`;
  if (t.ahead === 0) return `Your branch is behind ${u} by ${commits(t.behind)}, and can be fast-forwarded.\n  (use "git pull" to update your local branch)`;
  return `Your branch and ${u} have diverged,\nand have ${t.ahead} and ${t.behind} different commits each, respectively.\n  (use "git pull" if you want to integrate the remote branch with yours)`;
}
