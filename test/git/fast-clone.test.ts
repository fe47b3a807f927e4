import nodeFs from "node:fs";
import path from "node:path";
import git from "isomorphic-git";
import { afterEach, describe, expect, it } from "vitest";
import { startGitHttpServer } from "../../e2e/helpers/git-http-server";
import type { IsoFs } from "../../lib/fs/types";
import { credentialCallbacks, GitCredentialStore } from "../../lib/git/credentials";
import { fastClone, type FastCloneProgress } from "../../lib/git/fast-clone";
import { memoryStorage } from "../../lib/providers/settings";
import { native, nativeAsync, proxiedClient, tempDir, type ProxyCall } from "./remote-helpers";

const fsClient = nodeFs as unknown as IsoFs;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/**
 * A served repository with what a clone must carry: history, a second branch, an annotated and a
 * lightweight tag, nested directories, an executable, a symbolic link, an empty and a binary file.
 */
async function richServer(opts: Parameters<typeof startGitHttpServer>[1] = {}) {
  const server = await startGitHttpServer({ "README.md": "# project\n" }, opts);
  cleanups.push(() => server.close());
  const work = tempDir("tabula-clone-src-");
  cleanups.push(() => nodeFs.rmSync(work, { recursive: true, force: true }));
  native(work, "clone", "-q", server.bare, ".");
  for (let c = 0; c < 12; c++) {
    nodeFs.mkdirSync(path.join(work, "src/lib/deep"), { recursive: true });
    nodeFs.writeFileSync(path.join(work, "src/lib/deep/module.ts"), Array.from({ length: 80 }, (_, i) => `export const v${i} = ${i + c};\n`).join(""));
    nodeFs.writeFileSync(path.join(work, `src/file${c % 4}.txt`), `revision ${c}\n`.repeat(30));
    native(work, "add", "-A");
    native(work, "commit", "-qm", `change ${c}`);
    if (c === 4) native(work, "tag", "v0");
  }
  nodeFs.writeFileSync(path.join(work, "run.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
  nodeFs.symlinkSync("src/file0.txt", path.join(work, "link"));
  nodeFs.writeFileSync(path.join(work, "empty"), "");
  nodeFs.writeFileSync(path.join(work, "data.bin"), Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31) % 256)));
  native(work, "add", "-A");
  native(work, "commit", "-qm", "executable, link, empty and binary");
  native(work, "tag", "-a", "v1", "-m", "release one");
  native(work, "checkout", "-qb", "feature");
  nodeFs.writeFileSync(path.join(work, "feature.txt"), "only on feature\n");
  native(work, "add", "-A");
  native(work, "commit", "-qm", "feature work");
  native(work, "checkout", "-q", "main");
  native(work, "push", "-q", "origin", "main", "feature", "--tags");
  return server;
}

async function cloneInto(url: string, opts: Partial<Parameters<typeof fastClone>[0]> = {}, calls: ProxyCall[] = []) {
  const dir = tempDir("tabula-fast-clone-");
  cleanups.push(() => nodeFs.rmSync(dir, { recursive: true, force: true }));
  const result = await fastClone({ fs: fsClient, dir, http: proxiedClient(calls), url, ...opts });
  return { dir, result };
}

async function nativeCloneOf(url: string, ...args: string[]): Promise<string> {
  const dir = tempDir("tabula-native-clone-");
  cleanups.push(() => nodeFs.rmSync(dir, { recursive: true, force: true }));
  await nativeAsync(dir, "clone", "-q", ...args, url, ".");
  return dir;
}

/** The working tree as native git sees it: paths, modes, object names. */
const tree = (dir: string) => native(dir, "ls-files", "-s");
const refs = (dir: string) => native(dir, "for-each-ref", "--format=%(refname) %(objectname) %(symref)");
const config = (dir: string, key: string) => {
  try {
    return native(dir, "config", "--get-all", key).trim();
  } catch {
    return undefined;
  }
};

describe("fastClone against native git http-backend, through the app's proxy", () => {
  it("leaves what native git's clone leaves: refs, config, index, working tree; fsck clean and nothing to commit", async () => {
    const server = await richServer();
    const phases = new Set<string>();
    const { dir, result } = await cloneInto(server.url, { onProgress: (p: FastCloneProgress) => phases.add(p.phase) });
    const mine = dir;
    const theirs = await nativeCloneOf(server.url);
    expect(result).toMatchObject({ branch: "main", empty: false });
    expect(result.head).toBe(native(theirs, "rev-parse", "HEAD").trim());
    expect(native(mine, "fsck", "--full", "--strict")).toBe("");
    expect(native(mine, "status", "--porcelain", "-uall")).toBe("");
    expect(refs(mine)).toBe(refs(theirs));
    expect(native(mine, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
    for (const key of ["remote.origin.url", "remote.origin.fetch", "branch.main.remote", "branch.main.merge"]) expect(config(mine, key), key).toBe(config(theirs, key));
    expect(tree(mine)).toBe(tree(theirs));
    expect(nodeFs.readlinkSync(path.join(mine, "link"))).toBe("src/file0.txt");
    expect(nodeFs.statSync(path.join(mine, "run.sh")).mode & 0o111).not.toBe(0);
    expect(nodeFs.readFileSync(path.join(mine, "data.bin")).equals(nodeFs.readFileSync(path.join(theirs, "data.bin")))).toBe(true);
    expect(native(mine, "log", "--format=%H %s", "--all")).toBe(native(theirs, "log", "--format=%H %s", "--all"));
    // The index carries real stats: isomorphic-git (the app's status) sees every file unmodified.
    const matrix = await git.statusMatrix({ fs: fsClient, dir: mine });
    expect(matrix.filter(([, h, w, s]) => !(h === 1 && w === 1 && s === 1))).toEqual([]);
    expect(phases).toEqual(expect.objectContaining(new Set(["Receiving objects", "Indexing objects", "Resolving deltas", "Updating workdir"])));
  });

  it("--depth 1: one commit, the boundary in .git/shallow as native git records it, fsck clean", async () => {
    const server = await richServer();
    const { dir } = await cloneInto(server.url, { depth: 1 });
    const theirs = await nativeCloneOf(`file://${server.bare}`, "--depth", "1");
    expect(nodeFs.readFileSync(path.join(dir, ".git/shallow"), "utf8")).toBe(nodeFs.readFileSync(path.join(theirs, ".git/shallow"), "utf8"));
    expect(native(dir, "rev-list", "--count", "HEAD").trim()).toBe("1");
    expect(native(dir, "fsck", "--full")).toBe("");
    expect(native(dir, "status", "--porcelain")).toBe("");
    // Single branch, as native git's --depth implies.
    expect(native(dir, "branch", "-r")).toBe(native(theirs, "branch", "-r"));
    expect(native(dir, "branch", "-r")).not.toContain("feature");
    expect(config(dir, "remote.origin.fetch")).toBe("+refs/heads/main:refs/remotes/origin/main");
  });

  it("a branch or a tag by name: the branch is checked out; a tag leaves a detached HEAD on its commit", async () => {
    const server = await richServer();
    const { dir, result } = await cloneInto(server.url, { ref: "feature" });
    expect(result.branch).toBe("feature");
    expect(nodeFs.readFileSync(path.join(dir, "feature.txt"), "utf8")).toBe("only on feature\n");
    expect(config(dir, "branch.feature.merge")).toBe("refs/heads/feature");
    const tagged = await cloneInto(server.url, { ref: "v1" });
    expect(tagged.result.branch).toBeNull();
    expect(nodeFs.readFileSync(path.join(tagged.dir, ".git/HEAD"), "utf8").trim()).toBe(native(tagged.dir, "rev-parse", "v1^{commit}").trim());
    expect(nodeFs.existsSync(path.join(tagged.dir, "feature.txt"))).toBe(false);
    await expect(cloneInto(server.url, { ref: "no-such-branch" })).rejects.toThrow(/no-such-branch not found/);
  });

  it("an empty repository clones to an empty workspace with its remote set", async () => {
    const server = await startGitHttpServer({ x: "x" });
    cleanups.push(() => server.close());
    native(server.bare, "update-ref", "-d", "refs/heads/main");
    const { dir, result } = await cloneInto(server.url);
    expect(result).toMatchObject({ empty: true, head: null, files: [] });
    expect(config(dir, "remote.origin.url")).toBe(server.url);
  });

  it("a server that asks for credentials: asked once, then cloned; the token is in no proxied URL", async () => {
    const server = await richServer({ auth: { username: "ann", password: "s3cret-token" } });
    const store = new GitCredentialStore(memoryStorage());
    let asked = 0;
    const auth = credentialCallbacks(store, async () => {
      asked++;
      return { username: "ann", password: "s3cret-token", remember: true };
    });
    const calls: ProxyCall[] = [];
    const { dir } = await cloneInto(server.url, { auth }, calls);
    expect(asked).toBe(1);
    expect(native(dir, "fsck")).toBe("");
    expect(calls.some((c) => c.url.includes("s3cret"))).toBe(false);
    expect((await store.get(server.url))?.password).toBe("s3cret-token");
    // Refused credentials: asked again; when the user gives up, the clone says so.
    let tries = 0;
    const wrong = credentialCallbacks(new GitCredentialStore(memoryStorage()), async () => (tries++ === 0 ? { username: "ann", password: "wrong", remember: false } : null));
    await expect(cloneInto(server.url, { auth: wrong })).rejects.toMatchObject({ code: "UserCanceledError" });
    expect(tries).toBe(2);
  });
});
