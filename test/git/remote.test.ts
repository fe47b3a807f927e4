import nodeFs from "node:fs";
import path from "node:path";
import git from "isomorphic-git";
import { afterEach, describe, expect, it } from "vitest";
import { startGitHttpServer } from "../../e2e/helpers/git-http-server";
import { ChangeJournal } from "../../lib/fs/journal";
import type { IsoFs } from "../../lib/fs/types";
import { credentialCallbacks, GitCredentialStore, type CredentialRequest } from "../../lib/git/credentials";
import { aheadBehind, branchTracking, trackingSentence } from "../../lib/git/remote-ahead-behind";
import { addRemote, getUpstream, listRemotes, removeRemote, renameRemote, setRemoteUrl } from "../../lib/git/remote-config";
import { fetchRemote, pullFromRemote, pushToRemote, type Transport } from "../../lib/git/remote-transfer";
import type { GitRepo } from "../../lib/git/types";
import { memoryStorage } from "../../lib/providers/settings";
import { native, nativeAsync, nativeClone, proxiedClient, tempDir, type ProxyCall } from "./remote-helpers";

/**
 * lib/git's remotes against native `git http-backend` through the app's proxy, with native git as
 * the oracle: what we push, native git sees (fsck clean); what native git pushes, we fetch and pull.
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(files: Record<string, string> = { "a.txt": "one\n", "src/b.txt": "bee\n" }, opts: Parameters<typeof startGitHttpServer>[1] = { receivePack: true }) {
  const server = await startGitHttpServer(files, opts);
  cleanups.push(server.close);
  const dir = tempDir();
  cleanups.push(() => nodeFs.rmSync(dir, { recursive: true, force: true }));
  const journal = new ChangeJournal();
  const repo: GitRepo = { fs: nodeFs as unknown as IsoFs, dir, cache: {}, journal };
  const calls: ProxyCall[] = [];
  const transport: Transport = { http: proxiedClient(calls) };
  return { server, dir, repo, journal, calls, transport };
}

async function cloneInto(s: Awaited<ReturnType<typeof setup>>, transport: Transport = s.transport) {
  await git.clone({ fs: nodeFs, dir: s.dir, http: transport.http, url: s.server.url, singleBranch: true, ...(transport.auth ?? {}) });
}

const author = { name: "Tab", email: "tab@example.com" };
async function commitFile(repo: GitRepo, file: string, content: string, message: string): Promise<string> {
  nodeFs.mkdirSync(path.dirname(path.join(repo.dir, file)), { recursive: true });
  nodeFs.writeFileSync(path.join(repo.dir, file), content);
  await git.add({ fs: nodeFs, dir: repo.dir, filepath: file });
  return git.commit({ fs: nodeFs, dir: repo.dir, message, author });
}

/** A commit made by native git in its own clone and pushed straight to the server. */
async function nativePush(url: string, file: string, content: string, message: string): Promise<string> {
  const other = await nativeClone(url);
  cleanups.push(() => nodeFs.rmSync(other, { recursive: true, force: true }));
  nodeFs.mkdirSync(path.dirname(path.join(other, file)), { recursive: true });
  nodeFs.writeFileSync(path.join(other, file), content);
  native(other, "add", file);
  native(other, "commit", "-qm", message);
  await nativeAsync(other, "push", "-q", "origin", "HEAD");
  return native(other, "rev-parse", "HEAD").trim();
}

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return "resolved";
}

describe("push, fetch and pull through the proxy", () => {
  it("pushes a commit native git then sees, fsck clean; the branch is then up to date with origin/main", async () => {
    const s = await setup();
    await cloneInto(s);
    expect(await getUpstream(s.repo, "main")).toMatchObject({ remote: "origin", merge: "refs/heads/main", short: "origin/main" });
    const oid = await commitFile(s.repo, "c.txt", "sea\n", "add c");
    expect(trackingSentence((await branchTracking(s.repo, "main"))!)).toBe(
      "Your branch is ahead of 'origin/main' by 1 commit.\n  (use \"git push\" to publish your local commits)",
    );
    const result = await pushToRemote(s.repo, s.transport);
    expect(result.updates).toEqual([{ local: "main", remoteRef: "refs/heads/main", from: expect.any(String), to: oid, kind: "fast-forward" }]);
    expect(native(s.server.bare, "log", "--format=%H %s", "main").trim().split("\n")[0]).toBe(`${oid} add c`);
    expect(native(s.server.bare, "show", "main:c.txt")).toBe("sea\n");
    native(s.server.bare, "fsck", "--strict", "--no-dangling");
    expect(trackingSentence((await branchTracking(s.repo, "main"))!)).toBe("Your branch is up to date with 'origin/main'.");
    // The proxy saw push requests, and only smart-HTTP ones.
    expect(s.calls.some((c) => c.url.includes(encodeURIComponent("git-receive-pack")))).toBe(true);
  });

  it("fetches and fast-forwards what native git pushed, keeping an unrelated local change", async () => {
    const s = await setup();
    await cloneInto(s);
    const theirs = await nativePush(s.server.url, "src/b.txt", "bee two\n", "native edit");
    nodeFs.writeFileSync(path.join(s.dir, "a.txt"), "one, edited here\n"); // not touched by the pull

    const fetched = await fetchRemote(s.repo, s.transport);
    expect(fetched.updates).toEqual([{ ref: "refs/remotes/origin/main", from: expect.any(String), to: theirs, kind: "fast-forward" }]);
    expect(trackingSentence((await branchTracking(s.repo, "main"))!)).toBe(
      "Your branch is behind 'origin/main' by 1 commit, and can be fast-forwarded.\n  (use \"git pull\" to update your local branch)",
    );
    const pulled = await pullFromRemote(s.repo, s.transport);
    expect(pulled).toMatchObject({ outcome: "fast-forward", to: theirs, changed: [{ path: "src/b.txt", deleted: false }] });
    expect(nodeFs.readFileSync(path.join(s.dir, "src/b.txt"), "utf8")).toBe("bee two\n");
    expect(nodeFs.readFileSync(path.join(s.dir, "a.txt"), "utf8")).toBe("one, edited here\n");
    // Native git reads our repository the same way: at their commit, with only our edit outstanding.
    expect(native(s.dir, "rev-parse", "HEAD").trim()).toBe(theirs);
    expect(native(s.dir, "status", "--porcelain")).toBe(" M a.txt\n");
    native(s.dir, "fsck", "--strict", "--no-dangling");
    expect(s.journal.since(0)!.map((e) => e.path)).toEqual(["src/b.txt"]);
    expect((await pullFromRemote(s.repo, s.transport)).outcome).toBe("up-to-date");
  });

  it("refuses a fast-forward over a local change to a file it would rewrite, changing nothing", async () => {
    const s = await setup();
    await cloneInto(s);
    const before = await git.resolveRef({ fs: nodeFs, dir: s.dir, ref: "HEAD" });
    await nativePush(s.server.url, "src/b.txt", "theirs\n", "native edit");
    nodeFs.writeFileSync(path.join(s.dir, "src/b.txt"), "mine\n");
    await expect(pullFromRemote(s.repo, s.transport)).rejects.toThrow(/local changes to the following files would be overwritten by merge:\n\tsrc\/b.txt/);
    expect(await git.resolveRef({ fs: nodeFs, dir: s.dir, ref: "HEAD" })).toBe(before);
    expect(nodeFs.readFileSync(path.join(s.dir, "src/b.txt"), "utf8")).toBe("mine\n");
  });

  it("says plainly that diverged histories would need a merge; --ff-only refuses as git does; push is rejected (fetch first)", async () => {
    const s = await setup();
    await cloneInto(s);
    const theirs = await nativePush(s.server.url, "x.txt", "x\n", "theirs");
    const ours = await commitFile(s.repo, "y.txt", "y\n", "ours");
    const push = pushToRemote(s.repo, s.transport);
    await expect(push).rejects.toMatchObject({ code: "REJECTED", reason: "fetch-first" });
    expect(native(s.server.bare, "rev-parse", "main").trim()).toBe(theirs);
    await expect(pullFromRemote(s.repo, s.transport, { ffOnly: true })).rejects.toThrow("Not possible to fast-forward, aborting.");
    await expect(pullFromRemote(s.repo, s.transport)).rejects.toThrow(/have diverged, and have 1 and 1 different commits each.*would need a merge.*nothing was changed/);
    expect(await git.resolveRef({ fs: nodeFs, dir: s.dir, ref: "HEAD" })).toBe(ours);
    // Having fetched, the remote commit is known: a plain push is now non-fast-forward.
    await expect(pushToRemote(s.repo, s.transport)).rejects.toMatchObject({ reason: "non-fast-forward" });
    expect(trackingSentence((await branchTracking(s.repo, "main"))!)).toMatch(/^Your branch and 'origin\/main' have diverged,\nand have 1 and 1 different commits each/);
  });

  it("--force-with-lease overwrites only what the last fetch saw", async () => {
    const s = await setup();
    await cloneInto(s);
    const ours = await commitFile(s.repo, "y.txt", "y\n", "ours");
    await nativePush(s.server.url, "x.txt", "x\n", "theirs"); // moves the remote after our last fetch
    await expect(pushToRemote(s.repo, s.transport, { forceWithLease: true })).rejects.toMatchObject({ code: "REJECTED", reason: "stale-info" });
    await fetchRemote(s.repo, s.transport);
    const r = await pushToRemote(s.repo, s.transport, { forceWithLease: true });
    expect(r.updates[0]).toMatchObject({ to: ours, kind: "forced" });
    expect(native(s.server.bare, "rev-parse", "main").trim()).toBe(ours);
    native(s.server.bare, "fsck", "--strict", "--no-dangling");
  });

  it("push -u sets the upstream of a new branch; --delete removes it; --tags sends the tags", async () => {
    const s = await setup();
    await cloneInto(s);
    await git.branch({ fs: nodeFs, dir: s.dir, ref: "feature", checkout: true });
    const f = await commitFile(s.repo, "f.txt", "f\n", "feature work");
    expect(await getUpstream(s.repo, "feature")).toBeNull();
    const r = await pushToRemote(s.repo, s.transport, { setUpstream: true });
    expect(r).toMatchObject({ updates: [{ local: "feature", remoteRef: "refs/heads/feature", from: null, to: f, kind: "new" }], upstreamSet: { branch: "feature", upstream: "origin/feature" } });
    expect(native(s.dir, "config", "branch.feature.remote").trim()).toBe("origin");
    expect(native(s.dir, "config", "branch.feature.merge").trim()).toBe("refs/heads/feature");
    expect(native(s.server.bare, "rev-parse", "feature").trim()).toBe(f);

    await git.tag({ fs: nodeFs, dir: s.dir, ref: "v1" });
    await git.annotatedTag({ fs: nodeFs, dir: s.dir, ref: "v2", message: "two", tagger: author });
    const tags = await pushToRemote(s.repo, s.transport, { tags: true });
    expect(tags.updates.map((u) => u.remoteRef)).toEqual(["refs/tags/v1", "refs/tags/v2"]);
    expect(native(s.server.bare, "rev-parse", "v1^{commit}").trim()).toBe(f);
    expect(native(s.server.bare, "cat-file", "-t", "v2").trim()).toBe("tag");
    expect((await pushToRemote(s.repo, s.transport, { tags: true })).updates).toEqual([]);

    await git.checkout({ fs: nodeFs, dir: s.dir, ref: "main" });
    const d = await pushToRemote(s.repo, s.transport, { branch: "feature", delete: true });
    expect(d.updates[0]).toMatchObject({ remoteRef: "refs/heads/feature", kind: "deleted", from: f });
    expect(native(s.server.bare, "branch", "--list", "feature")).toBe("");
    expect(native(s.dir, "for-each-ref", "--format=%(refname)", "refs/remotes/origin/feature")).toBe("");
    native(s.server.bare, "fsck", "--strict", "--no-dangling");
  });
});

describe("fetch --prune and --tags", () => {
  it("reports new and pruned remote branches and new tags as native git's remote refs are", async () => {
    const s = await setup();
    native(s.server.bare, "branch", "old");
    await cloneInto(s);
    await fetchRemote(s.repo, s.transport); // the clone took only main
    expect(native(s.dir, "for-each-ref", "--format=%(refname)", "refs/remotes/origin")).toContain("refs/remotes/origin/old");
    native(s.server.bare, "branch", "-D", "old");
    native(s.server.bare, "branch", "fresh");
    native(s.server.bare, "tag", "v9");
    const r = await fetchRemote(s.repo, s.transport, { prune: true, tags: true });
    expect(r.updates.map((u) => [u.ref, u.kind])).toEqual([
      ["refs/remotes/origin/fresh", "new"],
      ["refs/remotes/origin/old", "deleted"],
      ["refs/tags/v9", "new"],
    ]);
    const theirs = native(s.server.bare, "for-each-ref", "--format=%(objectname) %(refname:short)", "refs/heads").replace(/ /g, " origin/");
    expect(native(s.dir, "for-each-ref", "--format=%(objectname) %(refname:short)", "refs/remotes/origin").replace(/^.*origin\/HEAD\n/m, "")).toBe(theirs);
  });
});

describe("remote configuration, read back by native git", () => {
  it("add, set-url, rename and remove, with remote-tracking refs and upstreams following", async () => {
    const s = await setup();
    await cloneInto(s);
    await addRemote(s.repo, "backup", "https://example.com/b.git");
    await expect(addRemote(s.repo, "backup", "https://x")).rejects.toThrow("remote backup already exists.");
    await expect(addRemote(s.repo, "bad name", "https://x")).rejects.toMatchObject({ code: "INVALID_NAME" });
    await setRemoteUrl(s.repo, "backup", "https://example.com/c.git");
    await setRemoteUrl(s.repo, "backup", "https://example.com/push.git", { push: true });
    expect(native(s.dir, "remote", "-v")).toBe(
      [
        "backup\thttps://example.com/c.git (fetch)",
        "backup\thttps://example.com/push.git (push)",
        `origin\t${s.server.url} (fetch)`,
        `origin\t${s.server.url} (push)`,
        "",
      ].join("\n"),
    );
    expect((await listRemotes(s.repo)).map((r) => r.name)).toEqual(["backup", "origin"]);

    const head = native(s.dir, "rev-parse", "origin/main").trim();
    await renameRemote(s.repo, "origin", "upstream");
    expect(native(s.dir, "config", "remote.upstream.url").trim()).toBe(s.server.url);
    expect(native(s.dir, "config", "--get-all", "remote.upstream.fetch").trim()).toBe("+refs/heads/*:refs/remotes/upstream/*");
    expect(native(s.dir, "config", "branch.main.remote").trim()).toBe("upstream");
    expect(native(s.dir, "rev-parse", "upstream/main").trim()).toBe(head);
    expect(native(s.dir, "for-each-ref", "--format=%(refname)", "refs/remotes/origin")).toBe("");
    expect(trackingSentence((await branchTracking(s.repo, "main"))!)).toBe("Your branch is up to date with 'upstream/main'.");
    // Fetch still works under the new name.
    await nativePush(s.server.url, "n.txt", "n\n", "native");
    expect((await fetchRemote(s.repo, s.transport, { remote: "upstream" })).updates.map((u) => u.ref)).toEqual(["refs/remotes/upstream/main"]);

    await removeRemote(s.repo, "upstream");
    expect(native(s.dir, "remote")).toBe("backup\n");
    expect(native(s.dir, "for-each-ref", "--format=%(refname)", "refs/remotes")).toBe("");
    expect(() => native(s.dir, "config", "branch.main.remote")).toThrow();
    await expect(removeRemote(s.repo, "nope")).rejects.toThrow("No such remote: 'nope'");
    native(s.dir, "fsck", "--strict", "--no-dangling");
  });

  it("counts ahead and behind as git rev-list --left-right --count does", async () => {
    const s = await setup();
    await cloneInto(s);
    const base = await git.resolveRef({ fs: nodeFs, dir: s.dir, ref: "HEAD" });
    for (let i = 0; i < 3; i++) await commitFile(s.repo, `l${i}.txt`, `${i}\n`, `local ${i}`);
    const local = await git.resolveRef({ fs: nodeFs, dir: s.dir, ref: "HEAD" });
    native(s.dir, "checkout", "-q", "-b", "other", base);
    for (let i = 0; i < 5; i++) {
      nodeFs.writeFileSync(path.join(s.dir, `r${i}.txt`), `${i}\n`);
      native(s.dir, "add", "-A");
      native(s.dir, "commit", "-qm", `remote ${i}`);
      if (i === 2) native(s.dir, "merge", "-q", "--no-edit", local); // a merge makes the walk meet early
    }
    const other = native(s.dir, "rev-parse", "HEAD").trim();
    const [left, right] = native(s.dir, "rev-list", "--left-right", "--count", `${local}...${other}`).trim().split(/\s+/).map(Number);
    expect(await aheadBehind(s.repo, local, other)).toEqual({ ahead: left, behind: right });
    expect(await aheadBehind(s.repo, other, base)).toEqual({ ahead: Number(native(s.dir, "rev-list", "--count", `${base}..${other}`).trim()), behind: 0 });
  });
});

describe("credentials", () => {
  it("on a 401 asks once for the server, retries, keeps what worked and uses it next time without asking", async () => {
    const s = await setup({ "a.txt": "one\n" }, { receivePack: true, auth: { username: "alice", password: "tok-abcdef-123" } });
    const storage = memoryStorage();
    const store = new GitCredentialStore(storage);
    const asked: CredentialRequest[] = [];
    const answers = [{ username: "alice", password: "wrong-password" }, { username: "alice", password: "tok-abcdef-123" }];
    const prompt = async (r: CredentialRequest) => {
      asked.push(r);
      return answers.shift() ?? null;
    };
    await cloneInto(s, { ...s.transport, auth: credentialCallbacks(store, prompt) });
    const host = new URL(s.server.url).host;
    expect(asked).toEqual([
      { host, origin: `http://${host}`, rejected: false, username: undefined },
      { host, origin: `http://${host}`, rejected: true, username: "alice" },
    ]);
    expect(await store.get(s.server.url)).toEqual({ username: "alice", password: "tok-abcdef-123" });

    // The push finds the stored credentials: nobody is asked.
    await commitFile(s.repo, "c.txt", "c\n", "c");
    await pushToRemote(s.repo, { ...s.transport, auth: credentialCallbacks(store, prompt) });
    expect(asked).toHaveLength(2);
    expect(native(s.server.bare, "show", "main:c.txt")).toBe("c\n");

    // Credentials live only in their storage entry: not in the repository, not in a URL sent.
    const files = nodeFs.readdirSync(s.dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) expect(nodeFs.readFileSync(path.join(f.parentPath, f.name), "latin1"), f.name).not.toContain("tok-abcdef");
    for (const c of s.calls) expect(c.url).not.toContain("tok-abcdef");
    expect(await store.redact("fatal: tok-abcdef-123 refused")).toBe("fatal: [redacted] refused");
  });

  it("forgets stored credentials the server refuses and asks again; cancelling fails the operation", async () => {
    const s = await setup({ "a.txt": "one\n" }, { receivePack: true, auth: { username: "bob", password: "right-token-9" } });
    const store = new GitCredentialStore(memoryStorage());
    await store.set(s.server.url, { username: "bob", password: "stale-token-1" });
    const asked: boolean[] = [];
    await cloneInto(s, {
      ...s.transport,
      auth: credentialCallbacks(store, async (r) => {
        asked.push(r.rejected);
        return { username: "bob", password: "right-token-9", remember: false };
      }),
    });
    expect(asked).toEqual([true]);
    expect(await store.get(s.server.url)).toBeUndefined(); // refused, forgotten, and the new one not kept (remember: false)
    expect(await codeOf(fetchRemote(s.repo, { ...s.transport, auth: credentialCallbacks(store, async () => null) }))).toBe("UserCanceledError");
    expect(await codeOf(fetchRemote(s.repo, { ...s.transport, auth: credentialCallbacks(store) }))).toBe("UserCanceledError");
  });
});
