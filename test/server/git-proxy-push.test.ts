import fs from "node:fs";
import path from "node:path";
import git from "isomorphic-git";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startGitHttpServer } from "../../e2e/helpers/git-http-server";
import { createGitProxy } from "../../lib/server/git-proxy";
import { parseAllowList } from "../../lib/server/git-proxy-address";
import { native, proxiedClient, tempDir, type ProxyCall } from "../git/remote-helpers";

/** Pushes through the proxy to native `git http-backend` (receive-pack enabled), checked with native git. */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function served(opts: Parameters<typeof startGitHttpServer>[1] = { receivePack: true }) {
  const server = await startGitHttpServer({ "a.txt": "one\n" }, opts);
  cleanups.push(server.close);
  return server;
}

function workdir(): string {
  const dir = tempDir();
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const author = { name: "Tab", email: "tab@example.com", timestamp: 1_700_000_000, timezoneOffset: 0 };

describe("git proxy: push endpoints against git http-backend", () => {
  it("carries a push from isomorphic-git to the server, and native git agrees", async () => {
    const server = await served();
    const dir = workdir();
    const calls: ProxyCall[] = [];
    const http = proxiedClient(calls);
    await git.clone({ fs, http, dir, url: server.url, singleBranch: true });
    fs.writeFileSync(path.join(dir, "b.txt"), "two\n");
    await git.add({ fs, dir, filepath: "b.txt" });
    const oid = await git.commit({ fs, dir, message: "add b", author });
    const result = await git.push({ fs, http, dir, remote: "origin", ref: "main" });
    expect(result.ok).toBe(true);
    expect(native(server.bare, "rev-parse", "main").trim()).toBe(oid);
    expect(native(server.bare, "show", "main:b.txt")).toBe("two\n");
    native(server.bare, "fsck", "--strict");
    expect(calls.map((c) => `${c.method} ${decodeURIComponent(c.url.split("url=")[1]!).replace(server.url, "")} ${c.status}`)).toEqual([
      "GET /info/refs?service=git-upload-pack 200",
      "POST /git-upload-pack 200",
      "GET /info/refs?service=git-receive-pack 200",
      "POST /git-receive-pack 200",
    ]);
  });

  it("refuses a push larger than the push limit before reaching the server", async () => {
    const server = await served();
    const dir = workdir();
    const proxy = createGitProxy({ allow: parseAllowList("127.0.0.1"), limits: { maxPushBytes: 2000 } });
    const http = proxiedClient([], proxy);
    await git.clone({ fs, http, dir, url: server.url, singleBranch: true });
    // Random bytes do not compress: the packfile is as large as the file.
    fs.writeFileSync(path.join(dir, "big.bin"), Buffer.from(Array.from({ length: 8000 }, () => Math.floor(Math.random() * 256))));
    await git.add({ fs, dir, filepath: "big.bin" });
    await git.commit({ fs, dir, message: "big", author });
    const before = server.log.length;
    await expect(git.push({ fs, http, dir, remote: "origin", ref: "main" })).rejects.toMatchObject({ code: "HttpError", data: { statusCode: 413 } });
    expect(server.log.slice(before).map((r) => r.method)).toEqual(["GET"]); // the advertisement only, never the pack
    expect(native(server.bare, "rev-parse", "main").trim()).not.toBe(await git.resolveRef({ fs, dir, ref: "main" }));
  });

  it("answers the server's 401 as 401 so the page can ask, passes credentials through, and logs none of it", async () => {
    const server = await served({ receivePack: true, auth: { username: "alice", password: "s3cret-token-123" } });
    const logged: string[] = [];
    for (const level of ["log", "info", "warn", "error", "debug"] as const)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    cleanups.push(() => void vi.restoreAllMocks());
    const dir = workdir();
    const calls: ProxyCall[] = [];
    const http = proxiedClient(calls);
    const asked: string[] = [];
    await expect(git.clone({ fs, http, dir, url: server.url })).rejects.toMatchObject({ code: "HttpError", data: { statusCode: 401 } });
    await git.clone({
      fs,
      http,
      dir,
      url: server.url,
      singleBranch: true,
      onAuth: (url) => {
        asked.push(url);
        return { username: "alice", password: "s3cret-token-123" };
      },
    });
    expect(asked).toEqual([server.url]);
    expect(fs.readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("one\n");
    expect(server.log.filter((r) => r.authorized).length).toBeGreaterThan(0);
    for (const text of [...logged, ...calls.map((c) => c.url), ...server.log.map((r) => r.url)]) {
      expect(text).not.toContain("s3cret-token-123");
      expect(text).not.toContain(Buffer.from("alice:s3cret-token-123").toString("base64"));
    }
  });
});
